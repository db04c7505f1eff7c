"""Turn a case of tests/vectors/extracting.json into a stored record and a one-field item."""

from __future__ import annotations

import json
from pathlib import Path

from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.suites.extracting import SUITE, case_record

VECTORS = Path(__file__).parent / "vectors" / "extracting.json"

__all__ = ["case_record", "load_cases", "score_case"]


def load_cases() -> list[dict]:
    return json.loads(VECTORS.read_text(encoding="utf-8"))["cases"]


def score_case(case: dict):
    raw = {"id": "case", "document": {"locale": case["locale"]}, "fields": [case["field"]]}
    spec, problems = SUITE.parse_item(raw)
    assert not problems, problems
    item = Item("case", "d", "public", {}, raw["document"], spec)
    (row,) = SUITE.score(item, read_outcome(case_record(case), SUITE.extract_answer, SUITE.answer_what), "run", 0)
    return row
