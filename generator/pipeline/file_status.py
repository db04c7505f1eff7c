"""Files' status (size, modification time, change time, inode) taken with the time it was taken.

The records that let a command skip an unchanged file (file_digests.py, page_checks.py, the sealed
hashes' record, the artifacts checked whole) trust a file only if it had settled, last changed at least
two seconds before it was looked at: two writes within one tick of the file system's clock leave the
same status. "Looked at" is when its status was taken, not when the record is made after reading the
file: a file changed during a long read, in the tick of its status, would otherwise be recorded as
settled with a status that no longer describes its bytes (on file systems whose clock ticks once a
second or two). `status` and `noted` remember when each status was first taken; `taken_at` tells it.
"""

from __future__ import annotations

import os
import time

Signature = tuple[int, int, int, int]  # size, modification time (ns), change time (ns), inode

_TAKEN: dict[tuple[int, Signature], int] = {}  # (device, signature) -> the time before it was first taken


def signature(st: os.stat_result) -> Signature:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def status(path: str | os.PathLike[str], follow_symlinks: bool = True) -> os.stat_result:
    """os.stat of the path (of a symbolic link itself with follow_symlinks false), its time remembered."""
    looked = time.time_ns()
    return noted(os.stat(path, follow_symlinks=follow_symlinks), looked)


def noted(st: os.stat_result, looked: int) -> os.stat_result:
    """Remember that `st` was taken no earlier than `looked` (time.time_ns() read before taking it)."""
    _TAKEN.setdefault((st.st_dev, signature(st)), looked)
    return st


def taken_at(st: os.stat_result) -> int:
    """When a status with this signature was first taken (by `status` or `noted`); now if never."""
    return _TAKEN.get((st.st_dev, signature(st)), time.time_ns())
