"""Scorer A of CortifyBench: content/pages/scoring-cortifybench.md, section by section."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Context, Decimal, localcontext

from ...parse.reply import read_json, strip_fence
from ...parse.response import ANSWER, Outcome
from ...parse.text import WHITESPACE
from ...score.verdicts import CORRECT, FAILED_CALL, FALSE_FLAG, FOUND, MISSED, UNPARSEABLE, Verdict, verdict_row
from .patterns import FAMILIES, PATTERNS, family

MAX_PREDICTIONS = 500
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_AMOUNT = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_MONEY = re.compile(r"[0-9]+\.[0-9]{2}")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
ONE = Decimal("1.00")
PERCENT = Decimal("0.01")


# ---------------------------------------------------------------- section 2: the answer

def extract_answer(content: str) -> dict | None:
    """{"predictions": [...]} from a reply, or None when it is unparseable. The JSON text is read by
    the core's reading rules (generator/parse/reply.py: exactness, exponent range, nesting limit)."""
    value = read_json(strip_fence(content))
    if isinstance(value, dict):
        value = value.get("hallazgos")
    if not isinstance(value, list) or len(value) > MAX_PREDICTIONS:
        return None
    return {"predictions": value}


# ---------------------------------------------------------------- section 3: predictions

def _code(value: object) -> str | None:
    return value.strip(WHITESPACE).translate(_ASCII_LOWER) if isinstance(value, str) else None


def read_amount(value: object) -> Decimal | None:
    if isinstance(value, Decimal):
        return value
    if isinstance(value, str):
        text = value.replace("$", "").replace(",", "").strip(WHITESPACE)
        if _AMOUNT.fullmatch(text):
            return Decimal(text)
    return None


def read_prediction(value: object) -> tuple[str, str, str, Decimal] | None:
    """(patron, clasificacion, fecha, monto), or None when the element can hit nothing."""
    if not isinstance(value, dict):
        return None
    patron, clas = _code(value.get("patron")), _code(value.get("clasificacion"))
    fecha = value.get("fecha")
    fecha = fecha.strip(WHITESPACE) if isinstance(fecha, str) else None
    monto = read_amount(value.get("monto"))
    if patron is None or clas is None or fecha is None or monto is None:
        return None
    return patron, clas, fecha, monto


# ---------------------------------------------------------------- sections 4 and 5: hits and matching

def can_hit(p: tuple[str, str, str, Decimal] | None, h: dict) -> bool:
    if p is None or (p[0], p[1], p[2]) != (h["patron"], h["clasificacion"], h["fecha"]):
        return False
    true = Decimal(h["monto"])
    # exactly: the bounds come from the true amount (a few digits) with no rounding, and comparing two
    # decimals never rounds, so a predicted amount of any length or exponent is placed exactly
    with localcontext(Context(prec=len(true.as_tuple().digits) + 12, Emin=-999_999, Emax=999_999)):
        tolerance = max(ONE, PERCENT * abs(true))
        low, high = true - tolerance, true + tolerance
    return low <= p[3] <= high


def _max_matching(adj: list[list[int]], findings: Sequence[int], free: set[int]) -> int:
    """Size of a maximum matching of `findings` to the predictions in `free` (augmenting paths)."""
    owner: dict[int, int] = {}

    def augment(h: int, seen: set[int]) -> bool:
        for p in adj[h]:
            if p in free and p not in seen:
                seen.add(p)
                if p not in owner or augment(owner[p], seen):
                    owner[p] = h
                    return True
        return False

    return sum(augment(h, set()) for h in findings)


def match(adj: list[list[int]]) -> dict[int, int]:
    """The chosen maximum matching (rule page section 5): finding index -> prediction index.
    adj[h] lists the predictions that can hit finding h, in increasing order."""
    n = len(adj)
    free = {p for ps in adj for p in ps}
    target = _max_matching(adj, range(n), free)
    chosen: dict[int, int] = {}
    for h in range(n):
        for p in adj[h]:
            if p not in free:
                continue
            rest = _max_matching(adj, range(h + 1, n), free - {p})
            if len(chosen) + 1 + rest == target:
                chosen[h] = p
                free.discard(p)
                break
    return chosen


# ---------------------------------------------------------------- section 7: verdict rows

def unit_of(k: int, h: dict) -> str:
    return f"H{k + 1:02d}:{h['patron']}"


def score(item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
    truth: list[dict] = item.spec["hallazgos"]
    if outcome.status != ANSWER:
        verdict = FAILED_CALL if outcome.status == FAILED_CALL else UNPARSEABLE
        return [verdict_row(run, item.id, repeat, "respuesta", "reply", verdict, outcome.reason)] + [
            verdict_row(run, item.id, repeat, unit_of(k, h), "finding", verdict) for k, h in enumerate(truth)]
    answer = outcome.answer or {"predictions": []}
    preds = [read_prediction(v) for v in answer["predictions"]]
    adj = [[j for j, p in enumerate(preds) if can_hit(p, h)] for h in truth]
    chosen = match(adj)
    rows = [verdict_row(run, item.id, repeat, "respuesta", "reply", CORRECT)]
    for k, h in enumerate(truth):
        if k in chosen:
            rows.append(verdict_row(run, item.id, repeat, unit_of(k, h), "finding", FOUND, "",
                                    f"P{chosen[k] + 1:02d}"))
        else:
            rows.append(verdict_row(run, item.id, repeat, unit_of(k, h), "finding", MISSED,
                                    "no prediction hits this finding"))
    used = set(chosen.values())
    rows += [verdict_row(run, item.id, repeat, f"P{j + 1:02d}", "prediction", FALSE_FLAG,
                         "hits no true finding left unmatched" if preds[j] else "not a readable finding")
             for j in range(len(preds)) if j not in used]
    return rows


# ---------------------------------------------------------------- section 6: figures

_PER_PATTERN = tuple(f"{part}_{p}" for p in PATTERNS for part in ("true", "found"))
_PER_FAMILY = tuple(f"{part}_{f}" for f in FAMILIES for part in ("true", "found"))
FIGURES = ("f1", "precision", "recall", "exact", "tp", "fp", "fn", "predicted", "parsed", "failed") \
    + _PER_PATTERN + _PER_FAMILY


def figures(verdicts: Sequence[Verdict]) -> tuple[float, ...]:
    counts = dict.fromkeys(_PER_PATTERN + _PER_FAMILY, 0)
    tp = fp = fn = 0
    for v in verdicts:
        if v.kind == "prediction":
            fp += 1
        elif v.kind == "finding":
            patron = v.unit.split(":", 1)[1]
            hit = v.verdict == FOUND
            tp, fn = tp + hit, fn + (not hit)
            if patron in PATTERNS:
                for key in (f"_{patron}", f"_{family(patron)}"):
                    counts["true" + key] += 1
                    counts["found" + key] += hit
    first = verdicts[0].verdict
    tail = tuple(counts[k] for k in _PER_PATTERN + _PER_FAMILY)
    if first != CORRECT:
        return (0, 0, 0, 0, 0, 0, fn, 0, 0, int(first == FAILED_CALL)) + tail
    n_true, n_pred = tp + fn, tp + fp
    f1 = 1.0 if n_true == n_pred == 0 else 2 * tp / (2 * tp + fp + fn)
    precision = tp / n_pred if n_pred else float(n_true == 0)
    recall = tp / n_true if n_true else float(n_pred == 0)
    return (f1, precision, recall, int(fp == 0 and fn == 0), tp, fp, fn, n_pred, 1, 0) + tail


# ---------------------------------------------------------------- items

def findings_problems(findings: object) -> list[str]:
    if not isinstance(findings, list):
        return ["hallazgos is not a list"]
    problems = []
    for k, h in enumerate(findings):
        if not isinstance(h, dict) or set(h) != {"patron", "clasificacion", "fecha", "monto"}:
            problems.append(f"hallazgos[{k}] is not an object of patron, clasificacion, fecha, monto")
        elif not all(isinstance(h[f], str) for f in h):
            problems.append(f"hallazgos[{k}]: every field must be a string")
        elif not (_DATE.fullmatch(h["fecha"]) and _MONEY.fullmatch(h["monto"])):
            problems.append(f"hallazgos[{k}]: fecha must be YYYY-MM-DD and monto a non-negative amount with 2 decimals")
        elif h["patron"] != h["patron"].translate(_ASCII_LOWER).strip(WHITESPACE):
            problems.append(f"hallazgos[{k}]: patron must be lower case")
    return problems
