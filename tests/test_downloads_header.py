"""The site's item_stats.csv download is the rescore's file with the private items' rows left out: its
header must be the rescore file's whole header, also when a figure's name holds a line break (a plugin's
figure names are not checked for one; the rescore writes such a cell quoted over two lines)."""

from __future__ import annotations

import csv
import io
from types import SimpleNamespace

from generator.pipeline.outputs import _csv_bytes
from generator.render import downloads


def test_a_header_cell_with_a_line_break_is_kept_whole(tmp_path):
    header = _csv_bytes([("run", "item", "dataset", "half", "repeats", "found\nfaults", "missed")])
    rows = _csv_bytes([("r", "p-1", "d", "public", 1, "1.0", "0.0"), ("r", "x-1", "d", "private", 1, "0.0", "1.0")])
    (tmp_path / "rescore").mkdir()
    (tmp_path / "rescore" / "item_stats.csv").write_bytes(header + rows)
    run = SimpleNamespace(run=SimpleNamespace(id="r"))
    sd = SimpleNamespace(rescore_dir=tmp_path / "rescore", suite=SimpleNamespace(name="s"),
                         result=SimpleNamespace(runs=[run], run_keys={}))
    dst = tmp_path / "item_stats.csv"
    downloads._by_run(sd, "item_stats.csv", dst, {"p-1"}, None, downloads.public_only, lambda r: rows)
    got = list(csv.reader(io.StringIO(dst.read_text(encoding="utf-8"), newline="")))
    assert got[0] == ["run", "item", "dataset", "half", "repeats", "found\nfaults", "missed"]
    assert got[1:] == [["r", "p-1", "d", "public", "1", "1.0", "0.0"]]
