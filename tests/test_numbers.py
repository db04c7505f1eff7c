"""The site's one number formatter (generator.numbers), unit by unit."""

from __future__ import annotations

from generator.numbers import decimals, estimate, number, plain, with_unit

M = "\u2212"


def test_plain_figures_never_use_scientific_notation():
    assert plain(3160.4) == "3,160" and f"{3160.4:.3g}" == "3.16e+03"
    assert plain(0.00007) == "0.00007" and f"{0.00007:.3g}" == "7e-05"
    assert plain(0.7012) == "0.701" and plain(12.74) == "12.7" and plain(0) == "0" and plain(-2.5) == f"{M}2.5"
    assert number(1234567.0) == "1,234,567"


def test_percent_and_points():
    assert number(95.66, "%") == "95.7" and with_unit(95.66, "%") == "95.7%"
    assert with_unit(-12.345, "%") == f"{M}12.3%" and with_unit(-0.01, "%") == "0.0%"  # never "−0.0"
    assert with_unit(61.7, "points") == "61.7 points"


def test_durations_and_speed():
    assert with_unit(3160.4, "ms") == "3,160 ms" and with_unit(59.5, "ms") == "59.5 ms"
    assert with_unit(181.6, "tokens/s") == "182 tokens/s" and with_unit(1.25, "s") == "1.2 s"


def test_money_carries_its_currency():
    assert with_unit(0.9552, "USD") == "USD 0.955" and with_unit(4.2175, "USD") == "USD 4.22"
    assert with_unit(0.00007, "EUR") == "EUR 0.00007" and with_unit(1234.5, "USD") == "USD 1,234.50"


def test_millionths_of_a_score_read_as_a_share_of_it():
    assert with_unit(250000, "millionths") == "25.0% of the score"
    assert with_unit(100000, "millionths") == "10.0% of the score"


def test_counts_and_missing_values():
    assert with_unit(1234, "count") == "1,234" and with_unit(None, "USD") == "\u2013" and number(None) == "\u2013"


def test_estimates_with_intervals_and_counts():
    assert estimate(0.0, 0.0, 0.701, "%", n=544) == "0.0% [0.0, 0.7] (n=544)"
    assert estimate(0.172, 0.0703, 0.32) == "0.172 [0.070, 0.320]"  # one number of decimals for all three
    assert estimate(3160.4, unit="ms", n=519) == "3,160 ms (n=519)"


def test_report_table_decimals():
    assert decimals(3160.5, 4) == "3,160" and decimals(7.0031e-05, 4) == "0.00007" and decimals(0.251, 4) == "0.2510"
    assert decimals(95.123, 1) == "95.1" and decimals(-0.5, 2) == f"{M}0.50" and decimals(0.0, 1) == "0.0"


def test_a_heading_names_the_unit_the_metric_declares():
    """"(%)" only for a percentage: a metric in points, in ms or without a unit says so (or nothing)."""
    from types import SimpleNamespace

    from generator.render.pages.common import metric_heading

    units = {"share": (100.0, "%"), "reward": (1.0, "points"), "wait": (1.0, "ms"), "count": (1.0, "")}
    declared = SimpleNamespace(label=lambda m: m.title(), scale=lambda m: units[m])
    sd = SimpleNamespace(declared=declared)
    assert [metric_heading(sd, m) for m in units] == ["Share (%)", "Reward (points)", "Wait (ms)", "Count"]
