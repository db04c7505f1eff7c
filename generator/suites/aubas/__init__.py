"""The au-bas reconciliation suite: a corrected BAS and (transaction, fault) pairs
(content/pages/scoring-au-bas.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from ...content import Item
from ...parse.response import Outcome
from ...prompts import Template
from ...score.verdicts import Verdict
from ...suite_api import Metric, ScorerB, Suite, VectorCase, mean, ratio
from .ledger import FAULT_CODES, LABELS
from .scoring import ANSWER_CAPTION, ANSWER_COLUMNS, FIGURES, answer_rows, extract_answer, figures, parse_spec, score

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parents[2] / "tests" / "vectors" / "au-bas.json"


def _metrics() -> tuple[Metric, ...]:
    out: tuple[Metric, ...] = (
        mean("bas_correct", "BAS correct (all four labels)", "bas_correct", report="bas ok"),
        mean("fault_audit", "Fault audit (pair F1)", "fault_audit", report="fault F1"),
        mean("bas_label_accuracy", "BAS labels correct", "bas_label_accuracy", report="labels"),
        mean("fault_precision", "Fault precision", "fault_precision", report="precision"),
        mean("fault_recall", "Fault recall", "fault_recall", report="recall"),
        # more flags is neither better nor worse: read it with precision
        mean("num_flagged", "Pairs flagged (mean)", "num_flagged", better="none", scale=1.0, unit="",
             report="flagged"),
        mean("parsed", "Parsed replies", "parsed", report="parsed"),
        ratio("total_faulty", "Total reward on ledgers with faults (0.6 BAS + 0.4 audit)", "total_faulty", "faulty",
              report="total(faults)"),
        mean("total", "Total reward, all ledgers (clean quarters included)", "total", report="total"),
        ratio("silence_clean", "Silence on clean ledgers (audit F1 where there is no fault)", "audit_clean", "clean"),
        mean("failed_rate", "Failed calls", "failed", better="lower"),
    )
    # per fault type, over pairs (ratios of sums): recall = found / true, precision = found / claimed
    for code in FAULT_CODES:
        for m, den in (("recall", "true"), ("precision", "claimed")):
            out += (ratio(f"{m}_{code}", f"{m.capitalize()} on {code.replace('_', ' ')} pairs", f"found_{code}",
                          f"{den}_{code}"),)
    return out


class AuBas(Suite):
    name = "au-bas"
    answer_what = "readable <answer> block"
    figures = FIGURES
    metrics = _metrics()
    headline = "total_faulty"  # the rule page, rule 4: ledgers with no faults are kept out of it
    answer_caption = ANSWER_CAPTION
    answer_columns = ANSWER_COLUMNS
    unit_label = "Label or pair"
    scorer_b = ScorerB("au-bas", (HERE / "scorer.js",))
    vectors = VECTORS if VECTORS.is_file() else None

    def extract_answer(self, content: str) -> object | None:
        return extract_answer(content)

    def parse_item(self, raw: dict) -> tuple[object | None, list[str]]:
        return parse_spec(raw)

    def score(self, item: Item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
        return score(item, outcome, run, repeat)

    def item_figures(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
        return figures(verdicts)

    def answer_rows(self, raw: dict) -> list[tuple[str, ...]]:
        return answer_rows(raw)

    def answer_value(self, answer: object, unit: str) -> str:
        if not isinstance(answer, Mapping):
            return "<no answer object>"
        if unit in LABELS:
            return "<absent>" if unit not in answer else str(answer[unit])[:200]
        tid, _, code = unit.rpartition(":")
        codes = answer.get("faults", {}).get(tid)
        return "<absent>" if codes is None else ("claimed" if code in codes else "not claimed: " + str(codes)[:180])

    def commands(self) -> object | None:
        from .commands import group

        return group

    def sealed_order_kept(self, unit: str) -> bool | None:
        return True  # a fault row's code: the per-code figures read it

    def messages(self, item: dict, reference_date: str, template: Template) -> list[dict]:
        return [{"role": "system", "content": template.system.strip()},
                {"role": "user", "content": template.user.strip().format(ledger=item["document"]["text"])}]

    def vector_cases(self) -> list[VectorCase]:
        if self.vectors is None:
            return []
        doc = json.loads(self.vectors.read_text(encoding="utf-8"))
        out = []
        for c in doc["cases"]:
            ledger = doc["ledgers"][c["ledger"]]
            item = {"id": "case", "dataset": "cases", "half": "public", "document": {"locale": "en-AU"},
                    "ledger": ledger["ledger"], "key": ledger["key"]}
            out.append(VectorCase(c["id"], item, c["record"] if "record" in c else _record(c["content"]),
                                  tuple((u, v) for u, v in c["expected"]["verdicts"])))
        return out


def _record(content: str) -> dict:
    return {"item": "case", "repeat": 0, "request": {},
            "attempts": [{"start": "2026-11-01T00:00:00Z", "status": 200, "error": None, "latency_ms": 1.0}],
            "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}}


SUITE = AuBas()
