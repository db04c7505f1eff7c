"""Simulated model calls: determinism, error kinds at their rates, exact JSON numbers."""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from decimal import Decimal

import pytest

from generator.example.profiles import ERROR_KINDS, PROFILES, Profile
from generator.example.prompt import (
    PROMPT_TEMPLATE_VERSION,
    build_messages,
    json_number,
    prompt_sha256,
    to_json,
)
from generator.example.simulate import find_json_object, simulate_call

LOCALES = [("en-US", "USD"), ("de-DE", "EUR"), ("fr-FR", "EUR"), ("es-MX", "MXN"),
           ("en-GB", "GBP"), ("ja-JP", "JPY")]


def make_item(n: int) -> dict:
    """A small synthetic item with every field type and kind."""
    locale, currency = LOCALES[n % len(LOCALES)]
    jpy = currency == "JPY"
    total = f"{1000 + 37 * n}" if jpy else f"{(1000 + 137 * n) // 100}.{(37 * n) % 100:02d}"
    big = f"{12000 + n}" if jpy else f"{1234 + n}.{n % 100:02d}"
    day = 1 + n % 28
    fields = [
        {"name": "total", "type": "money", "kind": "printed", "answer": total},
        {"name": "subtotal", "type": "money", "kind": "printed", "answer": big},
        {"name": "tax", "type": "money", "kind": "computed", "answer": "0.30" if not jpy else "30"},
        {"name": "invoice_date", "type": "date", "kind": "printed",
         "answer": f"2026-{1 + n % 12:02d}-{day:02d}"},
        {"name": "due_date", "type": "date", "kind": "computed", "answer": "2026-11-19"},
        {"name": "invoice_number", "type": "identifier", "kind": "printed",
         "answer": f"INV-{n:05d}"},
        {"name": "item_count", "type": "count", "kind": "printed", "answer": 3 + n % 4},
        {"name": "growth", "type": "number", "kind": "computed", "answer": "12.5", "places": 1},
        {"name": "vendor", "type": "text", "kind": "printed", "answer": "Bluefern Supply Co."},
        {"name": "currency", "type": "currency", "kind": "printed", "answer": currency},
        {"name": "tax_id", "type": "identifier", "kind": "missing", "answer": None},
        {"name": "tip", "type": "money", "kind": "missing", "answer": None},
        {"name": "line_items", "type": "list", "kind": "printed",
         "item_fields": {"description": "text", "amount": "money"},
         "answer": [{"description": "Coffee", "amount": "3.50" if not jpy else "350"},
                    {"description": "Bagel", "amount": "0.10" if not jpy else "10"},
                    {"description": "Tea", "amount": "0.20" if not jpy else "20"}]},
    ]
    return {"id": f"receipts-pub-{n:04d}", "dataset": "receipts", "half": "public",
            "strata": {"locale": locale, "difficulty": "easy", "field_band": "9-12"},
            "document": {"text": f"Receipt {n}\nTotal {total} {currency}\nDesk-lamp x1",
                         "locale": locale, "currency": currency,
                         "reference_date": "2026-10-20"},
            "fields": fields}


def make_items(count: int) -> list[dict]:
    return [make_item(n) for n in range(count)]


# A profile with every rate set high enough to measure on a few hundred items.
TEST_PROFILE = Profile(
    run_id="test-model-test", model="test-model", provider="test", summary="test profile.",
    started="2026-11-01T00:00:00Z", prices=("1.00", "2.00"),
    false_null=0.10, misread_digit=0.10, locale_string=0.15, locale_factor=0.10,
    day_month_swap=0.25, computed_slip=0.20, list_drop=0.10, list_duplicate=0.10,
    list_reorder=0.10, invent_missing=0.30, failed_call=0.05, timeout=0.05, refusal=0.05,
    truncated=0.10, prose_wrap=0.10, code_fence=0.10, retry_429=0.10, retry_503=0.05,
    inconsistency=0.3,
)
ITEMS = make_items(600)


@pytest.fixture(scope="module")
def calls():
    return [(item, simulate_call(TEST_PROFILE, item, 0, seed=7)) for item in ITEMS]


def test_prompt_messages_and_hash():
    item = make_item(1)
    messages = build_messages(item, "2026-10-20")
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "2026-10-20" in messages[0]["content"] and "null" in messages[0]["content"]
    assert "YYYY-MM-DD" in messages[0]["content"]
    assert "- total: money" in messages[1]["content"]
    assert "- line_items: list of {description: text, amount: money}" in messages[1]["content"]
    assert item["document"]["text"] in messages[1]["content"]
    assert re.fullmatch(r"[0-9a-f]{64}", prompt_sha256()) and PROMPT_TEMPLATE_VERSION
    assert prompt_sha256() == prompt_sha256()


def test_to_json_keeps_decimals_exact():
    obj = {"a": json_number("1234.50"), "b": json_number("0.30"), "c": [json_number("+7")],
           "d": "Straße", "e": None, "f": 3}
    text = to_json(obj)
    assert text == '{"a": 1234.50, "b": 0.30, "c": [7], "d": "Straße", "e": null, "f": 3}'
    pretty = to_json(obj, indent=2)
    assert json.loads(pretty, parse_float=Decimal) == json.loads(text, parse_float=Decimal)


def test_deterministic():
    item = ITEMS[5]
    for repeat in (0, 1, 2):
        a = simulate_call(TEST_PROFILE, item, repeat, seed=3)
        b = simulate_call(TEST_PROFILE, item, repeat, seed=3)
        assert a == b
    other = [simulate_call(TEST_PROFILE, it, 0, seed=4) for it in ITEMS[:50]]
    same = [simulate_call(TEST_PROFILE, it, 0, seed=3) for it in ITEMS[:50]]
    assert other != same  # the seed matters


def _eligible_counts():
    """How many fields each field-level kind could hit in ITEMS (the kind's denominator)."""
    from generator.example.simulate import _eligible
    counts = Counter()
    for item in ITEMS:
        for f in item["fields"]:
            counts.update(_eligible(f, item["document"]["locale"]))
    return counts


def test_every_kind_occurs_at_roughly_its_rate(calls):
    seen = Counter(kind for _, call in calls for kind, _ in call.errors)
    eligible = _eligible_counts()
    rates = TEST_PROFILE.rates()
    for kind, (level, _, _) in ERROR_KINDS.items():
        if kind == "inconsistency":
            continue
        if level == "call":
            n = len(calls)
            # content styles and retries only happen to calls that did not fail outright
            if kind in ("retry_429", "retry_503"):
                n = sum(1 for _, c in calls if c.ok)
        else:
            n = eligible[kind]
        expected = rates[kind] * n
        assert n > 50, kind
        assert abs(seen[kind] - expected) < 4 * expected ** 0.5 + 3, (kind, seen[kind], expected)


def test_inconsistency_rate():
    repeats = [simulate_call(TEST_PROFILE, item, 1, seed=7) for item in ITEMS]
    n = sum(("inconsistency", "") in c.errors for c in repeats)
    assert abs(n - 0.3 * len(ITEMS)) < 4 * (0.3 * 0.7 * len(ITEMS)) ** 0.5
    steady = dataclasses.replace(TEST_PROFILE, inconsistency=0.0)
    for item in ITEMS[:40]:
        first = simulate_call(steady, item, 0, seed=7)
        assert simulate_call(steady, item, 2, seed=7).answer == first.answer


SEPARATORS = {"de-DE": (r"\.", ","), "fr-FR": ("[\u202f\u00a0 ]", ","), "es-MX": (",", r"\.")}


def _read_in_locale(text: str, locale: str):
    """A string read as a number of `locale` by the scoring rule's grammar, or None."""
    group, decimal = SEPARATORS[locale]
    pattern = rf"[-+]?(?:[0-9]+|[0-9]{{1,3}}(?:{group}[0-9]{{3}})+)(?:{decimal}[0-9]+)?"
    if not re.fullmatch(pattern, text):
        return None
    return Decimal(re.sub(group, "", text).replace(decimal.strip("\\"), "."))


def _fields(item):
    return {f["name"]: f for f in item["fields"]}


def test_errors_change_the_answer_as_documented(calls):
    for item, call in calls:
        fields = _fields(item)
        for kind, name in call.errors:
            if not name:
                continue
            value = call.answer[name]
            answer = fields[name]["answer"]
            if kind == "false_null":
                assert value is None
            elif kind == "invent_missing":
                assert answer is None and value not in (None, "", [])
            elif kind == "locale_string":
                assert isinstance(value, str)
                assert _read_in_locale(value, item["document"]["locale"]) != Decimal(answer)
            elif kind in ("misread_digit", "locale_factor", "computed_slip"):
                assert str(value) != str(answer)
                if fields[name]["type"] in ("money", "number"):
                    assert Decimal(value) != Decimal(answer)
            elif kind == "day_month_swap":
                assert value[5:7] == answer[8:10] and value[8:10] == answer[5:7]
            elif kind == "list_drop":
                assert len(value) == len(answer) - 1
            elif kind == "list_duplicate":
                assert len(value) == len(answer) + 1
            elif kind == "list_reorder":
                expected = [{"description": a["description"], "amount": json_number(a["amount"])}
                            for a in answer]
                assert value != expected and sorted(map(to_json, value)) == \
                    sorted(map(to_json, expected))


def test_content_states(calls):
    for item, call in calls:
        kinds = {kind for kind, _ in call.errors}
        if kinds & {"failed_call", "timeout"}:
            assert not call.ok and call.content is None
            assert len(call.attempts) == 3
            if "timeout" in kinds:
                assert all(a.status is None and a.error == "timeout" for a in call.attempts)
            else:
                assert all(a.status in (500, 503) and a.error is None for a in call.attempts)
            continue
        assert call.ok and call.attempts[-1].status == 200
        if "truncated" in kinds:
            assert call.finish_reason == "length"
            assert find_json_object(call.content) is None
        elif "refusal" in kinds:
            assert call.content is None or "{" not in call.content
        else:
            found = find_json_object(call.content)
            assert found is not None
            assert set(found[1]) == set(_fields(item))
        if kinds & {"retry_429", "retry_503"}:
            assert len(call.attempts) == 2
            assert call.attempts[0].status == (429 if "retry_429" in kinds else 503)


def test_money_json_is_exact(calls):
    float_artefact = re.compile(r"\d\.\d*0000000\d|\d\.\d*9999999\d")
    for item, call in calls:
        if not call.ok or {k for k, _ in call.errors} & {"truncated", "refusal"}:
            continue
        assert not float_artefact.search(call.content)
        start, _ = find_json_object(call.content)
        parsed, _ = json.JSONDecoder(parse_float=Decimal).raw_decode(call.content, start)
        errors = {name for _, name in call.errors}
        for f in item["fields"]:
            if f["name"] in errors or f["answer"] is None:
                continue
            if f["type"] == "money":
                value = parsed[f["name"]]
                assert isinstance(value, (Decimal, int)) and str(value) == f["answer"]
            if f["type"] == "list":
                assert [str(el["amount"]) for el in parsed[f["name"]]] == \
                    [el["amount"] for el in f["answer"]]


def test_profiles_are_valid():
    ids = [p.run_id for p in PROFILES]
    assert len(ids) == len(set(ids)) and len(PROFILES) >= 7 - 2
    for profile in PROFILES:
        assert re.fullmatch(r"[a-z0-9][a-z0-9._-]{0,99}", profile.run_id)
        assert profile.description.startswith("Simulated model")
        assert (profile.prices is None) == (profile.hosting == "self-hosted")
        # the kinds that can hit one field, and the kinds of one call, must not exceed 1
        rates = profile.rates()
        assert sum(rates[k] for k in ("false_null", "misread_digit", "locale_string",
                                      "locale_factor", "day_month_swap")) < 1
        assert sum(rates[k] for k in ("refusal", "truncated", "prose_wrap", "code_fence")) < 1
    models = Counter(p.model for p in PROFILES)
    assert any(count >= 2 for count in models.values())  # one model on two providers
