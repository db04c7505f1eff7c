"""Score adversarial cases with both scorers and list where they differ."""

from __future__ import annotations

import random

import orjson

from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.suites.extracting import SUITE
from tests.adversarial import make_case


def scorer_a(item: dict, record: dict) -> list[tuple]:
    spec, problems = SUITE.parse_item(item)
    assert not problems, problems
    rows = SUITE.score(Item(item["id"], "d", "public", {}, item["document"], spec), read_outcome(record), "r", 0)
    return [(r.unit, r.verdict, r.points, r.order) for r in rows]


def differences(process, rnd: random.Random, count: int, start: int = 0) -> list[dict]:
    cases = [make_case(rnd, start + k) for k in range(count)]
    lines = [orjson.dumps({"scorer": "extracting", "item": item, "record": record, "run": "r", "repeat": 0}) for item, record in cases]
    found = []
    for (item, record), rows_b in zip(cases, process.score(lines)):
        a = scorer_a(item, record)
        b = [(r["unit"], r["verdict"], r["points"], r["order"]) for r in rows_b] if isinstance(rows_b, list) else rows_b
        if a != b:
            found.append({"field": item["fields"][0], "locale": item["document"]["locale"],
                          "content": record["response"]["choices"][0]["message"]["content"],
                          "attempt": record["attempts"][0], "scorer_a": a, "scorer_b": b})
    return found
