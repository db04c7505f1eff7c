"""The au-bas seed's claims, each asserted in the seed's words under the seed's rule, as the rule page
(content/pages/scoring-au-bas.md, section 6) reads them, on the example's ledgers."""

from __future__ import annotations

import json
from pathlib import Path

from generator.example.aubas_runs import _naive
from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.suites.aubas import SUITE
from generator.suites.aubas.ledger import FAULT_CODES

ROOT = Path(__file__).resolve().parents[1]
ITEMS = [json.loads(line) for path in sorted((ROOT / "content" / "suites" / "au-bas" / "items").glob("*.jsonl"))
         for line in path.read_text(encoding="utf-8").splitlines()]


def figures(raw: dict, answer: dict) -> dict[str, float]:
    spec, problems = SUITE.parse_item(raw)
    assert not problems
    item = Item(raw["id"], raw["dataset"], raw["half"], raw["strata"], raw["document"], spec)
    record = {"item": raw["id"], "repeat": 0, "request": {},
              "attempts": [{"start": "2026-11-01T00:00:00Z", "status": 200, "error": None, "latency_ms": 1.0}],
              "response": {"choices": [{"index": 0, "message": {"role": "assistant",
                                                                "content": f"<answer>{json.dumps(answer)}</answer>"}}]}}
    rows = SUITE.score(item, read_outcome(record, SUITE.extract_answer, SUITE.answer_what), "run", 0)
    return dict(zip(SUITE.figures, SUITE.item_figures(rows)))


def headline(per_item: list[dict[str, float]]) -> float:
    """The suite's headline, total on ledgers with faults: sum(total_faulty) / sum(faulty)."""
    return sum(f["total_faulty"] for f in per_item) / sum(f["faulty"] for f in per_item)


def blanket(raw: dict) -> dict:
    return {**raw["key"], "faults": {r["id"]: list(FAULT_CODES) for r in raw["ledger"]["rows"]}}


def silence(raw: dict) -> dict:
    return {**raw["key"], "faults": {}}


def test_the_headline_is_the_total_on_ledgers_with_faults():
    assert SUITE.headline == "total_faulty"
    assert {i["dataset"] for i in ITEMS} == {"default", "measured", "clean"}
    assert all(i["key"]["faults"] for i in ITEMS if i["dataset"] != "clean")


def test_submitting_the_raw_column_sums_as_the_bas_earns_nothing():
    raw_sums = [figures(i, _naive(i["ledger"])) for i in ITEMS]
    assert all(f["total"] == 0 and f["bas_correct"] == 0 for f in raw_sums if f["faulty"])
    assert headline(raw_sums) == 0.0
    # and it is told apart from blanket flagging, which the old pooled headline could not do
    assert headline([figures(i, blanket(i)) for i in ITEMS]) > 0.6


def test_blanket_suspicion_scores_worse_than_silence():
    # over the seed's task set: its three configurations (default, measured, clean quarter), alike
    by_dataset = {d: [i for i in ITEMS if i["dataset"] == d] for d in ("default", "measured", "clean")}
    assert len({len(v) for v in by_dataset.values()}) == 1
    blanket_audit = [figures(i, blanket(i))["fault_audit"] for i in ITEMS]
    silence_audit = [figures(i, silence(i))["fault_audit"] for i in ITEMS]
    assert sum(blanket_audit) / len(ITEMS) < sum(silence_audit) / len(ITEMS)
    # "flagging everything drives precision to near zero"
    assert max(figures(i, blanket(i))["fault_precision"] for i in ITEMS) < 0.2


def test_on_one_ledger_with_faults_the_sentence_does_not_hold_as_the_rule_page_says():
    # the rule page, section 6: ledger by ledger, on a ledger with faults, silence's F1 is 0 and
    # blanket flagging's is about twice its precision (0.098 default, 0.131 measured in the example)
    for dataset, expected in (("default", 0.098), ("measured", 0.131)):
        items = [i for i in ITEMS if i["dataset"] == dataset]
        got = [figures(i, blanket(i))["fault_audit"] for i in items]
        assert all(figures(i, silence(i))["fault_audit"] == 0.0 for i in items)
        assert abs(sum(got) / len(got) - expected) < 0.001, sum(got) / len(got)


def test_generate_writes_n_ledgers_from_the_seeds_arguments(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from generator.cli import main

    monkeypatch.chdir(tmp_path)
    out = tmp_path / "ledgers.jsonl"
    args = ["au-bas", "generate", "-n", "5", "--num-transactions", "60", "--fault-rate", "0.35", "--out", str(out)]
    got = CliRunner().invoke(main, args)
    assert got.exit_code == 0, got.output
    lines = out.read_text(encoding="utf-8").splitlines()
    generated = [json.loads(line) for line in lines]
    measured = [i for i in ITEMS if i["dataset"] == "measured" and i["half"] == "public"][:5]
    # the example's measured dataset is this generator with the seed's measured run's arguments
    assert [g["ledger"] for g in generated] == [m["ledger"] for m in measured]
    assert all(SUITE.parse_item(g)[1] == [] and len(g["ledger"]["rows"]) == 60 for g in generated)
    assert CliRunner().invoke(main, args).exit_code == 0 and out.read_text(encoding="utf-8").splitlines() == lines
    bad = CliRunner().invoke(main, ["au-bas", "generate", "-n", "1", "--fault-rate", "1.5", "--out", str(out)])
    assert bad.exit_code == 2 and "fault_rate must be a number from 0.0 to 1.0" in bad.output
