"""Scoring a suite's runs (rescore.py) one after the other, or on several processes, a run each.

Worker processes are forked: they inherit the plugin, the items and `then`; only a run's bytes travel
to them, and only its results, errors and warnings travel back (both through files: see `score_runs`).
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path

from .errors import ErrorLog
from .rescore import RunScore, Scoring, score_run
from .results import Run

_WORKER: dict = {}


def _score_in_worker(task: tuple[Run, Path]) -> Path:
    """Score the run whose bytes are in the task's file; its results, errors and warnings are left in a
    file next to it, whose path is returned."""
    run, path = task
    data = path.read_bytes()
    path.unlink()
    s: Scoring = _WORKER["scoring"]
    log = ErrorLog(s.log.root)
    scoring = Scoring(s.suite, s.items, log, s.public_dir)
    scoring.memo = s.memo  # this worker's copy, kept from run to run
    result = score_run(run, data, scoring)
    if _WORKER["then"] is not None:
        _WORKER["then"](result)
    out = path.with_name(f"{path.name}.scored")
    out.write_bytes(pickle.dumps((result, log.errors, log.warnings), pickle.HIGHEST_PROTOCOL))
    return out


def score_runs(runs: Iterable[tuple[Run, bytes]], s: Scoring, jobs: int,
               then: Callable[[RunScore], None] | None = None) -> Iterator[RunScore]:
    """Score each (run, its stored bytes) in order, on `jobs` processes when asked; the bytes are taken
    from `runs` only as scoring needs them (a few runs ahead). `then` is given each RunScore right
    after it is scored, in the process that scored it (e.g. run_files.offload: only what it leaves
    travels back)."""
    pending = iter(runs)
    head = list(islice(pending, 2))
    if jobs <= 1 or len(head) < 2 or "fork" not in mp.get_all_start_methods():
        for run, data in _drain(head, pending):
            result = score_run(run, data, s)
            del data
            if then is not None:
                then(result)
            yield result
        return
    _WORKER.update(scoring=s, then=then)
    in_flight = threading.Semaphore(jobs + 1)  # runs read but not yet scored: bounds memory
    # A run's bytes go to a worker, and its results come back, through files in a temporary folder of
    # this scoring (written and read by this scoring only): through the pool's pipe a 54 MB run took
    # 0.2 to 0.4 s, and its results 0.24 s, which the worker spent waiting.
    folder = Path(tempfile.mkdtemp(prefix="tally-runs-"))

    stopped = threading.Event()

    def tasks() -> Iterator[tuple[Run, Path]]:
        """Run by the pool's feeding thread: a run is read and handed on only when fewer than jobs + 1 are
        waiting, and not once scoring stops (the pool's shutdown waits for this thread)."""
        ahead = enumerate(_drain(head, pending))
        while True:
            in_flight.acquire()
            if stopped.is_set() or (task := next(ahead, None)) is None:
                return
            index, (run, data) = task
            path = folder / f"run-{index}"
            path.write_bytes(data)
            del data, task
            yield run, path

    try:
        with mp.get_context("fork").Pool(jobs) as pool:
            try:
                for out in pool.imap(_score_in_worker, tasks()):
                    result, errors, warnings = pickle.loads(out.read_bytes())
                    out.unlink()
                    in_flight.release()
                    s.log.errors.extend(errors)
                    s.log.warnings.extend(warnings)
                    yield result
            finally:  # (also when the caller stops early) the feeding thread may wait: it is woken to end
                stopped.set()
                in_flight.release()
    finally:
        _WORKER.clear()
        shutil.rmtree(folder, ignore_errors=True)


def _drain(head: list, rest: Iterator) -> Iterator:
    """The items of `head` (each let go once taken), then those of `rest`."""
    while head:
        yield head.pop(0)
    yield from rest
