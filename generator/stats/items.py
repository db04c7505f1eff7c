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

from collections.abc import Iterator

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
    totals = np.array([np.nan if overall.get(r.id) is None else overall[r.id] for r in data.runs])
    return analyse_items(item_values(data), totals, [i.id for i in data.items], [i.half for i in data.items])


def analyse_items(values: np.ndarray, totals: np.ndarray, ids: list[str], halves: list[str]) -> dict:
    """item_analysis on runs x items values and the runs' totals (NaN: no value).

    Runs without a total count for no item. The items with a value for each other run (the common case)
    are computed together (`_batch`), the others one by one (`_one_item`); both give the same bits.
    """
    full = np.nanmax(values) if np.isfinite(values).any() else None
    keep = ~np.isnan(totals)
    t, sub = totals[keep], np.ascontiguousarray(values[keep].T)  # items x m: each item's values in a row
    fast = np.zeros(len(ids), bool)
    if len(t) and values.dtype == totals.dtype == np.float64:
        fast = ~np.isnan(sub).any(axis=1)
    batch = _batch(sub[fast], t, full)
    items, flat, against = {}, [], []
    for k, (item_id, half) in enumerate(zip(ids, halves)):
        row, ptp = next(batch) if fast[k] else _one_item(values[:, k], totals, full)
        if row is None:
            continue
        items[item_id] = {**row, "half": half}
        if row["runs"] >= 2 and ptp == 0:
            flat.append(item_id)
        elif row["discrimination"] is not None and row["discrimination"] < 0:
            against.append(item_id)
    return {"items": items, "not_separating": flat, "against_order": against, "full_value": full}


def _batch(rows: np.ndarray, t: np.ndarray, full) -> Iterator[tuple[dict | None, float]]:
    """`_one_item` for items x m rows without NaN, all at once, to the last bit.

    Every step is elementwise, or a mean along the rows of a C-contiguous array (numpy's pairwise sum of
    each row, as for the 1-D array of `_one_item`), or np.corrcoef's own steps (numpy 2.x,
    lib/_function_base_impl.py, cov and corrcoef): centre each row of the 2 x m array [v; t] by its mean;
    np.dot of that array with its transpose (there `X.T.conj()`, which for a real array is `X.T` itself,
    so numpy calls BLAS syrk, as here; a copy would call gemm, whose sums can differ in the last bit);
    scale by 1 / (m - 1); divide by the square roots of the diagonal, along rows then columns; clip.
    """
    if not len(rows):
        return
    m = rows.shape[1]
    means = rows.mean(axis=1)
    spread = np.ptp(rows, axis=1)
    right = (rows == full).sum(axis=1) if full is not None else np.zeros(len(rows), int)
    disc = np.full(len(rows), np.nan)
    corr = (spread > 0) if m >= 3 and np.ptp(t) > 0 else np.zeros(len(rows), bool)
    if corr.any():
        x = np.empty((int(corr.sum()), 2, m))
        x[:, 0] = rows[corr] - means[corr, None]
        x[:, 1] = t - t.mean()
        c = np.empty((len(x), 2, 2))
        for k in range(len(x)):
            np.dot(x[k], x[k].T, out=c[k])
        c *= np.true_divide(1, m - 1)
        disc[corr] = np.clip(c[:, 0, 1] / np.sqrt(c[:, 0, 0]) / np.sqrt(c[:, 1, 1]), -1, 1)
    for mean, ptp, n_right, d, has in zip(means.tolist(), spread.tolist(), right.tolist(), disc.tolist(), corr.tolist()):
        yield {"runs": m, "runs_right": n_right, "mean": mean, "discrimination": d if has else None}, ptp


def _one_item(col: np.ndarray, totals: np.ndarray, full) -> tuple[dict | None, float]:
    """One item's figures (None if no run has both a value and a total) and the spread of its values."""
    ok = ~np.isnan(col) & ~np.isnan(totals)
    if not ok.any():
        return None, 0.0
    v, t = col[ok], totals[ok]
    disc = None
    if len(v) >= 3 and np.ptp(v) > 0 and np.ptp(t) > 0:
        disc = float(np.corrcoef(v, t)[0, 1])
    return {"runs": int(ok.sum()), "runs_right": int((v == full).sum()) if full is not None else 0,
            "mean": float(v.mean()), "discrimination": disc}, float(np.ptp(v))
