"""Properties of the generated example corpus of the extracting suite and its balance report."""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
from collections import Counter
from decimal import Decimal

import pytest

from generator.example import locales as L
from generator.example.balance import THRESHOLD, balance_report, write_balance
from generator.example.corpus import (
    DATASETS,
    FIELD_TYPES,
    ID_RE,
    KINDS,
    all_items,
    dumps_jsonl,
    generate_corpus,
    shows,
    write_corpus,
    yearless_dates,
)


@pytest.fixture(scope="module")
def corpus():
    return generate_corpus()


@pytest.fixture(scope="module")
def every_item(corpus):
    return all_items(corpus)


@pytest.fixture(scope="module")
def items(every_item):
    """The generated items (the real ones have their own tests: tests/test_real_documents.py)."""
    return [i for i in every_item if i["strata"]["source"] == "generated"]


def _fields(items, kind=None, ftype=None):
    for it in items:
        for f in it["fields"]:
            if (kind is None or f["kind"] == kind) and (ftype is None or f["type"] == ftype):
                yield it, f


def test_deterministic_bytes(tmp_path, corpus):
    again = generate_corpus()
    assert {k: dumps_jsonl(v) for k, v in corpus.items()} == \
        {k: dumps_jsonl(v) for k, v in again.items()}
    a = write_corpus(tmp_path / "a")
    b = write_corpus(tmp_path / "b")
    assert [p.name for p in a] == [p.name for p in b]
    for pa, pb in zip(a, b):
        data = pa.read_bytes()
        assert data == pb.read_bytes()
        assert data.endswith(b"\n") and b"\r" not in data
        first = json.loads(data.split(b"\n")[0])
        assert list(first) == sorted(first)


def test_other_seed_differs(corpus):
    other = generate_corpus(seed=7, real=False)
    assert dumps_jsonl(other["receipts.public"]) != dumps_jsonl(corpus["receipts.public"])


REAL = {"receipts": ("sroie", 28), "tables": ("nws", 11), "govforms": ("nws", 13)}  # per half


def test_counts_and_ids(corpus, every_item):
    assert sorted(corpus) == sorted(f"{d}.{h}" for d in DATASETS for h in ("public", "private"))
    for stem, its in corpus.items():
        dataset, half = stem.split(".")
        tag = "pub" if half == "public" else "prv"
        collection, n_real = REAL.get(dataset, ("", 0))
        assert len(its) == 60 + n_real
        assert [i["id"] for i in its] == [f"{dataset}-{tag}-{k:04d}" for k in range(1, 61)] + \
            [f"{dataset}-{tag}-{collection}-{k:04d}" for k in range(1, n_real + 1)]
        assert all(i["dataset"] == dataset and i["half"] == half for i in its)
        assert [i["strata"]["source"] for i in its] == ["generated"] * 60 + ["real"] * n_real
    assert len(every_item) == 720 + 2 * sum(n for _, n in REAL.values()) == 824
    assert len({i["id"] for i in every_item}) == 824


def test_items_valid_per_format(items):
    money_re = re.compile(r"^-?\d+(\.\d+)?$")
    for it in items:
        assert ID_RE.match(it["id"]) and ".." not in it["id"]
        doc = it["document"]
        assert set(doc) == {"text", "locale", "currency", "reference_date"}
        assert doc["reference_date"] == "2026-10-20" and doc["locale"] in L.LOCALES
        assert set(it["strata"]) == {"locale", "difficulty", "field_band", "doc_length", "source", "collection"}
        assert it["strata"]["source"] == it["strata"]["collection"] == "generated"
        assert it["strata"]["locale"] == doc["locale"]
        assert it["strata"]["difficulty"] in ("easy", "medium", "hard")
        names = [f["name"] for f in it["fields"]]
        assert len(names) == len(set(names))
        for f in it["fields"]:
            assert ID_RE.match(f["name"]) and ".." not in f["name"]
            assert f["type"] in FIELD_TYPES and f["kind"] in KINDS
            a = f["answer"]
            assert (a is None) == (f["kind"] == "missing"), (it["id"], f)
            if f["type"] == "list":
                assert f["item_fields"] == {"description": "text", "amount": "money"}
            if a is None:
                continue
            t = f["type"]
            if t == "money":
                places = L.minor(doc["currency"])
                assert money_re.match(a) and len(a.partition(".")[2]) == places, (it["id"], f)
            elif t == "count":
                assert type(a) is int and a >= 0
            elif t == "number":
                assert money_re.match(a) and len(a.partition(".")[2]) == f["places"]
            elif t == "date":
                assert dt.date.fromisoformat(a).isoformat() == a
            elif t == "currency":
                assert a == doc["currency"]
            elif t == "list":
                assert a and all(set(e) == {"description", "amount"} for e in a)
            else:
                assert isinstance(a, str) and a.strip() == a and a


def test_strata_bands(items):
    bands = {"1-4": range(1, 5), "5-8": range(5, 9), "9-12": range(9, 13)}
    for it in items:
        n = len(it["fields"])
        band = it["strata"]["field_band"]
        assert n in bands[band] if band in bands else n >= 13
    assert set(Counter(i["strata"]["difficulty"] for i in items)) == {"easy", "medium", "hard"}


def test_field_kind_shares(items):
    kinds = Counter(f["kind"] for _, f in _fields(items))
    n = sum(kinds.values())
    assert 0.55 <= kinds["printed"] / n <= 0.75
    assert 0.14 <= kinds["missing"] / n <= 0.26
    assert 0.08 <= kinds["computed"] / n
    sparse = Counter(f["kind"] for _, f in _fields([i for i in items if i["dataset"] == "sparse"]))
    assert 0.6 <= sparse["missing"] / sum(sparse.values()) <= 0.8
    assert {f["type"] for _, f in _fields(items)} == set(FIELD_TYPES)


def test_locales(items):
    assert {i["document"]["locale"] for i in items} == set(L.LOCALES)
    assert {i["document"]["locale"] for i in items if i["dataset"] == "govforms"} == {"en-US"}
    for ds in DATASETS:
        if ds != "govforms":
            assert {i["document"]["locale"] for i in items if i["dataset"] == ds} == set(L.LOCALES)


def test_jpy_has_no_minor_unit(items):
    jpy = [(it, f) for it, f in _fields(items, ftype="money")
           if it["document"]["currency"] == "JPY" and f["answer"] is not None]
    assert len(jpy) > 50
    assert all(re.fullmatch(r"-?\d+", f["answer"]) for _, f in jpy)
    for it in items:
        if it["document"]["currency"] == "JPY":
            assert not re.search(r"¥\d[\d,]*\.\d|\d\.\d\d円", it["document"]["text"])


def test_fr_amounts_use_narrow_nbsp(items):
    big = [(it, f) for it, f in _fields(items, kind="printed", ftype="money")
           if it["document"]["locale"] == "fr-FR" and Decimal(f["answer"]) >= 1000]
    assert len(big) > 20
    for it, f in big:
        rendered = L.fmt_number(Decimal(f["answer"]), "fr-FR", 2)
        assert "\u202f" in rendered
        assert rendered in it["document"]["text"] or \
            L.fmt_number(Decimal(f["answer"]), "fr-FR", 0) in it["document"]["text"]
    for it in items:
        if it["document"]["locale"] in ("de-DE", "fr-FR"):
            assert not re.search(r"\d,\d{3}\.\d\d", it["document"]["text"])


def test_yearless_dates_resolve_to_reference_year(items):
    hits = [(it, name) for it in items for name in yearless_dates(it)]
    assert len(hits) >= 40
    assert {it["dataset"] for it, _ in hits} >= {"receipts", "invoices", "emails", "govforms"}
    for it, name in hits:
        f = next(f for f in it["fields"] if f["name"] == name)
        assert f["answer"].startswith("2026-")
        noyear = L.fmt_date(dt.date.fromisoformat(f["answer"]), it["document"]["locale"], "noyear")
        line = next(ln for ln in it["document"]["text"].split("\n") if shows(ln, noyear))
        assert not re.search(re.escape(noyear) + r"\D{0,4}\d{4}", line)


def test_identifiers_with_leading_zeros(items):
    ids = [f["answer"] for _, f in _fields(items, kind="printed", ftype="identifier")]
    assert sum(bool(re.match(r"0\d", a)) for a in ids) >= 100
    assert sum(bool(re.search(r"-0\d", a)) for a in ids) >= 100


def _rendered_in(text: str, f: dict, doc: dict) -> bool:
    loc, cur, a = doc["locale"], doc["currency"], f["answer"]
    t = f["type"]
    if t == "money":
        v = Decimal(a)
        forms = {L.fmt_amount(v, loc, cur)}
        if v == v.to_integral_value():
            forms.add(L.fmt_number(v, loc, 0))
        return any(re.search(r"(?<![\d.,\u202f])" + re.escape(s) + r"(?![\d])", text)
                   for s in forms)
    if t in ("text", "identifier"):
        return a in text
    if t == "currency":
        return any(m in text for m in L.currency_markers(a)) and (a != "USD" or loc == "en-US")
    if t == "count":
        return shows(text, str(a)) or shows(text, L.fmt_number(Decimal(a), loc, 0))
    if t == "number":
        return L.fmt_percent(Decimal(a).normalize(), loc, max(
            0, -Decimal(a).normalize().as_tuple().exponent)).split("\u00a0")[0] in text
    if t == "date":
        day = dt.date.fromisoformat(a)
        header = f"{day.day} {L.MONTHS_SHORT['en'][day.month - 1]} {day.year}"
        return any(r in text for r in L.all_date_renderings(day, loc)) or header in text
    if t == "list":
        return all(e["description"] in text and _rendered_in(
            text, {"type": "money", "answer": e["amount"]}, doc) for e in a)
    raise AssertionError(t)


def test_printed_answers_appear_in_document(items):
    for it, f in _fields(items, kind="printed"):
        assert _rendered_in(it["document"]["text"], f, it["document"]), (it["id"], f)


def test_computed_answers_follow_from_document(items):
    for it in items:
        fs = {f["name"]: f for f in it["fields"]}
        if it["dataset"] in ("receipts", "invoices"):
            lines = sum(Decimal(e["amount"]) for e in fs["line_items"]["answer"])
            assert Decimal(fs["subtotal"]["answer"]) == lines
            tax = fs.get("tax") or fs["vat_amount"]
            assert Decimal(fs["total"]["answer"]) == lines + Decimal(tax["answer"])
        if it["dataset"] == "invoices":
            m = re.search(r"Net (\d+)|(\d+) Tage netto|(\d+) jours net|Neto (\d+) días|"
                          r"請求日より(\d+)日以内", it["document"]["text"])
            net = int(next(g for g in m.groups() if g))
            issued = dt.date.fromisoformat(fs["invoice_date"]["answer"])
            assert fs["due_date"]["answer"] == (issued + dt.timedelta(days=net)).isoformat()
        for f in it["fields"]:
            if f["kind"] == "computed" and f["type"] == "count":
                assert f["answer"] > 0


def test_missing_identifiers_not_in_document(items):
    # A document never shows a card number when the card field is missing (cash receipts).
    for it in items:
        for f in it["fields"]:
            if f["name"] == "card_last4" and f["kind"] == "missing":
                assert "****" not in it["document"]["text"]
            if f["name"] == "line_items" and f["kind"] == "missing":
                assert it["dataset"] == "sparse"


# --- balance report ---------------------------------------------------------------------------

def test_balance_report_structure(every_item, tmp_path):
    items = every_item
    rep = balance_report(items)
    assert rep["threshold"] == THRESHOLD == 0.1
    assert "|d| > 0.1" in rep["rule"]
    assert sorted(rep["datasets"]) == sorted(DATASETS)
    feats = rep["overall"]["features"]
    assert {"doc_length_chars", "n_fields", "kind_share.printed", "type_share.money",
            "locale_share.ja-JP"} <= set(feats)
    for block in [rep["overall"], *rep["datasets"].values()]:
        for e in block["features"].values():
            assert set(e) == {"public", "private", "d", "flag"}
            assert e["flag"] == ("imbalanced" if abs(e["d"]) > 0.1 else "ok")
    assert rep["overall"]["n_items"] == {"public": 412, "private": 412}
    assert rep["max_abs_d"] <= 0.1
    path = write_balance(tmp_path / "balance.json", items)
    text = path.read_text(encoding="utf-8")
    assert json.loads(text) == json.loads(json.dumps(rep))
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def test_balance_identical_halves_give_zero(corpus):
    pub = [i for k, v in corpus.items() if k.endswith(".public") for i in v]
    twin = []
    for i in pub:
        j = copy.deepcopy(i)
        j["half"] = "private"
        twin.append(j)
    rep = balance_report(pub + twin)
    for block in [rep["overall"], *rep["datasets"].values()]:
        assert all(e["d"] == 0 for e in block["features"].values())
        assert block["imbalanced"] == []
    assert rep["max_abs_d"] == 0


def test_balance_detects_a_shift(corpus):
    pub = corpus["receipts.public"]
    prv = copy.deepcopy(corpus["receipts.private"])
    for i in prv:
        i["document"]["text"] += "x" * 400
    rep = balance_report(pub + prv)
    assert rep["overall"]["features"]["doc_length_chars"]["flag"] == "imbalanced"
    assert "doc_length_chars" in rep["overall"]["imbalanced"]
