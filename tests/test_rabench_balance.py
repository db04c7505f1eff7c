"""RA-Bench's halves are built alike on one blueprint (the same class mix, hard negatives and transforms
in each), the balance report says so (`tally ra-bench balance`, the suite's balance.json), and every
verdict of the rule page occurs in each half of the example."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.example.rabench_corpus import generate
from generator.suites.rabench.balance import balance_report
from generator.suites.rabench.commands import group

ROOT = Path(__file__).resolve().parents[1]
SUITE_DIR = ROOT / "content" / "suites" / "ra-bench"


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return generate()


def mix(cases: list[dict], half: str) -> collections.Counter:
    return collections.Counter((c["label"]["fake_class"], c["label"]["hard_negative"], c["strata"].get("source"),
                                c["label"]["provenance"], c["label"]["edited_field"], c["label"]["adds_up"])
                               for c in cases if c["half"] == half and c["label"]["lineage"] is None)


def test_both_halves_have_the_same_design(cases):
    assert mix(cases, "public") == mix(cases, "private")
    classes = collections.Counter((c["half"], c["label"]["fake_class"]) for c in cases if c["label"]["lineage"] is None)
    for fake_class in ("ai_full", "inpainted", "hand_edited", "template"):
        assert classes[("public", fake_class)] == classes[("private", fake_class)] == 16
    negatives = collections.Counter(c["half"] for c in cases if c["label"]["hard_negative"])
    assert negatives == {"public": 16, "private": 16}
    kinds = collections.Counter((c["half"], c["label"]["lineage"]["transform"]) for c in cases if c["label"]["lineage"])
    assert all(kinds[("public", k)] == kinds[("private", k)] > 0 for k in ("re_encoded", "cropped", "re_shot"))


def test_the_report_finds_no_imbalance_and_flags_one():
    items = [json.loads(line) for p in sorted((SUITE_DIR / "items").glob("*.jsonl"))
             for line in p.read_text(encoding="utf-8").splitlines()]
    report = balance_report(items)
    assert report["datasets"]["receipts"]["imbalanced"] == []
    assert report["datasets"]["receipts"]["features"]["class_share.ai_full"] == \
        {"public": 0.1, "private": 0.1, "d": 0.0, "flag": "ok"}
    # the committed report (shown on the suite page) is the report of the committed items
    assert json.loads((SUITE_DIR / "balance.json").read_text(encoding="utf-8")) == report
    # the old split (by case number: each fake class in one half) is flagged
    old = [dict(i, half="public" if i["label"]["fake_class"] in ("inpainted", "template") or
                (i["label"]["fake_class"] is None and i["half"] == "public") else "private") for i in items]
    flagged = balance_report(old)["datasets"]["receipts"]["imbalanced"]
    assert {"class_share.ai_full", "class_share.inpainted"} <= set(flagged)


def test_the_balance_command_prints_and_writes_the_report(tmp_path):
    runner = CliRunner()
    got = runner.invoke(group, ["balance", "--items", str(SUITE_DIR / "items")])
    assert got.exit_code == 0, got.output
    assert "no imbalanced feature" in got.output and "class_share.hand_edited" in got.output
    out = tmp_path / "balance.json"
    got = runner.invoke(group, ["balance", "--items", str(SUITE_DIR / "items"), "--out", str(out)])
    assert got.exit_code == 0 and json.loads(out.read_text()) == json.loads((SUITE_DIR / "balance.json").read_text())
    bad = tmp_path / "items"
    bad.mkdir()
    (bad / "receipts.public.jsonl").write_text('{"id": "x"}\n', encoding="utf-8")
    got = runner.invoke(group, ["balance", "--items", str(bad)], standalone_mode=False)
    assert "receipts.public.jsonl:1: not an RA-Bench item" in str(got.exception)


def test_every_verdict_occurs_in_each_half_of_the_example():
    from generator.pipeline.stages import load_and_score

    [scored] = load_and_score(ROOT, ["ra-bench"], gate=False)
    half = {i.id: i.half for i in scored.items}
    seen: dict[str, set] = {"public": set(), "private": set()}
    for r in scored.runs:
        t = r.verdicts()
        for k in range(len(t)):
            seen[half[t.item[k]]].add((t.unit[k].split(":")[0], t.verdict[k]))
    every = {("field", v) for v in ("correct", "wrong", "null_ok", "invented", "false_null", "failed_call",
                                    "unparseable")} | \
        {("check", v) for v in ("found", "missed", "false_flag", "cleared", "not_run")} | \
        {("decision", v) for v in ("caught", "missed", "false_flag", "cleared")} | \
        {("edited_field", v) for v in ("named", "not_named", "not_flagged")} | {("proof", "proof")} | \
        {("duplicate", v) for v in ("false_match", "no_match", "exact_match", "match", "missed")} | \
        {("line_items", "counted")}
    for h in ("public", "private"):
        assert every <= seen[h], (h, every - seen[h])
