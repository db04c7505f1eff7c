"""Canonical forms of LongListBench values (rule page `scoring-longlistbench.md`, section 3).

Written from the rule page: whitespace and lower case of Unicode 14.0.0 (the core's helpers), exact
decimals, the date forms, region codes and the record-level field changes. Numbers are never binary
floating point here: a reply's numbers arrive as exact decimals from the core's JSON reader.
"""

from __future__ import annotations

import calendar
import re
from decimal import ROUND_HALF_EVEN, Context, Decimal, InvalidOperation
from typing import Any

from generator.parse.jsonfind import JsonInt, OutOfRange
from generator.parse.text import WHITESPACE, is_letter_or_number14, lower14

_RUNS = re.compile(f"[{WHITESPACE}]+")
_WIDE = Context(prec=400)
_SIX = Decimal("1e-6")
_TWO = Decimal("1e-2")

REGIONS = {
    "alabama": "al", "alaska": "ak", "alberta": "ab", "arizona": "az", "arkansas": "ar",
    "british columbia": "bc", "california": "ca", "colorado": "co", "connecticut": "ct", "delaware": "de",
    "district of columbia": "dc", "florida": "fl", "georgia": "ga", "hawaii": "hi", "idaho": "id",
    "illinois": "il", "indiana": "in", "iowa": "ia", "kansas": "ks", "kentucky": "ky", "louisiana": "la",
    "maine": "me", "manitoba": "mb", "maryland": "md", "massachusetts": "ma", "michigan": "mi",
    "minnesota": "mn", "mississippi": "ms", "missouri": "mo", "montana": "mt", "nebraska": "ne",
    "nevada": "nv", "new brunswick": "nb", "new hampshire": "nh", "new jersey": "nj", "new mexico": "nm",
    "new york": "ny", "newfoundland and labrador": "nl", "newfoundland": "nl", "north carolina": "nc",
    "north dakota": "nd", "northwest territories": "nt", "nova scotia": "ns", "nunavut": "nu", "ohio": "oh",
    "oklahoma": "ok", "ontario": "on", "oregon": "or", "pennsylvania": "pa", "prince edward island": "pe",
    "puerto rico": "pr", "quebec": "qc", "rhode island": "ri", "saskatchewan": "sk", "south carolina": "sc",
    "south dakota": "sd", "tennessee": "tn", "texas": "tx", "utah": "ut", "vermont": "vt", "virginia": "va",
    "washington": "wa", "washington dc": "dc", "west virginia": "wv", "wisconsin": "wi", "wyoming": "wy",
    "yukon": "yt",
}
LINES_OF_BUSINESS = {
    "bpp": "bop", "businessowners": "bop", "businessowners policy": "bop", "business owners policy": "bop",
    "commercial general liability": "cgl", "workers compensation": "wc",
    "workers compensation and employers liability": "wc", "workers' compensation": "wc",
    "workers' compensation and employers liability": "wc",
}

_DATE_FORMS = (  # (pattern, order of the groups: month, day, year; two-digit year)
    (re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})"), (0, 1, 2), False),
    (re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{2})"), (0, 1, 2), True),
    (re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})"), (1, 2, 0), False),
    (re.compile(r"([0-9]{4})/([0-9]{1,2})/([0-9]{1,2})"), (1, 2, 0), False),
    (re.compile(r"([0-9]{1,2})-([0-9]{1,2})-([0-9]{4})"), (0, 1, 2), False),
)
_REGION_CODE = re.compile(r"\(([a-z]{2})\)$")
_FUEL_CODE = re.compile(r"\(([a-z0-9-]+)\)$")
_ZERO_PADDED = re.compile(r"-?0[0-9]+")
_DECIMAL_LIKE = re.compile(r"-?\$?[0-9][0-9,]*(?:\.[0-9]+)?")
_PARENTHESIZED = re.compile(r"\( ?\$?-?[0-9][0-9,]*(?:\.[0-9]+)? ?\)")
_PERIOD_DATES = re.compile(r"[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4}|[0-9]{4}[-/][0-9]{1,2}[-/][0-9]{1,2}")
_TRAILING_DIGITS = re.compile(r"[0-9]{5,}$")


def trim(text: str) -> str:
    return text.strip(WHITESPACE)


def collapse(text: str) -> str:
    return _RUNS.sub(" ", text).strip(" ")


def lower(text: str) -> str:
    """Lower case of Unicode 14.0.0 with Final_Sigma (ASCII takes the short way: the same result)."""
    return text.lower() if text.isascii() else lower14(text)


def decimal_text(value: Decimal) -> str:
    """The decimal canonical form: plain notation, no trailing fractional zeros, zero as `0`."""
    if value.is_zero():
        return "0"
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def round_places(value: Decimal, places: Decimal) -> Decimal:
    """Half-even rounding on the exact value (the caller bounds its size)."""
    return value.quantize(places, rounding=ROUND_HALF_EVEN, context=_WIDE)


def date_form(text: str) -> str | None:
    """`MM/DD/YYYY` of a text in one of the five date forms, or None."""
    for pattern, (mi, di, yi), two_digit in _DATE_FORMS:
        m = pattern.fullmatch(text)
        if m is None:
            continue
        parts = m.groups()
        month, day, year = int(parts[mi]), int(parts[di]), int(parts[yi])
        if two_digit:
            year += 2000 if year <= 68 else 1900
        if year < 1 or not 1 <= month <= 12 or not 1 <= day <= calendar.monthrange(year, month)[1]:
            return None
        return f"{month:02d}/{day:02d}/{year:04d}"
    return None


def region(text: str) -> str:
    """The region code of a lowered, trimmed, non-empty text."""
    m = _REGION_CODE.search(text)
    if m is not None:
        return m.group(1)
    return REGIONS.get(text, text)


# ---------------------------------------------------------------- records (rule 3.2)


def number_value(value: Decimal) -> str | None:
    """Rule 3.2.1 for a number: an integer literal exactly, any other rounded to 6 places."""
    if isinstance(value, JsonInt):
        return decimal_text(value)
    if not value.is_finite() or value.adjusted() >= 100:
        return None
    return decimal_text(round_places(value, _SIX))


def string_value(text: str) -> str | None:
    """Rule 3.2.2."""
    s = collapse(text)
    if not s:
        return None
    if (date := date_form(s)) is not None:
        return date
    if "%" in s:
        return lower(_RUNS.sub("", s))
    if _ZERO_PADDED.fullmatch(s):
        return s
    paren = _PARENTHESIZED.fullmatch(s) is not None
    if paren or _DECIMAL_LIKE.fullmatch(s):
        return _decimal_like(s, paren)
    return lower(s)


def _decimal_like(s: str, paren: bool) -> str:
    """Rule 3.2.3."""
    negative = paren or s.startswith("-")
    digits = s.translate({ord(c): None for c in ",$() -"})
    try:
        d = Decimal(digits)
    except InvalidOperation:  # unreachable: the patterns leave digits and one point
        return lower(s)
    return decimal_text(-abs(d) if negative else d)


def value_of(value: Any) -> Any:
    """Rule 3.2.1: the canonical form of a JSON value (objects as dicts, arrays as sorted lists)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return string_value(value)
    if isinstance(value, Decimal):
        return number_value(value)
    if isinstance(value, OutOfRange):
        return None
    if isinstance(value, dict):
        return {k: value_of(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((value_of(v) for v in value), key=serial)
    if isinstance(value, int):  # an item's integer read by a plain JSON reader
        return decimal_text(Decimal(value))
    if isinstance(value, float):  # an item's number read by a plain JSON reader: its shortest decimal
        return number_value(Decimal(repr(value)))
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def _field_change(key: str, text: str) -> str:
    """Rule 3.2.4 on a canonical text."""
    if key == "vehicle":
        return trim(text[5:]) if text.startswith("unit ") else text
    if key == "schedule":
        if text.startswith("quarter return") and (len(text) == 14 or not _word(text[14])):
            return trim("quarterly return" + text[14:])
        return text
    if key in ("jurisdiction", "state", "policy_state", "loss_state"):
        return region(text)
    if key == "fuel_type":
        m = _FUEL_CODE.search(text)
        if m is not None:
            return m.group(1)
        return "di" if text == "diesel" else text
    if key == "lob":
        return LINES_OF_BUSINESS.get(text, text)
    if key == "policy_period":
        found = _PERIOD_DATES.findall(text)
        if len(found) == 2:
            a, b = (date_form(d) or d for d in found)
            return f"{a} - {b}"
        return text
    if key == "clause_scope":
        if text.startswith("applies within "):
            text = trim(text[15:])
        return trim(text.split(";", 1)[0])
    return text


def _word(ch: str) -> bool:
    return ch == "_" or is_letter_or_number14(ch)


def record(raw: dict) -> dict:
    """Rule 3.2: the canonical record (keys whose value ends as null dropped)."""
    out = {}
    for key, value in raw.items():
        c = value_of(value)
        if isinstance(c, str):
            c = _field_change(key, c)
        if c is not None:
            out[key] = c
    return out


def _escape(text: str) -> str:
    out = []
    for ch in text:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif 0x20 <= o <= 0x7F:
            out.append(ch)
        elif ch in _SHORT:
            out.append(_SHORT[ch])
        elif o > 0xFFFF:
            o -= 0x10000
            out.append(f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}")
        else:
            out.append(f"\\u{o:04x}")
    return "".join(out)


_SHORT = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def serial(value: Any) -> str:
    """Rule 3.2.5: the serialisation S of a canonical value (pure ASCII)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return '"' + (value if _plain(value) else _escape(value)) + '"'
    if isinstance(value, dict):
        return "{" + ",".join(serial(k) + ":" + serial(value[k]) for k in sorted(value)) + "}"
    return "[" + ",".join(serial(v) for v in value) + "]"


def _plain(text: str) -> bool:
    return text.isascii() and text.isprintable() and '"' not in text and "\\" not in text


EXCLUDED = frozenset(("record_type", "record_id", "applies_to_record_id", "lob", "policy_number",
                      "policy_period", "named_insured"))


def pairs(canonical: dict) -> list[tuple[str, Any]]:
    """Rule 3.2.6: the field pairs (path, text or boolean) of a canonical record, with repetition."""
    out: list[tuple[str, Any]] = []
    for key, value in canonical.items():
        if key not in EXCLUDED:
            _flatten(key, value, out)
    return out


def _flatten(path: str, value: Any, out: list) -> None:
    if value is None:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{path}.{k}", v, out)
    elif isinstance(value, list):
        for v in value:
            _flatten(path, v, out)
    else:
        out.append((path, value))
