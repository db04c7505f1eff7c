"""CSV cells a spreadsheet will not run, and the one way Tally writes CSV.

`csv_safe`: text whose first character, or the first character of any of its lines (after a line
feed or a carriage return), starts a formula gets an apostrophe there (the OWASP rule for CSV
injection, applied to every line, since a reader that breaks rows at a lone carriage return starts a
new row there). Numbers, including negative ones, are left as they are.

`writer` / `dict_writer`: csv writers whose rows end with a line feed and which quote every cell
holding a carriage return (the csv module quotes a cell holding a character of its line terminator:
with ``lineterminator="\\n"`` a lone carriage return would be written unquoted). Cells without one are
written as before, byte for byte.
"""

from __future__ import annotations

import csv
import re
from typing import Any

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_BREAK = re.compile(r"(\r\n|\r|\n)")


def _line_safe(line: str) -> str:
    if line.startswith(TRIGGERS) and not _NUMBER.fullmatch(line):
        return "'" + line
    return line


def csv_safe(value: object) -> object:
    if not isinstance(value, str):
        return value
    if "\n" not in value and "\r" not in value:
        return _line_safe(value)
    parts = _BREAK.split(value)  # line, break, line, break, ..., line
    head = "'" + parts[0] if value.startswith(TRIGGERS) else parts[0]  # a text with a break is no number
    return head + "".join(part if k % 2 == 0 else _line_safe(part) for k, part in enumerate(parts[1:]))


def csv_row(row) -> list:
    return [csv_safe(v) for v in row]


class _LineFeed:
    """A file the csv module writes rows to, each ending with a carriage return and a line feed (so
    that it quotes cells holding either), stored ending with a line feed alone."""

    def __init__(self, fh: Any) -> None:
        self.fh = fh

    def write(self, row: str) -> Any:
        return self.fh.write(row[:-2] + "\n")


def writer(fh: Any) -> Any:
    """A csv writer into `fh` (rows end with a line feed; a cell with a carriage return is quoted)."""
    return csv.writer(_LineFeed(fh), lineterminator="\r\n")


def dict_writer(fh: Any, fieldnames: list[str]) -> csv.DictWriter:
    """A csv.DictWriter into `fh`, quoting as `writer` does."""
    return csv.DictWriter(_LineFeed(fh), fieldnames, lineterminator="\r\n")
