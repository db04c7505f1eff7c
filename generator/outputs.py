"""The rescore outputs, build/rescore/<suite>/: verdicts.csv, item_stats.csv, calls.csv, summary.json and
agreement.json, all suites written into a fresh folder and swapped in (a failure leaves the old one)."""

from __future__ import annotations

import io
import json
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from itertools import repeat
from pathlib import Path

import numpy as np

from . import csvsafe
from .atomic import swap_in
from .calls import CALL_COLUMNS
from .csvsafe import csv_row, csv_safe
from .score.verdicts import COLUMNS, VerdictTable

FILES = ("verdicts.csv", "item_stats.csv", "calls.csv", "summary.json", "agreement.json")


def write_outputs(out_dir: Path, scored: list, only: bool = False) -> None:
    """Every suite's outputs (pipeline.ScoredSuite) into `out_dir`/<suite>/: `out_dir` replaced as a
    whole, or with `only` (some suites named), only those suites' folders, the others' kept."""
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".rescore-", dir=out_dir.parent))
    try:
        for res in scored:
            target = tmp / res.suite.name
            target.mkdir()
            _write_verdicts(target / "verdicts.csv", res)
            _write_calls(target / "calls.csv", res)
            _write_item_stats(target / "item_stats.csv", res)
            (target / "summary.json").write_text(
                json.dumps(res.summary, indent=2, sort_keys=True, allow_nan=False) + "\n", encoding="utf-8")
            agreement = res.agreement or {"suite": res.suite.name, "status": "not run"}
            (target / "agreement.json").write_text(
                json.dumps(agreement, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8",
                errors="backslashreplace")
        if not only:
            swap_in(tmp, out_dir)
        else:
            out_dir.mkdir(parents=True, exist_ok=True)
            for res in scored:
                swap_in(tmp / res.suite.name, out_dir / res.suite.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def verdict_lines(t: VerdictTable) -> bytes:
    """A run's rows of verdicts.csv, as written (the artifact writer keeps them in the run's artifact).
    Written column by column: each distinct text is made safe and quoted once (they repeat: units,
    kinds, verdicts, reasons), by the csv module itself, and the cells are joined."""
    cell = _Cells()
    columns = (repeat(cell(str(csv_safe(t.run))), len(t)), cell.column(t.item), map(str, t.repeat),
               cell.column(t.unit), cell.column(t.kind), cell.column(t.verdict), map(str, t.points),
               cell.column(t.reason), cell.column(t.order))
    return _lines(columns).encode("utf-8", "backslashreplace")


def _column_lines(rows: list) -> str:
    """Rows of equal length as CSV lines, written column by column (`_Cells.any_column`)."""
    if not rows:
        return ""
    cell = _Cells()
    return _lines([cell.any_column(values) for values in zip(*rows)])


def _lines(cells: Iterable[Iterable[str]]) -> str:
    """CSV lines from columns of cells (each ending with a line break; none for no rows)."""
    text = "\n".join(map(",".join, zip(*cells)))
    return text + "\n" if text else ""


_SPECIAL = re.compile('[,"\r\n]')  # a text with none of these is written as it is (the csv module quotes
# a text with a delimiter, a quote character or a line break, and an empty text only when it is alone)


class _Cells:
    """A text as the csv module writes it as one cell of a row (quoted when it must be)."""

    def __init__(self) -> None:
        self.buffer = io.StringIO(newline="")
        self.writer = csvsafe.writer(self.buffer)

    def __call__(self, text: str) -> str:
        if text.__class__ is str and _SPECIAL.search(text) is None:  # nothing to quote: as it is
            return text
        self.buffer.seek(0)
        self.buffer.truncate()
        self.writer.writerow((text, ""))  # a second, empty cell: a lone empty cell would be quoted
        return self.buffer.getvalue()[:-2]

    def any_column(self, column: Iterable[object]) -> Iterator[str]:
        """The cell of each value of a column of any types (made safe first), each distinct value (of
        its type: 1 and True are written apart) written once."""
        column = list(column)
        kinds = set(map(type, column))
        if float in kinds:  # 0.0 and -0.0 are equal keys but written apart: each value written
            return map(self, map(csv_safe, column))  # type: ignore[arg-type]
        cells = {key: self(csv_safe(key[1])) for key in set(zip(map(type, column), column))}  # type: ignore[arg-type]
        return map(cells.__getitem__, zip(map(type, column), column))

    def column(self, column: list[str]) -> Iterator[str]:
        """The cell of each text of a column (made safe first), each distinct text written once."""
        cells = {text: self(csv_safe(text)) for text in set(column)}  # type: ignore[arg-type]
        return map(cells.__getitem__, column)


def _write_verdicts(path: Path, res) -> None:
    with path.open("wb") as fh:
        fh.write((",".join(COLUMNS) + "\n").encode())
        for r in res.runs:
            fh.write(r.verdict_csv())


def _write_calls(path: Path, res) -> None:
    with path.open("w", encoding="utf-8", errors="backslashreplace", newline="") as fh:
        writer = csvsafe.writer(fh)
        writer.writerow(CALL_COLUMNS)
        for r in res.runs:
            calls = r.calls()
            if len(set(map(len, calls))) == 1:
                fh.write(_column_lines(calls))
            else:  # rows of other lengths (none are made): row by row
                writer.writerows(map(csv_row, calls))


def _write_item_stats(path: Path, res) -> None:
    with path.open("w", encoding="utf-8", errors="backslashreplace", newline="") as fh:
        writer = csvsafe.writer(fh)
        writer.writerow(("run", "item", "dataset", "half", "repeats") + tuple(res.plugin.figures))
        for r in res.runs:
            means = r.means()
            for k in np.flatnonzero(r.repeats).tolist():
                item = res.items[k]
                writer.writerow((r.run.id, item.id, item.dataset, item.half, int(r.repeats[k]),
                                 *map(repr, means[k].tolist())))
