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


def _reference(source, target, public: set[str]) -> None:
    """The rows of public items read with the csv module and written with it again (the filter as it was
    first written), gzip-compressed as the site writes it."""
    import gzip

    from generator.csvsafe import writer as csv_writer

    with source.open(encoding="utf-8", errors="backslashreplace", newline="") as src, \
            target.open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz, \
            io.TextIOWrapper(gz, encoding="utf-8", errors="backslashreplace", newline="") as dst:  # type: ignore[arg-type]
        rows = csv.reader(src)
        out = csv_writer(dst)
        header = next(rows, None)
        if header is None:
            return
        out.writerow(header)
        out.writerows(row for row in rows if len(row) > 1 and row[1] in public)


def test_hostile_rows_give_the_bytes_of_a_csv_module_round_trip(tmp_path):
    """Cells with quotes, line breaks, carriage returns, commas, formula marks, a run id that must be
    quoted and text that was a lone surrogate: the public rows are the bytes the csv module writes."""
    import random

    from generator.pipeline.csv_columns import column_lines

    rng = random.Random(37)
    pieces = ['"', "\n", "\r", ",", "=SUM(1)", "-1", "@x", " ", "pub-1", "prv-1,", "é", "\\udcff", "", "a"]
    items = ["pub-1", "pub-2", "prv-1", "prv-2"]
    rows = []
    for k in range(400):
        run = rng.choice(["r1", "r,2", '"r3"'])
        cells = ["".join(rng.choice(pieces) for _ in range(rng.randrange(4))) for _ in range(6)]
        rows.append([run, rng.choice(items), str(k % 3), *cells, ""])
    source = tmp_path / "verdicts.csv"
    source.write_bytes((",".join(HEADER) + "\n" + column_lines(rows)).encode("utf-8"))
    for public in ({"pub-1", "pub-2"}, set(), set(items)):
        mine, ref = tmp_path / "mine.csv.gz", tmp_path / "ref.csv.gz"
        public_verdicts(source, mine, public)
        _reference(source, ref, public)
        assert mine.read_bytes() == ref.read_bytes()
    import generator.render.downloads as downloads

    text = source.read_bytes()
    for block in (1, 7, 64):  # rows and line breaks across the blocks the file is read in
        for cut in (text, text.rstrip(b"\n")):  # also a file that does not end with a line break
            source.write_bytes(cut)
            mine, ref = tmp_path / "mine.csv.gz", tmp_path / "ref.csv.gz"
            old, downloads.READ_BLOCK = downloads.READ_BLOCK, block
            try:
                public_verdicts(source, mine, {"pub-1", "prv-2"})
            finally:
                downloads.READ_BLOCK = old
            _reference(source, ref, {"pub-1", "prv-2"})
            assert mine.read_bytes() == ref.read_bytes()
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    public_verdicts(empty, tmp_path / "mine.csv.gz", {"pub-1"})
    _reference(empty, tmp_path / "ref.csv.gz", {"pub-1"})
    assert (tmp_path / "mine.csv.gz").read_bytes() == (tmp_path / "ref.csv.gz").read_bytes()
