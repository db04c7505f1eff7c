"""Verdict rows: one per (run, item, repeat, unit), emitted by both scorers and compared key by key."""

from __future__ import annotations

from typing import NamedTuple

CORRECT = "correct"
WRONG = "wrong"
INVENTED = "invented"
FALSE_NULL = "false_null"
NULL_OK = "null_ok"
UNPARSEABLE = "unparseable"
FAILED_CALL = "failed_call"

VERDICTS = (CORRECT, WRONG, INVENTED, FALSE_NULL, NULL_OK, UNPARSEABLE, FAILED_CALL)
POINTS = {CORRECT: 1, NULL_OK: 1}

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
