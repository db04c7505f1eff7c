"""Fuzz cases of cortifybench (generator/fuzz): the boundaries of content/pages/scoring-cortifybench.md.

A prediction hits when `monto` is within max(1.00, 1 % of the true amount), a difference exactly at
the tolerance included; `patron` and `clasificacion` compare after trimming and ASCII lower-casing;
`fecha` is exact; a list of more than 500 elements, or nesting past 100 levels, is unparseable.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from decimal import Decimal

from generator.fuzz import Num

DELTAS = ("1.00", "1.01", "0.99", "1", "0.01", "1.005")
RELATIVE = ("0.01", "0.0101", "0.0099")
NUMBERS = ("1e1000000", "1e1000001", "0e1000001", "1.4e3", "1400.0", "-0")
LIST_LIMIT = 500
WORDS = ("compra_duplicada", "duplicidad", "COMPRA_DUPLICADA", " duplicidad ", "Duplicidad\u00a0", "dupl\u00edcidad",
         "2026-03-05T00:00:00", "05/03/2026", "$1,400.00", "1400 MXN", "+1400", "1.4e3", "")


def _tolerance(monto: Decimal) -> Decimal:
    return max(Decimal("1.00"), abs(monto) * Decimal("0.01"))


def _near(rnd: random.Random, finding: dict) -> dict:
    out = dict(finding)
    monto = Decimal(str(finding["monto"]))
    step = _tolerance(monto) + rnd.choice((Decimal(0), Decimal("0.01"), Decimal("-0.01"), Decimal("0.001")))
    moved = monto + step * rnd.choice((1, -1))
    out["monto"] = rnd.choice((Num(format(moved, "f")), format(moved, "f"), f"${moved:,}", Num(format(moved, "E"))))
    roll = rnd.random()
    if roll < 0.2:
        out["patron"] = rnd.choice((str(finding["patron"]).upper(), " " + str(finding["patron"]) + "\u3000"))
    elif roll < 0.3:
        out["fecha"] = str(finding["fecha"]) + rnd.choice((" ", "T00:00:00", "\u00a0"))
    return out


def answers(rnd: random.Random, item: dict) -> list[object]:
    """The true findings (as a list and as {"hallazgos": [...]}), near-misses at the tolerance, repeats."""
    true = item.get("hallazgos")
    if not isinstance(true, list) or not all(isinstance(h, dict) and "monto" in h for h in true):
        return []
    exact = [dict(h, monto=Num(str(h["monto"])) if rnd.random() < 0.5 else h["monto"]) for h in true]
    near = [_near(rnd, h) if rnd.random() < 0.6 else dict(h) for h in true]
    rnd.shuffle(near)
    repeated = exact + exact[: rnd.randint(0, len(exact))]
    return [exact, {"hallazgos": exact}, near, {"hallazgos": near, "otro": 1}, repeated, [exact[0]] * 501 if exact else []]


SMALL = ("0.00", "0.50", "1.00", "100.00")  # true amounts whose tolerance is the 1.00 floor, or exactly 1 %
HOSTILE = ("0e1000001", "1e-1000001", "0e1000000", "1e-1000000", "-0", "0.0e0", "1.00", "1.01", "-1.00", "2.00",
           "101.00", "101.01", "98.99", "99.00", "0e99999999999999999999")


@functools.cache
def _small_items() -> tuple[dict, ...]:
    """Shared cases' items with one true amount made small (the tolerance's 1.00 floor and its edge)."""
    from . import SUITE

    out = []
    for case in SUITE.vector_cases()[:30]:
        true = case.item.get("hallazgos")
        if isinstance(true, list) and true and isinstance(true[0], dict):
            for amount in SMALL:
                item = copy.deepcopy(case.item)
                item["hallazgos"][0]["monto"] = amount
                out.append(item)
    return tuple(out)


def cases(rnd: random.Random) -> tuple[dict, dict]:
    """A prediction of a small true amount, its monto a hostile or boundary number."""
    item = rnd.choice(_small_items())
    findings = [dict(h) for h in item["hallazgos"]]
    literal = rnd.choice(HOSTILE)
    findings[0]["monto"] = Num(literal) if rnd.random() < 0.7 else literal
    body = "[" + ", ".join(
        "{" + ", ".join(f'"{k}": ' + (str(v) if isinstance(v, Num) else json.dumps(v)) for k, v in h.items()) + "}"
        for h in findings) + "]"
    record = {"item": item["id"], "repeat": 0, "attempts": [{"status": 200, "error": None}],
              "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": body}}]}}
    return item, record
