"""Turn a case of tests/vectors/extracting.json into a stored record and a one-field item."""

from __future__ import annotations

import json
from pathlib import Path

from generator.content import Item
from generator.parse.response import read_outcome
from generator.suites import extracting

VECTORS = Path(__file__).parent / "vectors" / "extracting.json"
ABSENT = "<absent>"


def load_cases() -> list[dict]:
    return json.loads(VECTORS.read_text(encoding="utf-8"))["cases"]


def case_record(case: dict) -> dict:
    if "record" in case:
        return case["record"]
    if "content" in case:
        content = case["content"]
    elif case["answer_json"] == ABSENT:
        content = "{}"
    else:
        content = '{"%s": %s}' % (case["field"]["name"], case["answer_json"])
    return {"item": "case", "repeat": 0, "request": {},
            "attempts": [{"start": "2026-11-01T00:00:00Z", "status": 200, "error": None, "latency_ms": 1.0}],
            "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]},
            "usage": None, "latency_ms": 1.0}


def score_case(case: dict):
    raw = {"id": "case", "document": {"locale": case["locale"]}, "fields": [case["field"]]}
    spec, problems = extracting.parse_spec(raw)
    assert not problems, problems
    item = Item("case", "d", "public", {}, raw["document"], spec)
    (row,) = extracting.score(item, read_outcome(case_record(case)), "run", 0)
    return row
