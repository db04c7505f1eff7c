"""Scoring a suite's runs (scorer_a.py) one after the other, or on several processes, a run each.

Whichever process scores a run writes its artifact (artifact.py) into the suite's store. Worker
processes are forked: they inherit the plugin, the items and the store; only a run's bytes travel to
them (through a file: see `score_runs`), and only the artifact's name and identity, with the run's
input errors and warnings, travel back.
"""

from __future__ import annotations

import functools
import multiprocessing as mp
import queue
import shutil
import tempfile
import threading
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

from ..errors import ErrorLog, TallyError
from ..inputs.results import Run
from . import artifact
from .artifact import Identity
from .forked import fork_pool, result_or, stop, submitted
from .run_score import RunScore, Store
from .scorer_a import Scoring, score_run

_WORKER: dict = {}


def score_and_write(run: Run, data: bytes, base: str, s: Scoring, store: Store) -> tuple[str, Identity]:
    """Score the run and write its artifact into `store` (as `base` when a later command may take it
    from the cache: artifact.reusable); its name and identity."""
    errors = len(s.log.errors)
    scored = score_run(run, data, s)
    keep = artifact.reusable(scored, len(s.log.errors) - errors)
    return artifact.write(store.folder, base, scored, data, keep, store.signed)


def _score_in_worker(task: tuple[Run, Path, str]) -> tuple:
    """Score the run whose bytes are in the task's file and write its artifact: (its name, its
    identity, the run's input errors, its warnings)."""
    run, path, base = task
    data = path.read_bytes()
    path.unlink()
    s: Scoring = _WORKER["scoring"]
    log = ErrorLog(s.log.root)
    scoring = Scoring(s.suite, s.items, log)
    scoring.memo = s.memo  # this worker's copy, kept from run to run
    name, identity = score_and_write(run, data, base, scoring, _WORKER["store"])
    return name, identity, log.errors, log.warnings


def score_runs(runs: Iterable[tuple[Run, bytes, str]], s: Scoring, jobs: int, store: Store) -> Iterator[RunScore]:
    """Score each (run, its stored bytes, its artifact's base name) in order, on `jobs` processes when
    asked, each run's artifact written into `store` by the process that scored it; the bytes are taken
    from `runs` only as scoring needs them (a few runs ahead). Yields each run's handle."""
    pending = iter(runs)
    head = list(islice(pending, 2))
    if jobs <= 1 or len(head) < 2 or "fork" not in mp.get_all_start_methods():
        for run, data, base in _drain(head, pending):
            name, identity = score_and_write(run, data, base, s, store)
            del data
            yield store.open(run, name, identity)
        return
    _WORKER.update(scoring=s, store=store)
    in_flight = threading.Semaphore(jobs + 1)  # runs read but not yet scored: bounds memory
    # A run's bytes go to a worker through a file in a temporary folder of this scoring (written and
    # read by this scoring only): through the pool's pipe a 54 MB run took 0.2 to 0.4 s.
    folder = Path(tempfile.mkdtemp(prefix="tally-runs-"))
    stopped = threading.Event()
    sent: queue.SimpleQueue = queue.SimpleQueue()  # (run, its task) in the order sent, then None (or an error)
    pool = fork_pool(jobs)

    def feed() -> None:
        """A thread reading each run and sending it to the pool, only when fewer than jobs + 1 are waiting,
        and not once scoring stops; an error reading the runs is handed on, raised where they are taken."""
        try:
            ahead = enumerate(_drain(head, pending))
            while True:
                in_flight.acquire()
                if stopped.is_set() or (task := next(ahead, None)) is None:
                    break
                index, (run, data, base) = task
                path = folder / f"run-{index}"
                path.write_bytes(data)
                del data, task
                future = submitted(pool, _score_in_worker, (run, path, base))
                sent.put((run, future))
                if future is None:  # the pool broke: nothing more can be scored
                    break
            sent.put(None)
        except BaseException as exc:  # noqa: BLE001  (handed on to the thread taking the runs)
            sent.put(exc)

    feeder = threading.Thread(target=feed, name="tally-score-feed", daemon=True)
    try:
        pool.submit(int)  # its processes forked now, by this thread, before the feeding thread starts
        feeder.start()
        while (item := sent.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            run, future = item
            name, identity, errors, warnings = result_or(future, functools.partial(_lost, run))
            in_flight.release()
            s.log.errors.extend(errors)
            s.log.warnings.extend(warnings)
            yield store.open(run, name, identity)
    finally:  # (also when the caller stops early) the feeding thread may wait: it is woken to end
        stopped.set()
        in_flight.release()
        if feeder.ident is not None:
            feeder.join()
        stop(pool)
        _WORKER.clear()
        shutil.rmtree(folder, ignore_errors=True)


def _lost(run: Run) -> tuple:
    raise TallyError(f"the process scoring run {run.id!r} ended before it was done (killed, out of memory, or an "
                     "error it could not send back): nothing was written; score again, with fewer --jobs if "
                     "memory is short, or with --jobs 1 to see the error")


def _drain(head: list, rest: Iterator) -> Iterator:
    """The items of `head` (each let go once taken), then those of `rest`."""
    while head:
        yield head.pop(0)
    yield from rest
