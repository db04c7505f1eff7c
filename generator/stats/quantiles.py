"""The two quantile rules of the engine, each implemented once.

- `linear`: Hyndman and Fan type 7 (numpy and scipy "linear"), for bootstrap percentile intervals (at
  the levels of `interval_probs`) and the max-T critical value. It is written out here (interpolated as (1 - g) * y[j] + g * y[j + 1], the
  way scipy.stats.quantile does) so that results do not change with a library's version.
- `nearest_rank`: the smallest observed value with at least p% of the values at or below it (numpy
  "inverted_cdf"), for latency percentiles: always a latency that was measured.
"""

from __future__ import annotations

import numpy as np

from .student import normal_cdf, normal_sf, t_isf

CONFIDENCE = 0.95
ALPHA = (1 - CONFIDENCE) / 2  # computed as scipy.stats.bootstrap does: 0.025000000000000022
INTERVAL_PROBS = np.asarray([ALPHA, 1 - ALPHA])
# np.partition (linear time) in place of a sort from this many values a column (a sort was as fast up to
# about 1,000: 0.75 ms for 1,000 x 40, 7.0 ms against 14.1 ms for 10,000 x 40), and for at most this many
# distinct positions to place (columns with many different NaN counts: a sort)
PARTITION_MIN_ROWS = 2000
MAX_PARTITION_POSITIONS = 16


def linear(values: np.ndarray, probs: np.ndarray | float) -> np.ndarray:
    """Type-7 quantiles of each column of `values` (axis 0), ignoring NaN; NaN where a column has none.

    Returns an array of shape (len(probs), columns) (or (columns,) for a scalar prob).
    """
    y = np.asarray(values, dtype=np.float64)
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
    y = _ordered(y, j0, j1)
    out = (1 - g) * y[j0, cols] + g * y[j1, cols]
    out = np.where(n > 0, out, np.nan)
    return out[0] if np.ndim(probs) == 0 else out


def _ordered(y: np.ndarray, j0: np.ndarray, j1: np.ndarray) -> np.ndarray:
    """y with, in each column, at rows j0 and j1 the values that the column sorted has there.

    np.partition puts the values of a few positions where a sort would (NaN last, as np.sort does) in
    time linear in the rows, where a sort takes n log n. The value of an order statistic does not depend
    on how it was found, with one exception: 0.0 and -0.0 compare equal, so which of them lands at a
    position depends on the algorithm. A column whose picked value is a zero is therefore sorted as
    before, and every picked value is the sorted column's, bit for bit.
    """
    kth = np.unique(np.concatenate([j0.ravel(), j1.ravel()]))
    if y.shape[0] < PARTITION_MIN_ROWS or len(kth) > MAX_PARTITION_POSITIONS:
        return np.sort(y, axis=0)  # NaN sorts last
    part = np.partition(y, kth, axis=0)
    cols = np.arange(y.shape[1])[None, :]
    zero = ((part[j0, cols] == 0) | (part[j1, cols] == 0)).any(axis=0)
    if zero.any():
        part[:, zero] = np.sort(y[:, zero], axis=0)
    return part


def interval_probs(df: int | None = None) -> np.ndarray:
    """The two quantile levels of the 95% interval: 0.025 and 0.975 (df None: the plain percentile
    interval, as scipy.stats.bootstrap), or, with df degrees of freedom, the expanded percentile interval
    (Hesterberg): Phi(-t) and Phi(t) for t the 0.975 quantile of Student's t with df degrees of freedom,
    so that a normal bootstrap distribution gives estimate +/- t x se rather than +/- 1.96 x se."""
    if df is None:
        return INTERVAL_PROBS
    if df < 1:
        return np.asarray([0.0, 1.0])
    t = float(t_isf(ALPHA, df))
    return np.asarray([float(normal_sf(t)), float(normal_cdf(t))])


def interval(values: np.ndarray, df: int | None = None) -> np.ndarray:
    """95% percentile intervals of each column: shape (2, columns); expanded for df degrees of freedom."""
    return linear(values, interval_probs(df))


def nearest_rank(values: list[float] | np.ndarray, percent: int) -> float | None:
    """The value of rank ceil(percent * n / 100) (1-based) among the sorted values; None when empty."""
    v = np.sort(np.asarray(values, dtype=np.float64))
    if v.size == 0:
        return None
    rank = max(1, (percent * v.size + 99) // 100)
    return float(v[rank - 1])
