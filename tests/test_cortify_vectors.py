"""Scorer A of CortifyBench on the shared cases that scorer B runs too."""

from __future__ import annotations

import pytest

from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.suites.cortify import SUITE

CASES = SUITE.vector_cases()


def test_case_file_is_large_and_covers_ties_and_edges():
    assert len(CASES) >= 150
    assert len({c.id for c in CASES}) == len(CASES)
    ids = " ".join(c.id for c in CASES)
    for needle in ("tie-", "max-not-greedy", "tol-50.00-51.00", "tol-500.00-505.00", "failed-", "truncated"):
        assert needle in ids
    verdicts = {v for c in CASES for _, v in c.expected}
    assert verdicts == {"correct", "found", "missed", "false_flag", "unparseable", "failed_call"}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_vector(case):
    spec, problems = SUITE.parse_item(case.item)
    assert not problems, problems
    item = Item("case", case.item["dataset"], "public", {}, case.item["document"], spec)
    rows = SUITE.score(item, read_outcome(case.record, SUITE.extract_answer, SUITE.answer_what), "run", 0)
    assert [(r.unit, r.verdict) for r in rows] == list(case.expected)
