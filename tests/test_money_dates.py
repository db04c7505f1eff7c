"""One price reader (generator/inputs/money.py) and one date check (generator/inputs/iso_date.py) for Tally's own
files: `tally run` takes from providers.toml only the prices `tally rescore` accepts in run.json, and
every date field refuses what `date.fromisoformat` alone lets through."""

from __future__ import annotations

from decimal import Decimal

import pytest

from generator.harness.providers import ProviderError, load_providers
from generator.inputs.iso_date import is_iso_date
from generator.inputs.money import read_price
from generator.inputs.results import _prices_problems

PROVIDER = """
[providers.p]
base_url = "http://127.0.0.1:9/v1"
hosting = "hosted"
prices_date = "2026-11-01"

[providers.p.models.m]
input_per_mtok = "{price}"
output_per_mtok = "2.00"
"""


@pytest.mark.parametrize("value, price", [
    ("0.40", Decimal("0.40")), ("7", Decimal(7)), ("123456789.000000000001", Decimal("123456789.000000000001")),
    ("1.0000000000001", None), ("1234567890", None), ("0.1234567890123", None), ("-1", None), ("1e3", None),
    (" 1.00", None), ("NaN", None), (2.5, None), ("", None), (None, None)])
def test_a_price_is_a_bounded_decimal_string(value, price):
    got = read_price(value)
    assert got == price and (price is None or got.as_tuple() == price.as_tuple())


@pytest.mark.parametrize("price", ["1.00", "0.1234567890123", "12345678901"])
def test_the_harness_takes_only_prices_a_run_may_store(tmp_path, price):
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "providers.toml").write_text(PROVIDER.replace("{price}", price))
    stored_ok = _prices_problems({"input_per_mtok": price}) == []
    if stored_ok:
        assert load_providers(tmp_path)["p"].prices("m")["input_per_mtok"] == price
    else:  # before: taken by `tally run`, then its run.json refused by `tally rescore`
        with pytest.raises(ProviderError, match="at most nine digits before the point and twelve after"):
            load_providers(tmp_path)


@pytest.mark.parametrize("value, ok", [("2026-07-03", True), ("2024-02-29", True), ("2026-02-29", False),
                                       ("20260703", False), ("2026-W27-5", False), ("2026-07-3", False),
                                       (" 2026-07-03", False), ("2026-07-03T00:00", False), (20260703, False),
                                       ("٢٠٢٦-٠٧-٠٣", False)])
def test_a_date_is_exactly_yyyy_mm_dd_and_a_real_day(value, ok):
    assert is_iso_date(value) is ok


def test_a_suite_s_frozen_date_refuses_a_week_date(tmp_path):
    """content.py's copy took any ten characters date.fromisoformat reads, so 2026-W27-5 passed."""
    from generator.inputs.content import _freeze_problems

    assert any("frozen" in p for p in _freeze_problems({"frozen": "2026-W27-5"}))
    assert not any("frozen" in p and "date" in p for p in _freeze_problems({"frozen": "2026-07-03"}))
