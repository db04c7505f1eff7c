"""Pairwise calls within a family (suite x stratum x metric).

"max-t": single-step bootstrap max-T simultaneous intervals on paired differences (Westfall-Young,
Romano-Wolf single step). For runs i < j: d = theta_i - theta_j on the full data, D^(b) the same
difference in resample b (one W for every run, so the difference is paired), se = SD of D^(b) (ddof 1),
T^(b) = max over pairs with se > 0 of |D^(b) - d| / se, c = the 95th percentile of T (type 7), and the
simultaneous interval d +/- c * se. A pair is called only when that interval excludes 0.

"overlap": a run wins only when the two 95% intervals do not overlap; latency and cost only at 1.2x;
fewer than 10 cases on either side is a tie.
"""

from __future__ import annotations

import numpy as np

from .quantiles import linear

BETTER, WORSE, TIE = "better", "worse", "can't tell apart"
OVERLAP = "overlap"  # the comparison rule of non-overlapping intervals (see the module's docstring)
MIN_CASES = 10
RATIO_FACTOR = 1.2
PAIR_BLOCK = 32


def pair_index(runs: int) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(runs, k=1)
    return i.astype(np.int64), j.astype(np.int64)


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
    delta = thetas - estimates  # D^(b) - d = delta_i - delta_j
    usable = len(ii) if thetas.shape[0] > 1 else 0  # an SD needs two resamples
    for start in range(0, usable, PAIR_BLOCK):  # small blocks of pairs stay in the CPU cache
        sl = slice(start, start + PAIR_BLOCK)
        dev = delta[:, ii[sl]]
        dev -= delta[:, jj[sl]]
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
