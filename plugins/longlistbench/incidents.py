"""The claim schema (`incidents`): the shape of rule 2.2, the canonical incident of rule 3.1 and the
counts of rule 4.1."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

from generator.parse.jsonfind import JsonInt

from .canonical import _TRAILING_DIGITS, _TWO, collapse, date_form, lower, region, round_places, trim

TEXT_KEYS = ("incident_number", "reference_number", "company_name", "division", "coverage_type", "status",
             "policy_number", "policy_state", "description", "handler", "date_of_loss", "loss_state",
             "date_reported", "insured")
OPTIONAL_KEYS = ("cause_code", "unit_number", "agency", "driver_name", "adjuster_notes")
BREAKDOWNS = ("bi", "pd", "lae", "ded")
AMOUNTS = ("reserve", "paid", "recovered", "total_incurred")
KEYS = frozenset(TEXT_KEYS + OPTIONAL_KEYS + ("claimants",) + BREAKDOWNS)
_PREFIXES = ("incident #", "incident#", "incident ", "#", "inc")


def shape_problem(value: object) -> str | None:
    """Rule 2.2: why a reply (or a gold list) is not a list of incidents, or None."""
    if isinstance(value, dict):
        if set(value) != {"incidents"}:
            return "an object must have exactly the key incidents"
        value = value["incidents"]
    if not isinstance(value, list):
        return "not a list of incidents"
    for index, element in enumerate(value):
        if (problem := incident_problem(element)) is not None:
            return f"incident {index}: {problem}"
    return None


def incidents_of(value: object) -> list:
    return value["incidents"] if isinstance(value, dict) else value  # type: ignore[return-value]


def incident_problem(element: object) -> str | None:
    if not isinstance(element, dict):
        return "not an object"
    if set(element) != KEYS:
        missing, extra = sorted(KEYS - set(element)), sorted(set(element) - KEYS)
        return "; ".join(filter(None, (missing and f"missing {', '.join(missing)}",
                                       extra and f"unexpected {', '.join(extra)}")))
    for key in TEXT_KEYS:
        if not isinstance(element[key], str):
            return f"{key} is not a string"
    for key in OPTIONAL_KEYS:
        if element[key] is not None and not isinstance(element[key], str):
            return f"{key} is not a string or null"
    if not isinstance(element["claimants"], list) or not all(isinstance(c, str) for c in element["claimants"]):
        return "claimants is not a list of strings"
    for key in BREAKDOWNS:
        b = element[key]
        if not isinstance(b, dict) or set(b) != set(AMOUNTS):
            return f"{key} must have exactly reserve, paid, recovered, total_incurred"
        for amount in AMOUNTS:
            v = b[amount]
            if isinstance(v, bool) or not isinstance(v, (Decimal, int, float)):
                return f"{key}.{amount} is not a number"
    return None


def _amount(value: Any) -> Decimal:
    if isinstance(value, Decimal):
        d = value
    elif isinstance(value, float):  # a gold number read by a plain JSON reader: its shortest decimal
        d = Decimal(repr(value))
    else:
        d = Decimal(value)
    if isinstance(d, JsonInt):
        d = Decimal(d)
    if d.adjusted() >= 100:  # bounded work; no real amount comes near (stays unequal to any real one)
        return d
    return round_places(d, _TWO)


def _optional(value: str | None) -> str | None:
    if value is None:
        return None
    t = lower(trim(value))
    return t or None


def canonical(raw: dict) -> dict:
    """Rule 3.1: the canonical incident (all 23 keys)."""
    out: dict[str, Any] = {}
    for key in TEXT_KEYS:
        v = raw[key]
        if key in ("date_of_loss", "date_reported"):
            c = collapse(v)
            out[key] = date_form(c) or c
        elif key == "description":
            out[key] = trim(lower(trim(v)).rstrip("."))
        elif key in ("policy_state", "loss_state"):
            t = lower(trim(v))
            out[key] = region(t) if t else None
        else:
            out[key] = lower(trim(v))
    for key in OPTIONAL_KEYS:
        c = _optional(raw[key])
        if key == "unit_number" and c is not None:
            m = _TRAILING_DIGITS.search(c)
            c = m.group(0) if m is not None else c
        out[key] = c
    out["claimants"] = tuple(sorted(lower(t) for t in (trim(c) for c in raw["claimants"]) if t))
    for key in BREAKDOWNS:
        out[key] = tuple(_amount(raw[key][a]) for a in AMOUNTS)
    return out


def key_of(incident: dict) -> str:
    key = incident["incident_number"]
    for prefix in _PREFIXES:
        if key.startswith(prefix):
            key = key[len(prefix):]
    return trim(key)


def _pairs(key: object, incident: dict) -> list[tuple]:
    out: list[tuple] = []
    for field, value in incident.items():
        if field in BREAKDOWNS:
            for amount, v in zip(AMOUNTS, value):
                if not v.is_zero():
                    out.append((key, f"{field}.{amount}", v))  # Decimal: equal and hashed by value
        else:
            out.append((key, field, value))
    return out


def _frozen(incident: dict) -> tuple:
    return tuple(sorted(incident.items()))


def counts(gold: list[dict], predicted: list[dict]) -> tuple[int, int, int, int, int, int]:
    """Rule 4.1: (E, G, P, F, GP, PP)."""
    sides = []
    for side, records in (("g", gold), ("p", predicted)):
        pair_counter: Counter = Counter()
        by_key: dict[object, Counter] = {}
        for index, raw in enumerate(records):
            inc = canonical(raw)
            key: object = key_of(inc) or (side, index)  # a key of its own
            pair_counter.update(_pairs(key, inc))
            by_key.setdefault(key, Counter())[_frozen(inc)] += 1
        sides.append((pair_counter, by_key))
    (gp, gk), (pp, pk) = sides
    found = sum((gp & pp).values())
    exact = sum(sum((gk[k] & pk[k]).values()) for k in gk.keys() & pk.keys() if isinstance(k, str))
    return exact, len(gold), len(predicted), found, sum(gp.values()), sum(pp.values())
