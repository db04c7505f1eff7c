"""Equality of a model value and a checked answer, by field type (rule 3 of the scoring page).

Every comparator returns None when the values are equal, or the reason they are not. Checked
answers arrive already converted by `checked_value` (once per item, not once per response).
"""

from __future__ import annotations

from collections import Counter
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

from ..parse.dates import read_iso_date
from ..parse.jsonfind import JsonInt, OutOfRange
from ..parse.numbers import NotANumber, read_locale_number
from ..parse.text import WHITESPACE, normalise_text, upper14

NUMERIC = ("money", "count", "number")
SCALAR_TYPES = ("money", "count", "number", "date", "text", "identifier", "currency")
TYPES = SCALAR_TYPES + ("list",)


class Unreadable(ValueError):
    """The model value cannot be read as the field's type; the message is the reason."""


def _number(value: object, ftype: str, locale: str) -> Decimal:
    if isinstance(value, Decimal):  # a JSON number, exact
        return value
    if isinstance(value, str):
        try:
            return read_locale_number(value, locale, money=ftype == "money", percent=ftype == "number")
        except NotANumber as exc:
            raise Unreadable(str(exc)) from None
    raise Unreadable(f"expected a number, got {_json_type(value)}")


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, Decimal):
        return "a number"
    if isinstance(value, OutOfRange):
        return "a number out of range"
    return "a string" if isinstance(value, str) else type(value).__name__


def _text(value: object) -> str:
    if value.__class__ is str:
        return normalise_text(value)
    if isinstance(value, JsonInt):
        return format(value, "f")
    raise Unreadable(f"expected text, got {_json_type(value)}")


def _read_number(value: object, ftype: str, locale: str, places: int | None) -> Decimal:
    number = _number(value, ftype, locale)
    if not number.is_finite():
        raise Unreadable("not a finite number")
    return _round(number, places) if ftype == "number" and places is not None else number


def _read_date(value: object, ftype: str, locale: str, places: int | None):
    if value.__class__ is not str:
        raise Unreadable(f"expected a date string, got {_json_type(value)}")
    date = read_iso_date(value)
    if date is None:
        raise Unreadable("not an ISO date")
    return date


def _read_currency(value: object, ftype: str, locale: str, places: int | None) -> str:
    if value.__class__ is not str:
        raise Unreadable(f"expected a currency code, got {_json_type(value)}")
    return upper14(value.strip(WHITESPACE))


def _read_text(value: object, ftype: str, locale: str, places: int | None) -> str:
    return _text(value)


_READERS = {"money": _read_number, "count": _read_number, "number": _read_number, "date": _read_date,
            "text": _read_text, "identifier": _read_text, "currency": _read_currency}


def read_value(value: object, ftype: str, locale: str, places: int | None = None):
    """A model value converted to a comparable form; raises Unreadable."""
    return _READERS[ftype](value, ftype, locale, places)


def _round(number: Decimal, places: int) -> Decimal:
    if number.as_tuple().exponent >= -places:  # type: ignore[operator]  # nothing to round
        return number
    context = Context(prec=max(number.adjusted(), 0) + places + 2, rounding=ROUND_HALF_UP)
    return number.quantize(Decimal(1).scaleb(-places), context=context)


def _element_fields(item_fields: dict | None) -> dict:
    """A list field's element fields (name -> type), which the field's declaration always gives."""
    if item_fields is None:
        raise ValueError("a list field without the fields of its elements")
    return item_fields


def checked_value(answer: Any, ftype: str, places: int | None = None, item_fields: dict | None = None):
    """A checked answer (from the item file, already validated: a JSON value) in comparable form."""
    if ftype == "list":
        return [tuple(checked_value(el[k], t) for k, t in sorted(_element_fields(item_fields).items())) for el in answer]
    if ftype in NUMERIC:
        value = Decimal(str(answer))
        return _round(value, places) if ftype == "number" and places is not None else value
    if ftype == "date":
        return read_iso_date(answer)
    if ftype == "currency":
        return upper14(answer.strip(WHITESPACE))
    return normalise_text(answer)


def compare(value: object, checked, ftype: str, locale: str, places: int | None = None,
            item_fields: dict | None = None) -> tuple[str | None, str]:
    """(None, order) when equal, else (reason, ""). `order` is only set for lists."""
    if ftype == "list":
        return _compare_list(value, checked, locale, _element_fields(item_fields))
    try:
        got = _READERS[ftype](value, ftype, locale, places)
    except Unreadable as exc:
        return str(exc), ""
    return (None if got == checked else "differs from checked answer"), ""


def _read_element(element: object, item_fields: dict, locale: str):
    if not isinstance(element, dict):
        return None
    try:
        return tuple(read_value(element.get(k), t, locale) for k, t in sorted(item_fields.items()))
    except Unreadable:
        return None


def _compare_list(value: object, checked: list, locale: str, item_fields: dict) -> tuple[str | None, str]:
    if not isinstance(value, list):
        return f"expected an array, got {_json_type(value)}", ""
    got = [_read_element(el, item_fields, locale) for el in value]
    want = Counter(checked)
    have = Counter(g for g in got if g is not None)
    missing = sum((want - have).values())
    extra = sum((have - want).values()) + sum(1 for g in got if g is None)
    if missing or extra:
        return f"{missing} missing, {extra} extra of {len(checked)} items", ""
    return None, "same" if got == checked else "different"
