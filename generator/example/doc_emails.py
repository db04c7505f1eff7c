"""Emails: headers and prose that mention order numbers, amounts and dates."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from . import doc_common as C
from . import locales as L

HEAD = {"en-US": ("From", "To", "Date", "Subject"), "en-GB": ("From", "To", "Date", "Subject"),
        "de-DE": ("Von", "An", "Datum", "Betreff"), "fr-FR": ("De", "À", "Date", "Objet"),
        "es-MX": ("De", "Para", "Fecha", "Asunto"), "ja-JP": ("差出人", "宛先", "日時", "件名")}
ORDER = {
    "en-US": dict(subject="Your order {no} has shipped", hi="Hi {first},",
                  intro="Thanks for your order {no} placed on {date}. Good news: it is on its way.",
                  items="In this shipment:", ship="Shipping", total="Order total: {total}",
                  count="Items shipped: {n}", eta="Estimated delivery: {eta}",
                  track="Tracking number: {track}", bye="Thanks for shopping with {shop}!"),
    "en-GB": dict(subject="Your order {no} has been dispatched", hi="Dear {first},",
                  intro="Thank you for your order {no} of {date}. It has left our warehouse.",
                  items="Items in this parcel:", ship="Delivery", total="Order total: {total}",
                  count="Number of items: {n}", eta="Expected delivery: {eta}",
                  track="Tracking reference: {track}", bye="Kind regards,\nThe {shop} team"),
    "de-DE": dict(subject="Ihre Bestellung {no} wurde versandt", hi="Hallo {first},",
                  intro="vielen Dank für Ihre Bestellung {no} vom {date}. Sie ist unterwegs.",
                  items="Im Paket:", ship="Versand", total="Gesamtbetrag: {total}",
                  count="Anzahl Artikel: {n}", eta="Voraussichtliche Zustellung: {eta}",
                  track="Sendungsnummer: {track}", bye="Viele Grüße\nIhr {shop}-Team"),
    "fr-FR": dict(subject="Votre commande {no} a été expédiée", hi="Bonjour {first},",
                  intro="Merci pour votre commande {no} du {date}. Elle est en route.",
                  items="Dans ce colis :", ship="Livraison", total="Montant total : {total}",
                  count="Nombre d'articles : {n}", eta="Livraison prévue : {eta}",
                  track="Numéro de suivi : {track}", bye="À bientôt,\nL'équipe {shop}"),
    "es-MX": dict(subject="Tu pedido {no} va en camino", hi="Hola {first}:",
                  intro="Gracias por tu pedido {no} del {date}. Ya salió de nuestro almacén.",
                  items="En este envío:", ship="Envío", total="Total del pedido: {total}",
                  count="Artículos enviados: {n}", eta="Entrega estimada: {eta}",
                  track="Número de rastreo: {track}", bye="Saludos,\nEl equipo de {shop}"),
    "ja-JP": dict(subject="ご注文 {no} を発送しました", hi="{last} 様",
                  intro="{date}にご注文いただいた {no} の商品を発送いたしました。",
                  items="発送商品:", ship="送料", total="ご注文合計: {total}",
                  count="発送点数: {n}", eta="お届け予定日: {eta}",
                  track="お問い合わせ番号: {track}", bye="{shop}"),
}
REFUND = {
    "en-US": dict(subject="Refund for order {no}", hi="Hi {first},",
                  intro="We received your return for order {no} on {date}.",
                  items="Returned items:", amount="Refund amount: {total}",
                  card="The refund goes back to your card ending in {last4}.",
                  bye="Thanks,\n{shop} Customer Care"),
    "en-GB": dict(subject="Refund for order {no}", hi="Dear {first},",
                  intro="Your return for order {no} arrived with us on {date}.",
                  items="Returned items:", amount="Amount refunded: {total}",
                  card="We have credited the card ending {last4}.",
                  bye="Best wishes,\n{shop} Customer Services"),
    "de-DE": dict(subject="Erstattung zu Bestellung {no}", hi="Hallo {first},",
                  intro="Ihre Rücksendung zu Bestellung {no} ist am {date} bei uns eingegangen.",
                  items="Zurückgesandte Artikel:", amount="Erstattungsbetrag: {total}",
                  card="Die Gutschrift erfolgt auf Ihre Karte mit der Endung {last4}.",
                  bye="Freundliche Grüße\nIhr {shop}-Kundenservice"),
    "fr-FR": dict(subject="Remboursement de la commande {no}", hi="Bonjour {first},",
                  intro="Nous avons reçu votre retour pour la commande {no} le {date}.",
                  items="Articles retournés :", amount="Montant remboursé : {total}",
                  card="Le remboursement sera crédité sur la carte se terminant par {last4}.",
                  bye="Cordialement,\nService client {shop}"),
    "es-MX": dict(subject="Reembolso del pedido {no}", hi="Hola {first}:",
                  intro="Recibimos tu devolución del pedido {no} el {date}.",
                  items="Artículos devueltos:", amount="Monto reembolsado: {total}",
                  card="El reembolso se abonará a tu tarjeta con terminación {last4}.",
                  bye="Saludos,\nAtención a clientes {shop}"),
    "ja-JP": dict(subject="ご注文 {no} の返金について", hi="{last} 様",
                  intro="ご注文 {no} の返品を{date}に受け付けました。",
                  items="返品商品:", amount="返金額: {total}",
                  card="末尾 {last4} のカードに返金いたします。", bye="{shop} カスタマーサポート"),
}
GOODS = {
    "en-US": ["Trail running socks", "Ceramic mug set", "USB-C cable 2m", "Desk lamp",
              "Notebook A5", "Water bottle", "Phone case", "Wool beanie"],
    "en-GB": ["Walking socks", "Teapot 1L", "USB-C cable 2m", "Reading lamp", "Notebook A5",
              "Flask 500ml", "Phone case", "Wool scarf"],
    "de-DE": ["Laufsocken", "Tassen-Set", "USB-C-Kabel 2 m", "Schreibtischlampe",
              "Notizbuch A5", "Trinkflasche", "Handyhülle", "Wollmütze"],
    "fr-FR": ["Chaussettes de running", "Lot de tasses", "Câble USB-C 2 m", "Lampe de bureau",
              "Carnet A5", "Gourde", "Coque de téléphone", "Bonnet en laine"],
    "es-MX": ["Calcetines deportivos", "Juego de tazas", "Cable USB-C 2 m", "Lámpara de escritorio",
              "Libreta A5", "Termo", "Funda para celular", "Gorro de lana"],
    "ja-JP": ["ランニングソックス", "マグカップセット", "USB-Cケーブル 2m", "デスクライト",
              "ノート A5", "水筒", "スマホケース", "ニット帽"],
}


def plan(rng: random.Random, locale: str) -> dict:
    return {
        "locale": locale,
        "template": rng.choice(["order", "refund"]),
        "n_lines": rng.randint(1, 4),
        "date_style": rng.choice(["long", "numeric", "noyear"]),
        "eta_style": rng.choice(["noyear", "noyear", "long"]),
        "total_printed": C.chance(rng, 0.6),
        "count_printed": C.chance(rng, 0.4),
        "track": (C.chance(rng, 0.7), C.chance(rng, 0.7)),
        "missing": [C.chance(rng, 0.55) for _ in range(2)],
        "merch": C.chance(rng, 0.5),
        "opt": [C.chance(rng, 0.6) for _ in range(2)],
        "yen_style": rng.choice(["symbol", "yen"]),
    }


def render(p: dict, rng: random.Random) -> dict:
    loc = p["locale"]
    cur = L.DEFAULT_CURRENCY[loc]
    lg = L.lang(loc)
    style = p["yen_style"] if cur == "JPY" else "symbol"
    mon = lambda v: L.fmt_money(v, loc, cur, style) + (" MXN" if cur == "MXN" else "")  # noqa

    shop = C.company(rng, loc).split(" ")[0] if loc != "ja-JP" else C.company(rng, loc)
    domain = (shop.lower().replace("&", "") if loc != "ja-JP" else "shop" + C.digits(rng, 3))
    sender = f"{'orders' if p['template'] == 'order' else 'support'}@{domain}.example"
    first, last = rng.choice(C.FIRST[lg]), rng.choice(C.LAST[lg])
    to_addr = f"{C.LAST['en'][rng.randrange(12)].lower()}{C.digits(rng, 2)}@mail.example"
    sent = C.day_in_2026(rng, (2, 1), (10, 12))
    order_day = sent - dt.timedelta(days=rng.randint(1, 9))
    order_no = rng.choice([f"{C.digits(rng, 3, 1)}-{C.digits(rng, 7, 2)}",
                           f"A{C.digits(rng, 8, 3)}", f"{C.letters(rng, 2)}-{C.digits(rng, 6, 2)}"])
    goods = [(g, C.amount(rng, 6, 90, cur)) for g in rng.sample(GOODS[loc], p["n_lines"])]
    wd = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][sent.weekday()]
    mo = L.MONTHS_SHORT["en"][sent.month - 1]
    tz = {"en-US": "-0500", "en-GB": "+0100", "de-DE": "+0200", "fr-FR": "+0200",
          "es-MX": "-0600", "ja-JP": "+0900"}[loc]
    date_hdr = f"{wd}, {sent.day} {mo} {sent.year} {rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} {tz}"
    h = HEAD[loc]
    fill = dict(no=order_no, first=first, last=last, shop=shop,
                date=L.fmt_date(order_day, loc, p["date_style"]))
    t = (ORDER if p["template"] == "order" else REFUND)[loc]
    subject = t["subject"].format(**fill)
    out = [f"{h[0]}: {shop} <{sender}>", f"{h[1]}: {first} {last} <{to_addr}>" if lg != "ja"
           else f"{h[1]}: {last} {first} <{to_addr}>", f"{h[2]}: {date_hdr}",
           f"{h[3]}: {subject}", "", t["hi"].format(**fill), "", t["intro"].format(**fill), "",
           t["items"]]
    out += [f"  - {g}: {mon(a)}" for g, a in goods]
    total = sum((a for _, a in goods), Decimal(0))
    fields = [
        C.field("sender_email", "text", "printed", sender),
        C.date_field("sent_date", "printed", sent),
        C.field("order_number", "identifier", "printed", order_no),
        C.date_field("order_date" if p["template"] == "order" else "return_received_date",
                     "printed", order_day),
    ]
    kind = lambda b: "printed" if b else "computed"  # noqa: E731
    tracking = f"1Z{C.letters(rng, 3)}{C.digits(rng, 12, 2)}"
    if p["template"] == "order":
        ship = C.amount(rng, 0, 12, cur)
        total += ship
        out += ["", f"{t['ship']}: {mon(ship)}"]
        if p["total_printed"]:
            out.append(t["total"].format(total=mon(total)))
        if p["count_printed"]:
            out.append(t["count"].format(n=len(goods)))
        eta = sent + dt.timedelta(days=rng.randint(2, 6))
        out += ["", t["eta"].format(eta=L.fmt_date(eta, loc, p["eta_style"]))]
        if p["track"][1]:
            out.append(t["track"].format(track=tracking))
        fields += [
            C.money_field("order_total", kind(p["total_printed"]), total, cur),
            C.field("item_count", "count", kind(p["count_printed"]), len(goods)),
            C.date_field("delivery_date", "printed", eta),
        ]
        if p["opt"][1]:
            fields.append(C.money_field("shipping_cost", "printed", ship, cur))
        if p["merch"]:
            fields.append(C.money_field("merchandise_subtotal", "computed", total - ship, cur))
        if p["track"][0]:
            fields.append(C.field("tracking_number", "identifier",
                                  "printed" if p["track"][1] else "missing", tracking))
        if p["missing"][0]:
            fields.append(C.field("coupon_code", "identifier", "missing"))
        if p["missing"][1]:
            fields.append(C.field("gift_message", "text", "missing"))
    else:
        last4 = C.digits(rng, 4, rng.choice([0, 1]))
        if p["total_printed"]:
            out += ["", t["amount"].format(total=mon(total))]
        out += ["", t["card"].format(last4=last4)]
        fields += [
            C.money_field("refund_amount", kind(p["total_printed"]), total, cur),
            C.field("returned_item_count", "count", "computed", len(goods)),
            C.field("card_last4", "identifier", "printed", last4),
        ]
        if p["track"][0]:
            fields.append(C.field("return_label_number", "identifier", "missing"))
        if p["missing"][0]:
            fields.append(C.money_field("restocking_fee", "missing", None, cur))
        if p["missing"][1]:
            fields.append(C.date_field("refund_posted_date", "missing", None))
    if p["opt"][0]:
        fields.insert(1, C.field("subject", "text", "printed", subject))
    fields.append(C.list_field("line_items", "printed", goods, cur))
    fields.append(C.field("currency", "currency", "printed", cur))
    out += ["", t["bye"].format(**fill)]
    return {"text": "\n".join(out) + "\n", "currency": cur, "fields": fields, "multi_step": 0}
