"""Each comparison family's pairs in a part of its own: the statistics of a suite in memory bounded by its
largest family, not by the number of pairs in the suite (issue 37).

A family (metric x stratum) of R runs has R (R - 1) / 2 pairs: even held by column (pair_table.py,
about 60 bytes a pair), every family of a suite of 400 runs together is over a gigabyte. So the
engine hands each family's table to a `PartStore` as soon as it is computed; the store writes it to
a part of its own (a file) and the statistics document keeps only a `PairPart`: which part, and how
many pairs. Whoever reads the pairs (a page as it is rendered, stats.json and its download as they
are written) reads that one part, as the same dicts, and drops it: nothing holds all pairs at once.

The parts live in the build cache when it is on (entries of kind `stats-pairs`, next to the suite's
`stats` entry, which holds the document with a reference to each part), else in a temporary folder
removed when no document refers to it any more.
"""

from __future__ import annotations

import marshal
import shutil
import tempfile
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ..pipeline.cache import Cache
from .pair_table import STATE, PairTable

KIND = "stats-pairs"  # the build cache's entries of family parts
PART = "\x00pair-part"  # the key marking a part's reference in a plain (marshal-able) document


class PartMissing(RuntimeError):
    """A family's part can no longer be read (a cache entry removed or corrupt)."""


class PartStore:
    """Where one suite's family parts are written and read back: the build cache's entries named by the
    suite's statistics key and the part's number, or (without a cache) files of a temporary folder."""

    def __init__(self, cache: Cache | None = None, suite: str = "", key: str = "") -> None:
        self.cache, self.suite, self.key = cache, suite, key
        self.count = 0
        self.folder: Path | None = None
        if cache is None:
            self.folder = Path(tempfile.mkdtemp(prefix="tally-stats-parts-"))
            weakref.finalize(self, shutil.rmtree, self.folder, True)

    def name(self, index: int) -> str:
        return f"{self.key}.{index:05d}"

    def names(self) -> set[str]:
        """The names of every part written so far (what the cache keeps of this suite's parts)."""
        return {self.name(k) for k in range(self.count)}

    def put(self, pairs: Sequence) -> Sequence:
        """`pairs` written to a part of its own, and its `PairPart`; pairs that are no table (an empty
        family, pairs of mixed keys: pair_table.py) stay as they are, in the document."""
        if not isinstance(pairs, PairTable):
            return pairs
        index, self.count = self.count, self.count + 1
        state = pairs.state()
        if self.cache is not None:
            self.cache.write(KIND, self.suite, self.name(index), state, counted=False)
        else:
            assert self.folder is not None
            (self.folder / self.name(index)).write_bytes(marshal.dumps(state))
        return PairPart(self, index, len(pairs))

    def load(self, index: int) -> PairTable:
        """Part `index` as its table (read each time: the store holds none)."""
        state: object = None
        if self.cache is not None:
            state = self.cache.read(KIND, self.suite, self.name(index), counted=False)
        else:
            assert self.folder is not None
            path = self.folder / self.name(index)
            state = marshal.loads(path.read_bytes()) if path.is_file() else None
        if not (isinstance(state, dict) and STATE in state):
            raise PartMissing(f"the pairs of a comparison family of {self.suite} (part {self.name(index)}) "
                              "can no longer be read")
        return PairTable.from_state(state)


class PairPart(Sequence):
    """A family's pairs, kept in a part of their own (PartStore): a read-only sequence of the same dicts,
    read from the part whenever it is iterated or indexed."""

    __slots__ = ("store", "number", "length")

    def __init__(self, store: PartStore, number: int, length: int) -> None:
        self.store, self.number, self.length = store, number, length

    def table(self) -> PairTable:
        return self.store.load(self.number)

    def __len__(self) -> int:
        return self.length

    def __iter__(self) -> Iterator[dict]:
        return iter(self.table())

    def __getitem__(self, index):  # type: ignore[override]
        return self.table()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (PairPart, PairTable, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        raise TypeError("unhashable type: 'PairPart'")

    def __repr__(self) -> str:
        return f"PairPart({self.length} pairs in part {self.number})"


def packed(value: Any) -> Any:
    """A copy of a statistics document that marshal can keep: each part as its reference, each table
    still in the document as its state (the parts themselves are already in the cache)."""
    if isinstance(value, PairPart):
        return {PART: [value.number, value.length]}
    if isinstance(value, PairTable):
        return value.state()
    if isinstance(value, dict):
        return {k: packed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [packed(v) for v in value]
    return value


def unpacked(value: Any, store: PartStore) -> Any:
    """`packed` undone: each reference a `PairPart` of `store` again."""
    if isinstance(value, dict):
        if len(value) == 1 and PART in value:
            index, length = value[PART]
            store.count = max(store.count, index + 1)
            return PairPart(store, int(index), int(length))
        if len(value) == 1 and STATE in value:
            return PairTable.from_state(value)
        return {k: unpacked(v, store) for k, v in value.items()}
    if isinstance(value, list):
        return [unpacked(v, store) for v in value]
    return value


def readable(value: Any) -> bool:
    """Every part a document refers to can be read (each read once and dropped)."""
    if isinstance(value, PairPart):
        try:
            value.table()
        except PartMissing:
            return False
        return True
    if isinstance(value, dict):
        return all(readable(v) for v in value.values())
    if isinstance(value, list):
        return all(readable(v) for v in value)
    return True
