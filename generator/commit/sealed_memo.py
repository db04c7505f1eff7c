"""The sealed records' hashes of results files, and whether a file holds a private key, remembered
between site builds by each file's signature.

Every site build checks the commitments (commit/verify.py), which list each results file's sealed
records: their `record_sha256` and their lines' SHA-256. Finding them reads every stored file of every
run and looks for a sealed record's mark in it (about 1 s for 648 MB of results), though a file that did
not change holds the same records. During a site build (`remembered(cache)`), a file's hashes are kept
in the build cache (signed like every entry) with the file's size, modification and change times and
inode, and taken from there while all four are unchanged and the file had settled when its status was
taken (pipeline/file_status.py): a file_digests.FileRecord, as the record of stored files is. A changed
file, a record that does not hold, or any other command (`tally verify` reads every file) reads the file.
What a file is found to hold depends on the code that reads it as well (commit/, and sealing.py and the
stored files' inflation among the scoring sources): the record is kept under the hash of both, and a
record under another hash is not read. The site build's refusal to publish when a file under content/
or results/ holds a private key (commit/publish.py) searches each file the same way: an unchanged file
found clean is not searched again.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path

from ..pipeline.cache import Cache, code_hash
from ..pipeline.file_digests import FileRecord
from ..pipeline.file_status import status

KIND = "sealed-hashes"
GROUP = "results"  # one record for every file a build looks at (results/ and, searched for keys, content/)

_ACTIVE: ContextVar[Memo | None] = ContextVar("sealed_memo", default=None)


def record_key() -> str:
    """The hash of what a file's remembered hashes and search depend on besides its bytes: the code."""
    return hashlib.sha256(f"{KIND}\0{code_hash('commit')}\0{code_hash('scoring')}".encode()).hexdigest()


class Memo(FileRecord):
    """The record of one build: each file's findings by form (its sealed records' hashes, its lines' hashes,
    whether it holds a private key), with the signature they were found under."""

    def __init__(self, cache: Cache) -> None:
        super().__init__(cache, KIND, GROUP, record_key)

    def hashes(self, path: Path, form: str, read: Callable[[Path], list[str]]) -> list[str]:
        """The file's hashes of `form`: recorded, or `read(path)` now."""
        st = status(path)  # whether the file had settled is judged at the time this was taken
        held = self.recorded(path, st, 6, lambda r: isinstance(r[4], dict))
        forms = held[4] if held is not None else {}
        if isinstance(forms.get(form), list):
            return list(forms[form])
        value = read(path)  # a file changed meanwhile has another signature next time (or, in the tick of
        self.record(path, st, [forms | {form: list(value)}])  # `st`, was taken as not settled)
        return value


@contextlib.contextmanager
def remembered(cache: Cache | None) -> Iterator[None]:
    """Within it, sealed hashes come from the build cache's record where it holds (nothing without a cache).
    Within another `remembered`, the outer one's record is used (and kept when it ends)."""
    if cache is None or _ACTIVE.get() is not None:
        yield
        return
    memo = Memo(cache)
    token = _ACTIVE.set(memo)
    try:
        yield
        memo.keep()
    finally:
        _ACTIVE.reset(token)


def hashes(path: Path, form: str, read: Callable[[Path], list[str]]) -> list[str]:
    """`read(path)`, or the record of it within `remembered`."""
    memo = _ACTIVE.get()
    return read(path) if memo is None else memo.hashes(path, form, read)
