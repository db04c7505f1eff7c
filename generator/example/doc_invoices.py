"""Invoices: vendor, customer, number, dates, payment terms, line items, VAT and total."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from . import doc_common as C
from . import locales as L

LABELS = {
    "en-US": dict(title="INVOICE", no="Invoice No.", date="Invoice Date", due="Due Date",
                  due_short="Due", terms="Terms", po="PO Number", bill="Bill To",
                  desc="Description", qty="Qty", unit="Unit Price", amount="Amount",
                  subtotal="Subtotal", vat="Sales Tax", total="Total Due", taxid="EIN",
                  bank="Bank account", cur="Currency", pay="Please remit payment by the due date."),
    "en-GB": dict(title="INVOICE", no="Invoice No.", date="Invoice Date", due="Due Date",
                  due_short="Due", terms="Terms", po="PO Ref", bill="Invoice To",
                  desc="Description", qty="Qty", unit="Unit Price", amount="Amount",
                  subtotal="Net Total", vat="VAT", total="Total", taxid="VAT Reg. No.",
                  bank="IBAN", cur="Currency", pay="Payment by bank transfer, quoting the invoice number."),
    "de-DE": dict(title="RECHNUNG", no="Rechnungsnummer", date="Rechnungsdatum",
                  due="Fällig am", due_short="Fällig", terms="Zahlungsbedingungen",
                  po="Bestellnummer", bill="Rechnungsempfänger", desc="Bezeichnung", qty="Menge",
                  unit="Einzelpreis", amount="Betrag", subtotal="Nettobetrag", vat="MwSt.",
                  total="Rechnungsbetrag", taxid="USt-IdNr.", bank="IBAN", cur="Währung",
                  pay="Bitte überweisen Sie den Betrag unter Angabe der Rechnungsnummer."),
    "fr-FR": dict(title="FACTURE", no="Facture n°", date="Date de facture", due="Échéance",
                  due_short="Échéance", terms="Conditions de paiement", po="Bon de commande",
                  bill="Client", desc="Désignation", qty="Qté", unit="Prix unitaire",
                  amount="Montant", subtotal="Total HT", vat="TVA", total="Total TTC",
                  taxid="N° TVA intracom.", bank="IBAN", cur="Devise",
                  pay="Règlement par virement à réception de facture."),
    "es-MX": dict(title="FACTURA", no="Folio", date="Fecha de emisión", due="Fecha de vencimiento",
                  due_short="Vence", terms="Condiciones de pago", po="Orden de compra",
                  bill="Cliente", desc="Descripción", qty="Cant.", unit="Precio unitario",
                  amount="Importe", subtotal="Subtotal", vat="IVA", total="Total",
                  taxid="RFC", bank="CLABE", cur="Moneda",
                  pay="Favor de realizar el pago mediante transferencia."),
    "ja-JP": dict(title="請求書", no="請求書番号", date="請求日", due="お支払期限",
                  due_short="期限", terms="支払条件", po="注文番号", bill="請求先",
                  desc="品目", qty="数量", unit="単価", amount="金額", subtotal="小計",
                  vat="消費税", total="ご請求金額", taxid="登録番号", bank="振込先口座",
                  cur="通貨", pay="お振込手数料は貴社にてご負担ください。"),
}
TERMS = {"en-US": "Net {n}", "en-GB": "Net {n}", "de-DE": "{n} Tage netto",
         "fr-FR": "{n} jours net", "es-MX": "Neto {n} días", "ja-JP": "請求日より{n}日以内"}
SERVICES = {
    "en-US": ["Website maintenance", "Consulting hours", "Server hosting (monthly)",
              "Logo redesign", "Data migration", "On-site training", "Copy editing",
              "Support retainer"],
    "en-GB": ["Bookkeeping services", "Consultancy", "Printing of brochures", "Courier charges",
              "Software licence", "Site survey", "Cleaning contract"],
    "de-DE": ["Wartungsvertrag", "Beratungsleistung", "Montage vor Ort", "Softwarelizenz",
              "Schulung", "Fahrtkosten", "Druckkosten"],
    "fr-FR": ["Prestation de conseil", "Maintenance annuelle", "Licence logiciel",
              "Frais de déplacement", "Formation sur site", "Traduction", "Impression"],
    "es-MX": ["Servicio de consultoría", "Mantenimiento preventivo", "Licencia de software",
              "Capacitación", "Viáticos", "Diseño gráfico", "Soporte técnico"],
    "ja-JP": ["保守サービス", "コンサルティング", "ソフトウェアライセンス", "出張費",
              "研修費", "デザイン制作", "印刷代"],
}
CUST = {"en-US": "Customer No.", "en-GB": "Account No.", "de-DE": "Kundennummer",
        "fr-FR": "N° client", "es-MX": "No. de cliente", "ja-JP": "顧客番号"}
RATES = {"en-US": ["0", "6.5", "7.25"], "en-GB": ["20"], "de-DE": ["19"], "fr-FR": ["20"],
         "es-MX": ["16"], "ja-JP": ["10"]}


def _is_tie(value: Decimal, cur: str) -> bool:
    step = Decimal(1).scaleb(-L.minor(cur))
    return (value / step) % 1 == Decimal("0.5")


def plan(rng: random.Random, locale: str) -> dict:
    return {
        "locale": locale,
        "n_lines": rng.randint(1, 6),
        "date_style": rng.choice(["numeric", "numeric", "long"]),
        "due": rng.choices(["printed", "noyear", "computed"], [4, 2, 3])[0],
        "net": rng.choice([14, 30, 30, 30, 45, 60]),
        "subtotal_printed": C.chance(rng, 0.6),
        "vat_printed": C.chance(rng, 0.5),
        "total_printed": C.chance(rng, 0.65),
        "number_style": rng.randint(0, 3),
        "po": (C.chance(rng, 0.6), C.chance(rng, 0.6)),
        "taxid": (C.chance(rng, 0.6), C.chance(rng, 0.65)),
        "bank": (C.chance(rng, 0.4), C.chance(rng, 0.5)),
        "line_count": C.chance(rng, 0.6),
        "discount": C.chance(rng, 0.5),
        "shipping": C.chance(rng, 0.35),
        "opt": [C.chance(rng, 0.6) for _ in range(2)],
        "customer_number": (C.chance(rng, 0.35), C.chance(rng, 0.5)),
    }


def render(p: dict, rng: random.Random) -> dict:
    loc = p["locale"]
    cur = L.DEFAULT_CURRENCY[loc]
    lab = LABELS[loc]
    num = lambda v: L.fmt_amount(v, loc, cur)  # noqa: E731

    vendor, customer = C.company(rng, loc), C.company(rng, loc)
    while customer == vendor:
        customer = C.company(rng, loc)
    issued = C.day_in_2026(rng, (1, 5), (9, 20))
    due = issued + dt.timedelta(days=p["net"])
    inv_no = [f"INV-2026-{C.digits(rng, 5, 2)}", f"RE-2026-{C.digits(rng, 4, 1)}",
              f"F2026-{C.digits(rng, 6, 2)}", f"{C.letters(rng, 2)}-{C.digits(rng, 2, 1)}-{C.digits(rng, 4, 1)}"
              ][p["number_style"]]
    po = f"PO-{C.digits(rng, 6, 2)}"
    cust_no = C.digits(rng, 7, 3)
    taxid = {"en-US": f"{C.digits(rng, 2)}-{C.digits(rng, 7)}",
             "en-GB": f"GB{C.digits(rng, 9)}", "de-DE": f"DE{C.digits(rng, 9)}",
             "fr-FR": f"FR{C.digits(rng, 11)}",
             "es-MX": f"{C.letters(rng, 3)}{C.digits(rng, 6)}{C.letters(rng, 3)}",
             "ja-JP": f"T{C.digits(rng, 13)}"}[loc]
    bank = {"es-MX": C.digits(rng, 18, 1), "ja-JP": f"普通 {C.digits(rng, 7, 1)}",
            "en-US": f"{C.digits(rng, 10, 1)}"}.get(
        loc, f"{loc[-2:]}{C.digits(rng, 2)} {C.digits(rng, 4)} {C.digits(rng, 4)} {C.digits(rng, 4)} {C.digits(rng, 4, 1)}")
    lines = []
    for desc in rng.sample(SERVICES[loc], p["n_lines"]):
        qty = rng.choice([1, 1, 1, 2, 3, 4, 5, 8, 10, 12])
        unit = C.amount(rng, 15, 900 if qty < 5 else 150, cur)
        lines.append((desc, qty, unit, unit * qty))
    rate = Decimal(rng.choice(RATES[loc]))
    # No half-way case when the VAT can only be computed from the rate (rounding is unambiguous).
    while _is_tie(sum((a for *_, a in lines), Decimal(0)) * rate / 100, cur):
        desc, qty, unit, _ = lines[0]
        unit += Decimal(1).scaleb(-L.minor(cur))
        lines[0] = (desc, qty, unit, unit * qty)
    subtotal = sum((a for *_, a in lines), Decimal(0))
    vat = L.money(subtotal * rate / 100, cur)
    total = subtotal + vat
    rate_txt = L.fmt_percent(rate, loc, L.places_of(rate))
    terms = TERMS[loc].format(n=p["net"])

    out = [vendor, *C.address(rng, loc)]
    if p["taxid"][1]:
        out.append(f"{lab['taxid']}: {taxid}")
    out += ["", lab["title"], "", f"{lab['no']}: {inv_no}",
            f"{lab['date']}: {L.fmt_date(issued, loc, p['date_style'])}"]
    if p["due"] == "printed":
        out.append(f"{lab['due']}: {L.fmt_date(due, loc, p['date_style'])}")
    out.append(f"{lab['terms']}: {terms}")
    if p["po"][1]:
        out.append(f"{lab['po']}: {po}")
    out += ["", f"{lab['bill']}:", customer, *C.address(rng, loc)]
    if p["customer_number"][1]:
        out.append(f"{CUST[loc]}: {cust_no}")
    out.append("")
    w = max(len(d) for d, *_ in lines) + 2
    out.append(f"{lab['desc']:<{w}}{lab['qty']:>5}  {lab['unit']:>14}  {lab['amount']:>14}")
    for desc, qty, unit, amt in lines:
        out.append(f"{desc:<{w}}{qty:>5}  {num(unit):>14}  {num(amt):>14}")
    out.append("")
    if p["subtotal_printed"]:
        out.append(C.pad(lab["subtotal"], num(subtotal), w + 37))
    vat_label = f"{lab['vat']} {rate_txt}"
    out.append(C.pad(vat_label, num(vat), w + 37) if p["vat_printed"] else vat_label)
    if p["total_printed"]:
        out.append(C.pad(f"{lab['total']} ({cur})", L.fmt_money(total, loc, cur), w + 37))
    else:
        out.append(f"{lab['cur']}: {cur}")
    if p["due"] == "noyear":
        out.append(f"{lab['due_short']}: {L.fmt_date(due, loc, 'noyear')}")
    if p["bank"][1]:
        out.append(f"{lab['bank']}: {bank}")
    out += ["", lab["pay"]]

    k = lambda printed: "printed" if printed else "computed"  # noqa: E731
    fields = [
        C.field("vendor_name", "text", "printed", vendor),
        C.field("invoice_number", "identifier", "printed", inv_no),
        C.date_field("invoice_date", "printed", issued),
        C.date_field("due_date", "computed" if p["due"] == "computed" else "printed", due),
    ]
    if p["opt"][0]:
        fields.insert(1, C.field("customer_name", "text", "printed", customer))
    if p["opt"][1]:
        fields.append(C.field("payment_terms", "text", "printed", terms))
    if p["po"][0]:
        fields.append(C.field("po_number", "identifier", "printed" if p["po"][1] else "missing",
                              po))
    if p["customer_number"][0]:
        fields.append(C.field("customer_number", "identifier",
                              "printed" if p["customer_number"][1] else "missing", cust_no))
    fields.append(C.list_field("line_items", "printed", [(d, a) for d, _, _, a in lines], cur))
    if p["line_count"]:
        fields.append(C.field("line_item_count", "count", "computed", len(lines)))
    fields += [
        C.money_field("subtotal", k(p["subtotal_printed"]), subtotal, cur),
        C.field("vat_rate", "number", "printed", L.canon_number(rate, 2), places=2),
        C.money_field("vat_amount", k(p["vat_printed"]), vat, cur),
        C.money_field("total", k(p["total_printed"]), total, cur),
        C.field("currency", "currency", "printed", cur),
    ]
    if p["taxid"][0]:
        fields.append(C.field("vendor_tax_id", "identifier",
                              "printed" if p["taxid"][1] else "missing", taxid))
    if p["bank"][0]:
        fields.append(C.field("bank_account", "identifier",
                              "printed" if p["bank"][1] else "missing", bank))
    if p["discount"]:
        fields.append(C.money_field("discount", "missing", None, cur))
    if p["shipping"]:
        fields.append(C.money_field("shipping_cost", "missing", None, cur))
    multi = int(not p["total_printed"] and not p["subtotal_printed"]) + int(
        not p["vat_printed"] and not p["subtotal_printed"])
    return {"text": "\n".join(out) + "\n", "currency": cur, "fields": fields,
            "multi_step": multi}
