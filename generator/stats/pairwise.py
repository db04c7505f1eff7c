"""Pairwise calls within a family (suite x stratum x metric).

"holm" (the default): Holm's step-down correction on studentized paired differences. For runs i < j:
d = theta_i - theta_j on the full data; D^(b) the same difference in resample b (one W for every run,
so the difference is paired; the resampled sums already carry the small-sample correction, see
estimates.py); se = SD of D^(b) (ddof 1); t = |d| / se. The m pairs are taken in decreasing t; the
k-th (k = 1..m) is called while t > c_k, the quantile 1 - 0.05 / (2 (m - k + 1)) of Student's t with
df degrees of freedom (N - G: the items less the groups resampled separately), and the first pair that fails
ends the calls. A pair whose D^(b) is the same in every resample (zero spread) has t = infinity when
that difference is nonzero (and d has its sign), else t = 0. Each pair carries the critical value it
was judged by (its step's c_k if called, else the c_k of the first step that failed) and the interval
d +/- c * se, which excludes 0 exactly when the pair is called.

"max-t": single-step bootstrap max-T simultaneous intervals on paired differences (Westfall-Young,
Romano-Wolf single step). For runs i < j: d = theta_i - theta_j on the full data, D^(b) the same
difference in resample b (one W for every run, so the difference is paired), se = SD of D^(b) (ddof 1),
T^(b) = max over pairs with se > 0 of |D^(b) - d| / se, c = the 95th percentile of T (type 7), and the
simultaneous interval d +/- c * se. A pair is called only when that interval excludes 0. Kept to compare:
among equal runs it calls a pair in more than 5% of leaderboards (bench/stats_coverage.py --part table:
up to 14% at 24 items with 10 runs, where Holm's rule stays under 5%).

"overlap": a run wins only when the two 95% intervals do not overlap; latency and cost only at 1.2x;
fewer than 10 cases on either side is a tie.
"""

from __future__ import annotations

import numpy as np

from .quantiles import linear
from .student import t_isf, t_ppf

BETTER, WORSE, TIE = "better", "worse", "can't tell apart"
OVERLAP = "overlap"  # the comparison rule of non-overlapping intervals (see the module's docstring)
MIN_CASES = 10
RATIO_FACTOR = 1.2
PAIR_BLOCK = 32


def pair_index(runs: int) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(runs, k=1)
    return i.astype(np.int64), j.astype(np.int64)


def pair_differences(x: np.ndarray, ii: np.ndarray, jj: np.ndarray, sl: slice) -> np.ndarray:
    """x[:, ii[sl]] - x[:, jj[sl]] (rows x pairs) for consecutive pairs in pair_index order.

    In that order the pairs of one first run i have consecutive second runs, so each stretch is one
    broadcast subtraction of a column from a slice of columns instead of two gathers of scattered
    columns: the same elementwise differences, bit for bit, several times faster. The result is in
    Fortran order (each pair's resamples contiguous), the layout numpy gives the gathered columns:
    the reductions over the resamples that follow (mean, sum of squares) then add in the same order.
    Fastest when x is in Fortran order too (np.asfortranarray once per family): every read and write
    is then contiguous.
    """
    a, b = ii[sl].tolist(), jj[sl].tolist()
    out = np.empty((x.shape[0], len(a)), dtype=x.dtype, order="F")
    start = 0
    while start < len(a):
        i, j = a[start], b[start]
        stop = start + 1
        while stop < len(a) and a[stop] == i and b[stop] == j + (stop - start):
            stop += 1
        np.subtract(x[:, i:i + 1], x[:, j:j + stop - start], out=out[:, start:stop])
        start = stop
    return out


def _call(low: float, high: float, higher_is_better: bool) -> str:
    if low > 0:
        return BETTER if higher_is_better else WORSE
    if high < 0:
        return WORSE if higher_is_better else BETTER
    return TIE


def max_t(estimates: np.ndarray, thetas: np.ndarray, higher_is_better: bool = True,
          level: float = 0.95) -> tuple[float | None, list[dict]]:
    """(c, pairs) for the runs (columns of thetas, B x R). Resamples where a run has no value are left out.

    Each pair: a, b (column indices, a < b), diff = theta_a - theta_b, se, low, high, call (for a).
    """
    thetas = thetas[~np.isnan(thetas).any(axis=1)]
    ii, jj = pair_index(len(estimates))
    d = estimates[ii] - estimates[jj]
    se = np.zeros(len(ii))
    t_max = np.full(thetas.shape[0], -np.inf)
    delta = np.asfortranarray(thetas - estimates)  # D^(b) - d = delta_i - delta_j
    usable = len(ii) if thetas.shape[0] > 1 else 0  # an SD needs two resamples
    for start in range(0, usable, PAIR_BLOCK):  # small blocks of pairs stay in the CPU cache
        sl = slice(start, start + PAIR_BLOCK)
        dev = pair_differences(delta, ii, jj, sl)
        centred = dev - dev.mean(axis=0)
        s = np.sqrt(np.einsum("ij,ij->j", centred, centred) / (thetas.shape[0] - 1))
        se[sl] = s
        ok = s > 0
        if ok.any():
            z = np.abs(dev if ok.all() else dev[:, ok])
            z /= s[ok]
            np.maximum(t_max, z.max(axis=1), out=t_max)
    has_t = bool(np.any(se > 0))
    c = float(linear(t_max, level)[0]) if has_t else None
    pairs = []
    low: float | None
    high: float | None
    for k, (a, b) in enumerate(zip(ii.tolist(), jj.tolist())):
        if se[k] > 0 and c is not None:
            low, high = float(d[k] - c * se[k]), float(d[k] + c * se[k])
            call = _call(low, high, higher_is_better)
        else:
            low = high = None
            call = TIE
        pairs.append({"a": a, "b": b, "diff": float(d[k]), "se": float(se[k]), "low": low, "high": high,
                      "call": call})
    return c, pairs


def _paired_spread(estimates: np.ndarray, thetas: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(d, SD of D^(b) with ddof 1, the difference D^(b) every resample gives or NaN when it varies) for
    every pair, in pair_index order; the SD of a difference that never varies is 0."""
    ii, jj = pair_index(len(estimates))
    d = estimates[ii] - estimates[jj]
    sd, centre, same = np.zeros(len(ii)), np.zeros(len(ii)), np.zeros(len(ii))
    rows = thetas.shape[0]
    thetas = np.asfortranarray(thetas)  # each run's resamples contiguous (see pair_differences)
    for start in range(0, len(ii) if rows > 1 else 0, PAIR_BLOCK):
        sl = slice(start, start + PAIR_BLOCK)
        dev = pair_differences(thetas, ii, jj, sl)
        same[sl] = dev[0]
        centre[sl] = dev.mean(axis=0)
        dev -= centre[sl]
        sd[sl] = np.sqrt(np.einsum("ij,ij->j", dev, dev) / (rows - 1))
    flat = np.zeros(len(ii), dtype=bool)
    maybe = np.flatnonzero(_maybe_flat(sd, centre, rows)) if rows > 1 else np.zeros(0, dtype=np.int64)
    for start in range(0, len(maybe), PAIR_BLOCK):  # whether they are: max = min, as on every pair before
        k = maybe[start:start + PAIR_BLOCK]
        dev = thetas[:, ii[k]] - thetas[:, jj[k]]  # the same differences, bit for bit
        flat[k] = dev.max(axis=0) == dev.min(axis=0)
    return d, np.where(flat, 0.0, sd), np.where(flat, same, np.nan)


def _maybe_flat(sd: np.ndarray, centre: np.ndarray, rows: int) -> np.ndarray:
    """The pairs whose differences may be the same in every resample, from their mean and computed SD: every
    such pair and a few more (a cheaper test than max = min on every pair's differences).

    When all `rows` differences equal v, their computed mean m is v up to rounding, |m - v| <= (rows + 1) u |v|
    (u = 2**-53, in any order of addition), so the centred values are all the same, at most that in magnitude,
    and the computed SD is at most about 2 (rows + 1) u |v|: below rows 2**-47 |m|, with a wide margin. Below
    |m| = 2**-900 underflow could break that bound, and an SD that is not finite proves nothing: those pairs
    are kept too.
    """
    size = np.abs(centre)
    with np.errstate(invalid="ignore", over="ignore"):
        return ~(sd > rows * 2.0**-47 * size) | ~(size >= 2.0**-900) | ~np.isfinite(sd)


def holm(estimates: np.ndarray, thetas: np.ndarray, df: int, higher_is_better: bool = True,
         level: float = 0.95) -> tuple[float | None, list[dict]]:
    """(c of the first step, pairs) by Holm's step-down on studentized paired differences (module notes).

    Resamples where a run has no value are left out. Each pair: a, b (column indices, a < b), diff, se,
    t, c, low, high, call (for a). With fewer than two resamples nothing is called and c is None.
    """
    thetas = thetas[~np.isnan(thetas).any(axis=1)]
    ii, jj = pair_index(len(estimates))
    m = len(ii)
    if m == 0 or thetas.shape[0] < 2:
        return None, [{"a": a, "b": b, "diff": float(estimates[a] - estimates[b]), "se": None, "t": None, "c": None,
                       "low": None, "high": None, "call": TIE} for a, b in zip(ii.tolist(), jj.tolist())]
    d, sd, constant = _paired_spread(estimates, thetas)
    se = sd
    t = np.zeros(m)
    np.divide(np.abs(d), se, out=t, where=se > 0)
    zero = se == 0  # the difference is the same in every resample
    t[zero & (d * np.nan_to_num(constant) > 0)] = np.inf  # called whatever the critical value
    alpha = 1 - level
    steps = np.arange(m)
    crit = t_isf(alpha / (2 * (m - steps)), df) if df > 0 else np.full(m, np.inf)
    order = np.argsort(-t, kind="stable")  # decreasing t, ties by pair index
    passed = (t[order] == np.inf) | (t[order] > crit)
    stop = int(np.argmin(passed)) if not passed.all() else m  # the first step that fails ends the calls
    c_pair = np.empty(m)
    c_pair[order[:stop]] = crit[:stop]
    if stop < m:
        c_pair[order[stop:]] = crit[stop]
    called = (t == np.inf) | (t > c_pair)
    # from the full-data difference to the one every resample gives, when the difference never varies
    with np.errstate(invalid="ignore"):  # no critical value (df 0) times no spread: not used
        low = np.where(zero, np.fmin(d, constant), d - c_pair * se)
        high = np.where(zero, np.fmax(d, constant), d + c_pair * se)
    good, bad = (BETTER, WORSE) if higher_is_better else (WORSE, BETTER)
    calls = np.where(called & (low > 0), good, np.where(called & ~(low > 0) & (high < 0), bad, TIE)).tolist()
    pairs = [{"a": a, "b": b, "diff": dk, "se": sk, "t": tk, "c": ck, "low": lo, "high": hi, "call": call}
             for a, b, dk, sk, tk, ck, lo, hi, call in zip(ii.tolist(), jj.tolist(), d.tolist(), se.tolist(),
                                                            t.tolist(), c_pair.tolist(), low.tolist(),
                                                            high.tolist(), calls)]
    return float(crit[0]), pairs


POWER = 0.8
# Fewer degrees of freedom (items less groups resampled separately) than this and a family is too small
# for its intervals and calls to be trusted: no call is made. Derived from bench/stats_coverage.py (see
# the statistics page): the smallest design at which every interval's coverage stayed within 94-96%.
MIN_CALL_DF = 17
TOO_SMALL = (f"too small to call: fewer than {MIN_CALL_DF} degrees of freedom (items less groups resampled "
             "separately), where the simulation shows the intervals no longer hold their 95%")


def min_detectable(c: float | None, se: np.ndarray, df: int, power: float = POWER) -> float | None:
    """The smallest true difference a pair of the family is called at with 80% power: (c + t_0.8) x se, with c
    the critical value of Holm's first step (a lone better run is judged there), t_0.8 the 80% quantile of
    Student's t with df degrees of freedom and se the median standard error of the family's pairs. None
    when no pair has a standard error."""
    se = np.asarray([x for x in se if x is not None and x > 0], dtype=np.float64)
    if c is None or not se.size or df < 1:
        return None
    return float((c + t_ppf(power, df)) * np.median(se))


def overlap_calls(estimates: np.ndarray, lows: np.ndarray, highs: np.ndarray, cases: np.ndarray,
             higher_is_better: bool = True) -> list[dict]:
    """The overlap rule: a wins only when its 95% interval lies wholly beyond b's; under 10 cases is a tie."""
    pairs = []
    ii, jj = pair_index(len(estimates))
    for a, b in zip(ii.tolist(), jj.tolist()):
        call = TIE
        if min(cases[a], cases[b]) >= MIN_CASES:
            if lows[a] > highs[b]:
                call = BETTER if higher_is_better else WORSE
            elif highs[a] < lows[b]:
                call = WORSE if higher_is_better else BETTER
        pairs.append({"a": a, "b": b, "diff": float(estimates[a] - estimates[b]), "call": call})
    return pairs


def ratio_rule(values: np.ndarray, cases: np.ndarray, factor: float = RATIO_FACTOR) -> list[dict]:
    """The overlap rule for latency and cost (lower is better): a wins only when b's value is at least 1.2x a's."""
    pairs = []
    ii, jj = pair_index(len(values))
    for a, b in zip(ii.tolist(), jj.tolist()):
        call = TIE
        if min(cases[a], cases[b]) >= MIN_CASES:
            if values[b] >= factor * values[a]:
                call = BETTER
            elif values[a] >= factor * values[b]:
                call = WORSE
        pairs.append({"a": a, "b": b, "ratio": float(values[a] / values[b]) if values[b] else None, "call": call})
    return pairs
