"""The GST rules of the au-bas suite: re-derive the faults and the corrected BAS from a ledger.

Used to check stored answer keys and by the example generator; the rules are written out in
content/pages/scoring-au-bas.md.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_HALF_UP, Decimal

from ...iso_date import is_iso_date

TAXABLE = ("office_supplies", "consulting", "equipment", "software", "travel", "catering")
GST_FREE = ("basic_food", "medical", "education", "export")
INPUT_TAXED = ("financial_supply", "residential_rent")
CATEGORIES = TAXABLE + GST_FREE + INPUT_TAXED
FAULT_CODES = ("gst_on_gst_free", "gst_miscalculated", "duplicate_invoice", "outside_period",
               "missing_abn_over_threshold")
ABN_THRESHOLD = Decimal("82.50")
LABELS = ("G1", "1A", "1B", "net")
CENT = Decimal("0.01")
_AMOUNT = re.compile(r"[0-9]+(\.[0-9]{1,2})?")  # dollars, at most two decimals, no sign, no exponent


def gst_of(amount: Decimal) -> Decimal:
    """GST inside a GST-inclusive price: amount / 11 to the cent, half up."""
    return (amount / 11).quantize(CENT, rounding=ROUND_HALF_UP)


def row_faults(ledger: dict) -> dict[str, list[str]]:
    """Fault codes of every row that has any, in FAULT_CODES order."""
    start = dt.date.fromisoformat(ledger["quarter_start"])
    end = dt.date.fromisoformat(ledger["quarter_end"])
    seen: set[str] = set()
    faults: dict[str, list[str]] = {}
    for row in ledger["rows"]:
        amount, gst = Decimal(row["amount"]), Decimal(row["gst"])
        codes = []
        if row["category"] not in TAXABLE and gst != 0:
            codes.append("gst_on_gst_free")
        if row["category"] in TAXABLE and gst != gst_of(amount):
            codes.append("gst_miscalculated")
        if row["invoice"] in seen:
            codes.append("duplicate_invoice")
        seen.add(row["invoice"])
        if not start <= dt.date.fromisoformat(row["date"]) <= end:
            codes.append("outside_period")
        if row["kind"] == "purchase" and amount > ABN_THRESHOLD and row["abn"] == "":
            codes.append("missing_abn_over_threshold")
        if codes:
            faults[row["id"]] = codes
    return faults


def corrected_bas(ledger: dict) -> dict[str, Decimal]:
    faults = row_faults(ledger)
    g1 = a1 = b1 = Decimal("0.00")
    for row in ledger["rows"]:
        codes = faults.get(row["id"], [])
        if "outside_period" in codes or "duplicate_invoice" in codes:
            continue
        amount = Decimal(row["amount"])
        if row["kind"] == "sale":
            g1 += amount
            if row["category"] in TAXABLE:
                a1 += gst_of(amount)
        elif row["category"] in TAXABLE and "missing_abn_over_threshold" not in codes:
            b1 += gst_of(amount)
    return {"G1": g1, "1A": a1, "1B": b1, "net": a1 - b1}


def answer_key(ledger: dict) -> dict:
    """The key as stored in an item: figures as decimal strings, faults as id -> codes."""
    bas = corrected_bas(ledger)
    return {**{k: f"{v:.2f}" for k, v in bas.items()}, "faults": row_faults(ledger)}


def ledger_problems(ledger: object) -> list[str]:
    """What makes a ledger unusable (shape and values), before any rule is applied."""
    if not isinstance(ledger, dict):
        return ["ledger must be an object"]
    problems = []
    for key in ("quarter_start", "quarter_end"):
        if not is_iso_date(ledger.get(key)):
            problems.append(f"ledger.{key} must be a date YYYY-MM-DD")
    rows = ledger.get("rows")
    if not isinstance(rows, list) or len(rows) < 4:
        return problems + ["ledger.rows must be an array of at least 4 rows"]
    ids = set()
    for i, row in enumerate(rows):
        where = f"ledger.rows[{i}]"
        if not isinstance(row, dict):
            problems.append(f"{where} must be an object")
            continue
        for key in ("id", "date", "kind", "counterparty", "invoice", "category", "amount", "gst", "abn"):
            if not isinstance(row.get(key), str):
                problems.append(f"{where}.{key} must be a string")
        if problems:
            continue
        if row["id"] == "":
            problems.append(f"{where}.id must not be empty")
        if row["id"] in ids:
            problems.append(f"{where}: id {row['id']!r} repeats")
        ids.add(row["id"])
        if row["kind"] not in ("sale", "purchase"):
            problems.append(f"{where}.kind must be sale or purchase")
        if row["category"] not in CATEGORIES:
            problems.append(f"{where}.category {row['category']!r} is not a known category")
        for key in ("amount", "gst"):
            if not _AMOUNT.fullmatch(row[key]):
                problems.append(f"{where}.{key} must be a non-negative amount in dollars and cents")
        if not is_iso_date(row["date"]):
            problems.append(f"{where}.date must be a date YYYY-MM-DD")
        if row["abn"] and not (len(row["abn"]) == 11 and row["abn"].isascii() and row["abn"].isdigit()):
            problems.append(f"{where}.abn must be 11 digits or empty")
    return problems
