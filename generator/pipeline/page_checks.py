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
from .file_digests import FileRecord

KIND = "page-checks"


def record_key() -> str:
    """The hash of what a page's check depends on besides its bytes: Tally's scoring sources and Pillow."""
    from PIL import __version__ as pillow

    return hashlib.sha256(f"page-checks\0{code_hash('scoring')}\0{pillow}".encode()).hexdigest()


class PageChecks(FileRecord):
    """inputs.page_images.PageRecord kept in the build cache for one suite (read on first use: a suite with
    no pages never reads the record)."""

    def __init__(self, cache: Cache, suite: str) -> None:
        super().__init__(cache, KIND, suite, record_key)

    def known(self, path: Path, st: os.stat_result, sha256: str) -> tuple[int, int] | None:
        record = self.recorded(path, st, 8, lambda r: r[4] == sha256 and type(r[5]) is int and type(r[6]) is int)
        return None if record is None else (record[5], record[6])

    def checked(self, path: Path, st: os.stat_result, sha256: str, shown: tuple[int, int]) -> None:
        self.record(path, st, [sha256, *shown])
