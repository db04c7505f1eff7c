"""Strata of a suite: the whole suite ("all") and each dimension=value of its `strata` setting with at
least `min_stratum_items` items; smaller ones are listed as skipped."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..content import Item
from ..content import SuiteConfig as Suite

ALL = "all"


@dataclass(frozen=True)
class Stratum:
    key: str  # "all" or "dimension=value"
    dimension: str | None
    value: str | None
    positions: np.ndarray  # indices into the suite's items (sorted by id)


def select_strata(suite: Suite, items: list[Item]) -> tuple[list[Stratum], dict[str, dict]]:
    strata = [Stratum(ALL, None, None, np.arange(len(items)))]
    skipped: dict[str, dict] = {}
    for dim in suite.strata:
        values = sorted({item.strata[dim] for item in items if dim in item.strata})
        for value in values:
            pos = np.array([k for k, item in enumerate(items) if item.strata.get(dim) == value], dtype=np.int64)
            key = f"{dim}={value}"
            if len(pos) >= suite.min_stratum_items:
                strata.append(Stratum(key, dim, value, pos))
            else:
                skipped[key] = {"items": len(pos), "reason": f"fewer than {suite.min_stratum_items} items"}
    return strata, skipped
