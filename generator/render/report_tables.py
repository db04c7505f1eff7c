"""The suites' own tables (each plugin's `report_tables`), made by a forked process while the rescore
outputs and the statistics are written, when the build has more than one process (`--jobs`).

A suite's tables read its scored runs alone (every verdict row of every run: extracting's list-order
table took 1.5 s of a rebuild at 40 run groups x 6,000 items), never the statistics, so they can be
made as soon as the runs are scored. The process is forked after scoring, so it holds the very runs
this one does (each run's artifact opened by it: run_score.RunScore), and sends back each suite's tables;
a plugin's error is raised here when its suite's tables are taken, as it would have been. Should the
process not deliver (it died: killed, out of memory, or a plugin ended it; or the error it raised could
not be sent back), the suite's tables are made here when taken, as with one process, so that the
plugin's own error is the one reported and the build never waits for tables that will not come. With
one process, or where fork is not offered, each suite's tables are made when they are taken.
"""

from __future__ import annotations

import multiprocessing as mp
from concurrent.futures import Future, ProcessPoolExecutor

from ..pipeline.forked import fork_pool, result_or, stop
from ..pipeline.stages import ScoredSuite
from ..suite.report import InterfaceChange, scored_runs

_SCORED: list[ScoredSuite] | None = None  # set before the process is forked, read by it


def report_tables(res: ScoredSuite) -> list:
    """The suite's own tables, from the public view of its scored runs (suite/report.py: ScoredRuns); a
    plugin reading what that view no longer offers is stopped with what to read instead."""
    try:
        return res.plugin.report_tables(scored_runs(res))
    except InterfaceChange as exc:
        raise InterfaceChange(f"suite plugin {res.plugin.name!r}: {exc}") from None


def _made(index: int) -> list:
    assert _SCORED is not None
    return report_tables(_SCORED[index])


class Ahead:
    """Each suite's tables, started by `start` (after scoring) and taken by `take`; `close` ends the process."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool: ProcessPoolExecutor | None = None
        self.pending: dict[int, Future] = {}  # id of the scored suite -> its tables to come

    def start(self, scored: list[ScoredSuite]) -> None:
        global _SCORED
        if self.jobs <= 1 or not scored or "fork" not in mp.get_all_start_methods():
            return
        _SCORED = scored
        try:  # the process is forked by the first submit
            self.pool = fork_pool(1)
            self.pending = {id(res): self.pool.submit(_made, k) for k, res in enumerate(scored)}
        finally:
            _SCORED = None

    def take(self, res: ScoredSuite) -> list:
        # made here when the process did not deliver (or was not started): its error raised here
        return result_or(self.pending.pop(id(res), None), lambda: report_tables(res))

    def close(self) -> None:
        if self.pool is not None:
            stop(self.pool)
            self.pool = None
        self.pending = {}

