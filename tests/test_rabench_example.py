"""RA-Bench's example corpus is not made easy for the example engine: the text is what a reader of a
photo or scan returns (OCR-like noise), and hard negatives are other receipts of the same store,
template and day, most with the same basket."""

from __future__ import annotations

import random

import pytest

from generator.example.rabench_corpus import OCR_RATE, generate, ocr_read, receipt_text
from generator.example.rabench_engine import Engine, parse_receipt


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return generate()


def test_ocr_read_is_seeded_and_only_noisy_when_asked():
    text = "Harbour Hotel\n12 Quay Ave\nTaxi fare                   $     32.48"
    assert ocr_read(random.Random(1), text, 0.0) == text
    noisy = [ocr_read(random.Random(k), text, 0.05) for k in range(20)]
    assert noisy == [ocr_read(random.Random(k), text, 0.05) for k in range(20)]
    assert sum(n != text for n in noisy) >= 10
    assert all(n.count("\n") == 2 for n in noisy)  # lines are never merged or split


def test_pdf_text_is_clean_and_photos_are_not(cases):
    base = [c for c in cases if c["label"]["lineage"] is None]
    clean = {c["id"]: c["document"]["text"] == receipt_text(
        {**c["label"]["fields"], "address": c["document"]["text"].split("\n")[1]}, c["label"]["line_items"],
        {"USD": "$", "EUR": "€", "GBP": "£"}[c["label"]["fields"]["currency"]]) for c in base}
    pdf = [c["id"] for c in base if c["strata"]["source"] == "pdf"]
    photo = [c["id"] for c in base if c["strata"]["source"] == "photo"]
    assert OCR_RATE["pdf"] == 0 and len(pdf) > 50 and all(clean[i] for i in pdf)
    assert len(photo) > 100 and sum(not clean[i] for i in photo) > len(photo) // 4


def test_the_engine_misreads_some_line_items(cases):
    base = [c for c in cases if c["label"]["lineage"] is None]
    wrong = [c["id"] for c in base if parse_receipt(c["document"]["text"])["line_items"] != c["label"]["line_items"]]
    assert 0.02 * len(base) < len(wrong) < 0.5 * len(base)


def test_hard_negatives_share_store_template_and_day(cases):
    base = [c for c in cases if c["label"]["lineage"] is None]
    negatives = same_basket = 0
    for k, c in enumerate(base):
        if not c["label"]["hard_negative"]:
            continue
        negatives += 1
        partner = next(p for p in reversed(base[:k]) if not p["label"]["fake"] and not p["label"]["hard_negative"]
                       and p["half"] == c["half"])
        assert not c["label"]["fake"]
        for key in ("merchant", "date", "currency"):
            assert c["label"]["fields"][key] == partner["label"]["fields"][key], (c["id"], key)
        assert c["strata"]["merchant_type"] == partner["strata"]["merchant_type"]
        assert c["document"]["file"]["image_hash"] != partner["document"]["file"]["image_hash"]
        same_basket += c["label"]["line_items"] == partner["label"]["line_items"]
    assert negatives >= 30 and same_basket >= negatives // 4


def test_some_hard_negatives_fool_the_engines_duplicate_index(cases):
    engine = Engine()
    matched = {c["id"]: engine.check(c["id"], c["document"])["duplicate"]["seen_before"] for c in cases}
    negatives = [c["id"] for c in cases if c["label"]["hard_negative"]]
    assert 0 < sum(matched[i] for i in negatives) < len(negatives)
