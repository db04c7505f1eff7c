"""Fuzz cases of RA-Bench (generator/fuzz): the boundaries of content/pages/scoring-ra-bench.md.

Amounts match within 0.01 (exactly 0.01 included); a risk is a JSON number in [0, 1], flagged at
>= 0.5 and >= 0.7; merchant names match at similarity >= 0.9 and line-item descriptions at >= 0.8
(edit distance d over m code points: 10 (m - d) >= 9 m, 5 (m - d) >= 4 m); receipt numbers keep
letters and digits (Unicode categories L* and N*); keyword reasons match whole words; the answer's
`fields` must be an object.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from generator.fuzz import Num
from generator.fuzz.mutate import NEW_LETTERS, edit

DELTAS = ("0.01", "0.0100001", "0.0099999", "0.011", "0.005")
NUMBERS = ("0.5", "0.4999999999999999999999", "0.7", "0.6999999999999999999", "1", "1.0000000000000000001", "0",
           "-0", "-0.0", "1e0", "5e-1", "7E-1", "0e1000001", "1e-1000001", "1e1000001", "0.50000000000000000001")
WORDS = ("failed", "passed", "not_run", "exact", "totals_add_up", "tax_rate", "receipt_age", "currency",
         "ai_generator_tag", "duplicate_match", "pdf_modified", "@total", "@total_x", "@tax_total", "amount due",
         "amount  due", "subtotal", "vat", "logo", "usd", "USD", "EUR")
SCALARS = ("merchant", "date", "subtotal", "tax_total", "total", "currency", "receipt_number")


def _at_cutoff(rnd: random.Random, name: str, tenths: int) -> str:
    """`name` with as many edits as the cut-off allows (d <= m x (10 - tenths) / 10), or one more."""
    allowed = len(name) * (10 - tenths) // 10
    return edit(rnd, name, max(allowed + rnd.choice((0, 0, 1)), 0)) if name else rnd.choice(NEW_LETTERS)


def _amount(rnd: random.Random, value: str) -> object:
    d = Decimal(value) + Decimal(rnd.choice(DELTAS)) * rnd.choice((1, -1, 0))
    return rnd.choice((Num(format(d, "f")), format(d, "f"), f"${d:,}", f"\u20ac {d}", Num(format(d, "E"))))


def answers(rnd: random.Random, item: dict) -> list[object]:
    """The label as an answer, and near-misses at every threshold of the page."""
    label = item.get("label")
    if not isinstance(label, dict) or not isinstance(label.get("fields"), dict):
        return []
    fields = {k: v for k, v in label["fields"].items() if k in SCALARS}
    exact: dict = {"fields": dict(fields), "risk": Num(rnd.choice(NUMBERS[:6]))}
    if isinstance(label.get("line_items"), list):
        exact["line_items"] = [dict(x) for x in label["line_items"] if isinstance(x, dict)]
    near: dict[str, Any] = {"fields": dict(fields), "risk": Num(rnd.choice(NUMBERS))}
    for key, value in fields.items():
        if not isinstance(value, str):
            continue
        if key in ("subtotal", "tax_total", "total"):
            near["fields"][key] = _amount(rnd, value)
        elif key == "merchant":
            near["fields"][key] = _at_cutoff(rnd, value, 9)
        elif key == "receipt_number":
            at = rnd.randint(0, len(value))
            near["fields"][key] = value[:at] + rnd.choice(NEW_LETTERS + ("-", " ", "\u0660", "\u00b2")) + value[at:]
        elif key == "currency":
            near["fields"][key] = rnd.choice((value.lower(), " " + value, value))
    near["line_items"] = [{"description": _at_cutoff(rnd, str(x.get("description", "")), 8),
                           "total": _amount(rnd, str(x.get("total", "0")))}
                          for x in exact.get("line_items", []) if isinstance(x, dict)]
    near["checks"] = {"totals_add_up": rnd.choice(("failed", "passed", "not_run", "FAILED", None))}
    near["duplicate"] = {"seen_before": rnd.choice((True, False, "true", None)), "match": rnd.choice(("exact", "Exact", None))}
    near["reasons"] = [rnd.choice(("the total is off", "@total", "@total_x edited", "amount due changed", "vat",
                                   {"text": "x", "kind": "totals_add_up", "detail": rnd.choice(("10.00 + 0.80", " ", "ten"))},
                                   {"kind": "ai_generator_tag", "detail": "tag"}, 7, None))
                       for _ in range(rnd.randint(0, 5))]
    return [exact, near, {"fields": []}, {"fields": None, "risk": Num("0.9")}]
