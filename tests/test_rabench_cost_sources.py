"""Every figure of RA-Bench's cost model (the defaults and the sweep the code uses) is listed on the rule
page with its public source and a date, or is said to be an assumption."""

from __future__ import annotations

import re
from pathlib import Path

from generator.suites.rabench import measure
from generator.suites.rabench.tables import SWEEP

PAGE = Path(__file__).resolve().parents[1] / "content" / "pages" / "scoring-ra-bench.md"


def source_rows() -> dict[str, tuple[str, str, str]]:
    """figure -> (value, source, status) of the table under 'Where the cost figures come from'."""
    text = PAGE.read_text(encoding="utf-8").split("*Where the cost figures come from.*", 1)[1]
    rows = {}
    for line in text.split("\n\n", 2)[1].splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0]] = (cells[1], cells[2], cells[3])
    return rows


def test_every_default_and_sweep_value_the_code_uses_is_on_the_page():
    rows = source_rows()
    defaults = measure.expected_cost.__defaults__
    assert defaults == (0.01, 100.0, 17.0)
    listed = {(name, float(value)) for name, (value, _s, _t) in rows.items() if re.fullmatch(r"[0-9.]+", value)}
    names = {"p": "p, ", "c_miss": "C_miss, ", "c_review": "C_review, "}
    for key, value in zip(("p", "c_miss", "c_review"), defaults):
        assert any(n.startswith(names[key]) and v == value for n, v in listed), (key, value)
    for _name, change in SWEEP:
        for key, value in change.items():
            assert any(n.startswith(names[key]) and v == value for n, v in listed), (key, value)


def test_each_figure_has_a_dated_public_source_or_says_it_is_an_assumption():
    rows = source_rows()
    assert len(rows) >= 11
    for name, (_value, source, status) in rows.items():
        if "assumption" in status and source.startswith("none found"):
            continue
        if status.startswith("derived from"):  # a product of rows that carry their own sources
            continue
        assert re.search(r"https?://", source), name  # a public page
        assert re.search(r"\b(19|20)[0-9]{2}\b", source), name  # and its date
