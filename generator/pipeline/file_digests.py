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
from collections.abc import Callable
from pathlib import Path
from typing import TypeGuard

from .cache import Cache
from .file_status import signature, status, taken_at

KIND = "file-digests"
SETTLED_NS = 2_000_000_000  # a file changed this recently before it was looked at is hashed again next time


def stamp(st: os.stat_result) -> list:
    """[size, mtime, ctime, inode, settled]: the file's signature, and whether it had settled (last changed
    at least SETTLED_NS before `st` was taken: file_status.taken_at): only a settled record is trusted
    later. A change made while the file was read after `st` was taken, in the tick of `st`, leaves the
    same signature: judged at the time of `st`, the record is not trusted."""
    return [*signature(st), max(st.st_mtime_ns, st.st_ctime_ns) < taken_at(st) - SETTLED_NS]


def holds(record: object, st: os.stat_result, size: int) -> TypeGuard[list]:
    """Whether a record (`size` values, the signature first and whether it had settled last) still
    describes the file of `st`: the same signature, and settled when it was recorded."""
    return (isinstance(record, list) and len(record) == size and tuple(record[:4]) == signature(st)
            and record[-1] is True)


class FileRecord:
    """Findings about files kept in one build cache entry (`kind`/`group`/`key`, signed like every entry)
    with each file's signature: a finding is taken from it while the file's status is the one recorded
    and the file had settled then (`holds`). The entry is read when first needed; `keep` writes what this
    command looked at (the record of other files is dropped) and prunes the group's other entries. Used
    for the stored files' digests (below), page images' checks (page_checks.py) and results files' sealed
    hashes and private-key searches (commit/sealed_memo.py)."""

    def __init__(self, cache: Cache | None, kind: str, group: str, key: Callable[[], str]) -> None:
        self.cache, self.kind, self.group, self._key = cache, kind, group, key
        self.key = ""  # the entry's name, found when the record is first read
        self._before: dict | None = None
        self.now: dict[str, list] = {}  # path -> [size, mtime, ctime, inode, *findings, settled]

    @property
    def before(self) -> dict:
        """The last command's record (read now if not yet)."""
        if self._before is None:
            self.key = self._key()
            found = self.cache.read(self.kind, self.group, self.key, counted=False) if self.cache else None
            self._before = found if isinstance(found, dict) else {}
        return self._before

    def recorded(self, path: Path, st: os.stat_result, size: int, valid: Callable[[list], bool]) -> list | None:
        """The file's record (`size` values) when it still describes the file of `st` and `valid` accepts
        its findings (kept for this command's record); None otherwise."""
        name = str(path)
        for record in (self.now.get(name), self.before.get(name)):
            if holds(record, st, size) and valid(record):
                self.now[name] = record
                return record
        return None

    def record(self, path: Path, st: os.stat_result, findings: list) -> None:
        """Record the file of `st` (taken before it was read) with its findings."""
        now = stamp(st)
        self.now[str(path)] = now[:4] + findings + [now[4]]

    def keep(self) -> None:
        if self.cache is not None and self._before is not None and self.now != self._before:
            self.cache.write(self.kind, self.group, self.key, dict(sorted(self.now.items())), counted=False)
            self.cache.prune(self.kind, self.group, {self.key})


class FileDigests(FileRecord):
    """The SHA-256 of files of one suite's runs, from the record when a file's signature is the one
    recorded (and it had settled), else from its bytes."""

    def __init__(self, cache: Cache | None, suite: str) -> None:
        super().__init__(cache, KIND, suite, lambda: "index")
        self.before  # noqa: B018  (read now: the record as the command found it)

    def known(self, path: Path, st: os.stat_result) -> str | None:
        """The file's recorded SHA-256 when `st` (taken now) is the recorded signature and the file had
        settled when recorded; None otherwise (to be read)."""
        record = self.recorded(path, st, 6, lambda r: isinstance(r[4], str))
        return None if record is None else record[4]

    def of_bytes(self, path: Path, st: os.stat_result, data: bytes) -> str:
        """The SHA-256 of `data`, the file's bytes read after `st` was taken (recorded with `st`: a file
        changed between the two has another signature next time, and is read again)."""
        sha = hashlib.sha256(data).hexdigest()
        self.record(path, st, [sha])
        return sha

    def of(self, path: Path) -> str:
        """The file's SHA-256: recorded, or read now."""
        st = status(path)
        known = self.known(path, st)
        return known if known is not None else self.of_bytes(path, st, path.read_bytes())
