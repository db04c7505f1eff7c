"""Rank ranges and the compact letter display from the pairwise calls of one family.

Compact letter display (Piepho 2004, "An algorithm for a letter-based representation of all-pairwise
comparisons"): every run gets one or more letters so that two runs share a letter exactly when they
were not called different. Insert: start with one letter held by every run; for each pair called
different, every letter held by both is split in two, one without each run of the pair. Absorb: a letter
whose runs are all among another letter's runs is dropped. Sweep: a run is taken off a letter when each
other run of that letter still shares another letter with it (and the run keeps a letter); letters left
empty or absorbed are dropped. Letters are then named in rank order: the letter of the best run is "a",
and so on (a-z, then A-Z, then Greek letters).
"""

from __future__ import annotations

import string

from .pairwise import BETTER, WORSE

SYMBOLS = string.ascii_lowercase + string.ascii_uppercase + "αβγδεζηθικλμνξοπρστυφχψω" + "ΓΔΘΛΞΠΣΦΨΩ"


def _beats(pairs: list[dict], count: int) -> list[set[int]]:
    """beats[i] = the runs that run i was called better than."""
    beats: list[set[int]] = [set() for _ in range(count)]
    for p in pairs:
        if p["call"] == BETTER:
            beats[p["a"]].add(p["b"])
        elif p["call"] == WORSE:
            beats[p["b"]].add(p["a"])
    return beats


def rank_ranges(pairs: list[dict], count: int) -> list[tuple[int, int]]:
    """(best, worst) rank each run could hold: 1 + runs called better than it, count - runs called worse."""
    beats = _beats(pairs, count)
    above = [sum(i in beats[k] for k in range(count)) for i in range(count)]
    return [(1 + above[i], count - len(beats[i])) for i in range(count)]


def symbol(k: int) -> str:
    return SYMBOLS[k] if k < len(SYMBOLS) else chr(0x4E00 + k - len(SYMBOLS))


def _absorb(columns: list[frozenset[int]]) -> list[frozenset[int]]:
    """Drop empty columns, repeats and columns contained in another (the first of equal ones stays)."""
    out: list[frozenset[int]] = []
    for col in columns:
        if col and col not in out and not any(col < other for other in columns):
            out.append(col)
    return out


def _absorb_split(columns: list[frozenset[int]], new: list[bool]) -> list[frozenset[int]]:
    """`_absorb` after one insert step, in time linear in the columns for each new one. The columns before
    the step hold none in another and no two alike (as _absorb leaves them), so a column the step left
    alone is never dropped (it would lie inside a column of before, or equal a part of one); only a new
    part can be empty, a repeat of a column kept before it, or inside another."""
    out: list[frozenset[int]] = []
    kept: set[frozenset[int]] = set()
    for col, is_new in zip(columns, new):
        if is_new and (not col or col in kept or any(col < other for other in columns)):
            continue
        out.append(col)
        kept.add(col)
    return out


def _sweep(columns: list[frozenset[int]], order: list[int]) -> list[frozenset[int]]:
    cols = list(columns)
    for k in range(len(cols)):
        for run in order:
            if run not in cols[k]:
                continue
            elsewhere = [c for j, c in enumerate(cols) if j != k and run in c]
            if elsewhere and all(any(other in c for c in elsewhere) for other in cols[k] - {run}):
                cols[k] = cols[k] - {run}
    return _absorb(cols)


def compact_letters(order: list[int], pairs: list[dict], count: int) -> list[str]:
    """The letters of each run (indexed like the family's runs); `order` lists the runs best first."""
    if count == 0:
        return []
    columns = [frozenset(range(count))]
    for p in pairs:
        if p["call"] not in (BETTER, WORSE):
            continue
        a, b = p["a"], p["b"]
        split: list[frozenset[int]] = []
        new: list[bool] = []
        for col in columns:
            if a in col and b in col:
                split += [col - {a}, col - {b}]
                new += [True, True]
            else:
                split.append(col)
                new.append(False)
        if any(new):
            columns = _absorb_split(split, new)
    columns = _sweep(columns, order)
    position = {run: k for k, run in enumerate(order)}
    columns.sort(key=lambda col: sorted(position[r] for r in col))
    return ["".join(symbol(k) for k, col in enumerate(columns) if run in col) for run in range(count)]
