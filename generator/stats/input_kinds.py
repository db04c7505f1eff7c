"""Runs of other input kinds than text (page images; text and images), ranked apart, and each one's
paired difference with the text run of the same model and provider.

A kind's leaderboard is computed like a stratum of the text leaderboard (same metrics, intervals and
comparison rule) on the half all its runs cover (the example's image runs: the public half, the one
with page images). The paired difference is image minus text on the headline metric, on the same
items: both runs are resampled with one weight matrix (the stratum's seed), so the difference's draws
are the row-by-row differences of the two runs' draws, and its interval their 95% percentile interval.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from .inputs import SuiteData
from .quantiles import interval
from .strata import Stratum, select_strata

PAIRED = ("kind's run minus the text run of the same model and provider, headline metric, same items, "
          "resampled together (one weight matrix)")


def _covered_half(data: SuiteData) -> Stratum | None:
    strata, _ = select_strata(data.suite, data.items)
    halves = [st for st in strata if st.dimension == "half"]
    for st in sorted(halves, key=lambda s: s.value != "public"):
        if len(data.runs) and (data.repeats[:, st.positions] > 0).all():
            return st
    return None


def paired_difference(text: SuiteData, t: int, other: SuiteData, k: int, st: Stratum, resamples: int) -> dict | None:
    """Headline of run k of `other` minus run t of `text`, on stratum `st`, with its interval."""
    from .engine import headline_draws  # the engine's resampling (imported here: the engine imports this module)

    pair = replace(text, runs=[text.runs[t], other.runs[k]], figs=np.stack([text.figs[t], other.figs[k]]),
                   repeats=np.stack([text.repeats[t], other.repeats[k]]), calls={}, other_inputs={})
    if not (pair.repeats[:, st.positions] > 0).all():
        return None
    draws, _ = headline_draws(pair, st, resamples)
    assert draws is not None  # both runs cover the stratum
    metric = text.plugin.headline
    point, rows = draws.point[metric], draws.draws[metric]
    diff = rows[:, 1] - rows[:, 0]
    ok = ~np.isnan(diff)
    low, high = (float(x) for x in interval(diff[ok], draws.df)[:, 0]) if ok.any() else (None, None)
    return {"text_run": text.runs[t].id, "metric": metric, "text": float(point[0]), "other": float(point[1]),
            "difference": float(point[1] - point[0]), "low": low, "high": high, "items": int(len(st.positions)),
            "higher_is_better": text.declared.higher_is_better(metric)}


def input_kinds(data: SuiteData, resamples: int, stratum_fn: Callable) -> dict:
    """{kind: {"stratum", "board", "paired": {run: difference}, "runs": {...}}} for every other kind."""
    out: dict[str, dict[str, object]] = {}
    for kind, other in sorted(data.other_inputs.items()):
        if not other.runs:
            continue
        runs = {r.id: {"model": r.model, "provider": r.provider, "hosting": r.hosting, "simulated": r.simulated,
                       "round": r.round} for r in other.runs}
        st = _covered_half(other)
        if st is None:
            out[kind] = {"stratum": None, "runs": runs, "board": None, "paired": {}}
            continue
        board, _, _ = stratum_fn(other, st, resamples, None)
        text_of = {(r.model, r.provider): t for t, r in enumerate(data.runs)}
        paired = {}
        for k, r in enumerate(other.runs):
            t = text_of.get((r.model, r.provider))
            if t is not None and (row := paired_difference(data, t, other, k, st, resamples)):
                paired[r.id] = row
        out[kind] = {"stratum": st.key, "runs": runs, "board": board, "paired": paired, "paired_rule": PAIRED}
    return out
