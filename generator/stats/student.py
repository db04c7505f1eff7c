"""Student's t and the normal distribution, from scipy.special's functions: the ones scipy.stats' `t` and
`norm` call for the same quantities (t.isf(q, df) is -stdtrit(df, q), t.ppf is stdtrit, norm.cdf is
ndtr(x) and norm.sf ndtr(-x)), without importing scipy.stats, which takes about a second. Only levels
between 0 and 1 and positive degrees of freedom give a value (the ends: infinite), anything else NaN, as
in scipy.stats. tests/test_stats_student.py checks every value against scipy.stats bit for bit."""

from __future__ import annotations

import numpy as np
from scipy import special


def _quantile(q, df, value, at_zero: float):
    """value where 0 < q < 1, at_zero where q is 0 and -at_zero where it is 1 (the interval's ends), NaN
    elsewhere or without positive degrees of freedom; + 0.0 as scipy.stats adds its location (a zero is
    +0.0)."""
    q, df = np.asarray(q, dtype=np.float64), np.asarray(df, dtype=np.float64)
    inside = (q > 0) & (q < 1) & (df > 0)
    with np.errstate(invalid="ignore"):
        out = np.select([inside, (q == 0) & (df > 0), (q == 1) & (df > 0)],
                        [np.asarray(value, dtype=np.float64) + 0.0, at_zero, -at_zero], np.nan)
    return out[()]


def t_isf(q, df):
    """The level-q upper quantile of Student's t with df degrees of freedom (scalar or array, as q)."""
    return _quantile(q, df, -special.stdtrit(df, q), np.inf)


def t_ppf(q, df):
    """The level-q quantile of Student's t with df degrees of freedom."""
    return _quantile(q, df, special.stdtrit(df, q), -np.inf)


def normal_cdf(x):
    return special.ndtr(x)


def normal_sf(x):
    return special.ndtr(-np.asarray(x, dtype=np.float64))[()]
