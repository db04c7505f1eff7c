"""RA-Bench scorer A: the shared cases, figures and item validation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.suites.rabench import FIGURES, SUITE
from generator.suites.rabench.items import label_problems
from generator.suites.rabench.rules import canonical, line_counts, max_matching, normalise

VECTORS = json.loads((Path(__file__).parent / "vectors" / "ra-bench.json").read_text(encoding="utf-8"))


def score(raw_item: dict, record: dict):
    spec, problems = SUITE.parse_item(raw_item)
    assert not problems, problems
    item = Item(raw_item["id"], raw_item["dataset"], raw_item["half"], {}, raw_item["document"], spec)
    rows = SUITE.score(item, read_outcome(record, SUITE.extract_answer, SUITE.answer_what), "run", 0)
    return rows, dict(zip(FIGURES, SUITE.item_figures(rows)))


@pytest.mark.parametrize("case", VECTORS["cases"], ids=[c["id"] for c in VECTORS["cases"]])
def test_vector(case):
    rows, _figures = score(case["item"], case["record"])
    assert [[r.unit, r.verdict] for r in rows] == case["expected"]
    orders = {r.unit: r.order for r in rows}
    for unit, order in case.get("orders", {}).items():
        assert orders[unit] == order, unit


def test_vectors_cover_every_verdict_and_enough_cases():
    verdicts = {v for c in VECTORS["cases"] for _u, v in c["expected"]}
    assert verdicts >= {"correct", "wrong", "null_ok", "invented", "false_null", "failed_call", "unparseable",
                        "counted", "found", "missed", "false_flag", "cleared", "not_run", "caught", "named",
                        "not_named", "not_flagged", "proof", "no_proof", "false_match", "no_match", "exact_match",
                        "match"}
    assert len(VECTORS["cases"]) >= 200


def test_canonical_decimal():
    from decimal import Decimal
    assert [canonical(Decimal(t)) for t in ("0.70", "1.0", "5E-1", "-0.00", "1e2", "-1.250", "0")] == \
        ["0.7", "1", "0.5", "0", "100", "-1.25", "0"]


def test_normalise_and_matching():
    assert normalise("  Café Rosé & Sons, Ltd.\u00a0") == "cafe rose and sons ltd"
    assert max_matching([[0, 1], [0]], 2) == 2  # greedy on the first edge would find 1
    lab = [{"description": "Tea", "total": "2.00"}, {"description": "Tea", "total": "2.02"}]
    assert line_counts(lab, [{"description": "tea", "total": "2.01"}, {"description": "TEA", "total": "2"}]) == (2, 0, 0)


def test_figures_of_a_genuine_and_a_failed_response():
    case = next(c for c in VECTORS["cases"] if c["id"] == "exact-answer")
    _rows, f = score(case["item"], case["record"])
    assert f["base"] == f["valid"] == f["all_right"] == f["genuine"] == f["has_risk"] == 1
    assert (f["fields_n"], f["fields_ok"], f["li_tp"], f["li_fp"], f["li_fn"]) == (7, 7, 3, 0, 0)
    assert f["fake"] == f["caught"] == f["false_flag"] == 0
    case = next(c for c in VECTORS["cases"] if c["id"] == "fake-failed-call-missed")
    _rows, f = score(case["item"], case["record"])
    assert (f["base"], f["valid"], f["fake"], f["caught"], f["has_risk"], f["li_fn"]) == (1, 0, 1, 0, 0, 3)


def test_threshold_07_figures():
    case = next(c for c in VECTORS["cases"] if c["id"] == "risk-trailing-zeros")
    _rows, f = score(case["item"], case["record"])
    assert f["false_flag"] == f["false_flag_07"] == 1
    case = next(c for c in VECTORS["cases"] if c["id"] == "risk-0.5-flags-genuine")
    _rows, f = score(case["item"], case["record"])
    assert f["false_flag"] == 1 and f["false_flag_07"] == 0


def test_transform_has_only_its_duplicate_row_and_no_base_figures():
    case = next(c for c in VECTORS["cases"] if c["id"] == "transform-exact")
    rows, f = score(case["item"], case["record"])
    assert len(rows) == 1 and not any(f.values())


@pytest.mark.parametrize("change, message", [
    ({"fake": True}, "fake_class"), ({"fake_class": "ai_full"}, "fake_class"),
    ({"edited_field": "total"}, "edited_field"), ({"provenance": "maybe"}, "provenance"),
    ({"fields": {"total": "12.5"}}, "two decimals"), ({"fields": {"colour": "red"}}, "not a known field"),
    ({"lineage": {"original": "x", "transform": "rotated"}}, "lineage"), ({"adds_up": "yes"}, "adds_up"),
    ({"fake": True, "fake_class": "ai_full", "hard_negative": True}, "hard negative is genuine"),
])
def test_bad_labels_are_rejected(change, message):
    label = {**VECTORS["cases"][0]["item"]["label"], **change}
    assert any(message in p for p in label_problems(label)), label_problems(label)
