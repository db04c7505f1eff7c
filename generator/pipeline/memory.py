"""Memory between the stages of a long build: the peak so far, and giving freed memory back to the system.

CPython frees a stage's many small objects into the C allocator's heap, which glibc keeps for later
reuse; a later stage's large arrays (numpy allocates them with mmap) do not reuse it, so the process's
resident memory would be the sum of both. `malloc_trim(0)` hands the free heap pages back. Nothing
happens on another C library (musl, macOS), where the call does not exist.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import platform
import resource


@functools.cache
def _trim():
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def release_freed() -> None:
    """Return the C heap's free pages to the system (glibc only; a no-op elsewhere)."""
    trim = _trim()
    if trim is not None:
        trim(0)


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
