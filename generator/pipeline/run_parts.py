"""A run's part of a file that holds each run's part in turn, kept in the build cache, so that a build
after one run was added or changed makes that run's part alone and takes the others' from the cache
(issue 37): the rescore's item_stats.csv (outputs.py) and the site's calls.csv and item_stats.csv
downloads (render/downloads.py); the site's public verdicts keep their compressed pieces the same way
(render/verdict_pieces.py).

A part is kept under the hash of its kind, of what its maker names (`salt`: the code that makes it, the
public items, the header it follows...) and of the run's build cache key. The run's key holds the
run's stored files and its suite's key (cache.run_key): the suite's content folder (its items, with
their ids, datasets and halves), its plugin's sources (the figures) and the scoring code
(generator/pipeline/ among it). A run without a key (a command run without the cache) has its part made
each time; so does every run when there is no cache. Parts are build cache entries: signed, and one
that does not verify is counted corrupt, deleted and made again (cache.py); one of another shape is made
again and written over. `prune` drops the suite's parts of the kind that no current run used.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from typing import TypeVar

from .cache import Cache

T = TypeVar("T")


def _is_bytes(value: object) -> bool:
    return isinstance(value, bytes)


def names_key(names: Iterable[str]) -> str:
    """The hash of a set of names (the public items: a part that leaves out the private ones depends on them)."""
    return hashlib.sha256(json.dumps(sorted(names), ensure_ascii=False).encode(
        "utf-8", "backslashreplace")).hexdigest()


class RunParts:
    """The parts of one kind of one suite's runs: from the build cache when it holds them, else made
    (`of`) and kept there."""

    def __init__(self, cache: Cache | None, kind: str, suite: str, *salt: str,
                 valid: Callable[[object], bool] = _is_bytes) -> None:
        self.cache, self.kind, self.suite, self.salt, self.valid = cache, kind, suite, salt, valid
        self.used: set[str] = set()

    def key(self, run_key: str) -> str:
        return hashlib.sha256("\0".join((self.kind, *self.salt, run_key)).encode()).hexdigest()

    def of(self, run_key: str | None, make: Callable[[], T]) -> T:
        """The run's part; `make()` makes it when the cache does not hold it (or the run has no key)."""
        if self.cache is None or not run_key:
            return make()
        key = self.key(run_key)
        self.used.add(key)
        found = self.cache.read(self.kind, self.suite, key, counted=False)
        if found is not None and self.valid(found):
            return found  # type: ignore[return-value]
        made = make()
        self.cache.write(self.kind, self.suite, key, made, counted=False)
        return made

    def prune(self) -> None:
        """Drop the suite's parts of this kind that no run asked for since this was made."""
        if self.cache is not None:
            self.cache.prune(self.kind, self.suite, self.used)
