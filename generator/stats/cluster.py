"""A suite's statistics on a Dask cluster (`--scheduler`): one task per stratum.

The statistics inputs of the suite (what a stratum reads of stats.inputs.SuiteData: the runs, the
items, the per-item figures and repeats, the plugin and its declared metrics) are scattered to
every worker once. Each task computes one stratum exactly as engine._stratum does here (the same
seeds, the same code: pipeline/distributed.py refuses workers whose statistics sources or numpy
differ) and sends back its part of the document, its headline draws and its runs, each family's
pairs as their table. The client takes the parts in the strata's order and hands each family's
pairs to `keep_pairs` in the order the local engine does (family_parts.PartStore numbers its parts
by that order), so the document, stats.json and the site are byte-identical to a local build. At
most two tasks per worker thread are in flight or waiting to be taken: the client holds one
stratum's part at a time.

What is not per stratum (the gap between the halves, anchors, round history, sources, other input
kinds, item analysis) is computed on the client as before. Imported only with `--scheduler`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from .engine import EachStratum, Keep, StratumPart, _as_is, _stratum, side_parts
from .inputs import SuiteData
from .strata import Stratum


def stratum_inputs(data: SuiteData) -> SuiteData:
    """What a stratum's task reads of the suite's data (the rest stays on the client)."""
    return replace(data, calls={}, earlier=[], incomplete=[], anchor_checks=[], consistency={}, all_runs=[],
                   all_figs=None, all_repeats=None, other_inputs={})


def stratum_task(shared: tuple[SuiteData, int], st: Stratum) -> StratumPart:
    """On a worker: the stratum's part of the document, each family's pairs as computed (not kept)."""
    data, resamples = shared
    return _stratum(data, st, resamples, None, _as_is)


def strata_on(client) -> EachStratum:
    """engine.compute's `strata_by` computing each stratum as a task on `client`'s cluster, then the side
    parts on the client."""

    def each(data: SuiteData, strata: list[Stratum], resamples: int, on_chunk: Callable[[int], None] | None,
             keep_pairs: Keep, sides: dict) -> Iterator[StratumPart]:
        if strata:
            yield from _on_cluster(client, data, strata, resamples, on_chunk, keep_pairs)
        sides.update(side_parts(data, resamples, on_chunk))  # on the client, as before

    return each


def _on_cluster(client, data: SuiteData, strata: list[Stratum], resamples: int,
                on_chunk: Callable[[int], None] | None, keep_pairs: Keep) -> Iterator[StratumPart]:
    from ..pipeline.distributed import in_order

    inputs = client.scatter(stratum_inputs(data), broadcast=True, hash=False)
    rows = resamples * (1 + len(data.declared.dataset_means))  # what a local stratum tells on_chunk
    try:
        for part, headline, run_ids in in_order(client, stratum_task, (inputs, resamples), strata):
            for family in part["pairwise"].values():  # in the order the local engine keeps them
                family["pairs"] = keep_pairs(family["pairs"])
            if on_chunk is not None:
                on_chunk(rows)
            yield part, headline, run_ids
    finally:
        inputs.release()
