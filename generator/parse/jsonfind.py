"""Find the answer object in a message: the first `{` at which a complete strict JSON object begins.

Numbers keep their exact decimal value: integer literals become `JsonInt`, other numbers `Decimal`.
NaN and Infinity are not JSON; an object nesting deeper than MAX_DEPTH levels is not accepted.
Only the first MAX_CANDIDATES `{` are tried, which bounds the work on hostile contents (each
failed attempt costs time proportional to its position).
"""

from __future__ import annotations

import json
from decimal import Decimal

MAX_DEPTH = 100
MAX_CANDIDATES = 1000  # only the first 1,000 `{` characters of a content are tried


class JsonInt(Decimal):
    """A JSON number written with no fraction and no exponent (an integer literal)."""

    __slots__ = ()


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_float=Decimal, parse_int=JsonInt, parse_constant=_reject_constant)


def _depth_ok(value: object, limit: int) -> bool:
    """True when `value` nests at most `limit` levels of arrays and objects (itself included)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return False
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


def first_object(text: str) -> dict | None:
    """The first complete JSON object in `text`, or None when there is none."""
    start = text.find("{")
    tried = 0
    while start != -1 and tried < MAX_CANDIDATES:
        tried += 1
        try:
            value, end = _DECODER.raw_decode(text, start)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict):
            # Nesting depth cannot exceed the number of opening brackets, counted at C speed.
            shallow = text.count("{", start, end) + text.count("[", start, end) <= MAX_DEPTH
            if shallow or _depth_ok(value, MAX_DEPTH):
                return value
        start = text.find("{", start + 1)
    return None
