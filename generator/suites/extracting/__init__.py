"""The extracting suite: fields of documents (content/pages/scoring-extracting.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ...content import Item
from ...parse.jsonfind import first_object
from ...parse.response import Outcome
from ...prompts import Template
from ...score.verdicts import Verdict
from ...suite_api import DatasetMean, ReportTable, ScorerB, Suite, VectorCase, mean, ratio
from .prompt import extracting_messages
from .rules import ANSWER_CAPTION, ANSWER_COLUMNS, FIGURES, answer_rows, figures, parse_spec, score

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parents[2] / "tests" / "vectors" / "extracting.json"
ABSENT = "<absent>"


def case_record(case: dict) -> dict:
    """The stored record of a shared case: its own, or a successful call whose content is the case's."""
    if "record" in case:
        return dict(case["record"])
    if "content" in case:
        content = case["content"]
    elif case["answer_json"] == ABSENT:
        content = "{}"
    else:
        content = '{"%s": %s}' % (case["field"]["name"], case["answer_json"])
    return {"item": "case", "repeat": 0, "request": {},
            "attempts": [{"start": "2026-11-01T00:00:00Z", "status": 200, "error": None, "latency_ms": 1.0}],
            "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]},
            "usage": None, "latency_ms": 1.0}


class Extracting(Suite):
    name = "extracting"
    answer_what = "complete JSON object"
    figures = FIGURES
    metrics = (
        ratio("accuracy", "Accuracy (printed fields)", "printed_correct", "printed_n", report="printed"),
        ratio("computed_accuracy", "Accuracy (computed fields)", "computed_correct", "computed_n", report="computed"),
        ratio("null_honesty", "Null honesty", "null_ok", "missing_n", report="null hon."),
        ratio("invented_rate", "Invented values", "invented", "missing_n", better="lower", report="invented"),
        ratio("false_null_rate", "False nulls", "false_null", "present_n", better="lower", report="false null"),
        mean("unparseable_rate", "Unparseable answers", "unparseable", better="lower", report="unparse."),
        mean("failed_rate", "Failed calls", "failed", better="lower", report="failed"),
        # within a dataset 0.75 accuracy + 0.25 null honesty (one missing: the other alone), x 100;
        # then the datasets' equal-weight mean
        DatasetMean("index", "Extracting Index", (("accuracy", 0.75), ("null_honesty", 0.25)), report="index"),
    )
    headline = "index"
    answer_caption = ANSWER_CAPTION
    answer_columns = ANSWER_COLUMNS
    unit_label = "Field"
    scorer_b = ScorerB("extracting", (HERE / "scorer.js",))
    vectors = VECTORS if VECTORS.is_file() else None

    def extract_answer(self, content: str) -> object | None:
        return first_object(content)

    def parse_item(self, raw: dict) -> tuple[object | None, list[str]]:
        return parse_spec(raw)

    def score(self, item: Item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
        return score(item, outcome, run, repeat)

    def item_figures(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
        return figures(verdicts)

    def answer_rows(self, raw: dict) -> list[tuple[str, ...]]:
        return answer_rows(raw)

    def messages(self, item: dict, reference_date: str, template: Template) -> list[dict]:
        return extracting_messages(item, reference_date, template)

    def vector_cases(self) -> list[VectorCase]:
        if self.vectors is None:
            return []
        cases = json.loads(self.vectors.read_text(encoding="utf-8"))["cases"]
        return [VectorCase(c["id"], {"id": "case", "dataset": "cases", "half": "public",
                                     "document": {"locale": c["locale"]}, "fields": [c["field"]]},
                           case_record(c), ((c["field"]["name"], c["expected"]),)) for c in cases]

    def report_tables(self, scored) -> list[ReportTable]:
        from .reports import list_order_table

        return [list_order_table(scored)]

    def sealed_order_kept(self, unit: str) -> bool | None:
        return True  # "same" / "different": the line items' order compared


SUITE = Extracting()
