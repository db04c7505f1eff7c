"""The generic schema (`records`): the shape of rule 2.3 and the counts of rule 4.2 (record matching)."""

from __future__ import annotations

from collections import Counter

from .canonical import pairs, record, serial

FAN_OUT = 250


def shape_problem(value: object) -> str | None:
    """Rule 2.3: why a reply is not a list of records, or None."""
    if isinstance(value, dict):
        value = value.get("records")
    if not isinstance(value, list):
        return "not a list of records (an array, or an object whose records is an array)"
    for index, element in enumerate(value):
        if not isinstance(element, dict):
            return f"record {index} is not an object"
    return None


def records_of(value: object) -> list:
    return value["records"] if isinstance(value, dict) else value  # type: ignore[return-value]


def _prepared(raws: list[dict]) -> tuple[list[str], list[Counter]]:
    rows = sorted(((serial(c), c) for c in map(record, raws)), key=lambda t: t[0])
    return [s for s, _ in rows], [Counter(pairs(c)) for _, c in rows]


def counts(gold: list[dict], predicted: list[dict]) -> tuple[int, int, int, int, int, int]:
    """Rule 4.2: (E, G, P, F, GP, PP)."""
    g_serial, g_pairs = _prepared(gold)
    p_serial, p_pairs = _prepared(predicted)
    matched_g: set[int] = set()
    matched_p: set[int] = set()
    found = 0
    free: dict[str, list[int]] = {}
    for p, s in enumerate(p_serial):  # step 2: anchor identical records, the highest-numbered first
        free.setdefault(s, []).append(p)
    for g, s in enumerate(g_serial):
        stack = free.get(s)
        if stack:
            p = stack.pop()
            matched_g.add(g)
            matched_p.add(p)
            found += sum(g_pairs[g].values())
    exact = len(matched_g)
    holders: dict[object, list[int]] = {}  # step 3: pair -> unmatched predicted records holding it
    for p, counter in enumerate(p_pairs):
        if p not in matched_p:
            for x in counter:
                holders.setdefault(x, []).append(p)
    scores: dict[tuple[int, int], int] = {}  # step 4
    for g, counter in enumerate(g_pairs):
        if g in matched_g:
            continue
        for x, n in counter.items():
            hs = holders.get(x)
            if not hs or len(hs) > FAN_OUT:
                continue
            for p in hs:
                scores[(g, p)] = scores.get((g, p), 0) + min(n, p_pairs[p][x])
    candidates = [(m, sum((g_pairs[g] & p_pairs[p]).values()), g, p) for (g, p), m in scores.items()]
    candidates.sort(reverse=True)  # step 5
    for _m, overlap, g, p in candidates:
        if g in matched_g or p in matched_p:
            continue
        matched_g.add(g)
        matched_p.add(p)
        found += overlap
    gp = sum(sum(c.values()) for c in g_pairs)
    pp = sum(sum(c.values()) for c in p_pairs)
    return exact, len(gold), len(predicted), found, gp, pp
