"""The au-bas reconciliation suite: a corrected BAS and (transaction, fault) pairs
(content/pages/scoring-au-bas.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from ...parse.reply import read_json, strip_fence
from ...parse.response import ANSWER, Outcome
from ...parse.text import WHITESPACE
from ...score.verdicts import CORRECT, FAILED_CALL, FALSE_FLAG, FOUND, MISSED, UNPARSEABLE, WRONG, Verdict, verdict_row
from .ledger import FAULT_CODES, LABELS, answer_key, ledger_problems

_FIGURE = re.compile(r"-?[0-9]+(\.[0-9]+)?")


# ---------------------------------------------------------------- parsing (rule 2)

def _last_block(content: str) -> str | None:
    start = content.rfind("<answer>")
    if start == -1:
        return None
    end = content.find("</answer>", start)
    return None if end == -1 else content[start + len("<answer>"):end]


def _faults(value: object) -> dict[str, list[str]] | None:
    """The claimed faults, or None when their shape makes the reply unparseable."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        return None
    out = {}
    for tid, codes in value.items():
        if isinstance(codes, str):
            codes = [codes]
        if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
            return None
        out[tid] = codes
    return out


def extract_answer(content: str) -> dict | None:
    """The answer object of the last <answer> block, with `faults` normalised; None: unparseable."""
    block = _last_block(content)
    if block is None:
        return None
    value = read_json(strip_fence(block))  # one JSON text (the core's reading rules, generator/parse/reply.py)
    if not isinstance(value, dict):
        return None
    faults = _faults(value.get("faults"))
    if faults is None:
        return None
    return {**value, "faults": faults}


def read_figure(value: object) -> Decimal | None:
    if isinstance(value, Decimal):
        return value
    if isinstance(value, str):
        text = value.replace("$", "").replace(",", "").strip(WHITESPACE)
        if _FIGURE.fullmatch(text):
            return Decimal(text)
    return None


# ---------------------------------------------------------------- items

def parse_spec(raw: dict) -> tuple[dict | None, list[str]]:
    ledger, key = raw.get("ledger"), raw.get("key")
    problems = ledger_problems(ledger)
    if problems or not isinstance(ledger, dict):
        return None, problems
    derived = answer_key(ledger)
    if key != derived:
        return None, [f"the stored key differs from the key the rules derive from the ledger: {derived}"]
    pairs = sorted((tid, code) for tid, codes in derived["faults"].items() for code in codes)
    return {"labels": {k: Decimal(derived[k]) for k in LABELS}, "pairs": pairs}, []


# ---------------------------------------------------------------- scoring (rules 3 to 5)

def score(item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
    spec = item.spec
    if outcome.status != ANSWER:
        verdict = FAILED_CALL if outcome.status == FAILED_CALL else UNPARSEABLE
        rows = [verdict_row(run, item.id, repeat, label, "bas", verdict, outcome.reason) for label in LABELS]
        return rows + [verdict_row(run, item.id, repeat, f"{t}:{c}", "fault", verdict, outcome.reason, _code(c))
                       for t, c in spec["pairs"]]
    answer = outcome.answer
    assert answer is not None  # the status is ANSWER
    rows = []
    for label in LABELS:
        got = read_figure(answer.get(label))
        if got is None:
            rows.append(verdict_row(run, item.id, repeat, label, "bas", WRONG, "missing or not a figure"))
        elif got == spec["labels"][label]:
            rows.append(verdict_row(run, item.id, repeat, label, "bas", CORRECT))
        else:
            rows.append(verdict_row(run, item.id, repeat, label, "bas", WRONG, "differs from the corrected BAS"))
    claimed = {(tid, code) for tid, codes in answer["faults"].items() for code in codes}
    true = set(spec["pairs"])
    for tid, code in sorted(claimed | true):
        verdict = FOUND if (tid, code) in claimed and (tid, code) in true else MISSED if (tid, code) in true else FALSE_FLAG
        reason = {FOUND: "", MISSED: "true fault not reported", FALSE_FLAG: "not a fault of this row"}[verdict]
        rows.append(verdict_row(run, item.id, repeat, f"{tid}:{code}", "fault", verdict, reason, _code(code)))
    return rows


def _code(code: str) -> str:
    """A fault row's `order` (rule 5): its code when it is one of the five, else empty. The gate
    compares it, and the per-type figures read it: a unit alone can't tell ("T1", "x:outside_period")
    from ("T1:x", "outside_period")."""
    return code if code in FAULT_CODES else ""


_PER_CODE = tuple(f"{part}_{code}" for code in FAULT_CODES for part in ("true", "claimed", "found"))
FIGURES = ("bas_correct", "fault_audit", "bas_label_accuracy", "fault_precision", "fault_recall", "num_flagged",
           "parsed", "total", "failed", "faulty", "total_faulty", "clean", "audit_clean") + _PER_CODE


def _per_code(verdicts: Sequence[Verdict]) -> tuple[int, ...]:
    """For each fault code: true pairs, claimed pairs and correct pairs of this response, read from
    each row's verdict and `order` (the code; empty for an unknown code, which counts nowhere)."""
    counts = dict.fromkeys(_PER_CODE, 0)
    for v in verdicts:
        code = v.order
        if code not in FAULT_CODES:
            continue
        if v.verdict in (FOUND, MISSED, FAILED_CALL, UNPARSEABLE):
            counts[f"true_{code}"] += 1
        if v.verdict in (FOUND, FALSE_FLAG):
            counts[f"claimed_{code}"] += 1
        if v.verdict == FOUND:
            counts[f"found_{code}"] += 1
    return tuple(counts[name] for name in _PER_CODE)


def figures(verdicts: Sequence[Verdict]) -> tuple[float, ...]:
    """Rule 4, from the fields the agreement gate compares (unit, verdict, points, order) alone."""
    first = verdicts[0].verdict
    per_code = _per_code(verdicts)
    # a ledger with faults: some row is a true pair (each true pair has a row, whatever the reply)
    faulty = int(any(v.order in FAULT_CODES and v.verdict in (FOUND, MISSED, FAILED_CALL, UNPARSEABLE)
                     for v in verdicts))
    if first in (FAILED_CALL, UNPARSEABLE):
        return (0, 0, 0, 0, 0, 0, 0, 0, int(first == FAILED_CALL), faulty, 0, 1 - faulty, 0) + per_code
    labels = sum(v.verdict == CORRECT for v in verdicts)
    tp = sum(v.verdict == FOUND for v in verdicts)
    fp = sum(v.verdict == FALSE_FLAG for v in verdicts)
    fn = sum(v.verdict == MISSED for v in verdicts)
    claimed, true = tp + fp, tp + fn
    audit = (1.0 if claimed == 0 else 0.0) if true == 0 else 2 * tp / (claimed + true)
    bas = 1 if labels == len(LABELS) else 0
    total = 0.6 * bas + 0.4 * audit
    return (bas, audit, labels / len(LABELS), tp / claimed if claimed else 0.0, tp / true if true else 0.0,
            claimed, 1, total, 0, faulty, total * faulty, 1 - faulty, audit * (1 - faulty)) + per_code


# ---------------------------------------------------------------- checked answers, for item pages

ANSWER_CAPTION = "The corrected BAS and every fault the rules find in the ledger"
ANSWER_COLUMNS = ("Label or row", "Checked answer")


def answer_rows(raw: dict) -> list[tuple[str, ...]]:
    key = raw["key"]
    rows: list[tuple[str, ...]] = [(label, key[label]) for label in LABELS]
    rows += [(tid, ", ".join(codes)) for tid, codes in key["faults"].items()]
    return rows if key["faults"] else rows + [("faults", "none")]
