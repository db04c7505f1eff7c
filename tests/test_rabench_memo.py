"""RA-Bench's remembered field comparison (a label's `Plan`), line matching (`matched_lines`, `lines_of`) and
rows give what the straightforward ones give, on every shared vector (and across labels)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from generator.inputs.content import Item
from generator.parse.response import ANSWER, read_outcome
from generator.suites.rabench import SUITE
from generator.suites.rabench.rows import Plan, field_correct, lines_of
from generator.suites.rabench.rules import (
    FIELDS,
    amount,
    field_matches,
    line_counts,
    matched_lines,
    normalise,
)

VECTORS = json.loads((Path(__file__).parent / "vectors" / "ra-bench.json").read_text(encoding="utf-8"))


def _pairs() -> list[tuple[str, object, str]]:
    """(field, model value, label value) of every labelled field of every readable vector answer."""
    out = []
    for case in VECTORS["cases"]:
        outcome = read_outcome(case["record"], SUITE.extract_answer, SUITE.answer_what)
        label = case["item"].get("label", {}).get("fields", {})
        if outcome.status != ANSWER:
            continue
        for name in FIELDS:
            if label.get(name) is not None and name in outcome.answer["fields"]:
                out.append((name, outcome.answer["fields"][name], label[name]))
    return out


def test_remembered_equals_straightforward_on_the_vectors():
    pairs = _pairs()
    assert len(pairs) > 200
    assert sum(1 for _n, got, _w in pairs if isinstance(got, str)) > 100  # the remembered path is taken
    plans: dict[tuple[str, str], Plan] = {}
    for name, got, want in pairs + pairs:  # the second pass is answered from the memo
        plan = plans.setdefault((name, want), Plan(_label({name: want})))
        assert field_correct(plan, name, got) == field_matches(name, got, want), (name, got, want)


def test_remembered_equals_straightforward_across_labels():
    pairs = _pairs()
    wants = {name: sorted({w for n, _g, w in pairs if n == name}) for name in FIELDS}
    for name, got, _want in pairs:
        for want in wants[name]:
            assert field_correct(Plan(_label({name: want})), name, got) == field_matches(name, got, want), (
                name, got, want)


def _label(fields: dict, line_items: list | None = None) -> dict:
    return {"fields": fields, "line_items": line_items, "adds_up": True, "fake": False, "fake_class": None,
            "edited_field": None, "provenance": "intact", "lineage": None, "hard_negative": False}


def _line_cases() -> list[tuple[list, object]]:
    out = []
    for case in VECTORS["cases"]:
        outcome = read_outcome(case["record"], SUITE.extract_answer, SUITE.answer_what)
        labelled = case["item"].get("label", {}).get("line_items")
        if outcome.status == ANSWER and labelled is not None:
            out.append((labelled, outcome.answer.get("line_items")))
    return out


def _straightforward(labelled: list, extracted: object) -> tuple[int, int, int]:
    """line_counts with the matching computed afresh (matched_lines without its memo)."""
    got = extracted if isinstance(extracted, list) else []
    usable = []
    for e in got:
        total = amount(e.get("total")) if isinstance(e, dict) else None
        ok = isinstance(e, dict) and isinstance(e.get("description"), str) and total is not None
        usable.append((normalise(e["description"]), total) if ok else None)
    tp = matched_lines.__wrapped__(tuple((lab["description"], lab["total"]) for lab in labelled), tuple(usable))
    return tp, len(got) - tp, len(labelled) - tp


def test_remembered_line_matching_equals_straightforward_on_the_vectors():
    cases = _line_cases()
    assert len(cases) > 100
    for labelled, extracted in cases + cases:  # the second pass is answered from the memo
        assert line_counts(labelled, extracted) == _straightforward(labelled, extracted), (labelled, extracted)
    plans = [Plan(_label({}, labelled)) for labelled, _extracted in cases]
    for plan, (labelled, extracted) in zip(plans + plans, cases + cases):  # each item's memo, then from it
        assert lines_of(plan, extracted) == _straightforward(labelled, extracted), (labelled, extracted)
    for labelled, _ in cases[:20]:  # every labelled receipt against others' extracted lines
        plan = Plan(_label({}, labelled))
        for _, extracted in cases:
            assert line_counts(labelled, extracted) == _straightforward(labelled, extracted)
            assert lines_of(plan, extracted) == _straightforward(labelled, extracted), (labelled, extracted)


def test_rows_are_the_same_when_scored_again():
    """A second scoring of every vector (fields and lines answered from the items' memos) gives the same rows."""
    items, outcomes = [], []
    for case in VECTORS["cases"]:
        spec, problems = SUITE.parse_item(case["item"])
        assert not problems
        items.append(Item(case["id"], "receipts", "public", {}, {}, spec))
        outcomes.append(read_outcome(case["record"], SUITE.extract_answer, SUITE.answer_what))
    first = [SUITE.score(i, o, "run", 0) for i, o in zip(items, outcomes)]
    again = [SUITE.score(i, o, "run", 0) for i, o in zip(items, outcomes)]
    assert first == again
    assert sum(len(r) for r in first) > 1000


def test_amounts_equal_in_value_share_a_remembered_match():
    labelled = [{"description": "Tea", "total": "2.00"}]
    for extracted in ([{"description": "tea", "total": "2"}], [{"description": "tea", "total": "2.00"}],
                      [{"description": "tea", "total": "2.011"}], [{"description": "tea", "total": "1.99"}]):
        assert line_counts(labelled, extracted) == _straightforward(labelled, extracted)


def test_item_line_matching_is_maximum_from_the_extracted_side():
    """Two extracted lines may pair with both labelled ones, a third with none: tp 2, whichever side
    the matching starts from; an item's memo answers the same again."""
    labelled = [{"description": "Milk 2L", "total": "3.49"}, {"description": "Milk 1L", "total": "3.49"}]
    extracted = [{"description": "milk 2l", "total": "3.49"}, {"description": "Milk 2L", "total": "$3.49"},
                 {"description": "Bread", "total": "3.49"}]
    plan = Plan(_label({}, labelled))
    assert lines_of(plan, extracted) == lines_of(plan, extracted) == _straightforward(labelled, extracted) == (2, 1, 0)
    assert lines_of(plan, extracted[:1] * 3) == _straightforward(labelled, extracted[:1] * 3) == (2, 1, 0)


def test_values_equal_to_each_other_but_of_other_types_are_not_confused():
    """`true` equals 1 in Python: an item's memo must not answer one with the other's verdict."""
    from generator.parse.jsonfind import JsonInt

    plan = Plan(_label({"subtotal": "1.00", "receipt_number": "1"}))
    for name in ("subtotal", "receipt_number"):
        values = [True, JsonInt(1), Decimal("1.0"), "1", "1.00", 1.0, False, "true"]
        for got in values + values[::-1]:
            assert field_correct(plan, name, got) == field_matches(name, got, plan.label["fields"][name]), (name, got)
    assert field_correct(plan, "subtotal", JsonInt(1)) and not field_correct(plan, "subtotal", True)
    assert field_correct(plan, "receipt_number", "1") and not field_correct(plan, "receipt_number", JsonInt(1))


def test_what_plans_remember_is_bounded(monkeypatch):
    """Past the budget every plan is dropped (the rows stay the same); long texts are never remembered."""
    from generator.suites.rabench import rows

    items, outcomes = [], []
    for case in VECTORS["cases"]:
        spec, _problems = SUITE.parse_item(case["item"])
        items.append(Item(case["id"], "receipts", "public", {}, {}, spec))
        outcomes.append(read_outcome(case["record"], SUITE.extract_answer, SUITE.answer_what))
    first = [SUITE.score(i, o, "run", 0) for i, o in zip(items, outcomes)]
    monkeypatch.setattr(rows, "_BUDGET", 100)
    rows._plans.clear()
    again = [SUITE.score(i, o, "run", 0) for i, o in zip(items, outcomes)]
    assert again == first
    assert len(rows._plans) < 20 and rows._used <= 100

    plan = Plan(_label({"merchant": "Harbour Hotel"}))
    memo = plan.fields[0][5]
    assert field_correct(plan, "merchant", "Harbour Hotel!") and "Harbour Hotel!" in memo
    long = "Harbour Hotel" + " " * 300
    assert field_correct(plan, "merchant", long) and long not in memo


def test_answer_values_at_once_equal_answer_value_unit_by_unit():
    from collections import UserDict

    units = ("field:merchant", "field:total", "field:date", "field:unknown", "line_items", "decision", "proof",
             "edited_field", "check:totals_add_up", "duplicate", "dup:rab-0002")
    answers = [
        {"fields": {"merchant": "A" * 300, "total": Decimal("1.50"), "date": None}, "line_items": [
            {"description": "x", "total": Decimal("1.5")}], "risk": Decimal("0.7"), "reasons": ["@total", 3],
         "checks": {"totals_add_up": True}, "duplicate": "rab-0002"},
        {"fields": {}, "risk": 1, "reasons": "a text"},
        {"fields": {"merchant": 5}},
        UserDict({"fields": {"merchant": "m"}, "risk": 0.5}),  # a mapping that is not a dict
        None,
        ["not", "an", "object"],
    ]
    for answer in answers:
        assert SUITE.answer_values(answer, units) == tuple(SUITE.answer_value(answer, u) for u in units)
    # the same reasons shown by two units are the same text
    shown = SUITE.answer_values(answers[0], ("proof", "edited_field"))
    assert shown[0] == shown[1] == str(["@total", 3])
