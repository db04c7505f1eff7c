"""`places_of`: the decimal places a printed rate needs, and a clear error for a non-finite one."""

from decimal import Decimal

import pytest

from generator.example.locales import places_of


@pytest.mark.parametrize(("rate", "places"), [("8.250", 2), ("20", 0), ("5.5", 1), ("8.875", 3), ("2E+1", 0)])
def test_places_of_a_finite_rate(rate, places):
    assert places_of(Decimal(rate)) == places


@pytest.mark.parametrize("rate", ["NaN", "Infinity", "-Infinity"])
def test_places_of_a_non_finite_number_is_a_clear_error(rate):
    with pytest.raises(ValueError, match="not a finite number"):
        places_of(Decimal(rate))
