"""Shared helpers of the document modules: fields, fictional names, amounts, dates, ids."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from . import locales as L

YEAR = 2026  # year of the suite reference date; yearless dates resolve to it


def field(name: str, ftype: str, kind: str, answer=None, **extra) -> dict:
    """One requested field. A missing field always has answer None."""
    if kind == "missing":
        answer = None
    f = {"name": name, "type": ftype, "kind": kind, "answer": answer}
    f.update(extra)
    return f


def money_field(name: str, kind: str, value: Decimal | None, currency: str) -> dict:
    return field(name, "money", kind, None if value is None else L.canon_money(value, currency))


def date_field(name: str, kind: str, day: dt.date | None) -> dict:
    return field(name, "date", kind, None if day is None else day.isoformat())


LINE_ITEM_FIELDS = {"description": "text", "amount": "money"}


def list_field(name: str, kind: str, lines, currency: str) -> dict:
    answer = None if lines is None else [
        {"description": d, "amount": L.canon_money(a, currency)} for d, a in lines]
    return field(name, "list", kind, answer, item_fields=dict(LINE_ITEM_FIELDS))


# --- fictional names -------------------------------------------------------------------------

FIRST = {
    "en": ["Maren", "Tobias", "Elspeth", "Dorian", "Priya", "Calvin", "Rosalind", "Jasper",
           "Noemi", "Wendell", "Harriet", "Osric"],
    "de": ["Jannik", "Heike", "Wiebke", "Torben", "Ilka", "Fenja", "Malte", "Sönke", "Gesa",
           "Henrike"],
    "fr": ["Maëlle", "Gaspard", "Solène", "Aurèle", "Clémence", "Bastien", "Ombeline",
           "Téo", "Apolline", "Ferdinand"],
    "es": ["Ximena", "Rodrigo", "Itzel", "Emiliano", "Citlali", "Bernardo", "Marisol",
           "Leandro", "Yaretzi", "Anselmo"],
    "ja": ["陽菜", "蓮", "結衣", "湊", "葵", "悠真", "紬", "大翔", "凛", "朝陽"],
}
LAST = {
    "en": ["Quillfeather", "Ashdown", "Brackwell", "Tennery", "Holloway", "Marchbank",
           "Pendry", "Vexley", "Ormsby", "Cadwell", "Larkspur", "Threlkeld"],
    "de": ["Kranewitz", "Olbricht", "Hesselbach", "Dornfeld", "Wilkening", "Brakemeier",
           "Quast", "Ruhnau", "Tiedtke", "Ellerbrock"],
    "fr": ["Vautrin", "Delorme", "Brissac", "Lamarque", "Courtois", "Javelle", "Mirande",
           "Pelissier", "Rocheteau", "Vernay"],
    "es": ["Villaseñor", "Ocampo", "Zaragoza", "Iturbide", "Montiel", "Arreola", "Cuevas",
           "Balderas", "Quintanar", "Solís"],
    "ja": ["高瀬", "森川", "桐谷", "北条", "早瀬", "白石", "宮坂", "七海", "真柴", "藤代"],
}
COMPANY_STEMS = ["Bluefern", "Harrowgate", "Copperleaf", "Northwind", "Stillwater", "Larchmont",
                 "Ravenmoor", "Silverbrook", "Thistledown", "Oakhollow", "Brightwell",
                 "Kestrel", "Marlowe", "Juniper", "Foxglove", "Windrush"]
COMPANY_SUFFIX = {
    "en-US": ["Supply Co.", "Analytics LLC", "Provisions Inc.", "Market", "Hardware",
              "Logistics Corp."],
    "en-GB": ["Trading Ltd", "Provisions Ltd", "& Sons Ltd", "Stores", "Consulting Ltd"],
    "de-DE": ["GmbH", "Handels GmbH", "KG", "Markt", "Technik GmbH"],
    "fr-FR": ["SARL", "SAS", "Épicerie", "Distribution SAS", "Conseil SARL"],
    "es-MX": ["S.A. de C.V.", "Comercial S.A. de C.V.", "Abarrotes", "Servicios S. de R.L."],
    "ja-JP": ["商事株式会社", "株式会社", "ストア", "物産株式会社"],
}
JA_STEMS = ["みなと", "ひかり", "さくら", "あおば", "つばさ", "こだま", "はるか", "わかば"]
STREETS = {
    "en-US": ["Maple Ave", "Harbor St", "Cedar Ln", "Old Mill Rd", "Lakeview Dr"],
    "en-GB": ["High Street", "Mill Lane", "Station Road", "Church Walk", "Quarry Row"],
    "de-DE": ["Lindenstraße", "Am Mühlbach", "Hafenweg", "Birkenallee", "Marktplatz"],
    "fr-FR": ["rue des Tilleuls", "avenue du Port", "place du Marché", "rue Vauban",
              "chemin des Vignes"],
    "es-MX": ["Av. de los Insurgentes", "Calle Jacarandas", "Av. Juárez", "Calle Nogal",
              "Calzada del Lago"],
    "ja-JP": ["港町", "桜丘", "青葉台", "若葉町", "緑が丘"],
}
CITIES = {
    "en-US": ["Millbrook, OR 97031", "Fairhaven, OH 44012", "Cedar Falls, TX 75093"],
    "en-GB": ["Ashford TN24 8QT", "Kendal LA9 4PU", "Whitby YO21 1DH"],
    "de-DE": ["34117 Kassel", "24103 Kiel", "93047 Regensburg"],
    "fr-FR": ["69002 Lyon", "35000 Rennes", "13001 Marseille"],
    "es-MX": ["C.P. 44100 Guadalajara, Jal.", "C.P. 76000 Querétaro, Qro.",
              "C.P. 64000 Monterrey, N.L."],
    "ja-JP": ["東京都港区", "大阪府大阪市北区", "福岡県福岡市中央区"],
}


def person(rng: random.Random, locale: str) -> str:
    lg = L.lang(locale)
    first, last = rng.choice(FIRST[lg]), rng.choice(LAST[lg])
    return f"{last} {first}" if lg == "ja" else f"{first} {last}"


def company(rng: random.Random, locale: str) -> str:
    if locale == "ja-JP":
        return rng.choice(JA_STEMS) + rng.choice(COMPANY_SUFFIX[locale])
    stem = rng.choice(COMPANY_STEMS)
    suffix = rng.choice(COMPANY_SUFFIX[locale])
    if locale == "fr-FR" and suffix == "Épicerie":
        return f"Épicerie {stem}"
    if locale == "es-MX" and suffix == "Abarrotes":
        return f"Abarrotes {stem}"
    return f"{stem} {suffix}"


def address(rng: random.Random, locale: str) -> list[str]:
    num = rng.randint(2, 480)
    street = rng.choice(STREETS[locale])
    city = rng.choice(CITIES[locale])
    if locale == "ja-JP":
        return [f"{city}{street}{rng.randint(1, 9)}-{rng.randint(1, 30)}-{rng.randint(1, 12)}"]
    if locale in ("de-DE", "es-MX"):
        return [f"{street} {num}", city]
    if locale == "fr-FR":
        return [f"{num}, {street}", city]
    return [f"{num} {street}", city]


def phone(rng: random.Random, locale: str) -> str:
    a, b = rng.randint(200, 989), rng.randint(0, 9999)
    return {"en-US": f"({a}) 555-{b:04d}", "en-GB": f"01{a} 4{b:05d}",
            "de-DE": f"0{a} {b:04d}{rng.randint(10, 99)}",
            "fr-FR": f"0{rng.randint(1, 5)} {a % 100:02d} {b % 100:02d} {rng.randint(10, 99)} 0{rng.randint(1, 9)}",
            "es-MX": f"33 {a:03d} {b:04d}", "ja-JP": f"03-{a:04d}-{b:04d}"}[locale]


# --- amounts, dates, identifiers -------------------------------------------------------------

def amount(rng: random.Random, lo: float, hi: float, currency: str) -> Decimal:
    """An amount of roughly lo..hi US dollars, in the currency and rounded to its minor unit."""
    cents = rng.randint(int(lo * 100), int(hi * 100))
    value = Decimal(cents) / 100 * L.SCALE[currency]
    if currency == "JPY":
        value = (value / 10).to_integral_value() * 10
    return L.money(value, currency)


def day_in_2026(rng: random.Random, first=(1, 5), last=(9, 30)) -> dt.date:
    start, end = dt.date(YEAR, *first), dt.date(YEAR, *last)
    return start + dt.timedelta(days=rng.randint(0, (end - start).days))


def digits(rng: random.Random, n: int, lead_zeros: int = 0) -> str:
    """n digits, the first ``lead_zeros`` of them zeros (leading zeros are kept)."""
    body = "".join(str(rng.randint(0, 9)) for _ in range(n - lead_zeros - 1))
    return "0" * lead_zeros + str(rng.randint(1, 9)) + body


def letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(n))


def chance(rng: random.Random, p: float) -> bool:
    return rng.random() < p


def pad(left: str, right: str, width: int = 38) -> str:
    """A receipt-style line: text on the left, amount on the right."""
    gap = max(2, width - len(left) - len(right))
    return f"{left}{' ' * gap}{right}"
