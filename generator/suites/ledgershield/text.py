"""Text and number readings shared by the desk and the grading (rule page section 3).

Exact: numbers are Fractions of their decimal text, never binary floats."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from ...parse.jsonfind import OutOfRange, read_number
from ...parse.text import is_letter_or_number14

WHITESPACE = " \t\n\r\x0b\x0c"
_SPLIT = re.compile(f"[{re.escape(WHITESPACE)}]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_CURRENCY_MARKS = (",", "\u20b9", "$", "\u20ac")


def ascii_lower(text: str) -> str:
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


def ascii_upper(text: str) -> str:
    return "".join(chr(ord(c) - 32) if "a" <= c <= "z" else c for c in text)


def words(value: object) -> list[str]:
    """The ASCII-lowercased words of a string (split at runs of whitespace); not a string: none."""
    if not isinstance(value, str):
        return []
    return [w for w in _SPLIT.split(ascii_lower(value)) if w]


def normalize_text(value: object) -> str:
    """normalize_text: a string's words joined by one space; any other value is the empty text."""
    return " ".join(words(value))


def normalize_id(value: object) -> str:
    """normalize_id: the letters and digits (Unicode 14.0.0 categories L* and N*, the core's pinned
    version, whatever Python's own) of normalize_text."""
    return "".join(c for c in normalize_text(value) if is_letter_or_number14(c))


def exact(value: object) -> Fraction | None:
    """A JSON number's exact value (bool is not a number)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Decimal):
        return Fraction(value) if value.is_finite() else None
    if isinstance(value, float):  # an item written by a generator
        return Fraction(Decimal(repr(value)))
    return None


def amount(value: object) -> Fraction:
    """safe_float: a number; a string with ',', '₹', '$', '€' removed and whitespace trimmed that is a
    decimal numeral (optional sign, optional exponent within the JSON bound); anything else is 0."""
    number = exact(value)
    if number is not None:
        return number
    if isinstance(value, str):
        text = value
        for mark in _CURRENCY_MARKS:
            text = text.replace(mark, "")
        text = text.strip(WHITESPACE)
        if _NUMBER.fullmatch(text):
            read = read_number(text)  # an exponent beyond the JSON bound: out of range, no value
            return Fraction(read) if isinstance(read, Decimal) else Fraction(0)
    return Fraction(0)


def amounts_match(a: object, b: object) -> bool:
    return abs(amount(a) - amount(b)) <= Fraction(1, 100)


def json_equal(a: object, b: object) -> bool:
    """Equality of two JSON values: numbers by exact value (out-of-range ones by their text), objects as key
    sets, arrays in order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, OutOfRange) or isinstance(b, OutOfRange):  # no value: equal when written alike
        return isinstance(a, OutOfRange) and isinstance(b, OutOfRange) and a.literal == b.literal
    na, nb = exact(a), exact(b)
    if na is not None or nb is not None:
        return na is not None and nb is not None and na == nb
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b
