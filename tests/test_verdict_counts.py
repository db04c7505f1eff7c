"""Counts as verdict data: a row's whole numbers (a suite declares their names) travel in the row's own
`counts`, through scorer A's tables and artifacts, the agreement gate, the digest both scorers fold,
verdicts.csv, sealed records, shared cases and item pages."""

from __future__ import annotations

import pickle

import orjson
import pytest

from generator.pipeline.csv_columns import verdict_lines
from generator.render.pages.items import shown_exactly, table_columns, verdict_rows_html
from generator.score.verdicts import (
    VerdictTable,
    compared,
    compared_b,
    show_row,
    verdict_digest_line,
    verdict_row,
)
from generator.suite.api import case_rows
from generator.suite.types import expected_row


def test_a_row_has_no_counts_unless_given_and_the_digest_line_adds_them_as_a_seventh_element():
    plain = verdict_row("r", "i", 0, "total", "printed", "correct", "", "2")
    assert plain.counts == () and plain.points == 1
    assert verdict_digest_line(plain) == b'["i",0,"total","correct",1,"2"]\n'  # as before counts existed
    counted = verdict_row("r", "i", 1, "records", "records", "wrong", "why", counts=(3, 5, 4))
    assert verdict_digest_line(counted) == b'["i",1,"records","wrong",0,"",[3,5,4]]\n'


def test_the_gate_compares_counts_exactly_and_a_difference_report_shows_them():
    a = verdict_row("r", "i", 0, "records", "records", "wrong", counts=(3, 5, 4))
    b = {"unit": "records", "verdict": "wrong", "points": 0, "order": "", "counts": [3, 5, 4]}
    assert compared(a) == compared_b(b)
    for other in ([3, 5, 5], [3, 5], [], [3, 5, 4, 0]):
        assert compared(a) != compared_b(b | {"counts": other})
    assert compared(a) != compared_b({k: v for k, v in b.items() if k != "counts"})  # left out: no counts
    assert compared(verdict_row("r", "i", 0, "u", "k", "correct")) == compared_b(
        {"unit": "u", "verdict": "correct", "points": 1, "order": ""})
    assert show_row(compared(a)) == "wrong (0 points, counts 3 5 4)"


def test_a_verdict_table_keeps_each_rows_counts_through_pickling():
    rows = [verdict_row("r", "i", 0, "records", "records", "wrong", counts=(3, 5, 4)),
            verdict_row("r", "i", 0, "fields", "fields", "correct", counts=(9, 9, 9)),
            verdict_row("r", "j", 0, "total", "printed", "wrong", order="x")]
    table = VerdictTable("r")
    table.extend(rows)
    again = pickle.loads(pickle.dumps(table))
    assert list(again.rows()) == rows == list(table.rows())


def test_verdicts_csv_has_a_counts_column_with_the_numbers_space_separated():
    table = VerdictTable("r")
    table.extend([verdict_row("r", "i", 0, "records", "records", "wrong", "a, b", counts=(3, 5, 4)),
                  verdict_row("r", "i", 0, "total", "printed", "correct")])
    assert verdict_lines(table) == b'r,i,0,records,records,wrong,0,"a, b",,3 5 4\nr,i,0,total,printed,correct,1,,,\n'


def test_shared_case_rows_fix_counts_only_when_they_name_them():
    assert expected_row(["records", "wrong", "", [3, 5, 4]]) == ("records", "wrong", "", (3, 5, 4))
    assert expected_row(["total", "correct", "2"]) == ("total", "correct", "2")
    rows = [("records", "wrong", "", (3, 5, 4)), ("total", "correct", "2", ())]
    assert case_rows((("records", "wrong", "", (3, 5, 4)), ("total", "correct")), rows) == (
        ("records", "wrong", "", (3, 5, 4)), ("total", "correct"))
    assert case_rows((("records", "wrong", ""), ("total", "correct", "2")), rows) == (
        ("records", "wrong", ""), ("total", "correct", "2"))


class _Plugin:
    def __init__(self, counts=(), points_shown=True, order_label="Order"):
        self.counts, self.points_shown, self.order_label = counts, points_shown, order_label


def test_item_tables_show_one_column_per_declared_count_and_leave_out_points_and_order_when_asked():
    assert table_columns(_Plugin()) == ("unit", "kind", "verdict", "points", "reason", "order")
    columns = table_columns(_Plugin(("Matched", "Checked", "Predicted"), False, None))
    assert columns == ("unit", "kind", "verdict", "reason", "counts")
    row = {"unit": "records", "kind": "records", "verdict": "false_null", "points": 0, "reason": "<b>",
           "order": "", "counts": (3, 5, 4)}
    html = str(verdict_rows_html([row], columns, 3))
    assert html == ('<tr><td>records<td>records<td class="verdict false_null">false null<td>&lt;b&gt;'
                    '<td class="num">3<td class="num">5<td class="num">4<td>\n')
    plain = {"unit": "u", "kind": "k", "verdict": "wrong", "points": 0, "reason": "r", "order": "7"}
    assert str(verdict_rows_html([plain])) == '<tr><td>u<td>k<td class="verdict wrong">wrong<td>0<td>r<td>7<td>\n'
    # a row reads back exactly from such a table only when what it leaves out holds what the re-check assumes
    assert shown_exactly(row, columns, 3)
    assert not shown_exactly(row | {"points": 1}, columns, 3)  # points not by the one rule, and not shown
    assert not shown_exactly(row | {"order": "x"}, columns, 3)  # an order, and no order column
    assert not shown_exactly(row | {"counts": (3, 5)}, columns, 3)
    assert not shown_exactly(row | {"counts": (3, 5, True)}, columns, 3)
    assert shown_exactly(plain) and not shown_exactly(plain | {"counts": (1,)})


def test_a_sealed_record_keeps_counts_where_it_keeps_the_order_and_reads_them_back():
    from generator.sealed_record import blind_rows, stub_problem, stub_rows

    class Keeps:
        def sealed_order_kept(self, unit):
            return {"records": True, "fields": False}.get(unit)

    rows = [verdict_row("r", "i", 0, "records", "records", "wrong", "why", counts=(3, 5, 4)),
            verdict_row("r", "i", 0, "fields", "fields", "wrong", "why", counts=(1, 2, 3)),
            verdict_row("r", "i", 0, "T09:x", "k", "wrong", "why", "o", counts=(7,))]
    blinded = blind_rows(Keeps(), rows)
    assert blinded == [["records", "records", "wrong", 0, "", [3, 5, 4]], ["fields", "fields", "wrong", 0, ""],
                       ["#2", "k", "wrong", 0, ""]]
    record = {"item": "i", "repeat": 0, "verdicts": orjson.loads(orjson.dumps(blinded)), "answers": ["=0"] * 3,
              "outcome": "answer", "sealed": {"format": "tally-sealed-record-v3"}}
    assert stub_problem(record) is None
    assert [v.counts for v in stub_rows(record, "r")] == [(3, 5, 4), (), ()]
    for bad in ([], [1.5], "3 5 4", [True]):
        broken = record | {"verdicts": [["records", "records", "wrong", 0, "", bad]] + blinded[1:]}
        assert stub_problem(broken) is not None, bad


@pytest.mark.parametrize("counts", [("a", ""), ["a"], ("a", 1)])
def test_a_suite_must_name_its_counts_with_texts(counts):
    from generator.suite.api import declaration_problems
    from plugins.longlistbench import SUITE

    class Bad(type(SUITE)):  # type: ignore[misc]
        pass

    bad = Bad()
    bad.counts = counts  # type: ignore[assignment]
    assert "counts must be a tuple of the counts' names (texts)" in declaration_problems(bad)
