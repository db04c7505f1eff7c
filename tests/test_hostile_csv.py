"""CSV injection through a bare carriage return: every CSV writer quotes a cell holding one, and
`csv_safe` neutralises a formula at the start of every line of a cell, not only at its first character."""

from __future__ import annotations

import csv
import io
import re

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.csvsafe import csv_safe, writer
from tests.conftest import GOOD, chat_record

ATTACK = "stop\r@SUM(A1)"
SAFE = "stop\r'@SUM(A1)"


def _no_formula_row(text: str) -> None:
    """As a reader that breaks rows at every CR or LF (quotes or not) sees `text`: no row starts a formula."""
    for line in re.split(r"\r\n|\r|\n", text):
        assert not line.startswith(("=", "+", "@", "\t")), (line, text)
    assert ATTACK not in text


def _cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]


def test_csv_safe_looks_at_every_line_start():
    assert csv_safe(ATTACK) == SAFE
    assert csv_safe("a\n=1+1\r\n-x\r+y") == "a\n'=1+1\r\n'-x\r'+y"
    assert csv_safe("total\n-12.5") == "total\n-12.5"  # a number on its own line stays a number
    assert csv_safe("=x\n@y") == "'=x\n'@y"
    assert csv_safe("\r@x") == "'\r'@x"
    assert csv_safe("two\nplain lines") == "two\nplain lines"


def test_the_shared_writer_quotes_a_lone_carriage_return_and_nothing_else_changes():
    rows = [["a", 'b "c"', "d,e", "f\ng", "", 1, -2.5], [ATTACK, "x\ry"]]
    ours, before = io.StringIO(newline=""), io.StringIO(newline="")
    writer(ours).writerows(rows)
    csv.writer(before, lineterminator="\n").writerows(rows)
    assert ours.getvalue().splitlines()[0] == before.getvalue().splitlines()[0]  # the first row as it was
    assert ours.getvalue().endswith('"stop\r@SUM(A1)","x\ry"\n')
    assert before.getvalue().endswith("stop\r@SUM(A1),x\ry\n")  # the old writer: unquoted
    assert list(csv.reader(io.StringIO(ours.getvalue(), newline=""))) == [[str(c) for c in r] for r in rows]


def test_calls_csv_of_rescore(project):
    record = chat_record("r-pub-1", GOOD)
    record["attempts"][0]["error"] = ATTACK
    project.add_run("csv", [record])
    result = CliRunner().invoke(main, ["rescore", "--root", str(project.root), "-q", "--skip-scorer-b"])
    assert result.exit_code == 0, result.output
    text = (project.root / "build/rescore/extracting/calls.csv").read_bytes().decode()
    _no_formula_row(text)
    assert SAFE in _cells(text)


def test_verdicts_and_calls_written_column_by_column():
    from generator.pipeline.csv_columns import column_lines, verdict_lines
    from generator.score.verdicts import Verdict, VerdictTable

    table = VerdictTable("run")
    table.extend([Verdict("run", "item-1", 0, "total", "field", "wrong", 0, ATTACK, "1")])
    text = verdict_lines(table).decode()
    _no_formula_row(text)
    assert SAFE in _cells(text)
    text = column_lines([("run", "item", 0, ATTACK), ("run", "item", 1, "ok")])
    _no_formula_row(text)
    assert SAFE in _cells(text)


def test_site_table_downloads(tmp_path):
    from generator.render.context import Cell, Column, Table, text
    from generator.render.downloads import write_table

    table = Table("t", "T", [Column("model", "Model"), Column("note", "Note")],  # an exported raw value
                  rows=[[text("m"), Cell("shown", export=(("", ATTACK),))]], export="downloads/t")
    write_table(tmp_path, table)
    written = (tmp_path / "downloads/t.csv").read_bytes().decode()
    _no_formula_row(written)
    assert SAFE in _cells(written)


@pytest.mark.parametrize("write", ["audit", "sheet", "worksheet"])
def test_audit_and_label_worksheets(write):
    if write == "audit":
        from generator.audit.sample import to_csv
        text = to_csv({"entries": [{"id": "a0001", "run": "r", "model": "m", "item": "i", "repeat": 0, "unit": "u",
                                    "verdict": "wrong", "reason": ATTACK, "checked_answer": {"rows": [["x"]]},
                                    "response": ATTACK, "document": ATTACK}]})
    elif write == "sheet":
        from generator.labels.sheet import to_csv
        text = to_csv([{"case": "c0001", "item": "i", "dataset": "d", "field": "f", "type": "text",
                        "answer_1": ATTACK, "answer_2": "x", "document": ATTACK}])
    else:
        from generator.labels.worksheet import to_csv
        text = to_csv({"requests": [{"item": "i", "dataset": "d", "half": "public", "field": "f", "type": "t"}]},
                      {"i": ATTACK})
    _no_formula_row(text)
    assert SAFE in _cells(text)
