"""Verdict rows: one per (run, item, repeat, unit), emitted by both scorers and compared key by key."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from typing import NamedTuple

import orjson

CORRECT = "correct"
WRONG = "wrong"
INVENTED = "invented"
FALSE_NULL = "false_null"
NULL_OK = "null_ok"
UNPARSEABLE = "unparseable"
FAILED_CALL = "failed_call"

FOUND = "found"  # a true (transaction, fault) pair that was claimed
MISSED = "missed"
FALSE_FLAG = "false_flag"

VERDICTS = (CORRECT, WRONG, INVENTED, FALSE_NULL, NULL_OK, UNPARSEABLE, FAILED_CALL, FOUND, MISSED, FALSE_FLAG)
POINTS = {CORRECT: 1, NULL_OK: 1, FOUND: 1}

COLUMNS = ("run", "item", "repeat", "unit", "kind", "verdict", "points", "reason", "order", "counts")


class Verdict(NamedTuple):
    """A row in the order of COLUMNS; build it with `verdict_row`.

    `order` is a text the row carries (a list-order figure, a quoted value); `counts` are the whole
    numbers a suite counts for the row (its `counts` names them, e.g. records matched, in the key and in
    the reply), empty for a suite that declares none."""

    run: str
    item: str
    repeat: int
    unit: str
    kind: str
    verdict: str
    points: int
    reason: str
    order: str
    counts: tuple[int, ...] = ()


def verdict_row(run: str, item: str, repeat: int, unit: str, kind: str, verdict: str,
                reason: str = "", order: str = "", counts: tuple[int, ...] = ()) -> Verdict:
    return Verdict(run, item, repeat, unit, kind, verdict, POINTS.get(verdict, 0), reason, order, counts)


def compared(v: Verdict) -> tuple:
    """What the agreement gate compares of a row of scorer A: (unit, verdict, points, order, counts)."""
    return v.unit, v.verdict, v.points, v.order, v.counts


def compared_b(row: dict) -> tuple:
    """The same of a row of scorer B (a JSON object; `counts` may be left out for none)."""
    counts = row.get("counts", [])
    return row["unit"], row["verdict"], row["points"], row["order"], tuple(counts) if type(counts) is list else counts


def show_row(row: tuple) -> str:
    """A compared row (`compared`) as a difference report shows it: its verdict, points, order and counts."""
    order = f", order {row[3]}" if row[3] else ""
    counts = f", counts {counts_text(row[4])}" if len(row) > 4 and row[4] else ""
    return f"{row[1]} ({row[2]} points{order}{counts})"


def counts_text(counts: tuple[int, ...]) -> str:
    """A row's counts as verdicts.csv and item pages write them: the numbers, space-separated."""
    return " ".join(map(str, counts))


def verdict_digest_line(v: Verdict) -> bytes:
    """The row as both scorers fold it into a run's digest: the JSON array
    [item, repeat, unit, verdict, points, order], with the counts as a seventh element when the row has
    any, and a newline (see scorer-js/cli.js)."""
    try:
        if v.counts:
            return orjson.dumps((v.item, v.repeat, v.unit, v.verdict, v.points, v.order, v.counts)) + b"\n"
        return orjson.dumps((v.item, v.repeat, v.unit, v.verdict, v.points, v.order)) + b"\n"
    except TypeError:  # a lone surrogate in a model-chosen unit: force the row-by-row comparison
        return b"<not UTF-8>\n"


class VerdictTable:
    """One run's verdict rows, column by column (sorted by item, then repeat; units in scoring order).

    Strings repeat a lot (units, kinds, verdicts, reasons) and are interned, so a table costs a few
    pointers per row; `rows()` gives the rows back as Verdicts.
    """

    __slots__ = ("run", "item", "repeat", "unit", "kind", "verdict", "points", "reason", "order", "counts")

    def __init__(self, run: str) -> None:
        self.run = run
        self.item: list[str] = []
        self.repeat: list[int] = []
        self.unit: list[str] = []
        self.kind: list[str] = []
        self.verdict: list[str] = []
        self.points: list[int] = []
        self.reason: list[str] = []
        self.order: list[str] = []
        self.counts: list[tuple[int, ...]] = []

    def extend(self, rows: list[Verdict]) -> None:
        if not rows:
            return
        _run, item, repeat, unit, kind, verdict, points, reason, order, counts = zip(*rows)
        self.append_columns(item, repeat, unit, kind, verdict, points, reason, order, counts)

    def append_columns(self, item, repeat, unit, kind, verdict, points, reason, order, counts) -> None:
        """Rows given column by column (any sequences), their short texts interned."""
        intern = sys.intern
        self.item += item
        self.repeat += repeat
        self.unit += [intern(u) if len(u) < 64 else u for u in unit]
        self.kind += map(intern, kind)
        self.verdict += map(intern, verdict)
        self.points += points
        self.reason += [intern(r) if len(r) < 200 else r for r in reason]
        self.order += map(intern, order)
        self.counts += counts

    def extend_columns(self, item: str, repeat: int, columns: tuple[tuple, ...]) -> None:
        """Rows of one response given as its (unit, kind, verdict, points, reason, order, counts) columns,
        strings already interned as `extend` interns them."""
        unit, kind, verdict, points, reason, order, counts = columns
        n = len(unit)
        self.item += [item] * n
        self.repeat += [repeat] * n
        self.unit += unit
        self.kind += kind
        self.verdict += verdict
        self.points += points
        self.reason += reason
        self.order += order
        self.counts += counts

    def __len__(self) -> int:
        return len(self.item)

    # A table travels from a worker process (and into the build cache) as its lists themselves: the
    # texts of a table are a few shared (interned) objects, which pickle and marshal write once each
    # and give back shared; the whole numbers as two byte strings.
    _TEXT = ("item", "unit", "kind", "verdict", "reason", "order", "counts")

    def __getstate__(self) -> dict:
        state: dict = {"run": self.run, "repeat": array("q", self.repeat).tobytes(),
                       "points": array("q", self.points).tobytes()}
        for name in self._TEXT:
            state[name] = getattr(self, name)
        return state

    def __setstate__(self, state: dict) -> None:
        self.run = state["run"]
        self.repeat = array("q", state["repeat"]).tolist()
        self.points = array("q", state["points"]).tolist()
        for name in self._TEXT:
            value = state[name]
            setattr(self, name, value if value.__class__ is list else list(value))

    def rows(self, start: int = 0, stop: int | None = None) -> Iterator[Verdict]:
        stop = len(self.item) if stop is None else stop
        for k in range(start, stop):
            yield Verdict(self.run, self.item[k], self.repeat[k], self.unit[k], self.kind[k], self.verdict[k],
                          self.points[k], self.reason[k], self.order[k], self.counts[k])

    def spans(self) -> dict[str, tuple[int, int]]:
        """item -> (first row, end row) of its rows (all repeats)."""
        out: dict[str, tuple[int, int]] = {}
        start = 0
        items = self.item
        for k in range(1, len(items) + 1):
            if k == len(items) or items[k] != items[start]:
                out[items[start]] = (start, k)
                start = k
        return out
