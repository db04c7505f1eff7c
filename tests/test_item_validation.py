"""Item validation is one rule (rule 5 of the extracting page, rule 1 of the au-bas page): scorer A's
`parse_item` and scorer B's `itemProblems` accept and reject the same items (tests/vectors/items.json)."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from generator.pipeline.crosscheck import ScorerBProcess
from generator.suites.aubas import SUITE as AUBAS
from generator.suites.extracting import SUITE as EXTRACTING

SUITES = {"extracting": EXTRACTING, "au-bas": AUBAS}
CASES = json.loads((Path(__file__).parent / "vectors" / "items.json").read_text(encoding="utf-8"))["cases"]


@pytest.fixture(scope="module")
def checks_b() -> dict[str, list[str]]:
    """Scorer B's problems for every case, through the CLI's check line."""
    with ScorerBProcess(list(SUITES.values())) as process:
        out = process.score([orjson.dumps({"scorer": c["suite"], "check": c["item"]}) for c in CASES])
    return {c["id"]: o["problems"] if isinstance(o, dict) and "problems" in o else o for c, o in zip(CASES, out)}


def test_cases_cover_both_suites_and_both_answers():
    assert len({c["id"] for c in CASES}) == len(CASES)
    assert {(c["suite"], c["valid"]) for c in CASES} == {(s, v) for s in SUITES for v in (True, False)}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_scorer_a(case):
    _spec, problems = SUITES[case["suite"]].parse_item(case["item"])
    assert (not problems) == case["valid"], problems


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_scorer_b(case, checks_b):
    problems = checks_b[case["id"]]
    assert isinstance(problems, list), problems
    assert (not problems) == case["valid"], problems
