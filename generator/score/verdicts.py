"""Verdict rows: one per (run, item, repeat, unit), emitted by both scorers and compared key by key."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class Verdict:
    run: str
    item: str
    repeat: int
    unit: str
    kind: str
    verdict: str
    reason: str = ""
    order: str = ""

    @property
    def points(self) -> int:
        return POINTS.get(self.verdict, 0)

    def row(self) -> tuple:
        return (self.run, self.item, self.repeat, self.unit, self.kind, self.verdict, self.points,
                self.reason, self.order)
