"""Find the answer object in a message: the first `{` at which a complete strict JSON object begins.

Numbers keep their exact decimal value: integer literals become `JsonInt`, other numbers `Decimal`;
a number whose written exponent is beyond +-MAX_EXPONENT becomes `OutOfRange` (a value that reads as
no number and no text; the object around it is still complete). NaN and Infinity are not JSON;
an object whose text nests deeper than MAX_DEPTH levels is not accepted (counted on the text, before
decoding, as `too_deep` does for every reply: a repeated key cannot hide nesting).
Only the first MAX_CANDIDATES `{` are tried, which bounds the work on hostile contents (each
failed attempt costs time proportional to its position).
"""

from __future__ import annotations

import json
import re
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


# a JSON string (closed or not), or one bracket
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def too_deep(text: str, limit: int = MAX_DEPTH, start: int = 0, end: int | None = None) -> bool:
    """Whether brackets outside strings open more than `limit` levels at some point of
    `text[start:end]` (for a JSON text: whether its arrays and objects nest more than `limit` levels).

    Counted on the text, never on a decoded value: a repeated key's earlier value is nested in the
    text as much as its last one, and a decoded object no longer holds it."""
    stop = len(text) if end is None else end
    if text.count("{", start, stop) + text.count("[", start, stop) <= limit:
        return False
    depth = 0
    for m in _TOKEN.finditer(text, start, stop):
        c = m.group()[0]
        if c == "{" or c == "[":
            depth += 1
            if depth > limit:
                return True
        elif c == "}" or c == "]":
            depth -= 1
    return False


def first_object(text: str) -> dict | None:
    """The first complete JSON object in `text` nesting at most MAX_DEPTH levels, or None."""
    start = text.find("{")
    tried = 0
    while start != -1 and tried < MAX_CANDIDATES:
        tried += 1
        try:
            value, end = _DECODER.raw_decode(text, start)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict) and not too_deep(text, MAX_DEPTH, start, end):
            return value
        start = text.find("{", start + 1)
    return None
