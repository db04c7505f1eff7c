"""Differential testing: adversarial answers and labels; both scorers must agree on every verdict.

- 100 hypothesis examples x 200 cases from the adversarial generator (tests/adversarial.py) =
  20,000 cases, each example's cases drawn from a seed that hypothesis chooses;
- plus values built by hypothesis's own strategies (arbitrary unicode text, number-like strings
  from digits, separators, signs and markers), 40 examples x 50 values.
All cases are batched through one Node process.
"""

from __future__ import annotations

import json
import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.pipeline.crosscheck import ScorerBProcess
from generator.suites.extracting import SUITE as EXTRACTING
from tests.differential import differences, scorer_a

CASES_PER_EXAMPLE = 200
COMMON = dict(deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture(scope="module")
def scorer_b():
    with ScorerBProcess([EXTRACTING]) as process:
        yield process


@settings(max_examples=100, **COMMON)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_scorers_agree_on_adversarial_cases(scorer_b, seed):
    found = differences(scorer_b, random.Random(seed), CASES_PER_EXAMPLE)
    assert not found, found[:3]


NUMBERISH = st.text(alphabet="0123456789,. \u00a0\u202f\u2009-+\u2212()$€¥%eE٠١０１'", max_size=16)
FIELDS = [
    {"name": "v", "type": "money", "kind": "printed", "answer": "1234.50"},
    {"name": "v", "type": "count", "kind": "printed", "answer": 1234},
    {"name": "v", "type": "number", "kind": "computed", "answer": "12.3", "places": 1},
    {"name": "v", "type": "text", "kind": "printed", "answer": "Straße café"},
    {"name": "v", "type": "identifier", "kind": "printed", "answer": "INV-0042"},
    {"name": "v", "type": "date", "kind": "printed", "answer": "2026-03-14"},
    {"name": "v", "type": "currency", "kind": "printed", "answer": "EUR"},
    {"name": "v", "type": "text", "kind": "missing", "answer": None},
]


@settings(max_examples=40, **COMMON)
@given(values=st.lists(st.one_of(NUMBERISH, st.text(max_size=12)), min_size=50, max_size=50),
       locale=st.sampled_from(["en-US", "en-GB", "de-DE", "fr-FR", "es-MX", "ja-JP"]))
def test_scorers_agree_on_hypothesis_strings(scorer_b, values, locale):
    lines, cases = [], []
    for k, value in enumerate(values):
        field = FIELDS[k % len(FIELDS)]
        item = {"id": f"h-{k}", "document": {"locale": locale}, "fields": [field]}
        content = '{"v": ' + json.dumps(value, ensure_ascii=k % 2 == 0) + "}"
        record = {"item": item["id"], "repeat": 0, "attempts": [{"status": 200, "error": None}],
                  "response": {"choices": [{"message": {"content": content}}]}}
        cases.append((item, record))
        lines.append(orjson.dumps({"scorer": "extracting", "item": item, "record": record, "run": "r", "repeat": 0}))
    for (item, record), rows_b in zip(cases, scorer_b.score(lines)):
        b = [(r["unit"], r["verdict"], r["points"], r["order"]) for r in rows_b]
        assert scorer_a(item, record) == b, (item["fields"][0], record["response"])
