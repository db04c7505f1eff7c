"""Repeat consistency and item analysis, from the per-item figures and answers of the run groups.

- Repeat consistency: for items a run answered more than once, the share of items whose answers were
  the same in every repeat (whole document) and the share of (item, unit) pairs that were, each with a
  Wilson interval. "The same" compares what the response answered for each unit (not the verdict).
- Item analysis: each item's headline value for each run group (the headline metric computed on that
  item alone), how many run groups got it fully right, and its discrimination: the correlation, across
  run groups, between the item's value and the run group's headline on the whole stratum. Items on which
  every run group scores the same separate no run; items with a negative discrimination rank runs
  against their overall order. Both lists are for operators deciding which items to fix or retire.
"""

from __future__ import annotations

import numpy as np

from .inputs import SuiteData
from .ratios import combine_weighted, ratio_values, used_figures
from .wilson import rate


def consistency(data: SuiteData) -> dict:
    """Per run group with repeats: document and unit consistency rates."""
    out = {}
    for info in data.runs:
        docs = same_docs = units = same_units = 0
        for run_id in info.replicates or (info.id,):
            for compared, same in data.consistency.get(run_id, {}).values():
                docs += 1
                same_docs += same == compared
                units += compared
                same_units += same
        if docs:
            out[info.id] = {"documents": rate(same_docs, docs), "units": rate(same_units, units)}
    return out


def item_values(data: SuiteData) -> np.ndarray:
    """runs x items: the headline metric on each item alone (NaN where it has no value)."""
    declared, head = data.declared, data.plugin.headline
    runs, n = data.figs.shape[0], data.figs.shape[1]
    if head in declared.spec:
        spec = {head: declared.spec[head]}
        weights, times = None, 1.0
    else:
        dm = next(m for m in declared.dataset_means if m.name == head)
        spec = {m: declared.spec[m] for m, _ in dm.weights}
        weights, times = dict(dm.weights), dm.times
    used = list(used_figures(spec))
    cols = [list(data.figure_names).index(u) for u in used]
    block = data.figs[:, :, cols].transpose(1, 0, 2).reshape(n, -1)  # items x runs*U: one item per row
    values = ratio_values(block, runs, used, spec, 1.0)
    per = values[head] if weights is None else combine_weighted(values, weights, times)
    return per.T  # runs x items


def item_analysis(data: SuiteData, overall: dict[str, float | None]) -> dict:
    """Per item: runs, runs fully right, mean and discrimination; and the two lists."""
    if not data.runs:
        return {"items": {}, "not_separating": [], "against_order": []}
    values = item_values(data)
    full = np.nanmax(values) if np.isfinite(values).any() else None
    totals = np.array([np.nan if overall.get(r.id) is None else overall[r.id] for r in data.runs])
    items, flat, against = {}, [], []
    for k, item in enumerate(data.items):
        col = values[:, k]
        ok = ~np.isnan(col) & ~np.isnan(totals)
        if not ok.any():
            continue
        v, t = col[ok], totals[ok]
        disc = None
        if len(v) >= 3 and np.ptp(v) > 0 and np.ptp(t) > 0:
            disc = float(np.corrcoef(v, t)[0, 1])
        items[item.id] = {"runs": int(ok.sum()), "runs_right": int((v == full).sum()) if full is not None else 0,
                          "mean": float(v.mean()), "discrimination": disc, "half": item.half}
        if len(v) >= 2 and np.ptp(v) == 0:
            flat.append(item.id)
        elif disc is not None and disc < 0:
            against.append(item.id)
    return {"items": items, "not_separating": flat, "against_order": against, "full_value": full}
