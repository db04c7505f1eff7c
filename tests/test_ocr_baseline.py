"""The OCR baseline is real: Tesseract reads the committed page images, the rule extractor reads its
text, and a fresh OCR of the same pages gives the stored answers again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.example import ocr
from generator.harness.plan import load_plan

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "results" / "extracting" / ocr.OCR_BASELINE["run_id"]
pytestmark = pytest.mark.skipif(not ocr.available(), reason="tesseract-ocr is not installed (.ci/run installs it)")


@pytest.fixture(scope="module")
def plan():
    return load_plan(ROOT, "extracting", "public")


def _pages(plan, item: dict) -> list[bytes]:
    return [(plan.suite.root / "items" / p["path"]).read_bytes() for p in item["document"]["pages"]]


def test_tesseract_reads_a_scan_and_a_photographed_receipt(plan):
    items = {i["id"]: i for i in plan.items}
    scan = ocr.ocr_document(_pages(plan, items["invoices-pub-0001"]), "de-DE")
    assert "Rechnungsnummer: RE-2026-0325" in scan and "Juniper Handels GmbH" in scan
    photo = ocr.ocr_document(_pages(plan, items["receipts-pub-0001"]), "es-MX")  # rotated, blurred, on a table
    assert "ABARROTES HARROWGATE" in photo and "$306.90" in photo


@pytest.mark.slow
def test_a_fresh_ocr_gives_the_stored_answers(plan):
    meta = json.loads((RUN / "run.json").read_text(encoding="utf-8"))
    assert meta["input"] == "image" and meta["simulated"] is False and ocr.version() in meta["description"]
    items = {i["id"]: i for i in plan.items}
    records = [json.loads(line) for line in (RUN / "responses.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) == len(items)
    for record in records[::37] + [r for r in records if r["item"].startswith("receipts-")][:3]:
        item = items[record["item"]]
        stored = record["response"]["choices"][0]["message"]["content"]
        assert ocr.ocr_answer(item, _pages(plan, item)) == stored, record["item"]


def test_the_ocr_run_pairs_with_the_text_rule_extractor():
    meta = json.loads((RUN / "run.json").read_text(encoding="utf-8"))
    text = json.loads((ROOT / "results/extracting/baseline-rules/run.json").read_text(encoding="utf-8"))
    assert (meta["model"], meta["provider"]) == (text["model"], text["provider"])
    assert "input" not in text
