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

from array import array
from collections.abc import Hashable, Iterator, Mapping

_SHARED: dict[tuple, tuple[tuple, dict]] = {}  # keys, in order -> (the same tuple, key -> position)
_MAX_SHARED = 256  # distinct key lists remembered (a new one past that starts the memory over)


def _shared(keys: tuple) -> tuple[tuple, dict]:
    found = _SHARED.get(keys)
    if found is None:
        if len(_SHARED) >= _MAX_SHARED:
            _SHARED.clear()
        found = _SHARED[keys] = (keys, {k: i for i, k in enumerate(keys)})
    return found


class Spans(Mapping):
    """key -> (start, length), in the header's order."""

    __slots__ = ("_keys", "_index", "_starts", "_lengths")

    def __init__(self, spans: Mapping[Hashable, tuple[int, int]]) -> None:
        self._keys, self._index = _shared(tuple(spans))
        self._starts = array("q", (s for s, _ in spans.values()))
        self._lengths = array("q", (n for _, n in spans.values()))

    def __getstate__(self) -> tuple:
        return self._keys, self._starts, self._lengths

    def __setstate__(self, state: tuple) -> None:
        keys, self._starts, self._lengths = state
        self._keys, self._index = _shared(keys)

    def __getitem__(self, key: Hashable) -> tuple[int, int]:
        k = self._index[key]
        return self._starts[k], self._lengths[k]

    def get(self, key: Hashable, default=None):  # type: ignore[override]
        k = self._index.get(key)
        return default if k is None else (self._starts[k], self._lengths[k])

    def __contains__(self, key: object) -> bool:
        return key in self._index

    def __iter__(self) -> Iterator:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)
