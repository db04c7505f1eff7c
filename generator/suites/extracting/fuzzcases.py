"""Fuzz cases of the extracting suite (generator/fuzz): the boundaries of content/pages/scoring-extracting.md.

Values compare exactly (`12.5` equals `12.50`, `12.499` does not), with the field's places, in the
document's locale (separators, signs, currency markers); the answer is the first complete JSON
object, nested at most 100 levels, numbers' exponents within +-1,000,000.
"""

from __future__ import annotations

import random

from generator.fuzz import Num

DELTAS = ("0.01", "0.001", "0.005", "0.0049", "0.0051", "1", "0.1")
NUMBERS = ("1e1000000", "1e1000001", "0e1000001", "12.00e0", "-0", "1.2e1", "120e-1")
WORDS = ("null", "N/A", "none", "", " ", "USD", "usd", "EUR", "1,234.50", "1.234,50", "1\u00a0234,50", "12,5",
         "\u2212 12.00", "(12.00)", "2026-03-14", "14/03/2026", "03/14/2026", "2026-02-30")


def answers(rnd: random.Random, item: dict) -> list[object]:
    """The checked answers as an answer object, and with each value respelled."""
    fields = item.get("fields")
    if not isinstance(fields, list):
        return []
    exact = {f["name"]: f.get("answer") for f in fields if isinstance(f, dict) and isinstance(f.get("name"), str)}
    spelled: dict = {}
    for name, value in exact.items():
        if isinstance(value, str) and value.replace(".", "", 1).lstrip("-").isdigit():
            spelled[name] = rnd.choice((Num(value), value + "0", value.rstrip("0"), "$" + value, " " + value + " "))
        elif isinstance(value, int) and not isinstance(value, bool):
            spelled[name] = rnd.choice((Num(str(value)), str(value), Num(f"{value}.0"), Num(f"{value}e0")))
        else:
            spelled[name] = value
    return [exact, spelled]
