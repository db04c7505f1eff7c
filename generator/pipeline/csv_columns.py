"""A run's rows of verdicts.csv and calls.csv, written column by column (the artifact writer keeps them
in the run's artifact, artifact.py; outputs.py only joins them): each distinct text is made safe and
quoted once (they repeat: units, kinds, verdicts, reasons), by the csv module itself, and the cells are
joined. The bytes equal csv.writer's row by row (tests/test_hostile_inputs.py)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from itertools import repeat
from typing import Any

from .. import csvsafe
from ..csvsafe import csv_row, csv_safe
from ..score.verdicts import VerdictTable, counts_text


def verdict_lines(t: VerdictTable) -> bytes:
    """A run's rows of verdicts.csv, as written (the artifact writer keeps them in the run's artifact).
    Written column by column: each distinct text is made safe and quoted once (they repeat: units,
    kinds, verdicts, reasons), by the csv module itself, and the cells are joined."""
    cell = _Cells()
    columns = (repeat(cell(str(csv_safe(t.run))), len(t)), cell.column(t.item), map(str, t.repeat),
               cell.column(t.unit), cell.column(t.kind), cell.column(t.verdict), map(str, t.points),
               cell.column(t.reason), cell.column(t.order), cell.column(list(map(counts_text, t.counts))))
    return _lines(columns).encode("utf-8", "backslashreplace")


def verdict_cell(text: str) -> bytes:
    """A text as `verdict_lines` writes it as a cell (made safe, quoted when it must be, encoded): the
    run's and an item's cells before a row's `verdict_tail`."""
    return _Cells()(csv_safe(text)).encode("utf-8", "backslashreplace")  # type: ignore[arg-type]


def verdict_tail(unit: str, kind: str, verdict: str, points: object, reason: str, order: str,
                 counts: tuple[int, ...]) -> bytes:
    """A row of verdicts.csv after its run, item and repeat cells, with its line break, as
    `verdict_lines` writes it: written once, it follows the first cells of many rows."""
    cell = _Cells()
    cells = (cell(csv_safe(unit)), cell(csv_safe(kind)), cell(csv_safe(verdict)), str(points),  # type: ignore[arg-type]
             cell(csv_safe(reason)), cell(csv_safe(order)), cell(csv_safe(counts_text(counts))))  # type: ignore[arg-type]
    return (",".join(cells) + "\n").encode("utf-8", "backslashreplace")


def column_lines(rows: list) -> str:
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


_TEXTS_AND_INTS = {str, int}  # (a text never equals a number; 1 and True, or 1 and 1.0, are equal keys)


class _Cells:
    """A text as the csv module writes it as one cell of a row (quoted when it must be)."""

    def __init__(self) -> None:
        self.buffer: io.StringIO | None = None  # (and the writer) made when a text must be quoted
        self.writer: Any = None

    def __call__(self, text: str) -> str:
        if text.__class__ is str and _SPECIAL.search(text) is None:  # nothing to quote: as it is
            return text
        if self.buffer is None:
            self.buffer = io.StringIO(newline="")
            self.writer = csvsafe.writer(self.buffer)
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
        if kinds <= _TEXTS_AND_INTS:  # no two values of these types are equal: each value its own key
            cells = {value: self(csv_safe(value)) for value in set(column)}  # type: ignore[arg-type]
            return map(cells.__getitem__, column)
        cells = {key: self(csv_safe(key[1])) for key in set(zip(map(type, column), column))}  # type: ignore[arg-type]
        return map(cells.__getitem__, zip(map(type, column), column))

    def column(self, column: list[str]) -> Iterator[str]:
        """The cell of each text of a column (made safe first), each distinct text written once."""
        cells = {text: self(csv_safe(text)) for text in set(column)}  # type: ignore[arg-type]
        return map(cells.__getitem__, column)


def call_lines(calls: list) -> bytes:
    """A run's rows of calls.csv (calls.py), column by column when they have one length (they do)."""
    if len(set(map(len, calls))) == 1:
        text = column_lines(calls)
    else:  # rows of other lengths (none are made): row by row
        buffer = io.StringIO(newline="")
        csvsafe.writer(buffer).writerows(map(csv_row, calls))
        text = buffer.getvalue()
    return text.encode("utf-8", "backslashreplace")
