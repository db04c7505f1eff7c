"""Real documents of the extracting example: layout rule, machine checks, labeller, the independent
pyiem reading, attribution and reproducibility (content/pages/scoring-extracting.md, section 6)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from generator.example import real_corpus, real_nws, real_sroie
from generator.example.build import generate_corpus_files

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "content" / "suites" / "extracting"


@pytest.fixture(scope="module")
def real_items():
    items = [json.loads(line) for p in sorted((SUITE / "items").glob("*.jsonl"))
             for line in p.read_text(encoding="utf-8").splitlines()]
    return [i for i in items if i["strata"]["source"] == "real"]


def test_layout_rule_keeps_lines_and_columns():
    words = ["SHOP SDN BHD", "TOTAL", "12.50", "THANK YOU"]
    boxes = [[100, 10, 340, 30], [20, 50, 120, 70], [300, 52, 400, 68], [100, 90, 280, 110]]
    assert real_sroie.layout(words, boxes) == "    SHOP SDN BHD\nTOTAL         12.50\n    THANK YOU\n"


def test_sroie_machine_checks_flag_suspect_labels():
    rec = {"words": ["ACME SDN BHD", "DATE: 14/03/2018", "TOTAL", "31.00"],
           "bboxes": [[0, 0, 240, 20], [0, 30, 320, 50], [0, 60, 100, 80], [200, 60, 300, 80]],
           "entities": {"company": "ACME SDN BHD", "date": "14/03/2018", "address": "", "total": "31.00"}}
    body, problems = real_sroie.label(rec)
    assert problems == [] and {f["name"]: f["answer"] for f in body["fields"]}["purchase_date"] == "2018-03-14"
    bad = dict(rec, entities={"company": "ACME SDN BHO", "date": "31/13/2018", "address": "", "total": "13.00"})
    _, problems = real_sroie.label(bad)
    assert [p.split()[0] for p in problems] == ["total", "date", "company"]


def test_report_lists_every_left_out_document_with_a_reason(real_items):
    rep = json.loads((SUITE / "real_labels.json").read_text(encoding="utf-8"))
    assert rep["used"] == {"govforms/nws": 26, "receipts/sroie": 56, "tables/nws": 22}
    assert sum(rep["used"].values()) == len(real_items)
    assert rep["left_out_count"] == len(rep["left_out"]) and all(e["reasons"] for e in rep["left_out"])
    flagged = [e for e in rep["left_out"] if e["dataset"] == "receipts" and not e["reasons"][0].startswith("odd")]
    assert len(flagged) == 3  # of the 60 receipts copied; machine checks of the published labels


def test_real_items_carry_attribution_provenance_and_strata(real_items):
    for it in real_items:
        doc, collection = it["document"], it["strata"]["collection"]
        assert set(doc) - {"pages"} == {"text", "locale", "currency", "reference_date", "attribution", "origin"}
        assert ("pages" in doc) == (it["half"] == "public")
        if collection == "sroie":
            assert "CC BY 4.0" in doc["attribution"] and "Adapted" in doc["attribution"]
            assert it["dataset"] == "receipts" and doc["locale"] == "en-GB"
        else:
            assert "public domain" in doc["attribution"] and it["dataset"] in ("tables", "govforms")
        assert all(f["provenance"] for f in it["fields"])
        assert {f["kind"] for f in it["fields"]} <= {"printed", "computed", "missing"}
    kinds = {f["kind"] for it in real_items for f in it["fields"]}
    assert kinds == {"printed", "computed", "missing"}
    for half in ("public", "private"):
        assert sum(i["half"] == half for i in real_items) == len(real_items) // 2


@pytest.mark.slow
def test_real_items_reproduce_byte_for_byte_from_the_repository_copy(tmp_path):
    generate_corpus_files(tmp_path)
    for name in ("balance.json", "real_labels.json"):
        assert (tmp_path / "content/suites/extracting" / name).read_bytes() == (SUITE / name).read_bytes()
    for path in sorted((SUITE / "items").glob("*.jsonl")):
        assert (tmp_path / "content/suites/extracting/items" / path.name).read_bytes() == path.read_bytes()
    assert real_corpus.DATA == ROOT / "data" / "real-documents"


# ------------------------------------------------------------------ pyiem cross-check

# Every field where pyiem's reading differs from the labeller's, and the rule that settles it
# (the labeller's answer stands in each case).
AS_PRINTED = "times are checked as printed: no reformatting, no time-zone conversion"
SETTLED = {
    ("nws/LSR/LSRBOX.txt", "*"): "pyiem lists no report; the labeller reads the first report by its columns",
    ("nws/LSR/LSRPIH.txt", "*"): "pyiem lists no report; the labeller reads the first report by its columns",
    ("nws/LSR/LSRGSP_future.txt", "*"): "pyiem drops a report dated after issuance; it is printed, so it is read",
    ("nws/LSR/LSRTOP_ICE.txt", "magnitude"): "magnitude comes from the magnitude column only (blank: missing), "
                                             "never from the remarks",
    ("nws/LSR/LSRTOP_ICE.txt", "magnitude_unit"): "as magnitude",
    ("nws/LSR/LSRPAH_ice.txt", "magnitude"): "as LSRTOP_ICE",
    ("nws/LSR/LSRPAH_ice.txt", "magnitude_unit"): "as magnitude",
    ("nws/LSR/LSRJAN_fakeunits.txt", "magnitude"): "a printed magnitude and unit are read as printed, "
                                                   "whatever the unit",
    ("nws/LSR/LSRJAN_fakeunits.txt", "magnitude_unit"): "as magnitude",
    ("nws/LSR/LSRGUM.txt", "event_time"): AS_PRINTED,
    ("nws/CLI/CLIDCA.txt", "max_temperature_time"): AS_PRINTED,
    ("nws/CLI/CLIDCA.txt", "min_temperature_time"): AS_PRINTED,
    ("nws/CLI/CLICVG_colon.txt", "max_temperature_time"): AS_PRINTED,
    ("nws/CLI/CLICVG_colon.txt", "min_temperature_time"): AS_PRINTED,
    ("nws/CLI/CLIANC.txt", "*"): "pyiem needs its station table for this station name; no field to compare",
    ("nws/CLI/CLIHOU.txt", "*"): "pyiem needs its station table for this station name; no field to compare",
}
CLI_KEYS = {"station": "cli_station", "report_date": "cli_valid", "max_temperature": "temperature_maximum",
            "max_temperature_time": "temperature_maximum_time", "record_max_temperature": "temperature_maximum_record",
            "record_max_year": "temperature_maximum_record_years", "normal_max_temperature": "temperature_maximum_normal",
            "min_temperature": "temperature_minimum", "min_temperature_time": "temperature_minimum_time",
            "record_min_temperature": "temperature_minimum_record", "record_min_year": "temperature_minimum_record_years",
            "normal_min_temperature": "temperature_minimum_normal", "precipitation_month_to_date": "precip_month",
            "precipitation_year_to_date": "precip_jan1", "average_sky_cover": "average_sky_cover"}


def _same(ours, theirs) -> bool:
    if isinstance(theirs, list):
        theirs = str(theirs[0]) if theirs else None
    if isinstance(theirs, (int, float)) and not isinstance(theirs, bool) and ours is not None:
        return float(ours) == float(theirs)
    return ours == theirs or (ours is None and theirs in (None, ""))


def _pyiem_reading(item: dict) -> dict | None:
    from pyiem.nws.products import parser

    try:
        product = parser(item["document"]["text"])
    except Exception:  # noqa: BLE001 - any failure of the other parser is a listed disagreement
        return None
    if item["dataset"] == "tables":
        first = product.data[0]
        data = dict(first["data"], cli_station=first["cli_station"], cli_valid=first["cli_valid"].isoformat())
        return {name: data.get(key) for name, key in CLI_KEYS.items()}
    if not product.lsrs:
        return None
    r = product.lsrs[0]
    return {"event_type": r.typetext, "location": r.city, "county": r.county, "state": r.state,
            "report_source": r.source, "event_date": r.valid.date().isoformat(),
            "event_time": r.valid.strftime("%I%M %p"), "magnitude": r.magnitude_f, "magnitude_unit": r.magnitude_units}


def test_pyiem_cross_check_lists_every_disagreement(real_items):
    pytest.importorskip("pyiem.nws.products",
                        reason="the NWS cross-check needs pyiem: pip install -e '.[crosscheck]'")
    found = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for it in real_items:
            if it["strata"]["collection"] != "nws":
                continue
            origin = it["document"]["origin"].removeprefix("NWS product ")
            theirs = _pyiem_reading(it)
            if theirs is None:
                found.add((origin, "*"))
                continue
            answers = {f["name"]: f["answer"] for f in it["fields"]}
            found |= {(origin, name) for name, value in theirs.items()
                      if name in answers and not _same(answers[name], value)}
    assert found == set(SETTLED), sorted(found ^ set(SETTLED))
    assert len(SETTLED) == 16


def test_labeller_reads_a_climate_report():
    text = real_nws.document_text((ROOT / "data/real-documents/nws/CLI/CLIDSM.txt").read_bytes())
    fields, problems = real_nws.label_cli(text)
    answers = {f["name"]: f["answer"] for f in fields}
    assert problems == []
    assert answers["station"] == "DES MOINES IA" and answers["report_date"] == "2013-08-01"
    assert (answers["max_temperature"], answers["max_temperature_time"], answers["max_departure_from_normal"]) == \
        ("89", "309 PM", "4")
