"""Student's t and the normal distribution from scipy.special (generator/stats/student.py): the same floats
scipy.stats' `t` and `norm` give, bit for bit, at every level and number of degrees of freedom the engine
asks for, and NaN outside them as scipy.stats gives."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm
from scipy.stats import t as student_t

from generator.stats.quantiles import ALPHA, interval_probs
from generator.stats.student import normal_cdf, normal_sf, t_isf, t_ppf


def _same(a, b) -> bool:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


@settings(max_examples=400, deadline=None)
@given(st.floats(min_value=1e-12, max_value=1 - 1e-12), st.integers(min_value=1, max_value=100_000))
def test_the_quantiles_are_scipy_stats_bit_for_bit(q, df):
    assert _same(t_isf(q, df), student_t.isf(q, df)) and _same(t_ppf(q, df), student_t.ppf(q, df))


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=-40, max_value=40))
def test_the_normal_tails_are_scipy_stats_bit_for_bit(x):
    assert _same(normal_cdf(x), norm.cdf(x)) and _same(normal_sf(x), norm.sf(x))


def test_holms_levels_as_an_array_and_the_engines_own_levels():
    for m in (1, 2, 40, 780, 3160):
        q = 0.05 / (2 * (m - np.arange(m)))
        for df in (1, 5, 30, 1999):
            assert _same(t_isf(q, df), student_t.isf(q, df))
    for df in (1, 2, 7, 39, 400, 5999):
        t = student_t.isf(ALPHA, df)
        assert _same(interval_probs(df), np.asarray([float(norm.sf(t)), float(norm.cdf(t))]))
    assert _same(t_ppf(0.8, 12), student_t.ppf(0.8, 12))


def test_outside_the_levels_and_degrees_of_freedom_it_is_nan_as_scipy_stats():
    for q, df in ((0.0, 5), (1.0, 5), (-0.1, 5), (1.5, 5), (0.3, 0), (0.3, -2)):
        assert math.isnan(t_isf(q, df)) and math.isnan(student_t.isf(q, df)) or \
            t_isf(q, df) == student_t.isf(q, df)
