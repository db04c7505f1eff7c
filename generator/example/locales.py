"""Locale conventions of the example corpus: numbers, money, dates and month names.

Everything here is deterministic and uses :class:`decimal.Decimal` only.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

LOCALES = ("en-US", "en-GB", "de-DE", "fr-FR", "es-MX", "ja-JP")

NNBSP = "\u202f"  # narrow no-break space: fr-FR group separator
NBSP = "\u00a0"   # no-break space: between a French amount and its currency sign

# (group separator, decimal separator), as in the scoring rules.
SEPARATORS = {
    "en-US": (",", "."),
    "en-GB": (",", "."),
    "es-MX": (",", "."),
    "ja-JP": (",", "."),
    "de-DE": (".", ","),
    "fr-FR": (NNBSP, ","),
}

DEFAULT_CURRENCY = {
    "en-US": "USD",
    "en-GB": "GBP",
    "de-DE": "EUR",
    "fr-FR": "EUR",
    "es-MX": "MXN",
    "ja-JP": "JPY",
}

MINOR_UNITS = {"USD": 2, "GBP": 2, "EUR": 2, "MXN": 2, "JPY": 0, "MYR": 2}  # MYR: the real receipts

# Rough size of one US dollar in each currency, used to draw plausible amounts.
SCALE = {"USD": Decimal(1), "GBP": Decimal("0.8"), "EUR": Decimal("0.9"),
         "MXN": Decimal(18), "JPY": Decimal(150)}

SYMBOL = {"USD": "$", "GBP": "£", "EUR": "€", "MXN": "$", "JPY": "¥"}

MONTHS = {
    "en": ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"],
    "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
           "September", "Oktober", "November", "Dezember"],
    "fr": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
           "septembre", "octobre", "novembre", "décembre"],
    "es": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"],
}
MONTHS_SHORT = {
    "en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    "de": ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.",
           "Nov.", "Dez."],
    "fr": ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.",
           "nov.", "déc."],
    "es": ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"],
}

DATE_STYLES = ("numeric", "long", "short", "noyear")


def lang(locale: str) -> str:
    return locale.split("-")[0]


def minor(currency: str) -> int:
    return MINOR_UNITS[currency]


def quantize(value: Decimal, places: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def money(value: Decimal, currency: str) -> Decimal:
    """Round an amount to the currency's minor unit."""
    return quantize(value, minor(currency))


def canon_money(value: Decimal, currency: str) -> str:
    """Checked-answer form of an amount: "1234.50", JPY "12340"."""
    return format(money(value, currency), "f")


def places_of(value: Decimal) -> int:
    """Decimal places a finite number needs once its trailing zeros are dropped ("8.250" -> 2, "20" -> 0)."""
    exponent = value.normalize().as_tuple().exponent
    if not isinstance(exponent, int):  # "n" or "F": NaN or infinity (a signalling NaN raises above)
        raise ValueError(f"{value} is not a finite number")
    return max(0, -exponent)


def canon_number(value: Decimal, places: int) -> str:
    return format(quantize(value, places), "f")


def fmt_number(value: Decimal, locale: str, places: int, group: bool = True) -> str:
    """Render a decimal with the locale's separators, e.g. de-DE ``1.234,56``."""
    g, d = SEPARATORS[locale]
    q = quantize(value, places)
    sign = "-" if q < 0 else ""
    text = format(abs(q), "f")
    whole, _, frac = text.partition(".")
    if group:
        parts: list[str] = []
        while len(whole) > 3:
            parts.insert(0, whole[-3:])
            whole = whole[:-3]
        parts.insert(0, whole)
        whole = g.join(parts)
    return sign + whole + (d + frac if frac else "")


def fmt_amount(value: Decimal, locale: str, currency: str) -> str:
    """An amount without currency sign, at the currency's minor unit."""
    return fmt_number(value, locale, minor(currency))


def fmt_money(value: Decimal, locale: str, currency: str, style: str = "symbol") -> str:
    """An amount with its currency marker placed the way the locale does.

    ``style`` is ``symbol`` (``$1,234.56``, ``1.234,56 €``), ``code`` (``1.234,56 EUR``,
    ``USD 1,234.56``) or, for JPY, ``yen`` (``12,340円``).
    """
    num = fmt_amount(value, locale, currency)
    if style == "code":
        if locale in ("de-DE", "fr-FR"):
            return f"{num}{NBSP}{currency}"
        return f"{currency} {num}"
    if currency == "JPY" and style == "yen":
        return f"{num}円"
    sym = SYMBOL[currency]
    if locale in ("de-DE", "fr-FR"):
        return f"{num}{NBSP}{sym}"
    return f"{sym}{num}"


def fmt_percent(value: Decimal, locale: str, places: int) -> str:
    num = fmt_number(value, locale, places)
    if locale in ("de-DE", "fr-FR"):
        return f"{num}{NBSP}%"
    return f"{num}%"


def fmt_date(day: dt.date, locale: str, style: str = "numeric") -> str:
    """Render a date. ``noyear`` prints day and month only (e.g. ``14 Mar``)."""
    lg = lang(locale)
    d, m, y = day.day, day.month, day.year
    if locale == "ja-JP":
        return {"numeric": f"{y}/{m:02d}/{d:02d}", "long": f"{y}年{m}月{d}日",
                "short": f"{y}年{m}月{d}日", "noyear": f"{m}月{d}日"}[style]
    full, short = MONTHS[lg][m - 1], MONTHS_SHORT[lg][m - 1]
    if locale == "en-US":
        return {"numeric": f"{m:02d}/{d:02d}/{y}", "long": f"{full} {d}, {y}",
                "short": f"{short} {d}, {y}", "noyear": f"{short} {d}"}[style]
    if locale == "en-GB":
        return {"numeric": f"{d:02d}/{m:02d}/{y}", "long": f"{d} {full} {y}",
                "short": f"{d} {short} {y}", "noyear": f"{d} {short}"}[style]
    if locale == "de-DE":
        return {"numeric": f"{d:02d}.{m:02d}.{y}", "long": f"{d}. {full} {y}",
                "short": f"{d}. {short} {y}", "noyear": f"{d}. {full}"}[style]
    if locale == "fr-FR":
        return {"numeric": f"{d:02d}/{m:02d}/{y}", "long": f"{d} {full} {y}",
                "short": f"{d} {short} {y}", "noyear": f"{d} {full}"}[style]
    if locale == "es-MX":
        return {"numeric": f"{d:02d}/{m:02d}/{y}", "long": f"{d} de {full} de {y}",
                "short": f"{d} {short} {y}", "noyear": f"{d} de {full}"}[style]
    raise ValueError(f"unknown locale {locale}")


def all_date_renderings(day: dt.date, locale: str) -> list[str]:
    return [fmt_date(day, locale, s) for s in DATE_STYLES]


def currency_markers(currency: str) -> list[str]:
    """Strings whose presence in a document shows its currency unambiguously enough."""
    marks = [currency]
    if currency in ("USD", "GBP", "EUR", "JPY"):
        marks.append(SYMBOL[currency])
    if currency == "JPY":
        marks.append("円")
    return marks
