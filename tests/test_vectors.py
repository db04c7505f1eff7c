"""Scorer A on the shared case file that scorer B runs too."""

from __future__ import annotations

import pytest

from tests.vector_cases import load_cases, score_case

CASES = load_cases()


def test_case_file_is_large_and_ids_are_unique():
    assert len(CASES) >= 200
    assert len({c["id"] for c in CASES}) == len(CASES)


def test_case_file_covers_every_verdict_and_type():
    assert {c["expected"] for c in CASES} == {
        "correct", "wrong", "invented", "false_null", "null_ok", "unparseable", "failed_call"}
    assert {c["field"]["type"] for c in CASES} == {
        "money", "count", "number", "date", "text", "identifier", "currency", "list"}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case):
    row = score_case(case)
    assert row.verdict == case["expected"], row.reason
    if "expected_order" in case:
        assert row.order == case["expected_order"]
