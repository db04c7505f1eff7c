"""Strata of a suite: the whole suite ("all") and each dimension=value of its `strata` setting with at
least `min_stratum_items` items; smaller ones are listed as skipped. A suite with a freeze date also
gets its headline stratum: the headline half without the documents published before the freeze
(key "half=<half>,freeze=post-freeze", dimension "headline")."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..inputs.content import FREEZE, POST_FREEZE, Item
from ..inputs.content import SuiteConfig as Suite

ALL = "all"
HEADLINE = "headline"  # the dimension of a frozen suite's headline stratum


def headline_key(suite: Suite) -> str:
    """The key of the stratum the leaderboard ranks on: the headline half, and for a suite with a freeze
    date only its documents published after the freeze."""
    key = f"half={suite.headline_half}"
    return key if suite.frozen is None else f"{key},{FREEZE}={POST_FREEZE}"


def headline_choices(suite: Suite) -> tuple[str, ...]:
    """The strata the leaderboard ranks on, in order of preference: the headline stratum, then (when it
    has too few items) all documents published after the freeze, then all items."""
    return (headline_key(suite),) + ((f"{FREEZE}={POST_FREEZE}",) if suite.frozen is not None else ()) + (ALL,)


@dataclass(frozen=True)
class Stratum:
    key: str  # "all" or "dimension=value"
    dimension: str | None
    value: str | None
    positions: np.ndarray  # indices into the suite's items (sorted by id)


# The last suite and items select_strata was asked about and its answer: the engine, the progress bar's
# plan, the other input kinds and the round history each ask it of the same items (one pass over every
# item per dimension, about 0.08 s at 6,000 items). Held by identity: the suite, and each of the items (a
# frozen Item) in a copy of the list, so that a list changed in place is selected again.
_LAST: list[tuple[Suite, tuple[Item, ...], tuple[list[Stratum], dict[str, dict]]]] = []


def select_strata(suite: Suite, items: list[Item]) -> tuple[list[Stratum], dict[str, dict]]:
    """The strata with enough items (`Stratum`, "all" first) and the skipped ones (key -> items, reason)."""
    if (_LAST and _LAST[0][0] is suite and len(_LAST[0][1]) == len(items)
            and all(a is b for a, b in zip(_LAST[0][1], items))):
        strata, skipped = _LAST[0][2]
    else:
        strata, skipped = _select(suite, items)
        _LAST[:] = [(suite, tuple(items), (strata, skipped))]
    return list(strata), {k: dict(v) for k, v in skipped.items()}


def _select(suite: Suite, items: list[Item]) -> tuple[list[Stratum], dict[str, dict]]:
    strata = [Stratum(ALL, None, None, np.arange(len(items)))]
    skipped: dict[str, dict] = {}
    for dim in suite.strata:
        by_value: dict[str, list[int]] = {}  # each value's items, in the items' order: one pass a dimension
        for k, item in enumerate(items):
            if dim in item.strata:
                by_value.setdefault(item.strata[dim], []).append(k)
        for value in sorted(by_value):
            pos = np.array(by_value[value], dtype=np.int64)
            key = f"{dim}={value}"
            if len(pos) >= suite.min_stratum_items:
                strata.append(Stratum(key, dim, value, pos))
            else:
                skipped[key] = {"items": len(pos), "reason": f"fewer than {suite.min_stratum_items} items"}
    if suite.frozen is not None:
        key = headline_key(suite)
        pos = np.array([k for k, item in enumerate(items) if item.half == suite.headline_half
                        and item.strata.get(FREEZE) == POST_FREEZE], dtype=np.int64)
        if len(pos) >= suite.min_stratum_items:
            strata.append(Stratum(key, HEADLINE, key, pos))
        else:
            skipped[key] = {"items": len(pos), "reason": f"fewer than {suite.min_stratum_items} items"}
    return strata, skipped
