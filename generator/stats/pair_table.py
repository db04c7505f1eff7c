"""A comparison family's pairs held by column: the statistics of a suite in memory bounded by its families.

A family (metric x stratum) of R runs has R (R - 1) / 2 pairs; as dicts (a, b, diff, se, t, c, low,
high, call) they take about 1 kB each in Python, so a suite with hundreds of runs held every pair of
every family in gigabytes (issue 37). A PairTable keeps the same pairs in arrays (about 60 bytes a
pair) and gives them back as the same dicts, one family at a time, while a page, the stats file or
its download reads them: reading never holds more than the family being read. The engine hands each
table to a part of its own as soon as it is made (family_parts.py), so the document holds none.

The dicts it gives back are the ones the statistics document has always held, after engine._clean:
floats as floats (NaN and infinities as None), strings, ints. Any family whose pairs do not all have
the same keys, or hold other values, stays a plain list.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from json.encoder import encode_basestring
from typing import Any

import numpy as np

STATE = "\x00pair-table"  # the key marking a PairTable in a plain (marshal-able) structure


class PairTable(Sequence):
    """Pairs (dicts with the same keys) as columns; a read-only sequence of dicts."""

    __slots__ = ("keys", "kinds", "data", "length")

    def __init__(self, keys: list[str], kinds: list[str], data: list[Any], length: int):
        self.keys, self.kinds, self.data, self.length = keys, kinds, data, length

    @classmethod
    def of(cls, pairs: list[dict]) -> PairTable | list[dict]:
        """The pairs as a table, or as given when they cannot be one (see the module's notes)."""
        if not pairs:
            return pairs
        keys = list(pairs[0])
        first = pairs[0].keys()
        if any(p.keys() != first for p in pairs):  # the same keys (in any order: stats.json sorts them)
            return pairs
        kinds, data = [], []
        for k in keys:
            try:
                kind, column = _column([p[k] for p in pairs])
            except OverflowError:  # an int beyond 64 bits
                return pairs
            if kind is None:
                return pairs
            kinds.append(kind)
            data.append(column)
        return cls(keys, kinds, data, len(pairs))

    def __len__(self) -> int:
        return self.length

    def _values(self, k: int, sl: slice) -> list:
        kind, column = self.kinds[k], self.data[k]
        if kind == "str":
            names, codes = column
            return [names[c] for c in codes[sl].tolist()]
        values = column[sl].tolist()
        if kind == "float":
            return [v if math.isfinite(v) else None for v in values]
        return values

    def _rows(self, sl: slice) -> list[dict]:
        columns = [self._values(k, sl) for k in range(len(self.keys))]
        return [dict(zip(self.keys, row)) for row in zip(*columns)]

    def __iter__(self) -> Iterator[dict]:
        block = 4096  # a few thousand dicts at a time
        for start in range(0, self.length, block):
            yield from self._rows(slice(start, min(start + block, self.length)))

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return self._rows(slice(*index.indices(self.length)))
        k = index + self.length if index < 0 else index
        if not 0 <= k < self.length:
            raise IndexError("pair index out of range")
        return self._rows(slice(k, k + 1))[0]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (PairTable, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:  # mutable-looking sequences are not hashed
        raise TypeError("unhashable type: 'PairTable'")

    def __repr__(self) -> str:
        return f"PairTable({self.length} pairs: {', '.join(self.keys)})"

    def json_text(self, indent: int, depth: int) -> str:
        """The pairs as `json.dumps(list(self), sort_keys=True, ensure_ascii=False, indent=indent)` writes
        them, each line after the first moved `depth` spaces right: the same text, built column by column
        (json.dumps with an indent encodes in pure Python, a call per value, which made the pairs most of
        the time of writing stats.json)."""
        if not self.length:
            return "[]"
        item = "\n" + " " * (depth + indent)
        member = "\n" + " " * (depth + 2 * indent)
        columns = []
        for k in sorted(range(len(self.keys)), key=lambda k: self.keys[k]):
            prefix = member + encode_basestring(self.keys[k]) + ": "
            columns.append([prefix + text for text in self._texts(k)])
        rows = ["{" + ",".join(row) + item + "}" for row in zip(*columns)]
        return "[" + item + ("," + item).join(rows) + "\n" + " " * depth + "]"

    def _texts(self, k: int) -> list[str]:
        """Column k's values as JSON text: strings quoted as json writes them, floats by repr (NaN and
        infinities as null, as the dicts give them None), ints as digits."""
        kind, column = self.kinds[k], self.data[k]
        if kind == "str":
            names, codes = column
            quoted = [encode_basestring(name) for name in names]
            return [quoted[c] for c in codes.tolist()]
        if kind == "float":
            return [float.__repr__(v) if math.isfinite(v) else "null" for v in column.tolist()]
        return [int.__repr__(v) for v in column.tolist()]

    def state(self) -> dict:
        """The table as plain values (bytes, lists, str) that marshal keeps."""
        cols = []
        for kind, column in zip(self.kinds, self.data):
            if kind == "str":
                names, codes = column
                cols.append([list(names), codes.dtype.str, codes.tobytes()])
            else:
                cols.append([column.dtype.str, column.tobytes()])
        return {STATE: [self.keys, self.kinds, cols, self.length]}

    @classmethod
    def from_state(cls, state: dict) -> PairTable:
        keys, kinds, cols, length = state[STATE]
        data: list[Any] = []
        for kind, col in zip(kinds, cols):
            if kind == "str":
                names, dtype, raw = col
                data.append((tuple(names), np.frombuffer(raw, dtype=np.dtype(dtype))))
            else:
                dtype, raw = col
                data.append(np.frombuffer(raw, dtype=np.dtype(dtype)))
        return cls(list(keys), list(kinds), data, int(length))


FLOATS = {float, np.float64, type(None)}
INTS = {int, np.int64}


def _column(values: list) -> tuple[str | None, Any]:
    """(kind, column) for one key's values: "str" (names and codes), "float" (None as NaN), "int"; (None,
    None) for anything else (bools, other number types, containers)."""
    types = set(map(type, values))
    if types == {str}:
        names: dict[str, int] = {}
        codes = [names.setdefault(v, len(names)) for v in values]
        return "str", (tuple(names), np.asarray(codes, dtype=np.int32))
    if types <= FLOATS:
        if type(None) in types:
            values = [np.nan if v is None else v for v in values]
        return "float", np.asarray(values, dtype=np.float64)
    if types <= INTS:
        column = np.asarray(values, dtype=np.int64)  # an int beyond int64 raises OverflowError: kept below
        return "int", column
    return None, None


def pairs_like(value: Any) -> bool:
    """Whether json_default writes `value` (a PairTable, or a family's part: family_parts.PairPart)."""
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def json_default(value: Any) -> list:
    """For json.dump: a PairTable, or a family's part (family_parts.PairPart), is written as the list of its
    pairs (one family held at a time)."""
    if pairs_like(value):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

