"""Every au-bas figure that reaches a page (rule 4, per-type figures included) is a function of the
verdict rows' fields the agreement gate compares (unit, verdict, points, order): on every shared
case, the figures computed from scorer A's rows, from scorer B's rows (only those fields kept),
and by scorer B's own `figures` are equal."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import orjson
import pytest

from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.pipeline.crosscheck import ScorerBProcess, node_version
from generator.score.verdicts import Verdict
from generator.suites.aubas import SUITE
from tests.test_aubas import VECTORS, record_for

ROOT = Path(__file__).resolve().parents[1]
CASES = VECTORS["cases"]
FIGURES_B = """
require(process.argv[1] + '/scorer-js/core.js');
const A = require(process.argv[1] + '/generator/suites/aubas/scorer.js');
const rows = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(rows.map((r) => A.figures(r))));
"""


def _item(case: dict) -> dict:
    ledger = VECTORS["ledgers"][case["ledger"]]
    return {"id": "x", "dataset": "cases", "half": "public", "document": {"locale": "en-AU"},
            "ledger": ledger["ledger"], "key": ledger["key"]}


def _rows_a(case: dict) -> list[Verdict]:
    raw = _item(case)
    spec, problems = SUITE.parse_item(raw)
    assert not problems
    item = Item("x", "cases", "public", {}, raw["document"], spec)
    return SUITE.score(item, read_outcome(record_for(case), SUITE.extract_answer, SUITE.answer_what), "r", 0)


def _gate_fields(row: dict) -> Verdict:
    """A row of scorer B with nothing but what the gate compares."""
    return Verdict("r", "x", 0, row["unit"], "", row["verdict"], row["points"], "", row["order"])


@pytest.fixture(scope="module")
def rows_b() -> list[list[dict]]:
    with ScorerBProcess([SUITE]) as process:
        lines = [orjson.dumps({"scorer": "au-bas", "item": _item(c), "record": record_for(c), "run": "r", "repeat": 0})
                 for c in CASES]
        return process.score(lines)  # type: ignore[return-value]


def test_figures_from_either_scorers_rows_are_equal(rows_b):
    node, _ = node_version()
    out = subprocess.run([node, "-e", FIGURES_B, str(ROOT)], input=json.dumps(rows_b), capture_output=True, text=True,
                         check=True)
    own_b = json.loads(out.stdout)
    assert len(own_b) == len(CASES)
    for case, rows, fig_b in zip(CASES, rows_b, own_b):
        a = dict(zip(SUITE.figures, SUITE.item_figures(_rows_a(case))))
        from_b_rows = dict(zip(SUITE.figures, SUITE.item_figures([_gate_fields(r) for r in rows])))
        assert a == from_b_rows, case["id"]
        assert set(fig_b) == set(a), case["id"]
        assert all(fig_b[k] == pytest.approx(v, abs=1e-12) for k, v in a.items()), (case["id"], fig_b, a)


def test_an_unknown_code_counts_in_no_per_type_figure():
    case = next(c for c in CASES if c["id"] == "unknown-code-with-colon")
    figures = dict(zip(SUITE.figures, SUITE.item_figures(_rows_a(case))))
    assert figures["claimed_gst_miscalculated"] == 2  # T02 (true) and T02:x (an unknown id), not "x:gst_miscalculated"
    for name, value in case["expected"]["figures"].items():
        assert figures[name] == pytest.approx(value, abs=1e-12), name
