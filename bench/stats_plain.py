"""The statistics engine's plain computation, as it was before its fast paths (issue 37, goal 4).

bench/stats_speed.py times the engine with these in place (`plain()`) as the reference measured in the
same run, and tests/test_stats_fast_paths.py checks that the fast paths give the same bits:

- resample sums: each chunk's counts (1,000 rows) in float64 times the block's distinct columns (the
  fast path: float32 when exact, a few rows at a time);
- paired differences: the two gathered columns of every pair (the fast path: column slices);
- the small-sample correction written as its formula (the fast path: in place);
- Holm's step-down and its pairs, pair by pair (the fast path: on arrays), and whether a pair's
  difference never varies by max = min on every pair (the fast path: only on the pairs whose mean and
  SD allow it);
- type-7 quantiles from each column sorted whole (the fast path: np.partition at the two positions).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np
from scipy.stats import t as student_t

from generator.stats import estimates, pairwise, quantiles
from generator.stats.resample import CountMatrix, _distinct_columns


def resample_sums(w: CountMatrix, blocks: Sequence[np.ndarray],
                  on_chunk: Callable[[int], None] | None = None) -> list[np.ndarray]:
    """W_g @ blocks[g] for each group, one float64 product per chunk."""
    out = [np.empty((w.resamples, b.shape[1])) for b in blocks]
    distinct = [_distinct_columns(b) for b in blocks]
    row = 0
    for counts in w.chunks():
        rows = counts[0].shape[0]
        for g, c in enumerate(counts):
            unique, inverse = distinct[g]
            out[g][row:row + rows] = (c.astype(np.float64) @ unique)[:, inverse]
        row += rows
        if on_chunk:
            on_chunk(rows)
    return out


def pair_differences(x: np.ndarray, ii: np.ndarray, jj: np.ndarray, sl: slice) -> np.ndarray:
    """x[:, ii[sl]] - x[:, jj[sl]], the columns gathered."""
    return x[:, ii[sl]] - x[:, jj[sl]]


def paired_spread(point: np.ndarray, thetas: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Holm's (d, SD of D^(b), the constant difference) per pair, on gathered columns of thetas as given."""
    ii, jj = pairwise.pair_index(len(point))
    d = point[ii] - point[jj]
    sd, flat, same = np.zeros(len(ii)), np.zeros(len(ii), dtype=bool), np.zeros(len(ii))
    rows = thetas.shape[0]
    for start in range(0, len(ii) if rows > 1 else 0, pairwise.PAIR_BLOCK):
        sl = slice(start, start + pairwise.PAIR_BLOCK)
        dev = pair_differences(thetas, ii, jj, sl)
        flat[sl] = dev.max(axis=0) == dev.min(axis=0)
        same[sl] = dev[0]
        dev -= dev.mean(axis=0)
        sd[sl] = np.sqrt(np.einsum("ij,ij->j", dev, dev) / (rows - 1))
    return d, np.where(flat, 0.0, sd), np.where(flat, same, np.nan)


def widen(sums: np.ndarray, full: np.ndarray, n: int) -> np.ndarray:
    """The small-sample correction as its formula."""
    return sums if n < 2 else full + math.sqrt(n / (n - 1)) * (sums - full)


def linear(values: np.ndarray, probs: np.ndarray | float) -> np.ndarray:
    """Type-7 quantiles (quantiles.linear) from each column sorted whole."""
    y = np.sort(np.asarray(values, dtype=np.float64), axis=0)  # NaN sorts last
    if y.ndim == 1:
        y = y[:, None]
    p = np.atleast_1d(np.asarray(probs, dtype=np.float64))[:, None]
    n = np.sum(~np.isnan(y), axis=0).astype(np.float64)[None, :]
    jg = p * n + (1 - p)
    j = jg // 1 - 1
    g = jg % 1
    top = np.maximum(n - 1, 0)
    j0 = np.clip(j, 0, top).astype(np.int64)
    j1 = np.clip(j + 1, 0, top).astype(np.int64)
    g = np.where(j < 0, 0.0, g)
    cols = np.arange(y.shape[1])[None, :]
    out = (1 - g) * y[j0, cols] + g * y[j1, cols]
    out = np.where(n > 0, out, np.nan)
    return out[0] if np.ndim(probs) == 0 else out


def holm(estimates: np.ndarray, thetas: np.ndarray, df: int, higher_is_better: bool = True,
         level: float = 0.95) -> tuple[float | None, list[dict]]:
    """Holm's step-down (pairwise.holm), each pair's critical value, interval and call found pair by pair."""
    thetas = thetas[~np.isnan(thetas).any(axis=1)]
    ii, jj = pairwise.pair_index(len(estimates))
    m = len(ii)
    if m == 0 or thetas.shape[0] < 2:
        return pairwise.holm(estimates, thetas, df, higher_is_better, level)
    d, se, constant = paired_spread(estimates, thetas)
    t = np.zeros(m)
    np.divide(np.abs(d), se, out=t, where=se > 0)
    zero = se == 0
    t[zero & (d * np.nan_to_num(constant) > 0)] = np.inf
    steps = np.arange(m)
    crit = student_t.isf((1 - level) / (2 * (m - steps)), df) if df > 0 else np.full(m, np.inf)
    order = sorted(range(m), key=lambda k: (-t[k], k))
    c_pair = np.empty(m)
    stop = None
    for step, k in enumerate(order):
        if stop is None and not (t[k] == np.inf or t[k] > crit[step]):
            stop = crit[step]
        c_pair[k] = crit[step] if stop is None else stop
    pairs = []
    for k, (a, b) in enumerate(zip(ii.tolist(), jj.tolist())):
        called = bool(t[k] == np.inf or t[k] > c_pair[k])
        if zero[k]:
            low, high = float(np.fmin(d[k], constant[k])), float(np.fmax(d[k], constant[k]))
        else:
            low, high = float(d[k] - c_pair[k] * se[k]), float(d[k] + c_pair[k] * se[k])
        call = pairwise._call(low, high, higher_is_better) if called else pairwise.TIE
        pairs.append({"a": a, "b": b, "diff": float(d[k]), "se": float(se[k]), "t": float(t[k]),
                      "c": float(c_pair[k]), "low": low, "high": high, "call": call})
    return float(crit[0]), pairs


@contextlib.contextmanager
def plain() -> Iterator[None]:
    """The engine with the plain computation in place of its fast paths, for the duration."""
    saved = (estimates.resample_sums, estimates.widen, pairwise._paired_spread, pairwise.holm, quantiles.linear)
    (estimates.resample_sums, estimates.widen, pairwise._paired_spread, pairwise.holm,
     quantiles.linear) = resample_sums, widen, paired_spread, holm, linear
    try:
        yield
    finally:
        (estimates.resample_sums, estimates.widen, pairwise._paired_spread, pairwise.holm,
         quantiles.linear) = saved
