"""Extracting: list order is reported separately (the seed: "Lists are compared as sets of items; order is
reported separately"), as a per-run table on the suite page, from the verdict rows only."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from generator.score.verdicts import Verdict
from generator.suite.api import Estimate
from generator.suites.extracting import SUITE


def _run(run_id: str, orders: list[str], simulated: bool = False):
    rows = [Verdict(run_id, f"item-{k}", 0, "line_items", "printed", "correct" if o else "wrong", 1 if o else 0, "", o)
            for k, o in enumerate(orders)]
    return SimpleNamespace(run=SimpleNamespace(id=run_id, simulated=simulated),
                           verdicts=lambda: SimpleNamespace(rows=lambda: iter(rows)))


def test_the_share_of_lists_read_right_that_keep_the_documents_order():
    scored = SimpleNamespace(runs=[_run("a", ["same", "same", "different", "", "same"]), _run("b", ["", ""], True)])
    (table,) = SUITE.report_tables(scored)
    assert table.id == "list-order"
    (a_id, a_n, a_same, a_share), (b_id, b_n, b_same, b_share) = table.rows
    assert (a_id, a_n, a_same) == ("a", 4, 3) and a_share.value == pytest.approx(0.75)
    assert isinstance(a_share, Estimate) and a_share.low < 0.75 < a_share.high and a_share.n == 4
    assert (b_id, b_n, b_same, b_share.value, b_share.low) == ("b (simulated)", 0, 0, None, None)
