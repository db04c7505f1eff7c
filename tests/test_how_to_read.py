"""The "how to read" page names, for every example suite, the headline metric and the half it ranks on,
as the suite's own configuration declares them (the page is prose: this keeps it from drifting)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from generator.suite.plugins import load_registry

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "content" / "pages" / "how-to-read.md"


def _rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 4 and cells[0] not in ("Suite", "---"):
            rows[cells[0]] = cells
    return rows


SUITES = sorted(p.parent.name for p in (ROOT / "content" / "suites").glob("*/suite.toml"))


@pytest.mark.parametrize("name", SUITES)
def test_each_suite_has_its_headline_and_half_on_the_page(name: str) -> None:
    config = tomllib.loads((ROOT / "content" / "suites" / name / "suite.toml").read_text(encoding="utf-8"))
    rows = _rows()
    assert config["title"] in rows, f"no row for {config['title']} on {PAGE.name}"
    _, headline, ranked_on, why = rows[config["title"]]
    suite = load_registry(ROOT).get(config["scorer"])
    label = {m.name: m.label for m in suite.metrics}[config["headline"]]
    assert label.lower() in headline.lower()
    half = config["headline_half"]
    assert ranked_on.startswith(f"{half} half" if half == "private" else half), ranked_on
    assert why


def test_the_page_has_no_row_for_a_suite_that_does_not_exist() -> None:
    titles = {tomllib.loads((ROOT / "content" / "suites" / n / "suite.toml").read_text())["title"] for n in SUITES}
    assert set(_rows()) == titles
