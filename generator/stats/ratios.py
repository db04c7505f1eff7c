"""Ratio metrics and the macro headline from sums of per-item figures (full data or one row per resample).

Every metric is sum(numerator) / sum(denominator) over the items of a resample, where the denominator
"items" is the number of items. A ratio whose denominator is 0 has no value (NaN here, null in the
stats file): on the full data the metric has no estimate; in a resample that resample is left out of
the metric's interval and counted. Resampled sums are corrected for the small-sample bias of the
bootstrap (resample.widen), which can carry a denominator drawn as 0, or very small, below 0: a
denominator that is not above 0 has no value either (sums of figures are never negative, so on the
full data this is the same rule).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

ITEMS = "items"

# A metric as the engine evaluates it: (numerator, denominator), each a figure's name or a linear
# combination ((figure, coefficient), ...); the denominator may be ITEMS, or None for a plain sum.
Side = str | Sequence[tuple[str, float]]
Spec = Mapping[str, tuple[Side, Side | None]]


def terms(side: Side | None) -> tuple[tuple[str, float], ...]:
    if side is None:
        return ()
    return ((side, 1.0),) if isinstance(side, str) else tuple((f, float(c)) for f, c in side)


def _is_items(side: Side | None) -> bool:
    return side == ITEMS or terms(side) == ((ITEMS, 1.0),)


def used_figures(ratios: Spec) -> tuple[str, ...]:
    """The figures the metrics read, in a fixed order ("items" is not a figure)."""
    names: list[str] = []
    for num, den in ratios.values():
        for name, _ in terms(num) + terms(den):
            if name != ITEMS and name not in names:
                names.append(name)
    return tuple(names)


def build_block(figs: np.ndarray, all_names: Sequence[str], used: Sequence[str]) -> np.ndarray:
    """(n x runs*len(used)) from figs (runs x n x figures); column r*len(used)+k is run r's figure k."""
    cols = [list(all_names).index(u) for u in used]
    sub = figs[:, :, cols]  # runs x n x U
    return np.ascontiguousarray(sub.transpose(1, 0, 2).reshape(sub.shape[1], -1), dtype=np.float64)


def integer_scale(block: np.ndarray, repeats: np.ndarray) -> tuple[np.ndarray, int]:
    """Scale per-item means over repeats back to integers (by the lcm of the repeat counts) when they are.

    Ratios do not change, and integer sums are exact whatever order they are added in. Returns the
    block unchanged with scale 1 when some figure is not a whole number of repeats' worth.
    """
    scale = math.lcm(*(int(r) for r in np.unique(repeats))) if repeats.size else 1
    scaled = block * scale if scale != 1 else block
    whole = np.rint(scaled)
    if np.array_equal(scaled, whole):  # whole already (the usual case): only the size is left to check
        return (whole, scale) if not whole.size or float(np.abs(whole).max()) < 2**40 else (block, 1)
    if np.all(np.abs(scaled - whole) <= 1e-9 * np.maximum(1.0, np.abs(scaled))) and np.all(np.abs(whole) < 2**40):
        return whole, scale
    return block, 1


def ratio_values(sums: np.ndarray, runs: int, used: Sequence[str], ratios: Spec,
                 items_total: np.ndarray | float, scale: float = 1.0) -> dict[str, np.ndarray]:
    """Metric -> (rows x runs) from sums (rows x runs*len(used)); NaN where the denominator is 0.

    items_total: the (scaled) number of items behind each row, the denominator "items". A metric
    without a denominator is its numerator's sum, divided by `scale` (the factor the sums were
    scaled by, see integer_scale), so a count stays a count.
    """
    u = len(used)
    out = {}
    items = np.broadcast_to(np.asarray(items_total, dtype=np.float64).reshape(-1, 1), (sums.shape[0], runs))

    def linear(side: Side) -> np.ndarray:
        parts = terms(side)
        if len(parts) == 1 and parts[0][1] == 1.0:
            return sums[:, used.index(parts[0][0])::u][:, :runs]
        acc = np.zeros((sums.shape[0], runs))
        for name, coef in parts:
            acc = acc + coef * sums[:, used.index(name)::u][:, :runs]
        return acc

    for metric, (num, den) in ratios.items():
        top = linear(num)
        if den is None:
            out[metric] = top / scale
            continue
        bottom = items if _is_items(den) else linear(den)
        value = np.full(top.shape, np.nan)
        np.divide(top, bottom, out=value, where=bottom > 0)
        out[metric] = value
    return out


def shares(block: np.ndarray, runs: int, used: Sequence[str], ratios: Spec, scale: float) -> dict[str, np.ndarray]:
    """Per ratio metric, which runs (runs,) it is a share for on these items (block: items x runs*len(used)):
    no negative numerator or denominator and no numerator above its denominator, so it lies in [0, 1]."""
    out: dict[str, np.ndarray] = {}
    for metric, (num, den) in ratios.items():
        if den is None:
            continue
        tops = ratio_values(block, runs, used, {metric: (num, None)}, 1.0)[metric]
        bottoms = (np.full(tops.shape, float(scale)) if _is_items(den)
                   else ratio_values(block, runs, used, {metric: (den, None)}, 1.0)[metric])
        out[metric] = np.asarray(((tops >= 0) & (tops <= bottoms)).all(axis=0))
    return out


def clip_to_items(values: dict[str, np.ndarray], block: np.ndarray, runs: int, used: Sequence[str],
                  ratios: Spec, scale: float) -> dict[str, np.ndarray]:
    """Keep resampled ratios (rows x runs) that are shares (see `shares`) within [0, 1]. The small-sample
    correction widens sums, which in a resample of very few items can carry a share past its range (an
    accuracy above 1); a metric with another range is left alone. Clipping is monotone, so an interval's
    ends are those of the unclipped values brought into the range, and its coverage does not change."""
    out = dict(values)
    for metric, ok in shares(block, runs, used, ratios, scale).items():
        if metric in values:
            out[metric] = np.where(ok, np.clip(values[metric], 0.0, 1.0), values[metric])  # NaN stays NaN
    return out


def combine_weighted(values: Mapping[str, np.ndarray], weights: Mapping[str, float], scale: float) -> np.ndarray:
    """scale * weighted mean of the metrics that have a value (a missing metric leaves the others alone)."""
    num: np.ndarray | None = None
    wsum: np.ndarray | None = None
    for metric, w in weights.items():
        x = values[metric]
        ok = ~np.isnan(x)
        term, wt = np.where(ok, w * x, 0.0), np.where(ok, w, 0.0)
        num, wsum = (term, wt) if num is None or wsum is None else (num + term, wsum + wt)
    if num is None or wsum is None:
        raise ValueError("combine_weighted: no weights")
    value = np.full(num.shape, np.nan)
    np.divide(num, wsum, out=value, where=wsum > 0)
    return scale * value


def macro_mean(per_group: Sequence[np.ndarray]) -> np.ndarray:
    """Equal-weight mean over groups (datasets) of the groups that have a value; NaN if none has."""
    total = np.zeros(per_group[0].shape)
    count = np.zeros(per_group[0].shape)
    for v in per_group:
        ok = ~np.isnan(v)
        total = total + np.where(ok, v, 0.0)
        count = count + ok
    out = np.full(total.shape, np.nan)
    np.divide(total, count, out=out, where=count > 0)
    return out


# ------------------------------------------------------------ expected calibration error

ECE_BINS = 10


def calibration_bin(p: np.ndarray) -> np.ndarray:
    """bin = min(floor(10 p), 9), in float64: p = 0.7 is in bin 7, p = 1 in bin 9."""
    return np.minimum(np.floor(ECE_BINS * np.asarray(p, dtype=np.float64)), ECE_BINS - 1).astype(np.int64)


def ece_figures(p: np.ndarray, correct: np.ndarray) -> np.ndarray:
    """Per-item figures (n x 2*bins): correct in bin k (columns 0..9), confidence in bin k (10..19)."""
    p = np.asarray(p, dtype=np.float64)
    bins = calibration_bin(p)
    out = np.zeros((p.size, 2 * ECE_BINS))
    rows = np.arange(p.size)
    out[rows, bins] = np.asarray(correct, dtype=np.float64)
    out[rows, ECE_BINS + bins] = p
    return out


def ece_from_sums(sums: np.ndarray, n_items: np.ndarray | float) -> np.ndarray:
    """ECE = sum over bins |sum correct - sum confidence| / n, per row of sums (rows x 2*bins)."""
    sums = np.atleast_2d(sums)
    gap = np.abs(sums[:, :ECE_BINS] - sums[:, ECE_BINS:]).sum(axis=1)
    return gap / np.asarray(n_items, dtype=np.float64)
