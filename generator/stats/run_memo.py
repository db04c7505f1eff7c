"""Figures of one run group that depend on its own runs only, kept in the build cache under its runs' keys:
a rebuild after one run is added computes them for that run's group alone (issue 37).

Today: the operations figures (operations.py: latency, speed, cost, rates), which read every call of
the group's runs. The entry's key is the hash of the statistics code, the group's run keys (each the
hash of everything its run's results depend on: pipeline/cache.py) and the group's prices and hosting,
so a changed run, price or code is never served an old figure.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from ..pipeline.cache import Cache, code_hash
from .inputs import RunInfo, SuiteData
from .operations import operations

KIND = "stats-runs"  # the build cache's entries of per-group figures
OpsOf = Callable[[SuiteData, RunInfo], dict]  # a group's operations figures


def computed(data: SuiteData, run: RunInfo) -> dict:
    """The group's operations figures, from its calls (nothing kept)."""
    return operations(data.calls.get(run.id, []), run.prices, run.hosting)


class RunMemo:
    """The build cache's per-group figures of one suite; `prune` removes the entries no group used."""

    def __init__(self, cache: Cache, suite: str, run_keys: Mapping[str, str]) -> None:
        self.cache, self.suite, self.run_keys = cache, suite, run_keys
        self.used: set[str] = set()

    def key(self, what: str, run: RunInfo) -> str | None:
        """The entry's key, or None when a run of the group has no key (scored without the cache)."""
        keys = [self.run_keys.get(r) for r in run.replicates or (run.id,)]
        if any(k is None for k in keys):
            return None
        group = json.dumps([what, run.prices, run.hosting, keys], sort_keys=True, default=repr)
        return hashlib.sha256(f"{KIND}\0{code_hash('stats')}\0{group}".encode()).hexdigest()

    def operations(self, data: SuiteData, run: RunInfo) -> dict:
        key = self.key("operations", run)
        if key is None:
            return computed(data, run)
        self.used.add(key)
        found: Any = self.cache.read(KIND, self.suite, key, counted=False)
        if isinstance(found, dict):
            return found
        value = computed(data, run)
        self.cache.write(KIND, self.suite, key, value, counted=False)
        return value

    def prune(self) -> None:
        self.cache.prune(KIND, self.suite, self.used)
