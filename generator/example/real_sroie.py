"""Real receipts from SROIE (CC-BY 4.0): text rebuilt from the OCR boxes, checked answers from the
published labels plus machine checks (content/pages/scoring-extracting.md, "Real documents").

``layout(words, boxes)`` is the deterministic layout rule; ``label(record)`` returns the receipt's
requested fields, or the reasons its labels are suspect (such a receipt is left out).
"""

from __future__ import annotations

import datetime as dt
import re
import statistics
import unicodedata
from decimal import Decimal, InvalidOperation

ATTRIBUTION = (
    "Receipt from the ICDAR 2019 Robust Reading Challenge on Scanned Receipts OCR and Information "
    "Extraction (SROIE), by Huang et al., the ICDAR 2019 challenge organisers, licensed CC BY 4.0 "
    "(https://creativecommons.org/licenses/by/4.0/). Adapted: the text was rebuilt from the published "
    "OCR lines and boxes by Tally's layout rule, and the requested fields and checked answers were "
    "added; the original creators do not endorse this use.")
LOCALE, CURRENCY = "en-GB", "MYR"  # Malaysian receipts: day-first dates, decimal point, ringgit


# ------------------------------------------------------------------ layout rule

def layout(words: list[str], boxes: list[list[int]]) -> str:
    """Rebuild a receipt's text from its OCR lines and boxes [x0, y0, x1, y1].

    1. Character width c = the median over boxes of (x1 - x0) / number of characters.
    2. Boxes are taken by vertical centre (then x0); a box joins the current line when its centre
       lies within the vertical span [y0, y1] of the line's first box, else it starts a new line.
    3. In a line, boxes go left to right by x0; each starts at column round(x0 / c), but at least
       one space after the previous box's end.
    4. Leading spaces common to every line are removed, trailing spaces dropped.
    """
    cells = [(w.strip(), b) for w, b in zip(words, boxes) if w.strip()]
    if not cells:
        return ""
    c = statistics.median((b[2] - b[0]) / len(w) for w, b in cells) or 1.0
    order = sorted(cells, key=lambda wb: ((wb[1][1] + wb[1][3]) / 2, wb[1][0]))
    lines: list[list[tuple[str, list[int]]]] = []
    for w, b in order:
        centre = (b[1] + b[3]) / 2
        if lines and lines[-1][0][1][1] <= centre <= lines[-1][0][1][3]:
            lines[-1].append((w, b))
        else:
            lines.append([(w, b)])
    out = []
    for line in lines:
        text = ""
        for w, b in sorted(line, key=lambda wb: wb[1][0]):
            col = round(b[0] / c)
            gap = col - len(text) if text else col
            text += " " * max(1 if text else 0, gap) + w
        out.append(text.rstrip())
    indent = min(len(t) - len(t.lstrip(" ")) for t in out)
    return "\n".join(t[indent:] for t in out) + "\n"


# ------------------------------------------------------------------ checks and labels

def _squash(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).upper().split())


def _amount_shown(text: str, value: Decimal) -> bool:
    forms = {f"{value:.2f}", f"{value:,.2f}"}
    return any(re.search(r"(?<![\d.,])" + re.escape(f) + r"(?![\d])", text) for f in forms)


DATE_FORMS = (r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})", r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{2})")
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def day_first(label: str) -> dt.date | None:
    """The published date label read day first (dd/mm/yyyy, dd-mm-yy, dd MON yyyy, ...)."""
    s = label.strip().upper()
    for form in DATE_FORMS:
        m = re.fullmatch(form, s)
        if m:
            d, mo, y = (int(g) for g in m.groups())
            y = y + 2000 if y < 100 else y
            try:
                return dt.date(y, mo, d)
            except ValueError:
                return None
    m = re.fullmatch(r"(\d{1,2})[ -]?([A-Z]{3})[A-Z]*[ ,-]*(\d{4}|\d{2})", s)
    if m and m.group(2) in MONTHS:
        y = int(m.group(3))
        try:
            return dt.date(y + 2000 if y < 100 else y, MONTHS.index(m.group(2)) + 1, int(m.group(1)))
        except ValueError:
            return None
    return None


TAX_LINE = re.compile(r"\b(?:TOTAL\s+)?(?:GST|SST|TAX)\b[^\n]*?(\d[\d,]*\.\d{2})\s*$", re.M)
RECEIPT_LINE = re.compile(r"\b(?:RECEIPT|INVOICE|BILL|DOC(?:UMENT)?|RCPT|INV)\s*(?:NO|#|NUMBER)\b\.?\s*:?\s*"
                          r"([A-Z0-9][A-Z0-9/-]*\d[A-Z0-9/-]*)")


def _tax(text: str, total: Decimal) -> tuple[str, Decimal | None] | None:
    """(kind, value) of the tax field, or None when the rule can't decide (not requested).

    No GST, SST or TAX in the text: missing. Else the amounts on lines naming it: the one equal to
    the 6 % GST in the total (total x 6 / 106, to the sen, +-0.01) is printed; no such: undecided.
    """
    if not re.search(r"\b(?:GST|SST|TAX)\b", text.upper()):
        return ("missing", None)
    want = (total * 6 / 106).quantize(Decimal("0.01"))
    for m in TAX_LINE.finditer(text.upper()):
        v = Decimal(m.group(1).replace(",", ""))
        if v > 0 and abs(v - want) <= Decimal("0.01"):
            return ("printed", v)
    return None


def _receipt_number(text: str) -> tuple[str, str | None] | None:
    """(kind, value): the identifier after the first receipt/invoice/bill number label; no such label
    and no such word: missing; a word without a readable number: undecided."""
    up = text.upper()
    m = RECEIPT_LINE.search(up)
    if m:
        start = m.start(1)
        return ("printed", text[start:start + len(m.group(1))])
    if re.search(r"\b(?:RECEIPT|INVOICE|BILL|RCPT)\b", up):
        return None
    return ("missing", None)


def label(record: dict) -> tuple[dict | None, list[str]]:
    """The item body of one SROIE record, or None and the reasons its labels are suspect."""
    text = layout(record["words"], record["bboxes"])
    ent = record["entities"]
    problems = []
    try:
        total = Decimal(ent.get("total", "").replace(",", "").replace("RM", "").strip())
    except InvalidOperation:
        total = None
    if total is None or not _amount_shown(text, total):
        problems.append(f"total {ent.get('total')!r} is not shown in the text as an amount")
    day = day_first(ent.get("date", ""))
    if day is None:
        problems.append(f"date {ent.get('date')!r} does not parse day first")
    elif ent["date"].strip().upper() not in text.upper():
        problems.append(f"date {ent.get('date')!r} is not in the text as published")
    company = ent.get("company", "")
    if not company.strip() or _squash(company) not in _squash(text):
        problems.append(f"company {company!r} is not found in the text")
    if problems:
        return None, problems
    assert total is not None and day is not None
    fields = [
        _f("merchant_name", "text", "printed", company.strip(), "published label"),
        _f("purchase_date", "date", "printed", day.isoformat(), "published label, read day first"),
        _f("total", "money", "printed", f"{total:.2f}", "published label"),
        _f("currency", "currency", "printed" if "RM" in text.upper() else "computed", CURRENCY,
           "labeller rule: ringgit (RM), the currency of the collection"),
    ]
    address = ent.get("address", "").strip()
    if address and _squash(address) in _squash(text):
        fields.insert(1, _f("merchant_address", "text", "printed", address, "published label"))
    tax = _tax(text, total)
    if tax is not None:
        fields.append(_f("tax", "money", tax[0], None if tax[1] is None else f"{tax[1]:.2f}",
                         "labeller rule: 6 % GST in the total"))
    number = _receipt_number(text)
    if number is not None:
        fields.append(_f("receipt_number", "identifier", number[0], number[1],
                         "labeller rule: receipt/invoice/bill number label"))
    if not re.search(r"\d{4}\b", _after_card(text)):
        fields.append(_f("card_last4", "identifier", "missing", None, "labeller rule: no card digits"))
    return {"text": text, "fields": fields}, []


def _after_card(text: str) -> str:
    """Lines mentioning a card (VISA, MASTER, CARD): where card digits would be."""
    return "\n".join(ln for ln in text.upper().splitlines() if re.search(r"VISA|MASTER|CARD|AMEX", ln))


def _f(name: str, ftype: str, kind: str, answer, provenance: str) -> dict:
    return {"name": name, "type": ftype, "kind": kind, "answer": None if kind == "missing" else answer,
            "provenance": provenance}
