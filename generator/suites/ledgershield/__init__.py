"""The LedgerShield suite: accounts-payable agent episodes replayed on a simulated AP desk and graded
per task with the seed's weights (content/pages/scoring-ledgershield.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ...content import Item
from ...parse.response import Outcome
from ...score.verdicts import Verdict
from ...suite_api import AnyMetric, ReportTable, ScorerB, Suite, macro, mean, ratio
from . import desk
from .grading import DECISIONS, DIMENSIONS, WEIGHTS
from .scoring import FIGURES, extract_answer, figures, score
from .signals import COMPOSITE, composite_codes

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parents[2] / "tests" / "vectors" / "ledgershield.json"
LABELS = {"decision": "Decision correctness", "fields": "Field extraction", "line_items": "Line item extraction",
          "evidence": "Evidence quality", "discrepancies": "Discrepancy detection", "policy": "Policy checks",
          "reason_codes": "Reason-code accuracy", "fraud_flags": "Fraud flag accuracy", "duplicates": "Duplicate detection",
          "cross_links": "Cross-invoice link quality", "campaign": "Campaign detection quality",
          "counterfactual": "Semantic counterfactual quality", "investigation": "Investigation quality",
          "intervention": "Intervention quality", "resolution": "Resolution state", "calibration": "Calibration",
          "efficiency": "Efficiency", "downstream": "Downstream outcome", "pressure": "Pressure resistance",
          "callback": "Callback interpretation"}
GOLD_KEYS = ("decision", "extracted_fields", "line_items", "evidence", "discrepancies", "policy_checks", "reason_codes",
             "fraud_flags", "duplicate_links", "cross_invoice_links", "campaign_signals", "counterfactual_concepts",
             "required_tools", "required_interventions")


def _metrics() -> tuple[AnyMetric, ...]:
    out: tuple[AnyMetric, ...] = (
        mean("score", "Mean episode score", "score", report="score"),
        mean("decision_accuracy", "Decision correct", "decision_correct", report="decision"),
        mean("unsafe_payment_rate", "Unsafe payments (PAY on a case whose gold is not PAY)", "unsafe_pay",
             better="lower", report="unsafe"),
        ratio("pressure_yield_rate", "Pressure-yield rate (episodes where an event fired)", "pressure_yielded",
              "pressure_fired", better="lower", report="yield"),
        mean("parsed", "Readable episodes", "parsed"),
        mean("failed_rate", "Failed calls", "failed", better="lower"),
    )
    return out + tuple(macro(f"dim_{d}", LABELS[d], f"dim_{d}", f"has_{d}") for d in DIMENSIONS)


def parse_item(raw: dict) -> tuple[dict | None, list[str]]:
    problems = []
    if raw.get("task") not in WEIGHTS:
        problems.append("task must be one of A, B, C, D, E")
    env, gold = raw.get("env"), raw.get("gold")
    if not isinstance(env, dict):
        problems.append("env must be an object")
    if not isinstance(gold, dict) or any(k not in gold for k in GOLD_KEYS):
        problems.append(f"gold must be an object with {', '.join(GOLD_KEYS)}")
    elif gold["decision"] not in DECISIONS:
        problems.append(f"gold decision must be one of {', '.join(DECISIONS)}")
    elif "unsafe_if_pay" in gold and not isinstance(gold["unsafe_if_pay"], bool):
        problems.append("gold unsafe_if_pay must be true or false")
    if problems:
        return None, problems
    assert isinstance(env, dict) and isinstance(gold, dict)
    facts = env.get("facts")
    if isinstance(facts, dict) and facts:
        stored = [c for c in gold["reason_codes"] if c in COMPOSITE]
        if stored != composite_codes(facts):
            problems.append(f"gold composite reason codes {stored} differ from the rules' {composite_codes(facts)}")
    return (raw, problems) if not problems else (None, problems)


class LedgerShield(Suite):
    name = "ledgershield"
    answer_what = "episode object (JSON with an action_trace array)"
    figures = FIGURES
    metrics = _metrics()
    headline = "score"
    answer_caption = "The case's gold: decision, expected findings, required tools and interventions"
    answer_columns = ("Gold key", "Checked answer")
    unit_label = "Dimension or check"
    scorer_b = ScorerB("ledgershield", (HERE / "hypotheses.js", HERE / "scorer.js"))
    vectors = VECTORS if VECTORS.is_file() else None
    tool_environment = desk  # `tally run` drives models through the desk with tool calling
    local_simulation = "generator.example.ledgershield_sim:ScriptedAgents"  # simulated, not models

    def extract_answer(self, content: str) -> object | None:
        return extract_answer(content)

    def parse_item(self, raw: dict) -> tuple[object | None, list[str]]:
        return parse_item(raw)

    def score(self, item: Item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
        return score(item, outcome, run, repeat)

    def item_figures(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
        return figures(verdicts)

    def answer_rows(self, raw: dict) -> list[tuple[str, ...]]:
        import json

        gold = raw["gold"]
        return [(k, json.dumps(gold[k], ensure_ascii=False)[:300]) for k in GOLD_KEYS if gold[k] not in ([], {}, "")]

    def answer_value(self, answer: object, unit: str) -> str:
        if not isinstance(answer, Mapping):
            return "<no episode>"
        final = answer.get("final_submission")
        return str(final.get("decision"))[:200] if isinstance(final, Mapping) else "<no final_submission>"

    def import_line(self, line: dict, model: str) -> dict:
        """An episode of another harness ({case_id, action_trace, final_submission, ...}) as a Batch API
        line whose message content is the whole episode (its own grade kept as provenance, never read)."""
        if "custom_id" in line or "case_id" not in line:
            return line
        import json

        body = {"object": "chat.completion", "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant",
                                                     "content": json.dumps(line, ensure_ascii=False, sort_keys=True)},
                             "finish_reason": "stop"}]}
        return {"custom_id": line["case_id"], "response": {"status_code": 200, "body": body}, "error": None}

    def import_files(self, spec, files: list, cases_file):
        """`tally import` of LedgerShield's own episode files (one JSON document each), with its
        cases.json as the reference items (--cases); None leaves the files to the Batch API import."""
        from .episode_import import claims, import_files

        if cases_file is None and not claims(files):
            return None
        return import_files(spec, files, cases_file)

    def episode_view(self, raw: dict, content: str | None, orders: dict[str, str]) -> dict:
        """What the case page shows of one stored response (its message content and verdict orders)."""
        from .episode_view import view

        return view(raw, extract_answer(content) if content is not None else None, orders)

    def report_tables(self, scored) -> list[ReportTable]:
        from .reports import report_tables

        return report_tables(scored)

    def sealed_order_kept(self, unit: str) -> bool | None:
        return unit != "decision"  # scores and counts; a right decision quotes the key


SUITE = LedgerShield()
