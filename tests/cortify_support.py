"""Scoring one reply to one CortifyBench item with scorer A, for the tests."""

from __future__ import annotations

from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.suites.cortify import SUITE


def record(content: str) -> dict:
    return {"item": "x", "repeat": 0, "request": {},
            "attempts": [{"start": "2026-11-01T00:00:00Z", "status": 200, "error": None, "latency_ms": 1.0}],
            "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}}


def score_rows(raw: dict, content: str) -> list:
    spec, problems = SUITE.parse_item(raw)
    assert not problems, problems
    item = Item(raw["id"], raw["dataset"], raw["half"], raw.get("strata", {}), raw["document"], spec)
    return SUITE.score(item, read_outcome(record(content), SUITE.extract_answer, SUITE.answer_what), "run", 0)


def score_content(raw: dict, content: str) -> tuple[float, ...]:
    return SUITE.item_figures(score_rows(raw, content))
