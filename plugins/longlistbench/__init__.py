"""The LongListBench suite: a third-party benchmark hosted through Tally's public suite interface.

LongListBench (Kay.ai, MIT licence, release 2.2.1) asks for every record of a long business document
(loss runs, IFTA fuel-tax schedules, driver rosters, policy packets). Its stored runs of real systems
are converted into Tally's items and results by `tally longlistbench import` (convert.py) and checked
against LongListBench's own reports by `tally longlistbench verify` (verify.py).

Scorer A is this package, written from the rule page `content/pages/scoring-longlistbench.md`; scorer
B is `scorer.js` next to this file, written from the same page by someone who has not read this code.
This folder is also the worked example of a suite plugin in docs/writing-a-suite.md.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from generator.parse.reply import read_json, strip_fence
from generator.parse.response import ANSWER, FAILED, Outcome
from generator.score.verdicts import CORRECT, FAILED_CALL, UNPARSEABLE, WRONG, Verdict, verdict_row
from generator.suite_api import PageBudget, ReportTable, ScorerB, Suite, VectorCase, expected_row, f1, mean, ratio, total

from . import incidents, matching

if TYPE_CHECKING:
    from generator.content import Item
    from generator.suite_api import ScoredRuns

HERE = Path(__file__).resolve().parent
SHOWN_RECORDS = 50  # checked records an item page lists


def schema_of(gold: list) -> str:
    """Rule 1: `records` or `incidents`, decided from the gold list as LongListBench decides it."""
    if any(isinstance(r, dict) and "record_type" in r for r in gold):
        return "records"
    if gold and not any(isinstance(r, dict) and "incident_number" in r for r in gold):
        return "records"
    return "incidents"


def document_f1(found: int, gold_pairs: int, pred_pairs: int) -> float:
    """Rule 4.3's field F1, computed in binary floating point as LongListBench computes it."""
    precision = found / pred_pairs if pred_pairs > 0 else 0.0
    recall = found / gold_pairs if gold_pairs > 0 else 0.0
    return 2 * (precision * recall) / (precision + recall) if (precision + recall) > 0 else 0.0


def counts(gold: list, answer: object) -> tuple[tuple[int, ...], str | None]:
    """(E, G, P, F, GP, PP) of a reply's value (None: no readable reply), and the shape problem."""
    module = incidents if schema_of(gold) == "incidents" else matching
    problem = None if answer is None else module.shape_problem(answer)
    if answer is None or problem is not None:
        return module.counts(gold, []), problem
    predicted = incidents.incidents_of(answer) if module is incidents else matching.records_of(answer)
    return module.counts(gold, predicted), None


class LongListBench(Suite):
    name = "longlistbench"
    answer_what = "JSON list of records"
    figures = ("exact", "gold_records", "pred_records", "complete", "found", "gold_pairs", "pred_pairs",
               "missed_pairs", "extra_pairs", "f1")
    metrics = (
        mean("macro_f1", "Field macro-F1", "f1", report="macro F1"),
        ratio("exact_recall", "Exact-record recall", "exact", "gold_records", report="exact recall"),
        total("complete", "Complete documents", "complete", better="higher", report="complete"),
        f1("micro_f1", "Field micro-F1", "found", "extra_pairs", "missed_pairs", report="micro F1"),
    )
    headline = "macro_f1"
    answer_caption = "The document's checked records (the first 50; all in the item's file)"
    answer_columns = ("#", "Record")
    unit_label = "What is counted"
    counts = ("Exact or found", "Checked", "Predicted")  # rule 5: each row's (E, G, P) or (F, GP, PP)
    order_label = None  # the rows carry no order
    points_shown = False  # a row's verdict says whether all its counts agree; the figures come from the counts
    replicates = "mean"
    budget = PageBudget(document_chars=20_000, response_chars=8_000)
    scorer_b = ScorerB("longlistbench", (HERE / "scorer.js",))
    vectors = HERE / "vectors-a.json"  # the cases written with scorer A; vectors.json: those written with scorer B

    def extract_answer(self, content: str) -> object | None:
        """Rule 2.1 step 3: the whole content is one JSON text (fence and White_Space removed); the
        shape is checked in `score`, which knows the item's schema."""
        value = read_json(strip_fence(content))
        return value if isinstance(value, (list, dict)) else None

    def parse_item(self, raw: dict) -> tuple[object | None, list[str]]:
        gold = raw.get("gold")
        if not isinstance(gold, list):
            return None, ["gold must be a JSON array of the document's records"]
        bad = [i for i, r in enumerate(gold) if not isinstance(r, dict)]
        if bad:
            return None, [f"gold record {bad[0]} is not an object"]
        if schema_of(gold) == "incidents":
            for index, r in enumerate(gold):
                if (p := incidents.incident_problem(r)) is not None:
                    return None, [f"gold incident {index}: {p}"]
        return gold, []

    def score(self, item: Item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
        """Section 5: the `records` row and the `fields` row."""
        gold: list = item.spec  # type: ignore[assignment]
        answer = outcome.answer if outcome.status == ANSWER else None
        (e, g, p, f, gp, pp), problem = counts(gold, answer)
        if outcome.status == FAILED:
            verdicts, reason = (FAILED_CALL, FAILED_CALL), outcome.reason
        elif answer is None or problem is not None:
            verdicts, reason = (UNPARSEABLE, UNPARSEABLE), problem or outcome.reason
        else:
            verdicts = (CORRECT if e == g == p else WRONG, CORRECT if f == gp == pp else WRONG)
            reason = ""
        records_reason = reason or f"{e} of {g} checked records predicted exactly; {p - e} of {p} predicted records not exact"
        fields_reason = reason or f"{f} field pairs found, of {gp} checked and {pp} predicted"
        return [verdict_row(run, item.id, repeat, "records", "records", verdicts[0], records_reason, counts=(e, g, p)),
                verdict_row(run, item.id, repeat, "fields", "fields", verdicts[1], fields_reason, counts=(f, gp, pp))]

    def item_figures(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
        e, g, p = verdicts[0].counts
        f, gp, pp = verdicts[1].counts
        return (e, g, p, int(e == g == p), f, gp, pp, gp - f, pp - f, document_f1(f, gp, pp))

    def answer_rows(self, raw: dict) -> list[tuple[str, ...]]:
        gold = raw["gold"]
        rows = [(str(i + 1), json.dumps(r, ensure_ascii=False, default=str)[:400])
                for i, r in enumerate(gold[:SHOWN_RECORDS])]
        if len(gold) > SHOWN_RECORDS:
            rows.append(("…", f"{len(gold) - SHOWN_RECORDS} more records"))
        return rows

    def answer_value(self, answer: object, unit: str) -> str:
        value = answer.get("records", answer.get("incidents")) if isinstance(answer, dict) else answer
        return f"{len(value)} records" if isinstance(value, list) else "<no list of records>"

    def vector_cases(self) -> list[VectorCase]:
        """The shared cases of both files: `vectors-a.json` (written beside scorer A) and, when present,
        `vectors.json` (written beside scorer B, from the rule page alone). Every case runs through both."""
        cases = super().vector_cases()
        other = HERE / "vectors.json"
        if other.is_file():
            doc = json.loads(other.read_text(encoding="utf-8"))
            cases += [VectorCase(c["id"], c["item"], c["record"], tuple(map(expected_row, c["expected"])))
                      for c in doc["cases"]]
        return cases

    def sealed_order_kept(self, unit: str) -> bool | None:
        return True  # counts of the model's own reply; they quote no record of the key

    def report_tables(self, scored: ScoredRuns) -> list[ReportTable]:
        from .leaderboard import leaderboard_table

        return [leaderboard_table(self, scored)]

    def commands(self) -> object | None:
        from .commands import group

        return group


SUITE = LongListBench()
