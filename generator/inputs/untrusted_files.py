"""Reading files a person or a cloned repository hands us (audit judgments, label files, worksheets,
adjudication sheets, their settings): bounded in size, strict UTF-8, JSON with no duplicate key, no
NaN and no nesting without end, CSV rows with their first line's number. Every failure is one error of
the caller's type (an exit status 2 error of errors.py) naming the file and, where there is one, the line.
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from ..errors import visible

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 32  # arrays and objects inside each other: answers and judgments need a few
MAX_CELL_CHARS = 1_000_000  # one CSV cell (a document's text in a worksheet is the largest)
SHOWN = 60  # characters of a bad value quoted in an error


def shown(value: object) -> str:
    """A value quoted in an error message, cut short (a hostile file can hold megabytes)."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def cut(value: object) -> str:
    """A name quoted in an error message as it is, cut short, terminal control characters escaped."""
    text = str(value)
    return visible(text if len(text) <= SHOWN else text[:SHOWN - 3] + "...")


def read_text(path: Path, error: type[Exception], limit: int = MAX_FILE_BYTES, bom: bool = False) -> str:
    """The text of a regular file (no FIFO, device or folder), at most `limit` bytes of UTF-8."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{path}: not a regular file")
        if st.st_size > limit:
            raise error(f"{path}: {st.st_size:,} bytes, more than the {limit:,} a file of this kind may hold")
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot be read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(f"{path}: more than the {limit:,} bytes a file of this kind may hold")
    try:
        return data.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise error(f"{path}:{line}: not UTF-8 text (byte {exc.start:,} cannot be decoded)") from None


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {shown(key)} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def too_deep(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays and objects are nested more than `limit` deep (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (list, dict)):
            if depth > limit:
                return True
            stack.extend((c, depth + 1) for c in (v.values() if isinstance(v, dict) else v))
    return False


def parse_json(text: str, where: str, error: type[Exception], line: int | None = None) -> object:
    """One JSON value; `where` is the file, `line` the line of a JSON Lines file (else the decoder's)."""
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except RecursionError:
        raise error(f"{where}{'' if line is None else f':{line}'}: nested too deep") from None
    except json.JSONDecodeError as exc:
        at = line if line is not None else exc.lineno
        raise error(f"{where}:{at}: not valid JSON: {exc.msg}") from None
    except ValueError as exc:
        raise error(f"{where}{'' if line is None else f':{line}'}: not valid JSON: {exc}") from None
    if too_deep(value):
        raise error(f"{where}{'' if line is None else f':{line}'}: nested more than {MAX_DEPTH} deep")
    return value


def json_lines(path: Path, error: type[Exception]) -> Iterator[tuple[int, object]]:
    """(line number, value) of each non-blank line of a JSON Lines file."""
    for n, line in enumerate(read_text(path, error).split("\n"), 1):  # not splitlines: U+2028 is JSON text
        if line.strip():
            yield n, parse_json(line, str(path), error, n)


def csv_rows(text: str, where: str, error: type[Exception], required: tuple[str, ...]) -> list[tuple[int, dict]]:
    """(first line, {column: cell}) of each row of a CSV with a header naming at least `required`
    (each once). A short row's missing cells are empty; a cell over MAX_CELL_CHARS is an error."""
    reader = csv.reader(io.StringIO(text, newline=""))
    out = []
    old = csv.field_size_limit(MAX_CELL_CHARS)
    try:
        start = 1
        header = None
        try:
            for row in reader:
                if header is None:
                    header = row
                    twice = sorted({c for c in header if header.count(c) > 1})
                    missing = [c for c in required if c not in header]
                    if twice or missing:
                        which = "missing " + ", ".join(missing) if missing else "twice: " + ", ".join(twice)
                        raise error(f"{where}:1: the header must name each of {', '.join(required)} once "
                                    f"({cut(which)})")
                elif any(cell.strip() for cell in row):
                    if len(row) > len(header):
                        raise error(f"{where}:{start}: {len(row)} cells, more than the header's {len(header)}")
                    out.append((start, dict(zip(header, row + [""] * (len(header) - len(row))))))
                start = reader.line_num + 1
        except csv.Error as exc:
            raise error(f"{where}:{start}: not a readable CSV row ({exc}; a cell may hold at most "
                        f"{MAX_CELL_CHARS:,} characters)") from None
        if header is None:
            raise error(f"{where}: empty: the header row ({', '.join(required)}) is missing")
    finally:
        csv.field_size_limit(old)
    return out
