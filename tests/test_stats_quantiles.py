"""The two quantile rules: type 7 for bootstrap percentiles, nearest rank for latency."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from generator.stats.quantiles import ALPHA, INTERVAL_PROBS, interval, linear, nearest_rank


def test_alpha_is_computed_as_scipy_does():
    assert ALPHA == (1 - 0.95) / 2 and INTERVAL_PROBS[1] == 1 - ALPHA


def test_linear_equals_scipy_quantile_and_numpy_linear():
    rng = np.random.default_rng(3)
    for size in (1, 2, 5, 37, 1000, 9999):
        x = rng.normal(size=(size, 4))
        ours = linear(x, INTERVAL_PROBS)
        if hasattr(scipy.stats, "quantile"):
            assert np.array_equal(ours, scipy.stats.quantile(x.T, INTERVAL_PROBS, axis=-1).T)
        assert np.allclose(ours, np.quantile(x, INTERVAL_PROBS, axis=0, method="linear"), rtol=1e-14, atol=0)


def test_linear_ignores_nan_per_column():
    x = np.array([[1.0, np.nan], [2.0, 5.0], [3.0, np.nan], [np.nan, np.nan]])
    assert linear(x, 0.5).tolist() == [2.0, 5.0]
    all_nan = np.full((3, 1), np.nan)
    assert np.isnan(interval(all_nan)).all()


def test_nearest_rank_is_numpy_inverted_cdf():
    rng = np.random.default_rng(4)
    for size in (1, 2, 19, 20, 21, 100, 843):
        x = rng.lognormal(7, 0.5, size)
        for p in (50, 95, 99):
            assert nearest_rank(x, p) == np.percentile(x, p, method="inverted_cdf")


def test_nearest_rank_on_twenty_latencies():
    # 20 calls: p95 is the 19th smallest, an observed latency (linear would interpolate toward the 20th)
    x = [100.0] * 18 + [400.0, 2000.0]
    assert nearest_rank(x, 95) == 400.0
    assert nearest_rank(x, 99) == 2000.0
    assert nearest_rank(x, 50) == 100.0
    assert nearest_rank([], 50) is None
    assert np.percentile(x, 95, method="linear") == pytest.approx(480.0)
