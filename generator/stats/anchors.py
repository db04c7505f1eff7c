"""The anchor block across rounds: does a hosted model still answer the fixed anchor items as it did?

For each model on a provider that ran in an earlier round too (or ran the anchor block alone, an
anchor check), every ratio metric of the suite is computed on the anchor items both runs scored, in
each round, and the difference (current round minus the earlier one) gets a 95% percentile interval
from a bootstrap over those items: the same resampled items for both rounds, so the difference is
paired. The change is flagged when the interval excludes 0. The flag marks a run to look at (a silent
model change, a new snapshot); it is per pair of rounds and not corrected for the number of metrics.
"""

from __future__ import annotations

import numpy as np

from .inputs import RunInfo, SuiteData
from .quantiles import interval
from .ratios import build_block, ratio_values, used_figures
from .resample import CountMatrix, derive_seed, widen


def _common_items(data: SuiteData, a: RunInfo, b: RunInfo) -> list[int]:
    """Positions of the items both runs list as anchors and both scored, in item order."""
    pos = {r.id: k for k, r in enumerate(data.all_runs)}
    wanted = set(a.anchors) & set(b.anchors)
    assert data.all_repeats is not None  # suite_data sets it
    return [i for i, item in enumerate(data.items) if item.id in wanted
            and data.all_repeats[pos[a.id], i] > 0 and data.all_repeats[pos[b.id], i] > 0]


def compare(data: SuiteData, current: RunInfo, earlier: RunInfo, resamples: int) -> dict:
    out: dict[str, object] = {"model": current.model, "provider": current.provider, "current": {"run": current.id, "round": current.round},
           "earlier": {"run": earlier.id, "round": earlier.round}, "metrics": {}}
    items = _common_items(data, current, earlier)
    out["items"] = len(items)
    if not items:
        return out
    pos = {r.id: k for k, r in enumerate(data.all_runs)}
    assert data.all_figs is not None  # suite_data sets it
    figs = data.all_figs[[pos[current.id], pos[earlier.id]]][:, items]  # 2 x n x figures
    ratios = data.declared.spec
    used = used_figures(ratios)
    block = build_block(figs, data.figure_names, used)  # n x 2*U
    point = ratio_values(block.sum(axis=0, keepdims=True), 2, used, ratios, float(len(items)))
    w = CountMatrix(derive_seed(data.suite.name, "anchors", current.model, current.provider, earlier.round),
                    [len(items)], resamples)
    counts = w.full().astype(np.float64)
    draws = ratio_values(widen(counts @ block, block.sum(axis=0), len(items)), 2, used, ratios, counts.sum(axis=1))
    out["resampling"] = w.record()
    metrics: dict[str, dict] = {}
    out["metrics"] = metrics
    for metric in ratios:
        now, before = (float(x) for x in point[metric][0])
        diff = draws[metric][:, 0] - draws[metric][:, 1]
        ok = ~np.isnan(diff)
        low, high = (float(x) for x in interval(diff[ok], len(items) - 1)[:, 0]) if ok.any() else (None, None)
        changed = low is not None and high is not None and (low > 0 or high < 0)
        metrics[metric] = {"current": now, "earlier": before, "difference": now - before,
                                  "low": low, "high": high, "changed": bool(changed)}
    return out


def anchor_comparisons(data: SuiteData, resamples: int) -> list[dict]:
    """Every earlier round of every current run group, compared with the current round; and every
    anchor check (a run of the anchor block alone) of a model with a current run group, compared with
    that group, the one that started later as `current`. A run that lists no anchors (it did not run
    the block) is not compared."""
    current = {(r.model, r.provider): r for r in data.runs}
    out = [compare(data, current[(e.model, e.provider)], e, resamples)
           for e in sorted(data.earlier, key=lambda r: (r.model, r.provider, r.round)) if e.anchors]
    for check in sorted(data.anchor_checks, key=lambda r: (r.model, r.provider, r.round, r.id)):
        ranked = current.get((check.model, check.provider))
        if ranked is not None and ranked.anchors:
            later, earlier = (ranked, check) if (ranked.started, ranked.round) >= (check.started, check.round) else (
                check, ranked)
            out.append(compare(data, later, earlier, resamples))
    return out
