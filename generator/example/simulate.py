"""Simulated model calls for the example results.

A simulated call is deterministic given (seed, profile, item id, repeat): every random draw comes
from a `random.Random` seeded with a sha256 of those strings, never from global state or the
clock. Two streams are used: the *answer* stream (what the model writes) is shared by all repeats
of an item unless the profile's `inconsistency` draw gives a repeat its own; the *transport* stream
(HTTP errors, retries, latency) is drawn afresh for every repeat.

The model's answer is the item's checked answers with errors injected (see
`generator.example.profiles.ERROR_KINDS`), written in the answer format of
`generator.example.prompt` (money and numbers as exact JSON numbers, never binary floats).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import random
import re
from dataclasses import dataclass
from dataclasses import field as dc_field
from decimal import Decimal

from generator.example.profiles import ERROR_KINDS, Profile
from generator.example.prompt import JsonNumber, encode_value, is_decimal, json_number, to_json
from generator.harness.simulation import seeded_rng as rng_for

MAX_ATTEMPTS = 3
TIMEOUT_MS = 60000.0
BACKOFF_MS = (1000.0, 2000.0)
# Separators a confused model uses for each locale: (group, decimal).
_WRONG_SEPARATORS = {"de-DE": (",", "."), "fr-FR": (",", "."), "es-MX": (".", ",")}
_REFUSALS = (
    "I'm sorry, but I can't help with extracting information from this document.",
    "I cannot process this request because the document may contain personal information.",
    "Sorry, I am unable to complete this task.",
)
_PROSE = (
    ("Here is the extracted data:\n\n", "\n\nLet me know if you need anything else."),
    ("Sure! Based on the document, the fields are:\n",
     "\nFields not shown in the document are null."),
    ("I have read the document carefully. Result:\n", ""),
)
_FENCES = (("```json\n", "\n```"), ("```\n", "\n```"),
           ("Here is the JSON:\n\n```json\n", "\n```\n"))


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


@dataclass
class Attempt:
    status: int | None
    error: str | None
    latency_ms: float
    wait_after_ms: float = 0.0  # backoff before the next attempt


@dataclass
class SimCall:
    attempts: list[Attempt]
    content: str | None
    refusal: str | None = None
    finish_reason: str | None = "stop"
    ok: bool = True  # a response body arrived
    errors: list[tuple[str, str]] = dc_field(default_factory=list)  # (kind, field name or "")
    answer: dict | None = None  # the answer object before formatting (for tests)


# ---------------------------------------------------------------- field-level errors


def _eligible(field: dict, locale: str) -> list[str]:
    value, kind, ftype = field["answer"], field["kind"], field["type"]
    if kind == "missing" or value is None:
        return ["invent_missing"]
    out = ["false_null"]
    text = str(value) if ftype != "list" else ""
    if kind == "printed" and ftype in ("money", "count", "number", "identifier") \
            and any(c.isdigit() for c in text):
        out.append("misread_digit")
    if kind == "printed" and ftype == "money" and locale in _WRONG_SEPARATORS \
            and is_decimal(text) and Decimal(text) != 0 \
            and ("." in text or abs(Decimal(text)) >= 1000):
        out += ["locale_string", "locale_factor"]
    if kind == "printed" and ftype == "date" and _swappable(text):
        out.append("day_month_swap")
    if kind == "computed" and ftype in ("money", "number", "count", "date"):
        out.append("computed_slip")
    if ftype == "list" and isinstance(value, list) and value:
        out += ["list_drop", "list_duplicate"]
        if len({json.dumps(v, sort_keys=True) for v in value}) > 1:
            out.append("list_reorder")
    return [k for k in ERROR_KINDS if k in out]


def _swappable(text: str) -> bool:
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    return m is not None and int(m[3]) <= 12 and m[2] != m[3]


def _misread(text: str, rng: random.Random, identifier: bool) -> str:
    zeros = [m.start() for m in re.finditer(r"(?<![0-9])0(?=[0-9])", text)]
    if identifier and zeros and rng.random() < 0.5:
        i = rng.choice(zeros)
        return text[:i] + text[i + 1:]
    positions = [i for i, c in enumerate(text) if c.isdigit()]
    i = rng.choice(positions)
    leading = not identifier and (i == 0 or text[i - 1] == "-") \
        and i + 1 < len(text) and text[i + 1].isdigit()
    choices = [d for d in "0123456789" if d != text[i] and not (leading and d == "0")]
    return text[:i] + rng.choice(choices) + text[i + 1:]


def _group(text: str, group: str, decimal: str) -> str:
    sign, body = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, _, frac = body.partition(".")
    grouped = "{:,}".format(int(whole)).replace(",", group)
    return sign + grouped + (decimal + frac if frac else "")


def _factor(text: str, rng: random.Random) -> JsonNumber:
    value = Decimal(text)
    places = len(text.partition(".")[2])
    if abs(value) >= 1000 and (places == 0 or rng.random() < 0.5):
        return json_number(format(value / 1000, "f"))  # "1.234,56" read as 1.234...
    return json_number(format(value.scaleb(places), "f"))  # "12,50" read as 1250


def _slip(field: dict, rng: random.Random):
    value, ftype = field["answer"], field["type"]
    sign = rng.choice((-1, 1))
    if ftype == "count":
        return value + 1 if value == 0 or sign > 0 else value - 1
    if ftype == "date":
        days = rng.choice((1, 2, 3, 7, 14, 30)) * sign
        return (dt.date.fromisoformat(value) + dt.timedelta(days=days)).isoformat()
    places = int(field.get("places", len(value.partition(".")[2]))) \
        if ftype == "number" else len(value.partition(".")[2])
    unit = Decimal(1).scaleb(-places)
    steps = rng.choice((1, 2, 3)) if ftype == "number" else rng.choice((1, 2, 5, 10, 100))
    new = Decimal(value) + sign * steps * unit
    if new < 0 <= Decimal(value):
        new = Decimal(value) + steps * unit
    return json_number(format(new.quantize(unit) if places else new, "f"))


def _invent(field: dict, item: dict, rng: random.Random):
    ftype, name, doc = field["type"], field["name"], item["document"]
    year = int(doc.get("reference_date", "2026-10-20")[:4])
    no_minor = doc.get("currency") == "JPY"
    if ftype == "money" or ftype == "number":
        cents = rng.randint(500, 50000)
        return json_number(str(cents) if no_minor and ftype == "money" else f"{cents / 100:.2f}")
    if ftype == "count":
        return rng.randint(1, 12)
    if ftype == "date":
        return dt.date(year, rng.randint(1, 12), rng.randint(1, 28)).isoformat()
    if ftype == "identifier":
        prefix = "".join(p[0] for p in name.split("_") if p).upper()[:3] or "ID"
        return f"{prefix}-{rng.randint(0, 99999):05d}"
    if ftype == "currency":
        return doc.get("currency") or "USD"
    if ftype == "list":
        return [{"description": "Service fee", "amount": json_number("9.90")}]
    hints = {"email": "billing@example.com", "phone": "+1 555 0100", "name": "Alex Morgan",
             "address": "12 High Street", "city": "Springfield"}
    for hint, text in hints.items():
        if hint in name:
            return text
    return rng.choice(("N/A on file", "Standard", "See attached", "Main office"))


def _apply(kind: str, field: dict, item: dict, rng: random.Random):
    value = encode_value(field, field["answer"])
    locale = item["document"].get("locale", "")
    if kind == "false_null":
        return None
    if kind == "invent_missing":
        return _invent(field, item, rng)
    if kind == "misread_digit":
        if field["type"] == "count":
            return int(_misread(str(value), rng, False))
        new = _misread(str(value), rng, field["type"] == "identifier")
        return new if field["type"] == "identifier" else json_number(new)
    if kind == "locale_string":
        return _group(str(value), *_WRONG_SEPARATORS[locale])
    if kind == "locale_factor":
        return _factor(str(value), rng)
    if kind == "day_month_swap":
        return f"{value[:4]}-{value[8:10]}-{value[5:7]}"
    if kind == "computed_slip":
        return _slip(field, rng)
    items = list(value)
    if kind == "list_drop":
        del items[rng.randrange(len(items))]
    elif kind == "list_duplicate":
        i = rng.randrange(len(items))
        items.insert(i + 1, dict(items[i]))
    elif kind == "list_reorder":
        original = list(items)
        rng.shuffle(items)
        if items == original:
            items = items[1:] + items[:1]
    return items


def simulate_answer(profile: Profile, item: dict, rng: random.Random):
    """The answer object and the field errors applied to it."""
    rates, locale = profile.rates(), item["document"].get("locale", "")
    answer, errors = {}, []
    for f in item["fields"]:
        u, chosen = rng.random(), None
        for kind in _eligible(f, locale):
            u -= rates[kind]
            if u < 0:
                chosen = kind
                break
        if chosen:
            errors.append((chosen, f["name"]))
            answer[f["name"]] = _apply(chosen, f, item, rng)
        else:
            answer[f["name"]] = encode_value(f, f["answer"])
    return answer, errors


# ---------------------------------------------------------------- call-level behaviour


def _pick(rng: random.Random, rates: dict[str, float], kinds: tuple[str, ...]) -> str | None:
    u = rng.random()
    for kind in kinds:
        u -= rates[kind]
        if u < 0:
            return kind
    return None


def find_json_object(text: str) -> tuple[int, object] | None:
    """(position, value) of the first complete JSON object at a `{` (scoring rule 1.1)."""
    decoder = json.JSONDecoder(parse_constant=_reject)
    for m in re.finditer(r"\{", text):
        try:
            return m.start(), decoder.raw_decode(text, m.start())[0]
        except ValueError:
            continue
    return None


def _reject(name: str):
    raise ValueError(name)


def _truncate(text: str, rng: random.Random) -> str:
    cut = rng.randint(max(1, len(text) // 4), max(1, len(text) - 2))
    while (found := find_json_object(text[:cut])) is not None:
        cut = found[0] + 1  # a nested object closed before the cut: cut inside it instead
    return text[:cut]


def _latency(rng: random.Random, median_ms: float, sigma: float) -> float:
    return round(rng.lognormvariate(math.log(median_ms), sigma), 1)


def simulate_call(profile: Profile, item: dict, repeat: int, seed: int = 0) -> SimCall:
    rates, key = profile.rates(), (seed, profile.run_id, item["id"])
    errors: list[tuple[str, str]] = []
    answer_repeat = 0
    if repeat and rng_for(*key, repeat, "consistency").random() < profile.inconsistency:
        answer_repeat = repeat
        errors.append(("inconsistency", ""))
    arng = rng_for(*key, answer_repeat, "answer")
    answer, field_errors = simulate_answer(profile, item, arng)
    errors += field_errors
    text = to_json(answer, profile.indent)
    style = _pick(arng, rates, ("refusal", "truncated", "prose_wrap", "code_fence"))
    content: str | None = text
    refusal: str | None = None
    finish = "stop"
    if style == "refusal":
        sentence = arng.choice(_REFUSALS)
        content, refusal = (None, sentence) if arng.random() < 0.5 else (sentence, None)
    elif style == "truncated":
        content, finish = _truncate(text, arng), "length"
    elif style == "prose_wrap":
        before, after = arng.choice(_PROSE)
        content = before + text + after
    elif style == "code_fence":
        before, after = arng.choice(_FENCES)
        content = before + text + after
    if style:
        errors.append((style, ""))

    trng = rng_for(*key, repeat, "transport")
    failure = _pick(trng, rates, ("failed_call", "timeout"))
    if failure == "failed_call":
        attempts = [Attempt(trng.choice((500, 503)), None, _latency(trng, 250, 0.5))
                    for _ in range(MAX_ATTEMPTS)]
    elif failure == "timeout":
        attempts = [Attempt(None, "timeout", TIMEOUT_MS) for _ in range(MAX_ATTEMPTS)]
    else:
        attempts = []
        retry = _pick(trng, rates, ("retry_429", "retry_503"))
        if retry:
            errors.append((retry, ""))
            status, median = (429, 60) if retry == "retry_429" else (503, 300)
            attempts.append(Attempt(status, None, _latency(trng, median, 0.4)))
        # exactly one of content and refusal is set (a refusal leaves content None)
        out_tokens = estimate_tokens(content if content is not None else refusal or "")
        latency = _latency(trng, profile.latency_median_ms, profile.latency_sigma)
        attempts.append(Attempt(200, None, round(latency + out_tokens
                                                 * profile.ms_per_output_token, 1)))
    for i, attempt in enumerate(attempts[:-1]):
        attempt.wait_after_ms = BACKOFF_MS[min(i, len(BACKOFF_MS) - 1)]
    if failure:
        errors.append((failure, ""))
        return SimCall(attempts, None, None, None, ok=False, errors=errors, answer=answer)
    return SimCall(attempts, content, refusal, finish, ok=True, errors=errors, answer=answer)
