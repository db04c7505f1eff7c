"""Adversarial cases for differential testing of the two scorers, drawn from a `random.Random`.

The same generator drives the hypothesis test (which hands it a hypothesis-controlled Random) and
the million-case benchmark (a seeded Random). Each case is one item with one field and one stored
response record whose content holds the model's answer in some awkward form.
"""

from __future__ import annotations

import json
import random

LOCALES = ("en-US", "en-GB", "de-DE", "fr-FR", "es-MX", "ja-JP")
TYPES = ("money", "count", "number", "date", "text", "identifier", "currency", "list")
KINDS = ("printed", "computed", "missing")
SEPARATORS = (",", ".", " ", "\u00a0", "\u202f", "\u2009", "'", "", "\u066b", "\u3000")
SIGNS = ("", "", "-", "+", "\u2212", "--", "+-")
DIGIT_SETS = ("0123456789", "0123456789", "0123456789", "٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９", "०१२३४५६७८९")
MARKERS = ("", "", "$", "€", "£", "¥", "US$", "EUR", "usd", "円", "MX$", "€€")
ODD_TEXT = ("ß", "SS", "ẞ", "İ", "ı", "e\u0301", "é", "ﬁ", "Σ", "ς", "😀", "𝔘𝔫𝔦", "שלום", "مرحبا", "\u200d",
            "\u200b", "\ufeff", "\u00a0", "\u3000", "\u2028", "\t", "\n", "  ", "-", "0", "ǅ", "Å", "Å")
DATE_FORMS = ("{y}-{m}-{d}", " {y}-{m}-{d} ", "{y}-{d}-{m}", "{d}/{m}/{y}", "{m}/{d}/{y}", "{y}/{m}/{d}",
              "{y}-{mi}-{di}", "{y}-{m}-{d}T00:00:00", "+00{y}-{m}-{d}", "{y}{m}{d}", "{y}-{m}-{d}\u00a0",
              "{y}-02-30", "{y}-02-29", "{d}.{m}.{y}", "２０２６-０３-１４")


def _decimal_label(rnd: random.Random, places: int) -> str:
    whole = rnd.choice(("0", str(rnd.randint(1, 9)), str(rnd.randint(10, 9999)), str(rnd.randint(10**6, 10**9)),
                        "9" * rnd.randint(10, 40)))
    sign = "-" if rnd.random() < 0.1 else ""
    return sign + whole + ("." + "".join(rnd.choice("0123456789") for _ in range(places)) if places else "")


def _label(rnd: random.Random, ftype: str) -> dict:
    field = {"name": rnd.choice(("total", "amount", "date", "vendor", "ref", "items", "x-1", "a.b")), "type": ftype}
    if ftype == "money":
        field["answer"] = _decimal_label(rnd, rnd.choice((0, 2, 2, 2, 3)))
    elif ftype == "number":
        field["places"] = rnd.choice((0, 1, 2))
        field["answer"] = _decimal_label(rnd, field["places"])
    elif ftype == "count":
        field["answer"] = rnd.choice((0, 1, 3, 12, 1234, 10**12))
    elif ftype == "date":
        field["answer"] = f"{rnd.randint(1990, 2035)}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"
    elif ftype == "currency":
        field["answer"] = rnd.choice(("USD", "EUR", "GBP", "JPY", "MXN"))
    elif ftype == "list":
        field["item_fields"] = {"description": "text", "amount": "money"}
        field["answer"] = [{"description": _text(rnd), "amount": _decimal_label(rnd, 2)}
                           for _ in range(rnd.randint(0, 4))]
    else:
        field["answer"] = _text(rnd) if ftype == "text" else rnd.choice(("INV-00042", "0007", "A-1-B", "42", "x y"))
    if rnd.random() < 0.25:
        field["kind"], field["answer"] = "missing", None
    else:
        field["kind"] = rnd.choice(("printed", "computed"))
    return field


def _text(rnd: random.Random) -> str:
    parts = [rnd.choice(("Café", "ACME GmbH", "Straße", "naïve", "Zoë", "北京", "x")) for _ in range(rnd.randint(1, 3))]
    text = " ".join(parts)
    return text if text.strip() else "x"


def _number_string(rnd: random.Random, answer: str | None) -> str:
    digits_set = rnd.choice(DIGIT_SETS)
    base = (answer or _decimal_label(rnd, 2)).lstrip("-")
    whole, _, frac = base.partition(".")
    if rnd.random() < 0.5 and len(whole) > 3:  # group it
        sep = rnd.choice(SEPARATORS)
        first = len(whole) % 3 or 3
        whole = whole[:first] + "".join(sep + whole[i:i + 3] for i in range(first, len(whole), 3))
    text = whole + ((rnd.choice(SEPARATORS[:2] + ("\u066b",)) + frac) if frac or rnd.random() < 0.1 else "")
    text = "".join(digits_set[int(c)] if c.isdigit() and c in "0123456789" else c for c in text)
    text = rnd.choice(SIGNS) + text
    if rnd.random() < 0.1:
        text = f"({text})"
    if rnd.random() < 0.1:
        text += rnd.choice(("e3", "E-2", "%", " %", "e400"))
    marker = rnd.choice(MARKERS)
    if marker:
        text = marker + rnd.choice(("", " ", "\u00a0")) + text if rnd.random() < 0.5 else text + rnd.choice(("", " ")) + marker
    return text


def _json_number(rnd: random.Random, answer: str | None) -> str:
    value = answer or _decimal_label(rnd, rnd.choice((0, 2)))
    return rnd.choice((value, value + "0", value + "e0", value + "E+0", "-0", "0.0", "1e400", "1e-400",
                       value.split(".")[0], value + "1", "12345678901234567890123456789.5", "5e-1"))


def _value_text(rnd: random.Random, field: dict, locale: str) -> str:
    """JSON source text of the model's value."""
    answer, ftype = field["answer"], field["type"]
    roll = rnd.random()
    if roll < 0.08:
        return rnd.choice(("null", '""', '" "', '"\\u00a0"', "true", "false", "[]", "{}", '"null"', '"N/A"'))
    if ftype in ("money", "number", "count"):
        text = str(answer) if answer is not None else None
        if rnd.random() < 0.4:
            return _json_number(rnd, text)
        return json.dumps(_number_string(rnd, text), ensure_ascii=rnd.random() < 0.5)
    if ftype == "date":
        y, m, d = (answer or "2026-03-14").split("-")
        form = rnd.choice(DATE_FORMS)
        return json.dumps(form.format(y=y, m=m, d=d, mi=int(m), di=int(d)))
    if ftype == "list":
        elements = [dict(e) for e in (answer or [])]
        rnd.shuffle(elements)
        if elements and rnd.random() < 0.3:
            elements.append(dict(rnd.choice(elements)))
        if elements and rnd.random() < 0.2:
            elements.pop()
        for e in elements:
            if rnd.random() < 0.3:
                e["amount"] = _number_string(rnd, e["amount"])
            if rnd.random() < 0.2:
                e["description"] = _mangle(rnd, e["description"])
            if rnd.random() < 0.1:
                e["extra"] = 1
        return json.dumps(elements, ensure_ascii=False)
    if ftype == "identifier" and rnd.random() < 0.2:
        return rnd.choice(("42", "-42", "42.0", "4.2e1", "7", "0"))
    base = answer if isinstance(answer, str) else _text(rnd)
    return json.dumps(_mangle(rnd, base), ensure_ascii=rnd.random() < 0.5)


def _mangle(rnd: random.Random, text: str) -> str:
    ops = rnd.randint(0, 3)
    for _ in range(ops):
        op = rnd.randrange(5)
        if op == 0:
            text = text.upper() if rnd.random() < 0.5 else text.lower()
        elif op == 1:
            i = rnd.randint(0, len(text))
            text = text[:i] + rnd.choice(ODD_TEXT) + text[i:]
        elif op == 2:
            text = rnd.choice(("", " ", "\t", "\u3000")) + text + rnd.choice(("", " ", "\n"))
        elif op == 3:
            text = text.replace(" ", rnd.choice(("  ", "\u00a0", "\u2009 ", "")))
        else:
            import unicodedata
            text = unicodedata.normalize(rnd.choice(("NFC", "NFD", "NFKC", "NFKD")), text)
    return text


def _content(rnd: random.Random, name: str, value: str) -> str:
    obj = "{" + json.dumps(name) + ": " + value + "}"
    roll = rnd.random()
    if roll < 0.35:
        return obj
    if roll < 0.45:
        return f"```json\n{obj}\n```"
    if roll < 0.52:
        return f"Here is the answer: {obj} Hope that helps {{not json}}."
    if roll < 0.57:
        return "{" + json.dumps(name) + ": null, " + json.dumps(name) + ": " + value + "}"  # duplicate key
    if roll < 0.62:
        return obj[: rnd.randint(0, len(obj))]  # truncated
    if roll < 0.67:
        depth = rnd.choice((98, 99, 100, 101))
        return '{"w": ' * (depth - 1) + obj + "}" * (depth - 1)
    if roll < 0.72:
        return obj.replace('"', "'")
    if roll < 0.76:
        return obj[:-1] + ', "extra": NaN}' + " " + obj
    if roll < 0.80:
        return '{"a": 1,} ' + obj
    if roll < 0.84:
        return "{}" + obj
    if roll < 0.88:
        return "[" + obj + "]"
    if roll < 0.92:
        return obj[:-1] + ", /* note */ }"
    return obj.replace(": ", ":\u00a0") if rnd.random() < 0.5 else obj + "\u0000"


def make_case(rnd: random.Random, number: int) -> tuple[dict, dict]:
    """(item, record): a one-field item and a stored response for it."""
    locale = rnd.choice(LOCALES)
    field = _label(rnd, rnd.choice(TYPES))
    value = "<absent>" if rnd.random() < 0.05 else _value_text(rnd, field, locale)
    content = "{}" if value == "<absent>" else _content(rnd, field["name"], value)
    item = {"id": f"case-{number}", "dataset": "d", "half": "public", "strata": {},
            "document": {"locale": locale, "text": ""}, "fields": [field]}
    attempt = {"start": "2026-11-01T00:00:00Z", "status": 200, "error": None, "latency_ms": 1.0}
    if rnd.random() < 0.03:
        attempt = dict(attempt, status=rnd.choice((500, 429, None, 200.0, 201)), error=rnd.choice((None, "", "timeout")))
    record = {"item": item["id"], "repeat": 0, "request": {}, "attempts": [attempt],
              "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]},
              "usage": None, "latency_ms": 1.0}
    return item, record
