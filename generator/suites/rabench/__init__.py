"""RA-Bench: receipt extraction, checks, fake detection, duplicates, decisions, evidence and operations
(content/pages/scoring-ra-bench.md)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from ...content import Item
from ...parse.jsonfind import first_object
from ...parse.response import Outcome
from ...score.verdicts import Verdict
from ...suite_api import AnyMetric, ReportTable, ScorerB, Suite, f1, ratio
from .items import answer_rows, parse_label
from .rows import score
from .rules import FIELDS

if TYPE_CHECKING:
    from ...suite_api import ScoredRuns

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parents[2] / "tests" / "vectors" / "ra-bench.json"
FIGURES = ("base", "valid", "fields_n", "fields_ok", "all_right") + tuple(
    f"{f}_{p}" for f in FIELDS for p in ("n", "ok")) + (
    "li_tp", "li_fp", "li_fn", "fake", "genuine", "caught", "false_flag", "caught_07", "false_flag_07", "has_risk")
_INDEX = {name: k for k, name in enumerate(FIGURES)}
_SEVEN = Decimal("0.7")
# the answer key a unit's value is shown from (`answer_value`); the duplicate units: "duplicate"
_FIELD_NAME = {f"field:{f}": f for f in FIELDS}
_ANSWER_KEY = {"line_items": "line_items", "decision": "risk", "proof": "reasons", "edited_field": "reasons",
               "check:totals_add_up": "checks"}
# unit -> (shown from the answer's fields?, the key there), for answer_values (other units: as answer_value)
_SHOWN_FROM = {**{unit: (True, name) for unit, name in _FIELD_NAME.items()},
               **{unit: (False, key) for unit, key in _ANSWER_KEY.items()}}


def figures(verdicts: Sequence[Verdict]) -> tuple[float, ...]:
    """Rule page section 4: the per-item figures of one response."""
    out = [0.0] * _WIDTH
    for _run, _item, _repeat, unit, kind, verdict, _points, _reason, order, _counts in verdicts:
        if kind == "field":
            n, ok_at = _FIELD_AT.get(unit) or _field_at(unit)
            ok = 1.0 if verdict in _OK else 0.0
            out[_FIELDS_N] += 1
            out[_FIELDS_OK] += ok
            out[n] = 1
            out[ok_at] = ok
        elif unit == "line_items":
            for at, count in zip(_LINES_AT, order.split(" ")):
                out[at] = int(count)
        elif unit == "check:totals_add_up":
            out[_VALID] = float(verdict not in _BAD)
        elif unit == "decision":
            out[_BASE] = 1
            flagged_07 = order != "" and _at_least_07(order)
            out[_FAKE if verdict in _FAKE_VERDICTS else _GENUINE] = 1
            if verdict in _FLAGGED:
                out[_INDEX[verdict]] = 1
                out[_INDEX[verdict + "_07"]] = float(flagged_07)
            out[_HAS_RISK] = float(order != "")
    if out[_FIELDS_N] > 0 and out[_FIELDS_OK] == out[_FIELDS_N]:
        out[_ALL_RIGHT] = 1
    return tuple(out)


_WIDTH = len(FIGURES)
_FIELD_AT = {f"field:{f}": (_INDEX[f"{f}_n"], _INDEX[f"{f}_ok"]) for f in FIELDS}
_FIELDS_N, _FIELDS_OK, _ALL_RIGHT, _VALID, _BASE, _FAKE, _GENUINE, _HAS_RISK = (_INDEX[k] for k in (
    "fields_n", "fields_ok", "all_right", "valid", "base", "fake", "genuine", "has_risk"))
_LINES_AT = (_INDEX["li_tp"], _INDEX["li_fp"], _INDEX["li_fn"])
_OK = frozenset(("correct", "null_ok"))
_BAD = frozenset(("failed_call", "unparseable"))
_FAKE_VERDICTS = frozenset(("caught", "missed"))
_FLAGGED = frozenset(("caught", "false_flag"))


def _field_at(unit: str) -> tuple[int, int]:
    """The figures of a field row's unit not among the seven (a KeyError, as for an unknown field)."""
    name = unit.split(":", 1)[1]
    return _INDEX[f"{name}_n"], _INDEX[f"{name}_ok"]


@functools.lru_cache(maxsize=1 << 12)
def _at_least_07(order: str) -> bool:
    """A decision row's risk (its order, a canonical decimal) is >= 0.7."""
    return Decimal(order) >= _SEVEN


def _metrics() -> tuple[AnyMetric, ...]:
    out: tuple[AnyMetric, ...] = (
        ratio("all_fields_right", "All fields right", "all_right", "base", report="all right"),
        ratio("fields_right", "Fields right", "fields_ok", "fields_n", report="fields"),
        f1("line_item_f1", "Line-item F1", "li_tp", "li_fp", "li_fn", report="lines F1"),
        ratio("valid_output", "Valid output", "valid", "base", report="valid"),
        ratio("detection_05", "Fakes flagged at risk >= 0.5", "caught", "fake", report="det@.5"),
        ratio("false_flags_05", "Genuine flagged at risk >= 0.5", "false_flag", "genuine", better="lower",
              report="ff@.5"),
        ratio("detection_07", "Fakes flagged at risk >= 0.7", "caught_07", "fake"),
        ratio("false_flags_07", "Genuine flagged at risk >= 0.7", "false_flag_07", "genuine", better="lower"),
        ratio("risk_given", "Runs with a risk score", "has_risk", "base"),
    )
    return out + tuple(ratio(f"field_{f}", f"Field right: {f.replace('_', ' ')}", f"{f}_ok", f"{f}_n") for f in FIELDS)


class RaBench(Suite):
    name = "ra-bench"
    answer_what = "JSON object with a fields object"
    figures = FIGURES
    metrics = _metrics()
    headline = "all_fields_right"
    answer_caption = "The receipt's label: fields, line items, arithmetic, authenticity, lineage"
    answer_columns = ("Label", "Checked answer")
    unit_label = "Unit"
    scorer_b = ScorerB("ra-bench", (HERE / "scorer.js",))
    vectors = VECTORS if VECTORS.is_file() else None
    _shown: tuple[object, str] = (object(), "")  # the last value shown that is not a string, and its text

    def extract_answer(self, content: str) -> object | None:
        answer = first_object(content)
        return answer if answer is not None and isinstance(answer.get("fields"), dict) else None

    def parse_item(self, raw: dict) -> tuple[object | None, list[str]]:
        return parse_label(raw)

    def score(self, item: Item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
        return score(item, outcome, run, repeat)

    def item_figures(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
        return figures(verdicts)

    def answer_rows(self, raw: dict) -> list[tuple[str, ...]]:
        return answer_rows(raw)

    def answer_value(self, answer: object, unit: str) -> str:
        if answer.__class__ is not dict and not isinstance(answer, Mapping):
            return "<no answer object>"
        name = _FIELD_NAME.get(unit)
        if name is None and unit.startswith("field:"):
            name = unit.split(":", 1)[1]
        if name is not None:
            fields = answer.get("fields", {})  # type: ignore[attr-defined]
            if name not in fields:
                return "<absent>"
            value = fields[name]
        else:
            key = _ANSWER_KEY.get(unit, "duplicate")
            if key not in answer:  # type: ignore[operator]
                return "<absent>"
            value = answer[key]  # type: ignore[index]
        if value.__class__ is str:
            return value[:200]
        shown = self._shown  # read once: another thread may replace it
        if shown[0] is not value:  # two units show the reasons: the text is made once
            shown = self._shown = (value, str(value)[:200])
        return shown[1]

    def answer_values(self, answer: object, units: Iterable[str]) -> tuple[str, ...]:
        """`answer_value` of each unit, the answer object's parts looked up once (the same values)."""
        if answer.__class__ is not dict:
            return super().answer_values(answer, units)
        fields = answer.get("fields", {})  # type: ignore[attr-defined]
        texts: dict[int, str] = {}  # id of a value that is not a string -> its text (the answer holds it)
        out = []
        for unit in units:
            where = _SHOWN_FROM.get(unit)
            if where is None:
                where = (True, unit.split(":", 1)[1]) if unit.startswith("field:") else (False, "duplicate")
            source = fields if where[0] else answer
            if where[1] not in source:  # type: ignore[operator]
                out.append("<absent>")
                continue
            value = source[where[1]]  # type: ignore[index]
            if value.__class__ is str:
                out.append(value[:200])
            else:
                text = texts.get(id(value))
                if text is None:
                    text = texts[id(value)] = str(value)[:200]
                out.append(text)
        return tuple(out)

    def report_tables(self, scored: ScoredRuns) -> list[ReportTable]:
        from .findings import report_tables

        return report_tables(scored)

    def prepare_page(self, data: bytes) -> bytes:
        from .prepare import prepare_page

        return prepare_page(data)

    def commands(self) -> object | None:
        from .commands import group

        return group

    def sealed_order_kept(self, unit: str) -> bool | None:
        return unit in ("decision", "line_items")  # the model's risk; tp fp fn counts


SUITE = RaBench()
