"""Pools of forked processes that never leave the build waiting for a task that will not finish.

A `multiprocessing.Pool` whose worker dies (killed, out of memory, or ended by a plugin) replaces the
worker and loses its task, and one whose task raised an exception that can't be sent back loses its
result thread: either way a caller waiting for the result waits forever. A `ProcessPoolExecutor` says
so instead (BrokenProcessPool), and the caller then does the work itself or stops with a clear error.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")


def fork_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of `processes` forked processes, forked by the first submit (so what they are to inherit must
    be in place by then). They ignore Ctrl-C: the command's own process hears it and ends them (`stop`),
    so an interrupted command says so once, not once more from each process."""
    return ProcessPoolExecutor(processes, mp_context=mp.get_context("fork"), initializer=_deaf)


def _deaf() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def submitted(pool: ProcessPoolExecutor, fn: Callable[..., T], *args: Any) -> Future | None:
    """`pool.submit(fn, *args)`, or None when the pool is broken (a process died)."""
    try:
        return pool.submit(fn, *args)
    except BrokenProcessPool:
        return None


def result_or(future: Future | None, here: Callable[[], T]) -> T:
    """The task's result (its exception raised here, as sent back), or `here()` when the pool could not
    deliver it (broken: a process died, or the exception could not be sent back)."""
    if future is not None:
        try:
            return future.result()
        except BrokenProcessPool:
            pass
    return here()


def stop(pool: ProcessPoolExecutor) -> None:
    """End a pool at once: its processes ended (a task still running is not waited for; the executor
    offers no terminate, so they are ended by their handles), its waiting tasks cancelled, and its
    manager thread, which reaps the processes, waited for."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
