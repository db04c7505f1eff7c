"""The one number formatter of the site: a value and its unit as a reader reads it. Never scientific
notation; thousands grouped; a minus sign (U+2212) for negatives; "–" for no value.

Units: "%" (a share already scaled to percent), "points", "ms", "s", "tokens/s", "millionths" (of a
full score: shown as a percentage of it), a currency code (three capital letters: "USD 0.954"),
"count" (an integer), "" (a plain figure: a ratio, an AUC, a d).
"""

from __future__ import annotations

import math
import re

MINUS = "\u2212"
DASH = "\u2013"
_CURRENCY = re.compile(r"^[A-Z]{3}$")


def _sign(text: str) -> str:
    return MINUS + text[1:] if text.startswith("-") else text


def fixed(value: float, digits: int) -> str:
    """`value` with `digits` decimals, thousands grouped, U+2212 for a negative ("-0.0" shows as "0.0")."""
    text = f"{value:,.{digits}f}"
    return "0" + ("." + "0" * digits if digits else "") if float(text.replace(",", "")) == 0 else _sign(text)


def plain(value: float, significant: int = 3) -> str:
    """A figure with about `significant` significant digits, in fixed notation at any magnitude:
    3160.4 -> "3,160", 0.00007 -> "0.00007", 0.7012 -> "0.701", 12.74 -> "12.7"."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    magnitude = math.floor(math.log10(abs(value)))
    digits = max(0, significant - 1 - magnitude)
    text = fixed(value, digits)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def decimals(value: float, digits: int) -> str:
    """`value` with at most `digits` decimals: none from 1,000 up, one from 100 up ("3,160", not
    "3,160.5000"), and two significant digits when `digits` would show fewer ("0.00007", not "0.0001")."""
    size = abs(value)
    if size >= 1000:
        return fixed(value, 0)
    if size >= 100:
        return fixed(value, min(digits, 1))
    if value and size < 10 ** (1 - digits):
        return plain(value, 2)
    return fixed(value, digits)


def number(value: float | int | None, unit: str = "", digits: int | None = None) -> str:
    """`value` in `unit`, without the unit's name for "%" and "points" columns that carry it in their
    heading (use `with_unit` to spell it)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return DASH
    v = float(value)
    if unit == "count":
        return fixed(v, 0)
    if unit in ("%", "points"):
        return fixed(v, 1 if digits is None else digits)
    if unit == "millionths":
        return fixed(v / 10000, 1 if digits is None else digits)
    if unit in ("ms", "s", "tokens/s"):
        return fixed(v, (0 if abs(v) >= 100 else 1) if digits is None else digits)
    if _CURRENCY.match(unit):
        if digits is not None:
            return fixed(v, digits)
        return fixed(v, 2) if abs(v) >= 1 else plain(v, 3) if v else "0"
    return fixed(v, digits) if digits is not None else plain(v)


def with_unit(value: float | int | None, unit: str = "", digits: int | None = None) -> str:
    """`value` with its unit spelled out: "95.7%", "3,160 ms", "USD 0.954", "25.0% of the score"."""
    text = number(value, unit, digits)
    if text == DASH or unit in ("", "count"):
        return text
    if unit == "%":
        return text + "%"
    if unit == "millionths":
        return f"{text}% of the score"
    if _CURRENCY.match(unit):
        return f"{unit} {text}"
    return f"{text} {unit}"


def estimate(value: float | None, low: float | None = None, high: float | None = None, unit: str = "",
             digits: int | None = None, n: int | None = None) -> str:
    """An estimate with its 95% interval (when there is one) and its count: "0.0% [0.0, 0.7] (n=544)"."""
    if digits is None and unit == "" and value:  # one number of decimals for the estimate and its bounds
        digits = min(4, max(0, 2 - math.floor(math.log10(abs(value)))))
    text = with_unit(value, unit, digits)
    if value is not None and low is not None and high is not None:
        text += f" [{number(low, unit, digits)}, {number(high, unit, digits)}]"
    return text + (f" (n={n:,})" if n is not None else "")
