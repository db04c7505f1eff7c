"""Tie groups and rank ranges from the pairwise calls of one family."""

from __future__ import annotations

from .pairwise import BETTER, WORSE


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


def tie_groups(order: list[int], pairs: list[dict], count: int) -> list[list[int]]:
    """Consecutive groups along `order` (best estimate first): a run joins the current group unless the
    group's first run was called better than it, in which case it starts the next group."""
    beats = _beats(pairs, count)
    groups: list[list[int]] = []
    for i in order:
        if groups and i not in beats[groups[-1][0]]:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups
