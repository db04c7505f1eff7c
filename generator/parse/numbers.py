"""Numbers written by a model, read with the document's locale (rule 3.1 of the scoring page).

A string must match a strict grammar (sign, integer with correctly placed group separators or none,
optional decimal part, ASCII digits only); babel supplies the locale's symbols from CLDR. The
grammar, not babel's `parse_decimal(strict=True)`, decides: babel's parser accepts exponents and
non-ASCII digits, rejects U+2212 and plain-space groups in fr-FR, and fails past 28 digits.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from babel.numbers import get_decimal_symbol, get_group_symbol

from .text import WHITESPACE

# Locales whose group separator is a space-like character accept these three in its place.
_SPACE_GROUPS = ("\u202f", "\u00a0", " ")
_SIGNS = "-+\u2212"
CURRENCY_SYMBOLS = ("US$", "MX$", "A$", "C$", "R$", "$", "€", "£", "¥", "￥", "円")
_MARKER = "|".join(re.escape(s) for s in CURRENCY_SYMBOLS) + "|[A-Z]{3}"
_MARKER_START = re.compile(rf"(?:{_MARKER})[{WHITESPACE}]*")
_SIGNED_MARKER_START = re.compile(rf"([{_SIGNS}])(?:{_MARKER})[{WHITESPACE}]*")  # refund notation: -$12.00
_MARKER_END = re.compile(rf"[{WHITESPACE}]*(?:{_MARKER})\Z")
_PERCENT_END = re.compile(rf"[{WHITESPACE}]*%\Z")


class NotANumber(ValueError):
    """The string is not a number in the given locale."""


@lru_cache(maxsize=None)
def _locale_grammar(locale: str) -> tuple[re.Pattern, str]:
    babel_locale = locale.replace("-", "_")
    group = get_group_symbol(babel_locale)
    decimal = get_decimal_symbol(babel_locale)
    groups = _SPACE_GROUPS if group in _SPACE_GROUPS else (group,)
    g = "(?:" + "|".join(re.escape(x) for x in groups) + ")"
    pattern = re.compile(
        rf"(?P<sign>[{_SIGNS}])?(?P<int>[0-9]+|[0-9]{{1,3}}(?:{g}[0-9]{{3}})+)"
        rf"(?:{re.escape(decimal)}(?P<frac>[0-9]+))?"
    )
    return pattern, group


def _strip_ws(text: str) -> str:
    return text.strip(WHITESPACE)


def strip_currency_marker(text: str) -> str:
    """Remove one currency marker at the very start (or right after a sign, which stays) or the very end."""
    m = _SIGNED_MARKER_START.match(text)
    if m and m.end() < len(text):
        return m.group(1) + text[m.end():]
    m = _MARKER_START.match(text)
    if m and m.end() < len(text):
        return text[m.end():]
    m = _MARKER_END.search(text)
    if m and m.start() > 0:
        return text[: m.start()]
    return text


def strip_percent(text: str) -> str:
    m = _PERCENT_END.search(text)
    return text[: m.start()] if m and m.start() > 0 else text


@lru_cache(maxsize=65536)
def read_locale_number(text: str, locale: str, money: bool = False, percent: bool = False) -> Decimal:
    """The exact value of `text` written in `locale`; raises NotANumber otherwise."""
    pattern, group = _locale_grammar(locale)
    body = _strip_ws(text)
    if money:
        body = strip_currency_marker(body)
    if percent:
        body = strip_percent(body)
    m = pattern.fullmatch(body)
    if m is None:
        raise NotANumber(f"not a number in {locale}")
    digits = m.group("int")
    for space in _SPACE_GROUPS + (group,):
        digits = digits.replace(space, "")
    if m.group("frac"):
        digits += "." + m.group("frac")
    value = Decimal(digits)
    return value.copy_negate() if m.group("sign") in ("-", "\u2212") else value  # exact: no context rounding
