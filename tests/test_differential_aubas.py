"""Differential testing of the au-bas scorers: awkward replies to generated ledgers.

40 hypothesis examples x 50 replies = 2,000 cases, batched through one Node process.
"""

from __future__ import annotations

import json
import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.example.aubas_corpus import DATASETS, make_item
from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.pipeline.crosscheck import ScorerBProcess
from generator.suites.aubas import SUITE
from generator.suites.aubas.ledger import FAULT_CODES, LABELS

ITEMS = [make_item(ds, "public", k) for ds in DATASETS for k in range(3)]
SPECS = {i["id"]: SUITE.parse_item(i)[0] for i in ITEMS}


def _figure(rnd: random.Random, value: str) -> str:
    v = value if rnd.random() < 0.6 else f"{float(value) + rnd.choice((0.01, -0.01, 1, 0.001)):.3f}"
    form = rnd.randrange(7)
    if form == 0:
        return v  # a JSON number
    text = [v, "$" + v, f"{float(v):,.2f}", v + " ", "\u00a0" + v, "+" + v, v.replace(".", ",")][form]
    return json.dumps(text)


def _reply(rnd: random.Random, item: dict) -> str:
    key = item["key"]
    ids = [r["id"] for r in item["ledger"]["rows"]] + ["T99", "t01", "T01 ", "\u00e9", "\U0001d518"]
    faults: dict = {t: list(c) for t, c in key["faults"].items() if rnd.random() < 0.8}
    for _ in range(rnd.randint(0, 4)):
        faults.setdefault(rnd.choice(ids), []).append(rnd.choice(FAULT_CODES + ("made_up", "")))
    if rnd.random() < 0.1:
        faults = {t: c[0] for t, c in faults.items() if c}
    faults_json = json.dumps(faults, ensure_ascii=rnd.random() < 0.5)
    if rnd.random() < 0.05:
        faults_json = rnd.choice(('["T01"]', '{"T01": [1]}', "null", '{"T01": []}', "7"))
    body = "{" + ", ".join(f'"{k}": {_figure(rnd, key[k])}' for k in LABELS if rnd.random() < 0.95)
    body += (", " if body != "{" else "") + f'"faults": {faults_json}' + "}"
    roll = rnd.random()
    if roll < 0.15:
        body = "```json\n" + body + "\n```"
    elif roll < 0.2:
        body = "```JSON\n" + body + "\n```"
    elif roll < 0.25:
        body = body[: rnd.randint(0, len(body))]
    elif roll < 0.3:
        body = "Answer: " + body
    content = "<answer>" + rnd.choice(("", " ", "\n", "\u00a0")) + body + rnd.choice(("", "\n", "\u3000")) + "</answer>"
    if rnd.random() < 0.1:
        content = "<answer>{}</answer> draft\n" + content
    if rnd.random() < 0.05:
        content = content + "<answer>"
    return content


@pytest.fixture(scope="module")
def scorer_b():
    with ScorerBProcess([SUITE]) as process:
        yield process


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_au_bas_scorers_agree(scorer_b, seed):
    rnd = random.Random(seed)
    cases, lines = [], []
    for _ in range(50):
        item = rnd.choice(ITEMS)
        record = {"item": item["id"], "repeat": 0, "attempts": [{"status": 200, "error": None}],
                  "response": {"choices": [{"message": {"content": _reply(rnd, item)}}]}}
        cases.append((item, record))
        lines.append(orjson.dumps({"scorer": "au-bas", "item": item, "record": record, "run": "r", "repeat": 0}))
    for (item, record), rows_b in zip(cases, scorer_b.score(lines)):
        obj = Item(item["id"], item["dataset"], "public", {}, item["document"], SPECS[item["id"]])
        rows_a = SUITE.score(obj, read_outcome(record, SUITE.extract_answer, SUITE.answer_what), "r", 0)
        a = [(r.unit, r.verdict, r.points) for r in rows_a]
        b = [(r["unit"], r["verdict"], r["points"]) for r in rows_b] if isinstance(rows_b, list) else rows_b
        assert a == b, record["response"]["choices"][0]["message"]["content"]
