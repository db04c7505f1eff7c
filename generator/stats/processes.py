"""A suite's strata computed by forked processes of this machine (`--jobs` above 1): one task per stratum.

Each process computes a stratum exactly as engine._stratum does in this one (the same code and seeds,
inherited by fork with the suite's statistics inputs), with its families' pairs as computed; this
process takes the parts in the strata's order and hands each family's pairs to `keep_pairs` in the
order the engine does (family_parts.PartStore numbers its parts by that order), as the cluster does
(cluster.py): the document, stats.json and the site are byte-identical to one process's. At most two
strata per process are in flight or waiting to be taken, so the parts held here stay few whatever
the number of strata. The side parts of the document (engine.side_parts: sources, other input kinds) are
one more task, sent first, so that a process computes them while the others take the strata. A task a
process can't deliver (it died: killed, out of memory) is computed here (pipeline/forked.py), the same
part. Where fork is not offered, or with one process or one stratum, the strata are computed here.
"""

from __future__ import annotations

import functools
import multiprocessing as mp
from collections import deque
from collections.abc import Callable, Iterator
from itertools import islice

from ..pipeline.forked import fork_pool, result_or, stop, submitted
from .cluster import stratum_inputs
from .engine import EachStratum, Keep, StratumPart, _as_is, _stratum, each_stratum, side_parts
from .inputs import SuiteData
from .sources import planned_source_rows
from .strata import Stratum

_SHARED: tuple[SuiteData, int] | None = None  # set before the processes are forked, read by them
_WHOLE: SuiteData | None = None  # the suite's whole statistics inputs, for the side parts (set likewise)


def _task(st: Stratum) -> StratumPart:
    assert _SHARED is not None
    data, resamples = _SHARED
    return _stratum(data, st, resamples, None, _as_is)


def _sides() -> dict:
    assert _SHARED is not None and _WHOLE is not None
    return side_parts(_WHOLE, _SHARED[1])


def strata_in_processes(jobs: int) -> EachStratum:
    """engine.compute's `strata_by` computing the strata in `jobs` forked processes."""

    def each(data: SuiteData, strata: list[Stratum], resamples: int, on_chunk: Callable[[int], None] | None,
             keep_pairs: Keep, sides: dict) -> Iterator[StratumPart]:
        if jobs <= 1 or len(strata) < 2 or "fork" not in mp.get_all_start_methods():
            yield from each_stratum(data, strata, resamples, on_chunk, keep_pairs, sides)
            return
        global _SHARED, _WHOLE
        _SHARED, _WHOLE = (stratum_inputs(data), resamples), data
        rows = resamples * (1 + len(data.declared.dataset_means))  # what a stratum here tells on_chunk
        pool = fork_pool(min(jobs, len(strata)))  # a stratum a process can't deliver is computed here
        try:
            side = submitted(pool, _sides)
            pending = iter(strata)
            window: deque = deque((st, submitted(pool, _task, st)) for st in islice(pending, 2 * jobs))
            while window:
                st, future = window.popleft()
                part, headline, run_ids = result_or(future, functools.partial(_stratum, data, st, resamples, None,
                                                                              _as_is))
                if (st := next(pending, None)) is not None:
                    window.append((st, submitted(pool, _task, st)))
                for family in part["pairwise"].values():  # in the order the engine keeps them
                    family["pairs"] = keep_pairs(family["pairs"])
                if on_chunk is not None:
                    on_chunk(rows)
                yield part, headline, run_ids
            sides.update(result_or(side, lambda: side_parts(data, resamples)))
            if on_chunk is not None:
                on_chunk(planned_source_rows(data, resamples))
        finally:
            stop(pool)
            _SHARED, _WHOLE = None, None

    return each
