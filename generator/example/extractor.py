"""A rule-based extraction baseline that reads only the document text.

``extract(item)`` returns ``{field name: value}``. It looks at the requested fields' names, types
and places, the document's text, locale and reference date, and nothing else: answers and field
kinds are never read. It finds labels with keyword regexes, reads numbers with the locale's
separators and dates in the locale's usual forms, and computes a few values (sums, differences,
due dates from payment terms) when that takes one simple step. When unsure it returns null.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from .locales import MONTHS, MONTHS_SHORT, SEPARATORS

MINOR = {"JPY": 0}
_GROUP = {",": ",", ".": r"\.", "\u202f": "[\u202f\u00a0 ]"}


def _num_re(locale: str) -> str:
    g, d = SEPARATORS[locale]
    g = _GROUP[g]
    d = re.escape(d)
    return rf"-?(?:\d{{1,3}}(?:{g}\d{{3}})+|\d+)(?:{d}\d+)?"


def parse_number(token: str, locale: str) -> Decimal | None:
    g, d = SEPARATORS[locale]
    t = token.strip()
    for sep in ({g, "\u00a0", " "} if locale == "fr-FR" else {g}):
        t = t.replace(sep, "")
    t = t.replace(d, ".")
    try:
        return Decimal(t)
    except InvalidOperation:
        return None


# Label keywords (lowercase; matched at a line start or after a word boundary).
LABELS = {
    "total": ["total due", "total ttc", "total", "summe", "rechnungsbetrag", "ご請求金額", "合計",
              "order total", "gesamtbetrag", "montant total", "total del pedido", "ご注文合計",
              "amount due", "total due"],
    "subtotal": ["subtotal", "zwischensumme", "sous-total", "小計", "net total", "nettobetrag",
                 "total ht"],
    "tax": ["sales tax", "vat", "mwst.", "tva", "iva", "消費税"],
    "rate": ["tax rate", "vat rate", "mwst.-satz", "taux tva", "tasa iva", "税率"],
    "date": ["date", "datum", "fecha", "日付", "notice date", "invoice date", "rechnungsdatum",
             "date de facture", "fecha de emisión", "請求日"],
    "invoice_date": ["invoice date", "rechnungsdatum", "date de facture", "fecha de emisión",
                     "請求日"],
    "due_date": ["due date", "fällig am", "échéance", "fecha de vencimiento", "お支払期限", "due",
                 "fällig", "vence", "期限"],
    "invoice_number": ["invoice no.", "rechnungsnummer", "facture n°", "folio", "請求書番号"],
    "receipt_number": ["receipt #", "receipt no.", "beleg-nr.", "ticket n°", "ticket no.",
                       "レシートno."],
    "store_number": ["store #", "store", "filiale", "magasin", "sucursal", "店舗番号"],
    "cashier": ["cashier", "served by", "es bediente sie", "caissier", "cajero", "担当"],
    "payment_method": ["paid by", "payment", "zahlart", "règlement", "forma de pago", "お支払い"],
    "po_number": ["po number", "po ref", "bestellnummer", "bon de commande", "orden de compra",
                  "注文番号"],
    "customer_number": ["customer no.", "account no.", "kundennummer", "n° client",
                        "no. de cliente", "顧客番号", "customer number"],
    "vendor_tax_id": ["ein", "vat reg. no.", "ust-idnr.", "n° tva intracom.", "rfc", "登録番号"],
    "vat_number": ["tax id", "vat reg. no.", "ust-idnr.", "n° tva", "rfc", "登録番号"],
    "bank_account": ["bank account", "iban", "clabe", "振込先口座"],
    "loyalty_number": ["rewards member", "clubcard", "kundenkarte", "carte fidélité", "monedero",
                       "ポイントカード"],
    "store_phone": ["tel", "tel.", "tél.", "tel"],
    "payment_terms": ["terms", "zahlungsbedingungen", "conditions de paiement",
                      "condiciones de pago", "支払条件"],
    "item_count": ["items sold", "no. of items", "anzahl artikel", "nombre d'articles",
                   "artículos", "買上点数", "items shipped", "number of items",
                   "artículos enviados", "発送点数"],
    "subject": ["subject", "betreff", "objet", "asunto", "件名", "re"],
    "delivery_date": ["estimated delivery", "expected delivery", "voraussichtliche zustellung",
                      "livraison prévue", "entrega estimada", "お届け予定日"],
    "tracking_number": ["tracking number", "tracking reference", "sendungsnummer",
                        "numéro de suivi", "número de rastreo", "お問い合わせ番号"],
    "shipping_cost": ["shipping", "delivery", "versand", "livraison", "envío", "送料"],
    "refund_amount": ["refund amount", "amount refunded", "erstattungsbetrag", "montant remboursé",
                      "monto reembolsado", "返金額"],
    "notice_number": ["notice"], "tax_year": ["tax year"], "ssn_masked": ["social security number"],
    "caller_id": ["your caller id"], "contact_phone": ["to contact us"],
    "tax_owed": ["amount you owed"], "penalty": ["failure-to-pay penalty"],
    "interest": ["interest charges"], "amount_due": ["amount due"],
    "claim_number": ["claim number"], "office_code": ["office code"],
    "renewal_id": ["renewal id"], "plate_number": ["license plate"], "vehicle": ["vehicle"],
    "expiration_date": ["registration expires"], "registration_fee": ["registration fee"],
    "county_fee": ["county/district fee"], "vehicle_license_fee": ["vehicle license fee"],
    "total_due": ["total due"], "notice_date": ["notice date", "date"],
    "document_date": ["date", "datum", "fecha", "日付"],
    "sender_name": ["from", "von", "de", "差出人"],
    "sent_date": ["date", "datum", "fecha", "日時"],
}
LABELS["vat_amount"] = LABELS["tax"]
LABELS["purchase_date"] = LABELS["date"]
LABELS["line_item_count"] = LABELS["item_count"]
MONEY_FIELDS_NO_LABEL = {"tip", "discount", "vat_amount"}


class Doc:
    def __init__(self, item: dict):
        d = item["document"]
        self.text, self.loc = d["text"], d["locale"]
        self.lines = self.text.split("\n")
        self.ref = dt.date.fromisoformat(d["reference_date"])
        self.num = _num_re(self.loc)
        self.cur = self._currency()

    # --- primitives ---------------------------------------------------------------------------
    def _currency(self) -> str | None:
        m = re.search(r"\b(USD|GBP|EUR|MXN|JPY)\b", self.text)
        if m:
            return m.group(1)
        for sym, code in (("€", "EUR"), ("£", "GBP"), ("¥", "JPY"), ("円", "JPY")):
            if sym in self.text:
                return code
        if "$" in self.text:
            return "MXN" if self.loc == "es-MX" else "USD"
        return None

    def label_lines(self, name: str) -> list[str]:
        """Text after the label on every line that starts with one of the field's labels."""
        found = []
        for lab in sorted(LABELS.get(name, []), key=len, reverse=True):
            pat = re.compile(r"(?:^\s*|\s{2,})" + re.escape(lab) + r"(?![\w-])\s*[:#]?\s*", re.I)
            for line in self.lines:
                m = pat.search(line)
                if m:
                    found.append(line[m.end():])
            if found:
                break
        return found

    def amounts(self, s: str) -> list[Decimal]:
        s = re.sub(self.num + r"\s*%", " ", s)
        return [v for v in (parse_number(t, self.loc) for t in re.findall(self.num, s))
                if v is not None]

    def money_after(self, name: str) -> Decimal | None:
        for rest in self.label_lines(name):
            vals = self.amounts(rest)
            if vals:
                return vals[-1]
        return None

    def dates(self, s: str) -> list[dt.date]:
        out: list[tuple[int, dt.date]] = []
        y0 = self.ref.year
        lg = self.loc[:2]

        def add(pos, y, m, d):
            try:
                out.append((pos, dt.date(int(y), int(m), int(d))))
            except ValueError:
                pass
        for m in re.finditer(r"(\d{4})[/年](\d{1,2})[/月](\d{1,2})日?", s):
            add(m.start(), *m.groups())
        for m in re.finditer(r"(?<![\d/年])(\d{1,2})月(\d{1,2})日", s):
            add(m.start(), y0, *m.groups())
        for m in re.finditer(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b", s):
            a, b, y = m.groups()
            add(m.start(), y, a, b) if self.loc == "en-US" else add(m.start(), y, b, a)
        names = {}
        for table in (MONTHS, MONTHS_SHORT):
            for i, mn in enumerate(table.get(lg, [])):
                names[mn.lower()] = i + 1
        for i, mn in enumerate(MONTHS_SHORT["en"]):
            names.setdefault(mn.lower(), i + 1)
        alt = "|".join(re.escape(k) for k in sorted(names, key=len, reverse=True))
        for m in re.finditer(rf"\b(\d{{1,2}})\.?\s+(?:de\s+)?({alt})(?:\s+(?:de\s+)?(\d{{4}}))?",
                             s, re.I):
            add(m.start(), m.group(3) or y0, names[m.group(2).lower()], m.group(1))
        for m in re.finditer(rf"\b({alt})\s+(\d{{1,2}})\b(?:,\s*(\d{{4}}))?", s, re.I):
            add(m.start(), m.group(3) or y0, names[m.group(1).lower()], m.group(2))
        return [d for _, d in sorted(out, key=lambda t: t[0])]

    def date_after(self, name: str) -> dt.date | None:
        for rest in self.label_lines(name):
            ds = self.dates(rest)
            if ds:
                return ds[0]
        return None

    def token_after(self, name: str) -> str | None:
        for rest in self.label_lines(name):
            m = re.match(r"([A-Z0-9][A-Za-z0-9\-/]*(?: [0-9]{2,4}){0,3})", rest.strip())
            if m and re.search(r"\d", m.group(1)):
                return m.group(1).strip()
        return None

    def text_after(self, name: str) -> str | None:
        for rest in self.label_lines(name):
            rest = re.split(r"\s{2,}", rest.strip())[0]
            if rest:
                return rest
        return None

    # --- structures ---------------------------------------------------------------------------
    def line_items(self) -> list[tuple[str, Decimal]] | None:
        items: list[tuple[str, Decimal]] = []
        dash = [i for i, l in enumerate(self.lines) if re.fullmatch(r"-{10,}", l)]
        if len(dash) >= 2:
            for line in self.lines[dash[0] + 1:dash[1]]:
                m = re.match(r"(.*?\S)\s{2,}(\S.*)$", line)
                vals = self.amounts(m.group(2)) if m else []
                if m and vals:
                    items.append((m.group(1), vals[-1]))
            return items or None
        for line in self.lines:
            m = re.match(r"^  - (.+?): (.+)$", line)
            if m and self.amounts(m.group(2)):
                items.append((m.group(1), self.amounts(m.group(2))[-1]))
            m = re.match(rf"^(\S.*?)\s{{2,}}(\d+)\s{{2,}}({self.num})\s{{2,}}({self.num})\s*$",
                         line)
            # a token matched by self.num always parses; the check only makes that explicit
            if m and (amount := parse_number(m.group(4), self.loc)) is not None:
                items.append((m.group(1), amount))
        return items or None

    def table(self) -> dict[tuple[str, int], list[Decimal | None]]:
        """Rows of a quarterly table by (kind, year); a cell that is not a number is None."""
        rows: dict[tuple[str, int], list[Decimal | None]] = {}
        keys = {"rev": ["revenue", "turnover", "umsatz", "chiffre d'affaires", "ingresos", "売上高"],
                "cost": ["operating costs", "betriebskosten", "charges d'exploitation",
                         "costos operativos", "営業費用"],
                "units": ["units sold", "verkaufte einheiten", "unités vendues",
                          "unidades vendidas", "販売数量"]}
        for line in self.lines:
            m = re.match(r"^(\D+?)\s(\d{4})\s{2,}(.*)$", line)
            if not m:
                continue
            for key, words in keys.items():
                if m.group(1).strip().lower() in words:
                    rows[(key, int(m.group(2)))] = [
                        parse_number(t, self.loc) for t in re.split(r"\s{2,}", m.group(3).strip())]
        return rows


def _money(v: Decimal | None, cur: str | None) -> str | None:
    if v is None:
        return None
    places = MINOR.get(cur or "", 2)
    try:
        return format(v.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP), "f")
    except InvalidOperation:  # more digits than the context holds (a misread number): not a reading
        return None


def _field(doc: Doc, name: str, ftype: str, places, cache: dict):
    if name == "currency":
        return doc.cur
    if name == "line_items":
        items = cache.setdefault("items", doc.line_items())
        return None if items is None else [
            {"description": d, "amount": _money(a, doc.cur)} for d, a in items]
    if name.endswith("_count") and ftype == "count":
        n = doc.money_after("item_count")
        if n is not None:
            return int(n)
        items = cache.setdefault("items", doc.line_items())
        return len(items) if items else None
    m = re.fullmatch(r"(revenue|operating_costs|units_sold|operating_profit)_q(\d)_(\d{4})", name)
    if m or name.startswith("revenue_fy") or name.startswith("revenue_growth"):
        return _table_field(doc, name, ftype, places, cache)
    if ftype == "money":
        if name in MONEY_FIELDS_NO_LABEL and name not in LABELS:
            return None
        return _money(doc.money_after(name), doc.cur)
    if ftype == "date":
        d = doc.date_after(name)
        return d.isoformat() if d else None
    if ftype == "identifier":
        if name == "card_last4":
            m = re.search(r"(?:\*{4}|ending(?: in)?|endung|par|terminación|末尾)\s*(\d{4})",
                          doc.text, re.I)
            return m.group(1) if m else None
        tok = doc.token_after(name)
        if tok is None and name == "order_number":
            m = re.search(r"(?:order|bestellung|commande|pedido|ご注文)\s+([A-Z0-9][A-Z0-9-]+\d)",
                          doc.text, re.I)
            tok = m.group(1) if m else None
        return tok
    if ftype == "text":
        if name in ("merchant_name", "vendor_name", "business_name"):
            return doc.lines[0].strip() or None
        if name == "company_name":
            return re.split(r" - | 四半期", doc.lines[0])[0].strip() or None
        if name == "agency":
            m = re.search(r"(Internal Revenue Service|Social Security Administration|"
                          r"Department of Motor Vehicles)", doc.text, re.I)
            return m.group(1) if m else None
        if name == "sender_email":
            m = re.search(r"<([^>]+@[^>]+)>", doc.lines[0])
            return m.group(1) if m else None
        return doc.text_after(name)
    if ftype == "number" and name == "vat_rate":
        for rest in doc.label_lines("tax") or doc.label_lines("rate"):
            m = re.search(rf"({doc.num})\s*%", rest)
            if m:
                v = parse_number(m.group(1), doc.loc)
                if v is not None:  # always: the token matched doc.num
                    return format(v.quantize(Decimal(1).scaleb(-(places or 0))), "f")
    if ftype == "count":
        v = doc.money_after(name)
        return int(v) if v is not None and v == v.to_integral_value() else None
    return None


def _quarter(row: list[Decimal | None] | None, q: int) -> Decimal | None:
    """A row's value for quarter q, None when the row is missing or too short (a misread table)."""
    return row[q] if row is not None and q < len(row) else None


def _table_field(doc: Doc, name: str, ftype: str, places, cache: dict):
    rows = cache.setdefault("table", doc.table())
    m = re.fullmatch(r"(revenue|operating_costs|units_sold|operating_profit)_q(\d)_(\d{4})", name)
    if m:
        kind, q, y = m.group(1), int(m.group(2)) - 1, int(m.group(3))
        key = {"revenue": "rev", "operating_costs": "cost", "units_sold": "units"}.get(kind)
        if key:
            v = _quarter(rows.get((key, y)), q)
            return None if v is None else (int(v) if ftype == "count" else _money(v, doc.cur))
        rev, cost = _quarter(rows.get(("rev", y)), q), _quarter(rows.get(("cost", y)), q)
        return _money(rev - cost, doc.cur) if rev is not None and cost is not None else None
    m = re.fullmatch(r"revenue_fy(\d{4})", name)
    if m:
        rev = rows.get(("rev", int(m.group(1))))
        if not rev:
            return None
        quarters = [v for v in rev[:4] if v is not None]
        return _money(sum(quarters, Decimal(0)), doc.cur) if len(quarters) == len(rev[:4]) else None
    return None  # growth rates: not attempted by this baseline


def extract(item: dict) -> dict:
    """Map every requested field name to a value read from the document (None when unsure)."""
    requests = [(f["name"], f["type"], f.get("places")) for f in item["fields"]]
    doc = Doc(item)
    cache: dict = {}
    out = {name: _field(doc, name, ftype, places, cache) for name, ftype, places in requests}
    # One-step arithmetic for amounts the document did not label.
    items = cache.get("items") if "items" in cache else doc.line_items()
    dec = lambda k: Decimal(out[k]) if out.get(k) is not None else None  # noqa: E731
    names = {n for n, _, _ in requests}
    if "subtotal" in names and out["subtotal"] is None and items:
        out["subtotal"] = _money(sum((a for _, a in items), Decimal(0)), doc.cur)
    for tax in ("tax", "vat_amount"):
        if tax in names and out[tax] is None:
            total = dec("total")
            subtotal = dec("subtotal") if total is not None else None
            if total is not None and subtotal is not None:
                out[tax] = _money(total - subtotal, doc.cur)
    if "due_date" in names and out["due_date"] is None and out.get("invoice_date"):
        m = re.search(r"(?:net|neto)\s+(\d+)|(\d+)\s*(?:tage|jours|日以内)", doc.text, re.I)
        if m:
            days = int(m.group(1) or m.group(2))
            out["due_date"] = (dt.date.fromisoformat(out["invoice_date"])
                               + dt.timedelta(days=days)).isoformat()
    return out
