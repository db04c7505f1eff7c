"""RA-Bench: receipt extraction, checks, fake detection, duplicates, decisions, evidence and operations
(content/pages/scoring-ra-bench.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from ...content import Item
from ...parse.response import Outcome
from ...score.verdicts import Verdict
from ...suite_api import AnyMetric, ReportTable, ScorerB, Suite, f1, ratio
from .items import answer_rows, parse_label
from .rows import score
from .rules import FIELDS

if TYPE_CHECKING:
    from ...pipeline import ScoredSuite

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parents[2] / "tests" / "vectors" / "ra-bench.json"
FIGURES = ("base", "valid", "fields_n", "fields_ok", "all_right") + tuple(
    f"{f}_{p}" for f in FIELDS for p in ("n", "ok")) + (
    "li_tp", "li_fp", "li_fn", "fake", "genuine", "caught", "false_flag", "caught_07", "false_flag_07", "has_risk")
_INDEX = {name: k for k, name in enumerate(FIGURES)}
_SEVEN = Decimal("0.7")
# the answer key a unit's value is shown from (`answer_value`); the duplicate units: "duplicate"
_ANSWER_KEY = {"line_items": "line_items", "decision": "risk", "proof": "reasons", "edited_field": "reasons",
               "check:totals_add_up": "checks"}


def figures(verdicts: Sequence[Verdict]) -> tuple[float, ...]:
    """Rule page section 4: the per-item figures of one response."""
    out = [0.0] * len(FIGURES)
    for v in verdicts:
        if v.kind == "field":
            name = v.unit.split(":", 1)[1]
            ok = float(v.verdict in ("correct", "null_ok"))
            out[_INDEX["fields_n"]] += 1
            out[_INDEX["fields_ok"]] += ok
            out[_INDEX[f"{name}_n"]] = 1
            out[_INDEX[f"{name}_ok"]] = ok
        elif v.unit == "line_items":
            for name, count in zip(("li_tp", "li_fp", "li_fn"), v.order.split(" ")):
                out[_INDEX[name]] = int(count)
        elif v.unit == "check:totals_add_up":
            out[_INDEX["valid"]] = float(v.verdict not in ("failed_call", "unparseable"))
        elif v.unit == "decision":
            out[_INDEX["base"]] = 1
            fake = v.verdict in ("caught", "missed")
            flagged_07 = v.order != "" and Decimal(v.order) >= _SEVEN
            out[_INDEX["fake" if fake else "genuine"]] = 1
            if v.verdict in ("caught", "false_flag"):
                out[_INDEX[v.verdict]] = 1
                out[_INDEX[v.verdict + "_07"]] = float(flagged_07)
            out[_INDEX["has_risk"]] = float(v.order != "")
    if out[_INDEX["fields_n"]] > 0 and out[_INDEX["fields_ok"]] == out[_INDEX["fields_n"]]:
        out[_INDEX["all_right"]] = 1
    return tuple(out)


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

    def extract_answer(self, content: str) -> object | None:
        from ...parse.jsonfind import first_object

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
        if not isinstance(answer, Mapping):
            return "<no answer object>"
        if unit.startswith("field:"):
            fields = answer.get("fields", {})
            name = unit.split(":", 1)[1]
            return "<absent>" if name not in fields else str(fields[name])[:200]
        key = _ANSWER_KEY.get(unit, "duplicate")
        return "<absent>" if key not in answer else str(answer[key])[:200]

    def report_tables(self, scored: ScoredSuite) -> list[ReportTable]:
        from .findings import report_tables

        return report_tables(scored)


SUITE = RaBench()
