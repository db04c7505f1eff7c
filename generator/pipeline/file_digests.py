"""Stored files' SHA-256, kept between commands by each file's size, modification time, change time and
inode, so that a run whose stored files did not change is not read again to find its build cache key
(issue 37: cached runs not re-read).

A file is hashed again when any of the four differ from the record, or when it had changed less than
two seconds before it was last looked at (two writes within one tick of the file system's clock would
otherwise look alike). The change time can't be set back by hand, so an edit whose modification time
was restored is still seen; this is the rule the site build's up-to-date check uses
(render/up_to_date.py). The record is one build cache entry per suite (under the cache's keyed hash,
like every entry), holding the files this command looked at; it is kept once the suite is scored.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TypeGuard

from .cache import Cache
from .file_status import signature, status, taken_at

KIND = "file-digests"
SETTLED_NS = 2_000_000_000  # a file changed this recently before it was looked at is hashed again next time


def stamp(st: os.stat_result, looked: int | None = None) -> list:
    """[size, mtime, ctime, inode, settled]: the file's signature, and whether it had settled (last changed
    at least SETTLED_NS before `looked`, by default when `st` was taken: file_status.taken_at): only a
    settled record is trusted later. A change made while the file was read after `st` was taken, in the
    tick of `st`, leaves the same signature: judged at the time of `st`, the record is not trusted."""
    at = taken_at(st) if looked is None else looked
    return [*signature(st), max(st.st_mtime_ns, st.st_ctime_ns) < at - SETTLED_NS]


def holds(record: object, st: os.stat_result, size: int) -> TypeGuard[list]:
    """Whether a record (`size` values, the signature first and whether it had settled last) still
    describes the file of `st`: the same signature, and settled when it was recorded."""
    return (isinstance(record, list) and len(record) == size and tuple(record[:4]) == signature(st)
            and record[-1] is True)


class FileDigests:
    """The SHA-256 of files of one suite's runs, from the record when a file's signature is the one
    recorded (and it had settled), else from its bytes."""

    def __init__(self, cache: Cache | None, suite: str) -> None:
        self.cache, self.suite = cache, suite
        found = cache.read(KIND, suite, "index", counted=False) if cache is not None else None
        self.before: dict = found if isinstance(found, dict) else {}
        self.now: dict[str, list] = {}  # path -> [size, mtime, ctime, inode, sha256, settled], this command's

    def known(self, path: Path, st: os.stat_result) -> str | None:
        """The file's recorded SHA-256 when `st` (taken now) is the recorded signature and the file had
        settled when recorded; None otherwise (to be read)."""
        record = self.before.get(str(path))
        if not (holds(record, st, 6) and isinstance(record[4], str)):
            return None
        self._record(path, st, record[4])
        return record[4]

    def of_bytes(self, path: Path, st: os.stat_result, data: bytes) -> str:
        """The SHA-256 of `data`, the file's bytes read after `st` was taken (recorded with `st`: a file
        changed between the two has another signature next time, and is read again)."""
        sha = hashlib.sha256(data).hexdigest()
        self._record(path, st, sha)
        return sha

    def of(self, path: Path) -> str:
        """The file's SHA-256: recorded, or read now."""
        st = status(path)
        known = self.known(path, st)
        return known if known is not None else self.of_bytes(path, st, path.read_bytes())

    def _record(self, path: Path, st: os.stat_result, sha: str) -> None:
        now = stamp(st)
        self.now[str(path)] = now[:4] + [sha, now[4]]

    def keep(self) -> None:
        """Record the files looked at by this command (the record of the suite's other files is dropped)."""
        if self.cache is not None and self.now != self.before:
            self.cache.write(KIND, self.suite, "index", dict(sorted(self.now.items())), counted=False)
