"""Expensive test inputs (a whole example site, a rescore of the example) made once per test session
and shared by every pytest-xdist worker, instead of once per worker that needs them.

`conftest.py` points `ROOT` at a folder every worker of the session sees (the session's base temporary
folder, which pytest removes with its old runs). The first worker that asks for a name makes it under
an exclusive file lock; the others wait on the lock and then read what it made. A folder is only used
once its maker finished (a marker file written last), so a failed make is tried again by the next
caller, which then fails the same way with its own traceback. Outside pytest (the screenshot command)
`ROOT` is unset and each call makes a fresh temporary folder, as before.

What is shared is read only: a test that changes a site or a project works on its own copy.
"""

from __future__ import annotations

import fcntl
import functools
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT: Path | None = None
_DONE = ".made"


@functools.lru_cache(maxsize=None)
def once(name: str, make: Callable[[Path], object]) -> Path:
    """The folder `name`, filled by `make(folder)` once for the whole test session (every worker)."""
    if ROOT is None:
        folder = Path(tempfile.mkdtemp(prefix=f"tally-{name}-"))
        make(folder)
        return folder
    ROOT.mkdir(parents=True, exist_ok=True)
    folder = ROOT / name
    with open(ROOT / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (folder / _DONE).exists():
                shutil.rmtree(folder, ignore_errors=True)  # a maker that failed part way
                folder.mkdir()
                make(folder)
                (folder / _DONE).write_text("", encoding="utf-8")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return folder
