"""CortifyBench: a restaurant purchase audit scored by findings F1
(content/pages/scoring-cortifybench.md; audit rules: content/pages/manual-cortifybench-en.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...content import Item
from ...parse.response import Outcome
from ...prompts import Template
from ...score.verdicts import Verdict
from ...suite_api import AnyMetric, PageBudget, ReportTable, ScorerB, Suite, f1, mean, ratio
from .files import HEADER
from .patterns import FAMILIES, PATTERNS
from .scoring import FIGURES, extract_answer, figures, findings_problems, score

if TYPE_CHECKING:
    from ...suite_api import ScoredRuns

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parents[2] / "tests" / "vectors" / "cortifybench.json"


def _metrics() -> tuple[AnyMetric, ...]:
    out: tuple[AnyMetric, ...] = (
        mean("f1", "F1 (mean per item)", "f1", report="F1"),
        mean("precision", "Precision (mean per item)", "precision", report="precision"),
        mean("recall", "Recall (mean per item)", "recall", report="recall"),
        mean("exact", "Exact (every finding right, nothing else)", "exact", report="exact"),
        f1("micro_f1", "F1 over all findings (micro)", "tp", "fp", "fn"),
        mean("predicted", "Findings reported (mean)", "predicted", better="none", scale=1.0, unit="",
             report="reported"),
        mean("parsed", "Readable replies", "parsed", report="parsed"),
        mean("failed_rate", "Failed calls", "failed", better="lower"),
    )
    out += tuple(ratio(f"recall_{f}", f"Recall on {f} rules", f"found_{f}", f"true_{f}") for f in FAMILIES)
    out += tuple(ratio(f"recall_{p}", f"Recall on {p}", f"found_{p}", f"true_{p}") for p in PATTERNS)
    return out


class CortifyBench(Suite):
    name = "cortifybench"
    answer_what = "JSON list of findings"
    figures = FIGURES
    metrics = _metrics()
    headline = "f1"
    answer_caption = "Every finding the audit manual's rules mark in the restaurant's files"
    answer_columns = ("Finding", "patron", "clasificacion", "fecha", "monto")
    unit_label = "Finding"
    scorer_b = ScorerB("cortifybench", (HERE / "scorer.js",))
    budget = PageBudget(document_chars=60_000, response_chars=8_000)
    vectors = VECTORS if VECTORS.is_file() else None

    def extract_answer(self, content: str) -> object | None:
        return extract_answer(content)

    def parse_item(self, raw: dict) -> tuple[object | None, list[str]]:
        findings = raw.get("hallazgos")
        problems = findings_problems(findings)
        if problems:
            return None, problems
        text = raw.get("document", {}).get("text", "")
        if isinstance(text, str) and text.startswith(HEADER):  # the files: the rules must give back the findings
            from .solver import solve

            try:
                derived = solve(text, raw.get("dataset", ""))
            except (KeyError, ValueError, TypeError) as exc:
                return None, [f"the files do not read: {exc}"]
            if derived != findings:
                return None, ["the stored hallazgos differ from what the manual's rules derive from the files"]
        return {"hallazgos": findings}, []

    def score(self, item: Item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
        return score(item, outcome, run, repeat)

    def item_figures(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
        return figures(verdicts)

    def report_tables(self, scored: ScoredRuns) -> list[ReportTable]:
        from .report import recall_tables

        return recall_tables(scored)

    def answer_rows(self, raw: dict) -> list[tuple[str, ...]]:
        return [(f"H{k + 1:02d}", h["patron"], h["clasificacion"], h["fecha"], h["monto"])
                for k, h in enumerate(raw["hallazgos"])] or [("none", "", "", "", "")]

    def answer_value(self, answer: object, unit: str) -> str:
        if not isinstance(answer, Mapping):
            return "<no answer object>"
        preds = answer.get("predictions", [])
        if unit.startswith("P") and unit[1:].isdigit() and int(unit[1:]) <= len(preds):
            return str(preds[int(unit[1:]) - 1])[:200]
        return f"{len(preds)} predictions"

    def commands(self) -> object | None:
        from .commands import group

        return group

    def messages(self, item: dict, reference_date: str, template: Template) -> list[dict]:
        return [{"role": "system", "content": template.system.strip()},
                {"role": "user", "content": template.user.strip().replace("{archivos}", item["document"]["text"])}]

    def sealed_order_kept(self, unit: str) -> bool | None:
        return True  # a prediction's number


SUITE = CortifyBench()
