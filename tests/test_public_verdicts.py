"""verdicts-public.csv keeps the rows of public items, read and written as CSV rows: a unit holding a line
break or a comma (au-bas units come from the model's JSON keys) is neither lost nor split."""

from __future__ import annotations

import csv
import io

from generator.render.downloads import public_verdicts

HEADER = ["run", "item", "repeat", "unit", "kind", "verdict", "points", "reason", "order"]
ROWS = [
    ["r1", "pub-1", "0", "G1", "bas", "correct", "1", "", ""],
    ["r1", "pub-1", "0", "T02\nprv-1,x:gst_miscalculated", "fault", "false_flag", "0", "a reason, with a comma", ""],
    ["r1", "prv-1", "0", "G1", "bas", "wrong", "0", "", ""],
    ["r1", "pub-2", "0", 'say "hi"\r\nprv-1', "fault", "false_flag", "0", "", ""],
]


def _csv(rows: list[list[str]]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def test_units_with_line_breaks_keep_their_rows_and_the_file_stays_valid(tmp_path):
    source, target = tmp_path / "verdicts.csv", tmp_path / "verdicts-public.csv"
    source.write_text(_csv([HEADER, *ROWS]), encoding="utf-8", newline="")
    public_verdicts(source, target, {"pub-1", "pub-2"})
    got = target.read_bytes().decode("utf-8")
    assert list(csv.reader(io.StringIO(got, newline=""))) == [HEADER, ROWS[0], ROWS[1], ROWS[3]]
    assert got == _csv([HEADER, ROWS[0], ROWS[1], ROWS[3]])  # the same bytes as the rows in verdicts.csv


def test_a_file_of_plain_rows_is_copied_row_for_row(tmp_path):
    source, target = tmp_path / "verdicts.csv", tmp_path / "verdicts-public.csv"
    plain = [HEADER, ROWS[0], ROWS[2]]
    source.write_text(_csv(plain), encoding="utf-8", newline="")
    public_verdicts(source, target, {"pub-1", "prv-1"})
    assert target.read_bytes() == source.read_bytes()
