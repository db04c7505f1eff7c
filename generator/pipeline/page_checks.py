"""The page image files checked in full, kept between commands by each file's size, modification time,
change time and inode (the rule of file_digests.py), so that an unchanged page is not read, hashed and
decoded again on every build (issue 37).

A page file is recorded once it passed every check (inputs/page_images.py: a real file, its type, its
size, the SHA-256 the item gives, decoded whole), with its SHA-256 and its shown size. It is taken as
checked later only when its status is the one recorded, it had settled when recorded (file_digests'
rule: an edit whose modification time was put back still moves the change time), and the item gives
the same SHA-256; any other file is checked in full as without the record. Whether a file decodes, and
its shown size, depend on Tally's scoring sources (inputs/ among them) and on Pillow: the record is
kept under the hash of both, and a record under another hash is not read. The record is one build
cache entry per suite (under the cache's keyed hash: a record that is not the cache's own is ignored),
read when the first page is looked at and holding the pages this command looked at.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .cache import Cache, code_hash
from .file_digests import holds, stamp

KIND = "page-checks"


def record_key() -> str:
    """The hash of what a page's check depends on besides its bytes: Tally's scoring sources and Pillow."""
    from PIL import __version__ as pillow

    return hashlib.sha256(f"page-checks\0{code_hash('scoring')}\0{pillow}".encode()).hexdigest()


class PageChecks:
    """inputs.page_images.PageRecord kept in the build cache for one suite."""

    def __init__(self, cache: Cache, suite: str) -> None:
        self.cache, self.suite = cache, suite
        self.key: str | None = None  # read on first use: a suite with no pages never reads the record
        self.before: dict = {}
        self.now: dict[str, list] = {}  # path -> [size, mtime, ctime, inode, sha256, width, height, settled]

    def _read(self) -> None:
        if self.key is None:
            self.key = record_key()
            found = self.cache.read(KIND, self.suite, self.key, counted=False)
            self.before = found if isinstance(found, dict) else {}

    def known(self, path: Path, st: os.stat_result, sha256: str) -> tuple[int, int] | None:
        self._read()
        name = str(path)
        record = self.now.get(name) or self.before.get(name)
        if not (holds(record, st, 8) and record[4] == sha256 and type(record[5]) is int
                and type(record[6]) is int):
            return None
        self.now[name] = record
        return record[5], record[6]

    def checked(self, path: Path, st: os.stat_result, sha256: str, shown: tuple[int, int]) -> None:
        self._read()
        now = stamp(st)
        self.now[str(path)] = now[:4] + [sha256, *shown, now[4]]

    def keep(self) -> None:
        """Record the pages looked at by this command (the record of other files is dropped)."""
        if self.key is not None and self.now != self.before:
            self.cache.write(KIND, self.suite, self.key, dict(sorted(self.now.items())), counted=False)
            self.cache.prune(KIND, self.suite, {self.key})
