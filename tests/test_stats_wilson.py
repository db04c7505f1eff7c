"""Wilson intervals against statsmodels and the reference values of the design note."""

from __future__ import annotations

import pytest
from statsmodels.stats.proportion import proportion_confint

from generator.stats.wilson import rate, wilson


def test_reference_values():
    assert wilson(0, 10) == pytest.approx((0.0, 0.27753279986288926), rel=1e-12)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(8, 10) == pytest.approx((0.49016247153664183, 0.9433178485456247), rel=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 33, 100, 864, 5000, 123457])
def test_matches_statsmodels(n):
    for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        if not 0 <= k <= n:
            continue
        low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
        ours = wilson(k, n)
        if k == 0:  # exactly 0; statsmodels' subtraction can leave a rounding residue like 2.8e-17
            assert ours[0] == 0.0 and abs(low) < 1e-15
        else:
            assert ours[0] == pytest.approx(low, rel=1e-12)
        assert ours[1] == pytest.approx(high, rel=1e-12)


def test_empty_and_invalid():
    assert wilson(0, 0) is None
    assert rate(0, 0) == {"k": 0, "n": 0, "estimate": None, "low": None, "high": None}
    with pytest.raises(ValueError):
        wilson(11, 10)
    assert wilson(10, 10)[1] == 1.0
