"""Where each item's block lies in a run's artifact, held compactly: a read-only mapping from a key (an
item, or an item and a repeat) to its (start, length) in the file.

An artifact's header lists, for every item the run has rows of, where its rows lie, and for every
public stored line, where it lies: thousands of keys per run, each a dict entry with a tuple of two
integers, about 2 MB per run of 6,000 items once read. A build holds every run's header while it makes
the pages (hundreds of runs: issue 37), so the offsets are kept here in two arrays of 64-bit integers,
and the keys in one tuple with its index, shared by every run whose header lists the same keys in the
same order (most runs of a suite answer every item).
"""

from __future__ import annotations

import weakref
from array import array
from collections.abc import Hashable, Iterator, Mapping


class _Keys:
    """A list of keys in order and each one's position, shared by the Spans that list the same keys."""

    __slots__ = ("keys", "index", "__weakref__")

    def __init__(self, keys: tuple) -> None:
        self.keys, self.index = keys, {k: i for i, k in enumerate(keys)}


_SHARED: weakref.WeakValueDictionary[tuple, _Keys] = weakref.WeakValueDictionary()  # gone with its last user


def _shared(keys: tuple) -> _Keys:
    found = _SHARED.get(keys)
    if found is None:
        found = _SHARED[keys] = _Keys(keys)
    return found


class Spans(Mapping):
    """key -> (start, length), in the header's order."""

    __slots__ = ("_shared", "_starts", "_lengths")

    def __init__(self, spans: Mapping[Hashable, tuple[int, int]]) -> None:
        self._shared = _shared(tuple(spans))
        self._starts = array("q", (s for s, _ in spans.values()))
        self._lengths = array("q", (n for _, n in spans.values()))

    def __getstate__(self) -> tuple:
        return self._shared.keys, self._starts, self._lengths

    def __setstate__(self, state: tuple) -> None:
        keys, self._starts, self._lengths = state
        self._shared = _shared(keys)

    def __getitem__(self, key: Hashable) -> tuple[int, int]:
        k = self._shared.index[key]
        return self._starts[k], self._lengths[k]

    def get(self, key: Hashable, default=None):  # type: ignore[override]
        k = self._shared.index.get(key)
        return default if k is None else (self._starts[k], self._lengths[k])

    def __contains__(self, key: object) -> bool:
        return key in self._shared.index

    def __iter__(self) -> Iterator:
        return iter(self._shared.keys)

    def __len__(self) -> int:
        return len(self._shared.keys)
