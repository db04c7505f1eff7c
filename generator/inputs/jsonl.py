"""JSON Lines, read one way: every file of records Tally reads (items, stored responses, turns, cases,
revealed records) is split on LF only, blank lines skipped, and each line read by the strict parser
the rescore uses (orjson: no NaN, no lone surrogates, integers within 64 bits), so a line one command
accepts is never refused by another. Each caller decides what a line that is not JSON means (an error
naming its file and line, or a line to pass over); the reader says which line it was and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import orjson


class JsonLine(NamedTuple):
    """One non-blank line: its number (from 1), its bytes (without the LF), and its value, or the
    reason it is not JSON ("not valid JSON: ...") with `value` None."""

    number: int
    raw: bytes
    value: Any
    error: str | None


def jsonl_lines(data: bytes | str) -> Iterator[JsonLine]:
    """Every non-blank line of JSON Lines text, read (a last line without its LF included)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            yield JsonLine(number, raw, orjson.loads(raw), None)
        except orjson.JSONDecodeError as exc:
            yield JsonLine(number, raw, None, f"not valid JSON: {exc}")


def jsonl_values(data: bytes | str, where: Path | str) -> list[Any]:
    """Every value of JSON Lines text; a line that is not JSON raises ValueError naming `where` and
    the line."""
    out = []
    for line in jsonl_lines(data):
        if line.error is not None:
            raise ValueError(f"{where}:{line.number}: {line.error}")
        out.append(line.value)
    return out
