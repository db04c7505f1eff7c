"""Public-versus-private gap of one run on the headline metric.

gap = headline on the public half - headline on the private half. The halves hold different items,
so their resamples are independent (each half has its own W); the gap's draws are the differences of
the two halves' draws, row by row, and its interval is their 95% percentile interval (expanded for the
two halves' degrees of freedom together, df, see quantiles.interval_probs). A run is flagged
when the public half is significantly better: the whole interval lies on the better side of 0. The flag
is per run and unadjusted for the number of runs: it marks a run to look at, it is not a ranking call.
"""

from __future__ import annotations

import numpy as np

from .quantiles import interval


def gap(public: float, private: float, public_draws: np.ndarray, private_draws: np.ndarray,
        higher_is_better: bool = True, df: int | None = None) -> dict:
    draws = public_draws - private_draws
    ok = ~np.isnan(draws)
    low: float | None = None
    high: float | None = None
    if ok.any():
        low, high = (float(x) for x in interval(draws[ok], df)[:, 0])
    estimate = public - private
    if low is None or high is None or np.isnan(estimate):
        flagged = False
    else:
        flagged = low > 0 if higher_is_better else high < 0
    return {"public": public, "private": private, "estimate": estimate, "low": low, "high": high,
            "flagged": bool(flagged)}
