"""Sparse documents: short flyers, memos and door notices that show few of the fields asked."""

from __future__ import annotations

import datetime as dt
import random

from . import doc_common as C
from . import locales as L

FLYER = {
    "en-US": ("{event}\n{date}, 10:00-14:00\n{place}\nEntry: {fee} - proceeds go to the library "
              "fund.\nQuestions? Call {contact} at {phone}.",
              ["SPRING BOOK SWAP", "NEIGHBORHOOD YARD SALE", "COMMUNITY CHILI COOK-OFF"]),
    "en-GB": ("{event}\n{date}, 10:00-14:00\n{place}\nEntry {fee} - all proceeds to the village "
              "hall.\nEnquiries: {contact}, tel. {phone}",
              ["SPRING BOOK SWAP", "CHURCH JUMBLE SALE", "VILLAGE QUIZ NIGHT"]),
    "de-DE": ("{event}\n{date}, 10:00-14:00 Uhr\n{place}\nEintritt: {fee} - der Erlös geht an den "
              "Förderverein.\nFragen? {contact}, Tel. {phone}",
              ["BÜCHERTAUSCH IM FRÜHLING", "HOFFLOHMARKT", "SOMMERFEST IM HOF"]),
    "fr-FR": ("{event}\n{date}, 10h00-14h00\n{place}\nEntrée : {fee} - au profit de la "
              "bibliothèque.\nRenseignements : {contact}, tél. {phone}",
              ["BOURSE AUX LIVRES", "VIDE-GRENIER DU QUARTIER", "FÊTE DES VOISINS"]),
    "es-MX": ("{event}\n{date}, 10:00-14:00\n{place}\nCooperación: {fee} - a beneficio de la "
              "biblioteca.\nInformes: {contact}, tel. {phone}",
              ["TRUEQUE DE LIBROS", "VENTA DE GARAJE", "KERMÉS DE PRIMAVERA"]),
    "ja-JP": ("{event}\n{date} 10:00-14:00\n会場: {place}\n参加費: {fee}(収益は図書館基金に寄付)\n"
              "お問い合わせ: {contact} {phone}",
              ["春の古本交換会", "フリーマーケット", "夏祭り"]),
}
MEMO = {
    "en-US": ("MEMO\nTo: All staff\nFrom: {sender}\nDate: {date}\nRe: {subject}\n\n"
              "Please plan accordingly and let your team lead know if this affects you.",
              ["Parking lot resurfacing", "Kitchen cleaning rota", "Fire drill"]),
    "en-GB": ("MEMO\nTo: All staff\nFrom: {sender}\nDate: {date}\nRe: {subject}\n\n"
              "Please plan accordingly and tell your line manager if this affects you.",
              ["Car park resurfacing", "Kitchen cleaning rota", "Fire drill"]),
    "de-DE": ("MITTEILUNG\nAn: alle Mitarbeitenden\nVon: {sender}\nDatum: {date}\nBetreff: "
              "{subject}\n\nBitte planen Sie entsprechend und melden Sie sich bei Fragen.",
              ["Sanierung des Parkplatzes", "Putzplan Küche", "Feueralarmübung"]),
    "fr-FR": ("NOTE DE SERVICE\nÀ : tout le personnel\nDe : {sender}\nDate : {date}\nObjet : "
              "{subject}\n\nMerci de vous organiser en conséquence.",
              ["Réfection du parking", "Planning de nettoyage de la cuisine", "Exercice incendie"]),
    "es-MX": ("MEMORÁNDUM\nPara: todo el personal\nDe: {sender}\nFecha: {date}\nAsunto: "
              "{subject}\n\nLes pedimos tomar sus previsiones.",
              ["Repavimentación del estacionamiento", "Rol de limpieza de cocina",
               "Simulacro de incendio"]),
    "ja-JP": ("社内連絡\n宛先: 全社員\n差出人: {sender}\n日付: {date}\n件名: {subject}\n\n"
              "ご協力をお願いいたします。",
              ["駐車場の舗装工事", "給湯室の清掃当番", "避難訓練"]),
}
NOTICE = {
    "en-US": "{shop}\nClosed for inventory. We reopen on {date} at 9:00.\nThank you for your patience.",
    "en-GB": "{shop}\nClosed for stocktaking. Reopening {date} at 9am.\nSorry for any inconvenience.",
    "de-DE": "{shop}\nWegen Inventur geschlossen. Ab {date} sind wir wieder für Sie da.\nDanke für Ihr Verständnis.",
    "fr-FR": "{shop}\nFermé pour inventaire. Réouverture le {date} à 9h.\nMerci de votre compréhension.",
    "es-MX": "{shop}\nCerrado por inventario. Reabrimos el {date} a las 9:00.\nGracias por su comprensión.",
    "ja-JP": "{shop}\n棚卸しのため休業いたします。{date}より通常営業いたします。\nご理解のほどお願い申し上げます。",
}
PLACES = {"en-US": "Oakhollow Public Library, Room B", "en-GB": "St Aldhelm's Church Hall",
          "de-DE": "Gemeindehaus Lindenstraße", "fr-FR": "Salle des fêtes, place du Marché",
          "es-MX": "Casa de la Cultura, Calle Nogal", "ja-JP": "若葉町公民館"}
# Fields a business-document schema asks for that these documents never show.
MISSING_POOL = [("invoice_number", "identifier"), ("due_date", "date"),
                ("vat_amount", "money"), ("customer_name", "text"), ("po_number", "identifier"),
                ("line_items", "list"), ("tax_id", "identifier"), ("iban", "identifier"),
                ("order_number", "identifier"), ("account_number", "identifier"),
                ("payment_terms", "text"), ("invoice_date", "date")]
# Only for documents without any amount. (No "currency" field: the item's document record
# carries a currency, so a harness that shows it would make the field derivable.)
NO_MONEY_POOL = [("total", "money"), ("subtotal", "money")]


def plan(rng: random.Random, locale: str) -> dict:
    template = rng.choice(["flyer", "memo", "notice"])
    pool = MISSING_POOL + (NO_MONEY_POOL if template != "flyer" else [])
    return {
        "locale": locale,
        "template": template,
        "date_style": rng.choice(["long", "noyear", "numeric"]),
        "missing": sorted(rng.sample(range(len(pool)), rng.randint(5, 8))),
        "contact": C.chance(rng, 0.6),
        "yen_style": rng.choice(["symbol", "yen"]),
    }


def render(p: dict, rng: random.Random) -> dict:
    loc = p["locale"]
    cur = L.DEFAULT_CURRENCY[loc]
    day = C.day_in_2026(rng, (3, 1), (10, 30))
    date_txt = L.fmt_date(day, loc, p["date_style"])
    fields = []
    if p["template"] == "flyer":
        tmpl, events = FLYER[loc]
        event = rng.choice(events)
        fee = L.money(C.amount(rng, 2, 8, cur).to_integral_value(), cur)  # a round fee
        fee_txt = L.fmt_money(fee, loc, cur, p["yen_style"] if cur == "JPY" else "symbol")
        if cur == "MXN":
            fee_txt += " MXN"
        contact, tel = C.person(rng, loc), C.phone(rng, loc)
        text = tmpl.format(event=event, date=date_txt, place=PLACES[loc], fee=fee_txt,
                           contact=contact, phone=tel)
        fields += [C.field("event_name", "text", "printed", event),
                   C.date_field("event_date", "printed", day),
                   C.money_field("admission_fee", "printed", fee, cur),
                   C.field("currency", "currency", "printed", cur)]
        if p["contact"]:
            fields.append(C.field("contact_phone", "identifier", "printed", tel))
    elif p["template"] == "memo":
        tmpl, subjects = MEMO[loc]
        sender, subject = C.person(rng, loc), rng.choice(subjects)
        text = tmpl.format(sender=sender, date=date_txt, subject=subject)
        fields += [C.date_field("document_date", "printed", day),
                   C.field("sender_name", "text", "printed", sender)]
        if p["contact"]:
            fields.append(C.field("subject", "text", "printed", subject))
    else:
        shop = C.company(rng, loc)
        text = NOTICE[loc].format(shop=shop, date=date_txt)
        fields += [C.field("business_name", "text", "printed", shop),
                   C.date_field("reopening_date", "printed", day)]
        if p["contact"]:
            closed = day - dt.timedelta(days=1)
            text += "\n" + {"en-US": "Last day open before the break: {d}.",
                            "en-GB": "Last day before closing: {d}.",
                            "de-DE": "Letzter Öffnungstag: {d}.",
                            "fr-FR": "Dernier jour d'ouverture : {d}.",
                            "es-MX": "Último día abierto: {d}.",
                            "ja-JP": "最終営業日: {d}"}[loc].format(
                d=L.fmt_date(closed, loc, p["date_style"]))
            fields.append(C.date_field("last_open_date", "printed", closed))
    pool = MISSING_POOL + (NO_MONEY_POOL if p["template"] != "flyer" else [])
    for i in p["missing"]:
        name, ftype = pool[i]
        extra = {"item_fields": dict(C.LINE_ITEM_FIELDS)} if ftype == "list" else {}
        fields.append(C.field(name, ftype, "missing", **extra))
    return {"text": text + "\n", "currency": cur, "fields": fields, "multi_step": 0}
