"""The example corpus of RA-Bench: generated receipts as printed text plus the file facts a real engine
reads (metadata tags, PDF modification records, thumbnail, capture date, image hash), with labels.

320 base cases (192 genuine, 32 of them hard negatives; 128 fakes in four classes) and 64 duplicate
transforms of earlier cases, in two halves built alike on one blueprint of 160 plans (`plan`): each
plan gives one public and one private case with the same design, so both halves have the same class
mix (`generator.suites.rabench.balance` reports it). The printed text is what a text reader
returns, not the clean print: photos and scans carry OCR-like noise (look-alike characters, a decimal
comma, a dropped space or a split word; a digital PDF's text layer is clean), and a re-shot duplicate
is read again with its own noise. The label is the printed truth. Hard negatives (every tenth plan
from the third) are genuine receipts of the same store, template and day as an earlier genuine
receipt of their half, most with the same basket: the same items and amounts (only the receipt
number differs), one price changed, or one item more or fewer.
Every draw comes from a Random seeded by sha256 of (seed, plan or case): byte-identical output.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

SEED = 20261101
N_BASE, N_TRANSFORMS = 320, 64
CENT = Decimal("0.01")
MERCHANTS = {
    "grocery": ["Greenfield Market", "Épicerie Lumière", "Corner Fresh & Co", "Harvest Foods"],
    "restaurant": ["Café Rosé", "The Copper Pot", "Sakura Noodle Bar", "Luigi's Trattoria"],
    "fuel": ["Northway Fuel", "Petro Stop 24", "Ridgeline Gas"],
    "retail": ["Paper & Pen Supply", "Brightline Electronics", "Atlas Hardware"],
    "travel": ["Metro Taxi Co", "Harbour Hotel", "SkyPark Parking"],
}
GOODS = {
    "grocery": ["Milk 2L", "Bread loaf", "Eggs (12)", "Apples 1kg", "Coffee beans", "Olive oil", "Rice 5kg"],
    "restaurant": ["Flat white", "Club sandwich", "Ramen bowl", "Tiramisu", "Sparkling water", "Pasta al pesto"],
    "fuel": ["Unleaded 95", "Diesel", "Car wash", "Snack bar", "Windscreen fluid"],
    "retail": ["Notebook A5", "USB-C cable", "Printer paper", "Screwdriver set", "Batteries AA"],
    "travel": ["Taxi fare", "Room night", "Parking 4h", "City tax", "Breakfast"],
}
CURRENCY = {"USD": ("$", Decimal("0.08")), "EUR": ("€", Decimal("0.20")), "GBP": ("£", Decimal("0.20"))}
CLASSES = ("ai_full", "inpainted", "hand_edited", "template")
AI_TOOLS = ("Midjourney 7", "DALL-E 3", "Stable Diffusion XL")
GENERATORS = ("ReceiptMaker Online", "InvoiceHome Generator")
EDITORS = ("Adobe Photoshop 25.1", "GIMP 2.10")
TRANSFORMS = ("re_encoded", "cropped", "re_shot")
OCR_RATE = {"pdf": 0.0, "scan": 0.006, "photo": 0.012}  # per character, by how the text was read
LOOK_ALIKE = {"0": "O", "1": "l", "3": "8", "5": "S", "7": "1", "8": "B", "6": "b", "O": "0", "o": "0", "l": "1",
              "I": "1", "S": "5", "B": "8", "e": "c", "m": "rn", "rn": "m", "cl": "d", ".": ",", " ": ""}


def rng_for(seed: int, *parts: object) -> random.Random:
    text = "|".join(str(p) for p in (seed, *parts))
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def money(x: Decimal) -> str:
    return f"{x.quantize(CENT, rounding=ROUND_HALF_UP):.2f}"


def receipt_text(f: dict, lines: list[dict], symbol: str) -> str:
    out = [f["merchant"], f["address"]]
    if f["receipt_number"] is not None:
        out.append(f"Receipt #: {f['receipt_number']}")
    out += [f"Date: {f['date']}", "-" * 40]
    out += [f"{x['description']:<28}{symbol}{x['total']:>10}" for x in lines]
    out += ["-" * 40, f"{'Subtotal':<28}{symbol}{f['subtotal']:>10}"]
    if f["tax_total"] is not None:
        out.append(f"{'Tax':<28}{symbol}{f['tax_total']:>10}")
    out += [f"{'TOTAL':<28}{symbol}{f['total']:>10}", f"Currency: {f['currency']}", "Thank you!"]
    return "\n".join(out)


def ocr_read(rng: random.Random, text: str, rate: float) -> str:
    """The text as an OCR engine would return it: each character (or pair in LOOK_ALIKE) is misread with
    probability `rate` as its look-alike; a space may vanish (words run together) or appear in a word."""
    out, k = [], 0
    while k < len(text):
        pair = text[k:k + 2]
        if pair in LOOK_ALIKE and rng.random() < rate:
            out.append(LOOK_ALIKE[pair])
            k += 2
            continue
        ch = text[k]
        if ch != "\n" and rng.random() < rate:
            out.append(LOOK_ALIKE.get(ch, ch + " " if ch.isalpha() else ch))
        else:
            out.append(ch)
        k += 1
    return "".join(out)


def plan(seed: int, p: int) -> dict:
    """Plan p of the blueprint: what both halves' cases of the pair share (class, hard negative, source,
    provenance, edited field, merchant type, basket size, which fields are printed, the arithmetic)."""
    rng = rng_for(seed, "plan", p)
    fake_class = CLASSES[p % 10 - 6] if p % 10 >= 6 else None  # 6 of every 10 plans are genuine
    out: dict = {"p": p, "fake_class": fake_class, "hard_negative": p % 10 == 3,
                 "mtype": rng.choice(tuple(MERCHANTS)), "n_lines": rng.randint(1, 4),
                 "has_tax": rng.random() < 0.9, "has_number": rng.random() < 0.85}
    out["source"] = "pdf" if fake_class == "hand_edited" and rng.random() < 0.7 else \
        rng.choice(("photo", "photo", "scan", "pdf"))
    shares = ("intact", "intact", "stripped", "none") if fake_class else ("intact", "intact", "intact", "stripped", "none")
    out["provenance"] = rng.choice(shares)
    edited = None
    if fake_class in ("inpainted", "hand_edited"):
        edited = rng.choice(("total", "total", "subtotal", "tax_total", "date", "merchant", "line_items"))
        if edited == "tax_total" and not out["has_tax"]:
            edited = "total"
    out["edited"] = edited
    out["consistent"] = rng.random() < (0.3 if fake_class == "hand_edited" else 0.5)
    out["generator_wrong"] = fake_class in ("ai_full", "template") and rng.random() < 0.3  # generators err
    out["misprint"] = fake_class is None and rng.random() < 0.04  # a genuine misprint: the total a cent off
    out["thumbnail"] = fake_class == "inpainted" and rng.random() < 0.6
    out["basket"] = rng.choices(("same", "price", "fewer_or_more"), (4, 3, 3))[0]  # a hard negative's basket
    # a photo's page file (rabench_pages): stored sideways with an EXIF orientation, or at a phone camera's size
    out["orientation"] = rng.choice((6, 6, 8, 3)) if rng.random() < 0.3 else 1
    out["full_size"] = rng.random() < 0.08
    return out


def _same_store(rng: random.Random, plan_: dict, partner: dict, address: str) -> tuple[dict, list[dict]]:
    """A different receipt of the partner's store, template and day: usually the same basket."""
    pf = partner["label"]["fields"]
    lines = [dict(x) for x in partner["label"]["line_items"]]
    if plan_["basket"] == "price":
        k = rng.randrange(len(lines))
        lines[k]["total"] = money(Decimal(lines[k]["total"]) + Decimal(rng.choice((-50, -20, 10, 30, 100))) / 100)
        if Decimal(lines[k]["total"]) <= 0:
            lines[k]["total"] = "0.99"
    elif plan_["basket"] == "fewer_or_more" and len(lines) > 1 and rng.random() < 0.5:
        lines.pop(rng.randrange(len(lines)))
    elif plan_["basket"] == "fewer_or_more":
        lines.append({"description": rng.choice([g for g in GOODS[partner["strata"]["merchant_type"]]
                                                 if g not in {x["description"] for x in lines}] or ["Bag"]),
                      "total": money(Decimal(rng.randint(99, 999)) / 100)})
    subtotal = sum((Decimal(x["total"]) for x in lines), Decimal("0"))
    tax = None if pf["tax_total"] is None else (subtotal * CURRENCY[pf["currency"]][1]).quantize(CENT, ROUND_HALF_UP)
    number = pf["receipt_number"]
    if number is not None:
        prefix, value = number.split("-")
        number = f"{prefix}-{int(value) + rng.randint(1, 60)}"
    fields = {"merchant": pf["merchant"], "address": address, "receipt_number": number, "date": pf["date"],
              "subtotal": money(subtotal), "tax_total": None if tax is None else money(tax),
              "total": money(subtotal + (tax or 0)), "currency": pf["currency"]}
    return fields, lines


def _printed(rng: random.Random, plan_: dict, day: dt.date) -> tuple[dict, list[dict]]:
    mtype = plan_["mtype"]
    merchant = rng.choice(MERCHANTS[mtype])
    currency = rng.choice(tuple(CURRENCY))
    lines = [{"description": d, "total": money(Decimal(rng.randint(99, 4999)) / 100)}
             for d in rng.sample(GOODS[mtype], plan_["n_lines"])]
    subtotal = sum((Decimal(x["total"]) for x in lines), Decimal("0"))
    tax = (subtotal * CURRENCY[currency][1]).quantize(CENT, rounding=ROUND_HALF_UP) if plan_["has_tax"] else None
    fields = {"merchant": merchant, "address": f"{rng.randint(1, 999)} {rng.choice(['High St', 'Main Rd', 'Quay Ave'])}",
              "receipt_number": f"{rng.choice('ABCRT')}-{rng.randint(1000, 99999)}" if plan_["has_number"] else None,
              "date": day.isoformat(), "subtotal": money(subtotal), "tax_total": None if tax is None else money(tax),
              "total": money(subtotal + (tax or 0)), "currency": currency}
    return fields, lines


def _tamper(rng: random.Random, f: dict, lines: list[dict], field: str, consistent: bool) -> None:
    """Change the printed `field` as a fraudster would; fix the arithmetic only when `consistent`."""
    if field == "merchant":
        f["merchant"] = rng.choice([m for ms in MERCHANTS.values() for m in ms if m != f["merchant"]])
    elif field == "date":
        f["date"] = (dt.date.fromisoformat(f["date"]) + dt.timedelta(days=rng.randint(20, 90))).isoformat()
    elif field == "line_items":
        k = rng.randrange(len(lines))
        lines[k]["total"] = money(Decimal(lines[k]["total"]) * rng.choice((2, 3, 5)))
        if consistent:
            sub = sum((Decimal(x["total"]) for x in lines), Decimal("0"))
            f["subtotal"] = money(sub)
            f["total"] = money(sub + Decimal(f["tax_total"] or "0"))
    else:  # an amount: total, subtotal or tax_total
        bump = Decimal(rng.randint(500, 9000)) / 100
        f[field] = money(Decimal(f[field] or "0") + bump)
        if consistent and field != "total":
            f["total"] = money(Decimal(f["subtotal"]) + Decimal(f["tax_total"] or "0"))
        elif consistent:
            f["subtotal"] = money(Decimal(f["subtotal"]) + bump)
            lines[-1]["total"] = money(Decimal(lines[-1]["total"]) + bump)


def adds_up(f: dict, lines: list[dict]) -> bool:
    sub = sum((Decimal(x["total"]) for x in lines), Decimal("0"))
    return sub == Decimal(f["subtotal"]) and Decimal(f["subtotal"]) + Decimal(f["tax_total"] or "0") == Decimal(f["total"])


def _hash(rng: random.Random) -> str:
    return f"{rng.getrandbits(64):016x}"


def base_case(k: int, seed: int = SEED, partner: dict | None = None, partner_address: str = "") -> dict:
    return _base_case(k, seed, plan(seed, (k + 1) // 2), partner, partner_address)[0]


def _base_case(k: int, seed: int, plan_: dict, partner: dict | None, partner_address: str) -> tuple[dict, str, str]:
    """Case k (of plan (k + 1) // 2: odd k public, even k private) and its printed address (the text shows
    it through the OCR noise). The plan decides the design; this case's own Random fills it in."""
    rng = rng_for(seed, "case", k)
    fake_class, source, provenance, edited = plan_["fake_class"], plan_["source"], plan_["provenance"], plan_["edited"]
    mtype = plan_["mtype"]
    day = dt.date(2026, 1, 1) + dt.timedelta(days=rng.randint(0, 270))
    if partner is not None:  # a hard negative: same merchant, template and day, a different receipt
        mtype, day = partner["strata"]["merchant_type"], dt.date.fromisoformat(partner["label"]["fields"]["date"])
    f, lines = _same_store(rng, plan_, partner, partner_address) if partner else _printed(rng, plan_, day)
    original = {"total": f["total"], "date": f["date"], "merchant": f["merchant"]}
    if edited is not None:
        _tamper(rng, f, lines, edited, consistent=plan_["consistent"])
    elif plan_["generator_wrong"]:
        f["total"] = money(Decimal(f["total"]) + Decimal(rng.randint(1, 300)) / 100)
    elif plan_["misprint"]:
        f["total"] = money(Decimal(f["total"]) + CENT)
    file: dict[str, object] = {"format": "pdf" if source == "pdf" else "jpeg", "image_hash": _hash(rng), "software": None,
            "source_type": None, "pdf_modified": False, "thumbnail": None, "camera": None, "capture_date": None}
    if provenance == "intact":
        if source == "photo" and fake_class in (None, "inpainted"):
            file["camera"] = rng.choice(("Pixel 8", "iPhone 15", "Galaxy S24"))
            shot = dt.date.fromisoformat(original["date"]) + dt.timedelta(days=rng.randint(0, 3))
            file["capture_date"] = shot.isoformat()
        if source == "scan" and fake_class is None:
            file["software"] = rng.choice(("ScanSnap Home 2.2", "Microsoft Word 16"))
        if fake_class == "ai_full":
            file["software"], file["source_type"] = rng.choice(AI_TOOLS), "trainedAlgorithmicMedia"
        elif fake_class == "template":
            file["software"] = rng.choice(GENERATORS)
        elif fake_class == "inpainted":
            file["software"] = rng.choice(EDITORS)
            if plan_["thumbnail"]:
                file["thumbnail"] = original
        elif fake_class == "hand_edited" and source == "pdf":
            file["pdf_modified"] = True
    label = {"fields": {k: f[k] for k in ("merchant", "date", "subtotal", "tax_total", "total", "currency",
                                          "receipt_number")},
             "line_items": [dict(x) for x in lines], "adds_up": adds_up(f, lines), "fake": fake_class is not None,
             "fake_class": fake_class, "edited_field": edited, "provenance": provenance, "lineage": None,
             "hard_negative": partner is not None}
    printed = receipt_text(f, lines, CURRENCY[f["currency"]][0])
    strata = {"source": source, "merchant_type": mtype, "provenance": provenance, "class": fake_class or "genuine"}
    return {"id": f"rab-{k:04d}", "dataset": "receipts", "half": "public" if k % 2 else "private", "strata": strata,
            "document": {"text": ocr_read(rng_for(seed, "ocr", k), printed, OCR_RATE[source]),
                         "file": file}, "label": label}, f["address"], printed


def transform_case(k: int, original: dict, seed: int = SEED, kind: str | None = None) -> dict:
    rng = rng_for(seed, "transform", k)
    kind = kind or TRANSFORMS[k % 3]
    text = original["document"]["text"]
    file = dict(original["document"]["file"])
    if kind == "cropped":
        text = "\n".join(text.split("\n")[1:])  # the header line is cut off
        file["image_hash"] = _hash(rng)
    elif kind == "re_shot":
        text = ocr_read(rng, text.replace("0", "O", 1).replace("Subtotal", "Subtota1"), OCR_RATE["photo"])
        file.update(image_hash=_hash(rng), software=None, source_type=None, thumbnail=None, pdf_modified=False,
                    format="jpeg", camera="Pixel 8", capture_date=None)
    label = {**original["label"], "fake": False, "fake_class": None, "edited_field": None, "hard_negative": False,
             "lineage": {"original": original["id"], "transform": kind}}
    return {"id": f"rab-t{k:03d}", "dataset": "receipts", "half": original["half"],
            "strata": {"transform": kind}, "document": {"text": text, "file": file}, "label": label}


def generate(seed: int = SEED, n_base: int = N_BASE, n_transforms: int = N_TRANSFORMS,
             printed: dict[str, tuple[str, dict]] | None = None) -> list[dict]:
    """The example's cases (other sizes only for benches: the example is N_BASE and N_TRANSFORMS).

    Both halves are built alike on one blueprint: plan p (`plan`) gives case 2p - 1 (public) and case
    2p (private), so the two halves have the same class mix, hard negatives, sources, provenance,
    edited fields, basket sizes and arithmetic faults, each filled with its own names and amounts. A
    hard negative's partner is the latest earlier plain genuine case of its own half. Duplicate
    transforms come in pairs too: n_transforms / 2 plans are drawn, and both of their cases get a
    transform of the same kind (kinds in turn), numbered in the originals' id order. With `printed`,
    each base case's printed text (the clean print its page shows) and plan are recorded there by id."""
    cases: list[dict] = []
    address: dict[str, str] = {}
    plans = [plan(seed, p) for p in range(1, (n_base + 1) // 2 + 1)]
    for k in range(1, n_base + 1):  # an odd n_base (benches only) leaves the last plan's private case out
        plan_ = plans[(k + 1) // 2 - 1]
        partner = None
        if plan_["hard_negative"]:  # a hard negative of an earlier genuine case of the same half
            partner = next(c for c in reversed(cases) if c["half"] == ("public" if k % 2 else "private")
                           and not c["label"]["fake"] and not c["label"]["hard_negative"])
        case, address[f"rab-{k:04d}"], text = _base_case(k, seed, plan_, partner,
                                                         address[partner["id"]] if partner else "")
        cases.append(case)
        if printed is not None:
            printed[case["id"]] = (text, plan_)
    chosen = sorted(rng_for(seed, "transforms").sample(range(1, len(plans) + 1), (n_transforms + 1) // 2))
    kind = {p: TRANSFORMS[j % 3] for j, p in enumerate(chosen)}
    originals = [c for c in cases if (int(c["id"][4:]) + 1) // 2 in kind][:n_transforms]
    return cases + [transform_case(j + 1, o, seed, kind[(int(o["id"][4:]) + 1) // 2]) for j, o in enumerate(originals)]


def write_items(items_dir: Path, seed: int = SEED) -> list[Path]:
    """The items files and every case's page image (items/pages/, `rabench_pages`)."""
    from .rabench_pages import add_pages

    items_dir.mkdir(parents=True, exist_ok=True)
    printed: dict[str, tuple[str, dict]] = {}
    cases = generate(seed, printed=printed)
    written = add_pages(items_dir, cases, printed, seed)
    for half in ("public", "private"):
        path = items_dir / f"receipts.{half}.jsonl"
        path.write_text("".join(json.dumps(c, sort_keys=True, ensure_ascii=False) + "\n"
                                for c in cases if c["half"] == half), encoding="utf-8")
        written.append(path)
    return written
