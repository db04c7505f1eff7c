"""Receipts: shop header, line items, subtotal, tax, total and payment."""

from __future__ import annotations

import random
from decimal import ROUND_CEILING, Decimal

from . import doc_common as C
from . import locales as L

LABELS = {
    "en-US": dict(receipt="Receipt #", store="Store #", cashier="Cashier", date="Date",
                  subtotal="SUBTOTAL", tax="Sales tax", rate="Tax rate", total="TOTAL",
                  paid="Paid by", card="Card", cash="Cash", tendered="Cash tendered",
                  change="Change", items="Items sold", vat="Tax ID", tel="Tel",
                  loyalty="Rewards member", thanks="Thank you for shopping with us!"),
    "en-GB": dict(receipt="Receipt No.", store="Store", cashier="Served by", date="Date",
                  subtotal="Subtotal", tax="VAT", rate="VAT rate", total="TOTAL",
                  paid="Payment", card="Card", cash="Cash", tendered="Cash tendered",
                  change="Change", items="No. of items", vat="VAT Reg. No.", tel="Tel",
                  loyalty="Clubcard", thanks="Thank you for your custom"),
    "de-DE": dict(receipt="Beleg-Nr.", store="Filiale", cashier="Es bediente Sie", date="Datum",
                  subtotal="Zwischensumme", tax="MwSt.", rate="MwSt.-Satz", total="SUMME",
                  paid="Zahlart", card="Karte", cash="Bar", tendered="Gegeben",
                  change="Rückgeld", items="Anzahl Artikel", vat="USt-IdNr.", tel="Tel.",
                  loyalty="Kundenkarte", thanks="Vielen Dank für Ihren Einkauf!"),
    "fr-FR": dict(receipt="Ticket n°", store="Magasin", cashier="Caissier", date="Date",
                  subtotal="Sous-total", tax="TVA", rate="Taux TVA", total="TOTAL",
                  paid="Règlement", card="Carte", cash="Espèces", tendered="Espèces reçues",
                  change="Rendu", items="Nombre d'articles", vat="N° TVA", tel="Tél.",
                  loyalty="Carte fidélité", thanks="Merci de votre visite !"),
    "es-MX": dict(receipt="Ticket No.", store="Sucursal", cashier="Cajero", date="Fecha",
                  subtotal="Subtotal", tax="IVA", rate="Tasa IVA", total="TOTAL",
                  paid="Forma de pago", card="Tarjeta", cash="Efectivo", tendered="Recibido",
                  change="Cambio", items="Artículos", vat="RFC", tel="Tel.",
                  loyalty="Monedero", thanks="¡Gracias por su compra!"),
    "ja-JP": dict(receipt="レシートNo.", store="店舗番号", cashier="担当", date="日付",
                  subtotal="小計", tax="消費税", rate="税率", total="合計",
                  paid="お支払い", card="クレジット", cash="現金", tendered="お預り",
                  change="お釣り", items="買上点数", vat="登録番号", tel="TEL",
                  loyalty="ポイントカード", thanks="ご来店ありがとうございました"),
}
PRODUCTS = {
    "en-US": ["Whole milk 1gal", "Sourdough loaf", "Bananas", "Coffee beans 12oz",
              "Cheddar block", "Paper towels 6pk", "Greek yogurt", "Olive oil 500ml",
              "Baby spinach", "Dish soap", "Granola", "Orange juice"],
    "en-GB": ["Semi-skimmed milk 2L", "Crumpets x6", "Tea bags 80s", "Digestives",
              "Free-range eggs 12", "Baked beans 4pk", "Mature cheddar", "Granary loaf",
              "Washing-up liquid", "Porridge oats"],
    "de-DE": ["Vollmilch 3,5%", "Roggenbrot", "Bananen", "Kaffee gemahlen 500g", "Gouda jung",
              "Apfelschorle 6x1L", "Butter 250g", "Spülmittel", "Brezel", "Joghurt Natur"],
    "fr-FR": ["Baguette tradition", "Lait demi-écrémé 1L", "Comté 200g", "Pommes Gala",
              "Café moulu 250g", "Beurre doux", "Yaourt nature x4", "Eau minérale 6x1,5L",
              "Liquide vaisselle", "Croissant"],
    "es-MX": ["Tortillas de maíz 1kg", "Leche entera 1L", "Frijoles negros", "Aguacate Hass",
              "Café de Chiapas 400g", "Queso Oaxaca", "Pan dulce", "Agua mineral 2L",
              "Jabón de trastes", "Limones 1kg"],
    "ja-JP": ["おにぎり 鮭", "緑茶 500ml", "食パン 6枚切", "牛乳 1000ml", "カップ麺", "バナナ",
              "ヨーグルト", "卵 10個入", "チョコレート", "ボールペン"],
}
CARDS = {"en-US": ["VISA", "Mastercard", "AMEX"], "en-GB": ["Visa Debit", "Mastercard"],
         "de-DE": ["Girocard", "VISA"], "fr-FR": ["CB", "Visa"],
         "es-MX": ["Tarjeta de débito", "Visa"], "ja-JP": ["VISA", "JCB"]}
NOTE = {"USD": Decimal(20), "GBP": Decimal(20), "EUR": Decimal(20), "MXN": Decimal(500),
        "JPY": Decimal(10000)}
RATES = {"en-US": ["6.25", "7", "8.25", "8.875"], "en-GB": ["20"], "de-DE": ["19", "7"],
         "fr-FR": ["20", "5.5"], "es-MX": ["16"], "ja-JP": ["10", "8"]}


def rate_text(rate: Decimal, locale: str) -> str:
    return L.fmt_percent(rate, locale, L.places_of(rate))


def plan(rng: random.Random, locale: str) -> dict:
    return {
        "locale": locale,
        "n_lines": rng.randint(2, 7),
        "date_style": rng.choices(["numeric", "long", "short", "noyear"], [5, 2, 2, 2])[0],
        "yen_style": rng.choice(["symbol", "yen"]),
        "card": C.chance(rng, 0.7),
        "subtotal_printed": C.chance(rng, 0.55),
        "tax_printed": C.chance(rng, 0.5),
        "count_printed": C.chance(rng, 0.3),
        # requested optional fields -> shown in the document?
        "receipt_number": (C.chance(rng, 0.8), C.chance(rng, 0.85)),
        "store_number": (C.chance(rng, 0.6), C.chance(rng, 0.7)),
        "cashier": (C.chance(rng, 0.5), C.chance(rng, 0.6)),
        "card_last4": C.chance(rng, 0.6),
        "item_count": C.chance(rng, 0.8),
        "tip": C.chance(rng, 0.4),
        "pay_field": C.chance(rng, 0.6),
        "loyalty_number": (C.chance(rng, 0.3), C.chance(rng, 0.3)),
        "vat_number": (C.chance(rng, 0.35), C.chance(rng, 0.4)),
        "store_phone": (C.chance(rng, 0.35), C.chance(rng, 0.7)),
    }


def _vat_id(rng: random.Random, locale: str) -> str:
    return {"en-US": f"{C.digits(rng, 2)}-{C.digits(rng, 7)}",
            "en-GB": f"GB{C.digits(rng, 3)} {C.digits(rng, 4)} {C.digits(rng, 2)}",
            "de-DE": f"DE{C.digits(rng, 9)}", "fr-FR": f"FR{C.digits(rng, 11)}",
            "es-MX": f"{C.letters(rng, 3)}{C.digits(rng, 6)}{C.letters(rng, 2)}{rng.randint(0, 9)}",
            "ja-JP": f"T{C.digits(rng, 13)}"}[locale]


def render(p: dict, rng: random.Random) -> dict:
    loc = p["locale"]
    cur = L.DEFAULT_CURRENCY[loc]
    lab = LABELS[loc]
    style = p["yen_style"] if cur == "JPY" else "symbol"

    def m(v):
        return L.fmt_money(v, loc, cur, style)

    merchant = C.company(rng, loc)
    day = C.day_in_2026(rng)
    time = f"{rng.randint(8, 21):02d}:{rng.randint(0, 59):02d}"
    receipt_no = rng.choice([f"R-{C.digits(rng, 4, 2)}-{C.digits(rng, 6, 2)}",
                             C.digits(rng, 8, 3), f"{C.digits(rng, 4)}-{C.digits(rng, 5, 1)}"])
    store_no = C.digits(rng, rng.choice([4, 5]), rng.choice([1, 2]))
    cashier = rng.choice(C.FIRST[L.lang(loc)])
    descs = rng.sample(PRODUCTS[loc], p["n_lines"])
    lines = [(d, C.amount(rng, 0.8, 24, cur)) for d in descs]
    subtotal = sum((a for _, a in lines), Decimal(0))
    rate = Decimal(rng.choice(RATES[loc]))
    tax = L.money(subtotal * rate / 100, cur)
    total = subtotal + tax
    card = rng.choice(CARDS[loc])
    last4 = C.digits(rng, 4, rng.choice([0, 0, 1, 2]))
    loyalty = C.digits(rng, 10, 2)
    vat_id = _vat_id(rng, loc)
    tel = C.phone(rng, loc)

    out = [merchant.upper() if loc != "ja-JP" else merchant, *C.address(rng, loc)]
    if p["store_phone"][1]:
        out.append(f"{lab['tel']} {tel}")
    if p["vat_number"][1]:
        out.append(f"{lab['vat']} {vat_id}")
    out.append("")
    head = []
    if p["store_number"][1]:
        head.append(f"{lab['store']} {store_no}")
    if p["receipt_number"][1]:
        head.append(f"{lab['receipt']} {receipt_no}")
    if head:
        out.append("   ".join(head))
    when = f"{lab['date']}: {L.fmt_date(day, loc, p['date_style'])} {time}"
    if p["cashier"][1]:
        when += f"   {lab['cashier']}: {cashier}"
    out.append(when)
    out.append("-" * 38)
    out += [C.pad(d, m(a)) for d, a in lines]
    out.append("-" * 38)
    if p["count_printed"]:
        out.append(f"{lab['items']}: {len(lines)}")
    if p["subtotal_printed"]:
        out.append(C.pad(lab["subtotal"], m(subtotal)))
    if p["tax_printed"]:
        out.append(C.pad(f"{lab['tax']} {rate_text(rate, loc)}", m(tax)))
    else:
        out.append(f"{lab['rate']} {rate_text(rate, loc)}")
    out.append(C.pad(lab["total"], m(total)))
    if cur == "MXN":
        out.append("Moneda: MXN")
    if p["card"]:
        pay = card
        out.append(C.pad(f"{lab['paid']}: {card}", m(total)))
        out.append(f"{lab['card']} **** **** **** {last4}")
    else:
        pay = lab["cash"]
        note = NOTE[cur]
        tendered = (total / note).to_integral_value(rounding=ROUND_CEILING) * note
        out.append(f"{lab['paid']}: {pay}")
        out.append(C.pad(lab["tendered"], m(tendered)))
        out.append(C.pad(lab["change"], m(tendered - total)))
    if p["loyalty_number"][1]:
        out.append(f"{lab['loyalty']}: {loyalty}")
    out += ["", lab["thanks"]]

    sub_kind = "printed" if p["subtotal_printed"] else "computed"
    fields = [
        C.field("merchant_name", "text", "printed", out[0]),
        C.date_field("purchase_date", "printed", day),
    ]
    if p["receipt_number"][0]:
        fields.append(C.field("receipt_number", "identifier",
                              "printed" if p["receipt_number"][1] else "missing", receipt_no))
    if p["store_number"][0]:
        fields.append(C.field("store_number", "identifier",
                              "printed" if p["store_number"][1] else "missing", store_no))
    if p["cashier"][0]:
        fields.append(C.field("cashier", "text", "printed" if p["cashier"][1] else "missing",
                              cashier))
    fields.append(C.list_field("line_items", "printed", lines, cur))
    if p["item_count"]:
        fields.append(C.field("item_count", "count",
                              "printed" if p["count_printed"] else "computed", len(lines)))
    fields += [
        C.money_field("subtotal", sub_kind, subtotal, cur),
        C.money_field("tax", "printed" if p["tax_printed"] else "computed", tax, cur),
        C.money_field("total", "printed", total, cur),
        C.field("currency", "currency", "printed", cur),
    ]
    if p["pay_field"]:
        fields.append(C.field("payment_method", "text", "printed", pay))
    if p["card_last4"]:
        fields.append(C.field("card_last4", "identifier", "printed" if p["card"] else "missing",
                              last4))
    if p["tip"]:
        fields.append(C.money_field("tip", "missing", None, cur))
    if p["loyalty_number"][0]:
        fields.append(C.field("loyalty_number", "identifier",
                              "printed" if p["loyalty_number"][1] else "missing", loyalty))
    if p["vat_number"][0]:
        fields.append(C.field("vat_number", "identifier",
                              "printed" if p["vat_number"][1] else "missing", vat_id))
    if p["store_phone"][0]:
        fields.append(C.field("store_phone", "identifier",
                              "printed" if p["store_phone"][1] else "missing", tel))
    return {"text": "\n".join(out) + "\n", "currency": cur, "fields": fields,
            "multi_step": int(not p["tax_printed"] and not p["subtotal_printed"])}
