"""Find the answer object in a message: the first `{` at which a complete strict JSON object begins.

Numbers keep their exact decimal value: integer literals become `JsonInt`, other numbers `Decimal`;
a number whose written exponent is beyond +-MAX_EXPONENT becomes `OutOfRange` (a value that reads as
no number and no text; the object around it is still complete). NaN and Infinity are not JSON;
an object nesting deeper than MAX_DEPTH levels is not accepted.
Only the first MAX_CANDIDATES `{` are tried, which bounds the work on hostile contents (each
failed attempt costs time proportional to its position).
"""

from __future__ import annotations

import json
from decimal import Decimal

MAX_DEPTH = 100
MAX_CANDIDATES = 1000  # only the first 1,000 `{` characters of a content are tried
MAX_EXPONENT = 1_000_000  # a written exponent beyond +-1,000,000 makes a number out of range


class JsonInt(Decimal):
    """A JSON number written with no fraction and no exponent (an integer literal)."""

    __slots__ = ()


class OutOfRange:
    """A JSON number whose written exponent is beyond +-MAX_EXPONENT: complete JSON, but no value."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal

    def __repr__(self) -> str:
        return f"OutOfRange({self.literal[:40]!r})"


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def read_number(literal: str) -> Decimal | OutOfRange:
    """A JSON number with a fraction or an exponent, exactly; OutOfRange past the exponent limit."""
    e = max(literal.find("e"), literal.find("E"))
    if e != -1:
        digits = literal[e + 1:].lstrip("+-").lstrip("0")
        if len(digits) > len(str(MAX_EXPONENT)) or (digits and int(digits) > MAX_EXPONENT):
            return OutOfRange(literal)
    return Decimal(literal)


def exact_decoder() -> json.JSONDecoder:
    """Strict JSON with exact numbers (JsonInt, Decimal, OutOfRange); NaN and Infinity rejected."""
    return json.JSONDecoder(parse_float=read_number, parse_int=JsonInt, parse_constant=_reject_constant)


_DECODER = exact_decoder()


def depth_ok(value: object, limit: int) -> bool:
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
            if shallow or depth_ok(value, MAX_DEPTH):
                return value
        start = text.find("{", start + 1)
    return None
