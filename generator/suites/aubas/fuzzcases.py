"""Fuzz cases of the au-bas suite (generator/fuzz): the boundaries of content/pages/scoring-au-bas.md.

Figures are cent-exact (`1234.5` equals `1234.50`, `1234.501` does not), read from a JSON number or a
string stripped of `$` and `,`; the exponent range is +-1,000,000; nesting is capped at 100 levels;
`faults` is an object of id -> list of codes or one code. Answers are built from the item's key.
"""

from __future__ import annotations

import random
from decimal import Decimal

from generator.fuzz import Num

DELTAS = ("0.01", "0.001", "0.005", "0.0001", "1", "0.1")
NUMBERS = ("1e1000000", "1e1000001", "0e1000000", "0e1000001", "-0e-1000001", "1.1e2", "110.000000000000000001")
WORDS = ("gst_on_gst_free", "gst_miscalculated", "duplicate_invoice", "outside_period", "missing_abn_over_threshold",
         "GST_ON_GST_FREE", "made_up", "", "T01", "t01", "T01 ", "T99")
FIGURES = ("G1", "1A", "1B", "net")


def _figure(rnd: random.Random, value: str) -> object:
    d = Decimal(value)
    roll = rnd.random()
    if roll < 0.3:
        d += Decimal(rnd.choice(DELTAS)) * rnd.choice((1, -1))
    form = rnd.randrange(6)
    if form == 0:
        return Num(format(d, "f"))
    if form == 1:
        return Num(format(d.normalize(), "E") if d else "0e1000001")
    text = format(d, "f")
    return (text, "$" + text, f"{d:,}", " " + text + "\u00a0", text.rstrip("0"), "+" + text)[form]


def answers(rnd: random.Random, item: dict) -> list[object]:
    """The key as an answer, and near-misses of each figure and of the faults."""
    key = item.get("key")
    if not isinstance(key, dict):
        return []
    faults = {t: list(c) for t, c in (key.get("faults") or {}).items()}
    exact = {k: key[k] for k in FIGURES if isinstance(key.get(k), str)}
    exact["faults"] = faults
    near = {k: _figure(rnd, v) if isinstance(v, str) else v for k, v in exact.items()}
    some = dict(exact)
    some["faults"] = {t: c[:1] if rnd.random() < 0.5 else c[0] for t, c in faults.items() if c and rnd.random() < 0.7}
    return [exact, near, some]
