"""Verdict rows: one per (run, item, repeat, unit), emitted by both scorers and compared key by key."""

from __future__ import annotations

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

COLUMNS = ("run", "item", "repeat", "unit", "kind", "verdict", "points", "reason", "order")


class Verdict(NamedTuple):
    """A row in the order of COLUMNS; build it with `verdict_row`."""

    run: str
    item: str
    repeat: int
    unit: str
    kind: str
    verdict: str
    points: int
    reason: str
    order: str


def verdict_row(run: str, item: str, repeat: int, unit: str, kind: str, verdict: str,
                reason: str = "", order: str = "") -> Verdict:
    return Verdict(run, item, repeat, unit, kind, verdict, POINTS.get(verdict, 0), reason, order)


def verdict_digest_line(v: Verdict) -> bytes:
    """The row as both scorers fold it into a run's digest: the JSON array
    [item, repeat, unit, verdict, points, order] and a newline (see scorer-js/cli.js)."""
    try:
        return orjson.dumps((v.item, v.repeat, v.unit, v.verdict, v.points, v.order)) + b"\n"
    except TypeError:  # a lone surrogate in a model-chosen unit: force the row-by-row comparison
        return b"<not UTF-8>\n"
