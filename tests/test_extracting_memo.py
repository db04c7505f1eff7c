"""The extracting rules remember each field's scored values (`scored_field`): the remembered path gives
what the straightforward one (`score_field`) gives, on every shared vector and on numbers told apart
only by their digits."""

from __future__ import annotations

from decimal import Decimal

import pytest

from generator.parse.jsonfind import JsonInt
from generator.parse.response import ANSWER, read_outcome
from generator.suites.extracting import SUITE, case_record
from generator.suites.extracting.rules import MEMO_SIZE, parse_spec, score_field, scored_field
from tests.vector_cases import load_cases


def _field_and_value(case: dict):
    spec, problems = parse_spec({"id": "case", "document": {"locale": case["locale"]}, "fields": [case["field"]]})
    assert not problems, problems
    outcome = read_outcome(case_record(case), SUITE.extract_answer, SUITE.answer_what)
    value = outcome.answer.get(case["field"]["name"]) if outcome.status == ANSWER else None
    return spec, spec.fields[0], value


def test_remembered_equals_straightforward_on_every_vector():
    remembered = 0
    for case in load_cases():
        spec, f, value = _field_and_value(case)
        want = score_field(f, value, spec.locale)
        assert scored_field(f, value, spec.locale) == want, case["id"]  # first time: scored and kept
        assert scored_field(f, value, spec.locale) == want, case["id"]  # second time: from the memo
        remembered += len(f.memo)
    assert remembered > 300  # most vectors' values are strings or numbers, so the memo is exercised


def test_one_field_sees_every_value_of_its_type_and_locale():
    """A field's memo filled by many different values (those of every vector of the same type and
    locale) still answers each of them as score_field does."""
    cases = load_cases()
    groups: dict[tuple, list] = {}
    for case in cases:
        spec, f, value = _field_and_value(case)
        groups.setdefault((case["locale"], f.type, f.kind, repr(f.checked)), []).append((spec, f, value))
    checked = 0
    for members in groups.values():
        spec, f, _ = members[0]
        for _, _, value in members + members:
            assert scored_field(f, value, spec.locale) == score_field(f, value, spec.locale)
            checked += 1
    assert checked == 2 * len(cases)


@pytest.mark.parametrize("ftype,answer,values", [
    ("text", "0", [JsonInt("0"), JsonInt("-0"), Decimal("0"), "0", "-0"]),
    ("money", "1.00", [Decimal("1.0"), Decimal("1.00"), JsonInt("1"), Decimal("1.001"), "1.0"]),
    ("number", "2.5", [Decimal("2.45"), Decimal("2.449"), Decimal("2.5"), JsonInt("2")]),
])
def test_numbers_are_remembered_by_their_exact_digits(ftype, answer, values):
    field = {"name": "x", "type": ftype, "kind": "printed", "answer": answer}
    if ftype == "number":
        field["places"] = 1
    spec, problems = parse_spec({"document": {"locale": "en-US"}, "fields": [field]})
    assert not problems
    f = spec.fields[0]
    for value in values + values[::-1]:
        assert scored_field(f, value, "en-US") == score_field(f, value, "en-US"), value


def test_the_memo_is_bounded():
    spec, _ = parse_spec({"document": {"locale": "en-US"},
                          "fields": [{"name": "x", "type": "text", "kind": "printed", "answer": "a"}]})
    f = spec.fields[0]
    for k in range(3 * MEMO_SIZE):
        assert scored_field(f, f"v{k}", "en-US") == score_field(f, f"v{k}", "en-US")
    assert len(f.memo) == MEMO_SIZE
