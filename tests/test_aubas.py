"""The au-bas suite: rules, generator, parser, rewards, and the shared case file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from generator.example.aubas_corpus import DATASETS, make_item
from generator.example.aubas_ledger import Config, ConfigError, generate_ledger
from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.stats.declared import Declared
from generator.stats.estimates import point_estimates
from generator.suites.aubas import SUITE
from generator.suites.aubas.ledger import FAULT_CODES, answer_key

VECTORS = json.loads((Path(__file__).parent / "vectors" / "au-bas.json").read_text(encoding="utf-8"))


def record_for(case: dict) -> dict:
    if "record" in case:
        return case["record"]
    return {"item": "case", "repeat": 0, "request": {},
            "attempts": [{"start": "2026-11-01T00:00:00Z", "status": 200, "error": None, "latency_ms": 1.0}],
            "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": case["content"]}}]}}


def score(ledger: dict, key: dict, record: dict):
    raw = {"id": "case", "document": {"locale": "en-AU"}, "ledger": ledger, "key": key}
    spec, problems = SUITE.parse_item(raw)
    assert not problems, problems
    item = Item("case", "default", "public", {}, raw["document"], spec)
    rows = SUITE.score(item, read_outcome(record, SUITE.extract_answer, SUITE.answer_what), "run", 0)
    return rows, dict(zip(SUITE.figures, SUITE.item_figures(rows)))


@pytest.mark.parametrize("case", VECTORS["cases"], ids=[c["id"] for c in VECTORS["cases"]])
def test_vector(case):
    ledger = VECTORS["ledgers"][case["ledger"]]
    rows, figures = score(ledger["ledger"], ledger["key"], record_for(case))
    assert [[r.unit, r.verdict] for r in rows] == case["expected"]["verdicts"]
    for name, value in case["expected"]["figures"].items():
        assert figures[name] == pytest.approx(value, abs=1e-12), name


def test_vector_file_covers_every_pair_verdict():
    verdicts = {v for c in VECTORS["cases"] for _u, v in c["expected"]["verdicts"]}
    assert verdicts == {"correct", "wrong", "found", "missed", "false_flag", "unparseable", "failed_call"}


def collisions(ledger: dict, injected: dict) -> dict[str, list[str]]:
    """Rows whose independently drawn invoice number repeats an earlier row's (not injected)."""
    seen, out = set(), {}
    for row in ledger["rows"]:
        if row["invoice"] in seen and "duplicate_invoice" not in injected.get(row["id"], []):
            out[row["id"]] = ["duplicate_invoice"]
        seen.add(row["invoice"])
    return out


def merged(injected: dict, extra: dict) -> dict[str, list[str]]:
    return {rid: [c for c in FAULT_CODES if c in injected.get(rid, []) + extra.get(rid, [])]
            for rid in sorted(set(injected) | set(extra), key=lambda r: int(r[1:]))}


def test_key_derived_from_the_ledger_matches_what_the_generator_injected():
    # the key is what was injected, plus a duplicate_invoice for every chance collision of two numbers
    for config in (Config(), Config(60, 0.35), Config(24, 0.0), Config(4, 1.0), Config(100, 0.9)):
        for index in range(150):
            ledger, injected = generate_ledger(20260826, config, index)
            assert answer_key(ledger)["faults"] == merged(injected, collisions(ledger, injected)), (config, index)


def test_all_five_fault_types_are_generated_and_rates_are_respected():
    counts: Counter = Counter()
    faulty_rows = rows = 0
    for index in range(100):
        ledger, injected = generate_ledger(7, Config(24, 0.25), index)
        counts.update(code for codes in injected.values() for code in codes)
        faulty_rows += len(injected)
        rows += len(ledger["rows"])
        assert injected, "a fault rate above 0 injects at least one fault"
    assert set(counts) == set(FAULT_CODES)
    assert 0.2 <= faulty_rows / rows <= 0.3


def test_clean_quarters_have_no_injected_faults_and_only_chance_collisions():
    for index in range(50):
        ledger, injected = generate_ledger(7, Config(24, 0.0), index)
        assert injected == {} and answer_key(ledger)["faults"] == collisions(ledger, {})


def test_clean_quarter_invoice_numbers_collide_on_the_rare_occasion_and_the_key_reports_it():
    # the seed: "on the rare occasion two independently drawn invoice numbers collide, the later row is
    # a real duplicate_invoice and the model is expected to report it"
    keys = [answer_key(generate_ledger(20260826, Config(24, 0.0), index)[0]) for index in range(400)]
    hit = [k["faults"] for k in keys if k["faults"]]
    assert 0 < len(hit) <= 0.1 * len(keys)
    assert all(codes == ["duplicate_invoice"] for faults in hit for codes in faults.values())


def test_generation_is_reproducible():
    assert generate_ledger(5, Config(), 3) == generate_ledger(5, Config(), 3)
    assert generate_ledger(5, Config(), 3) != generate_ledger(6, Config(), 3)
    assert make_item("measured", "private", 4) == make_item("measured", "private", 4)


@pytest.mark.parametrize("kwargs, message", [
    ({"num_transactions": 3}, "at least 4"), ({"num_transactions": 2.5}, "integer"),
    ({"fault_rate": -0.1}, "0.0 to 1.0"), ({"fault_rate": 1.5}, "0.0 to 1.0"), ({"fault_rate": "0.2"}, "number"),
])
def test_misconfiguration_is_a_clear_error(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        Config(**kwargs)


def _reply(answer: dict) -> dict:
    return record_for({"content": "<answer>" + json.dumps(answer) + "</answer>"})


def test_on_generated_ledgers_gold_scores_one_and_raw_sums_score_nothing():
    from generator.example.aubas_runs import _naive

    for dataset in DATASETS:
        item = make_item(dataset, "public", 0)
        _rows, gold = score(item["ledger"], item["key"], _reply(item["key"]))
        assert gold["total"] == 1.0
        _rows, naive = score(item["ledger"], item["key"], _reply(_naive(item["ledger"])))
        if item["key"]["faults"]:
            assert naive["total"] == 0.0 and naive["bas_correct"] == 0
        else:  # on a clean quarter the raw sums are the corrected BAS
            assert naive["total"] == 1.0


def test_an_item_whose_key_disagrees_with_its_ledger_is_rejected():
    item = make_item("default", "public", 0)
    spec, problems = SUITE.parse_item({**item, "key": {**item["key"], "G1": "0.00"}})
    assert spec is None and "differs from the key the rules derive" in problems[0]
    spec, problems = SUITE.parse_item({**item, "ledger": {**item["ledger"], "rows": item["ledger"]["rows"][:2]}})
    assert spec is None and "at least 4 rows" in problems[0]


def test_per_fault_type_figures_count_pairs_by_code():
    case = next(c for c in VECTORS["cases"] if c["id"] == "right-row-wrong-reason")
    ledger = VECTORS["ledgers"]["main"]
    _rows, f = score(ledger["ledger"], ledger["key"], record_for(case))
    # T02 is a gst_miscalculated row reported as outside_period; T05 really is outside the period.
    assert (f["true_gst_miscalculated"], f["claimed_gst_miscalculated"], f["found_gst_miscalculated"]) == (1, 0, 0)
    assert (f["true_outside_period"], f["claimed_outside_period"], f["found_outside_period"]) == (1, 2, 1)
    assert (f["true_missing_abn_over_threshold"], f["found_missing_abn_over_threshold"]) == (2, 2)
    declared = Declared(SUITE)
    figs = np.array([[[float(f[name]) for name in SUITE.figures]]])  # 1 run x 1 item x figures
    m = point_estimates(figs, np.ones((1, 1), int), declared.figure_names, declared.spec, [], [])
    assert m["recall_gst_miscalculated"][0] == 0.0 and m["precision_outside_period"][0] == 0.5
    assert np.isnan(m["precision_gst_miscalculated"][0])  # nothing claimed: no precision, not zero
    unparseable = next(c for c in VECTORS["cases"] if c["id"] == "no-block")
    _rows, f = score(ledger["ledger"], ledger["key"], record_for(unparseable))
    assert f["true_missing_abn_over_threshold"] == 2 and f["found_missing_abn_over_threshold"] == 0
    assert f["claimed_outside_period"] == 0
