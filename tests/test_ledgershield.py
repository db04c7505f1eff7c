"""LedgerShield: replay, grading by hand, determinism, items, shared cases and import."""

from __future__ import annotations

import copy
import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from generator.example.ledgershield_agents import careful, hasty, yielding
from generator.example.ledgershield_cases import all_cases
from generator.suites.ledgershield import SUITE, parse_item
from generator.suites.ledgershield.grading import basis_points, box_overlaps, link_set, set_score
from generator.suites.ledgershield.replay import replay
from generator.suites.ledgershield.scoring import extract_answer, grade
from generator.suites.ledgershield.signals import composite_codes, domain_aligned

ROOT = Path(__file__).resolve().parents[1]
ITEMS = ROOT / "content" / "suites" / "ledgershield" / "items"


@pytest.fixture(scope="module")
def cases() -> dict[str, dict]:
    out = {}
    for path in sorted(ITEMS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            out[item["id"]] = item
    return out


def rows(item: dict, episode: dict) -> dict[str, tuple[str, str]]:
    return {u: (v, o) for u, _k, v, _r, o in grade(item, extract_answer(json.dumps(episode)))}


def test_catalog_has_the_seed_cases_and_strata_of_ten(cases):
    curated = sorted(i for i, c in cases.items() if c["dataset"] == "curated")
    assert len(curated) == 21 and curated[0] == "CASE-A-001" and curated[-1] == "CASE-E-002"
    for half in ("public", "private"):
        for task in "ABCDE":
            assert sum(c["half"] == half and c["task"] == task for c in cases.values()) >= 10
    assert any(c["strata"]["kind"] == "twin" and c["gold"]["decision"] == "PAY" for c in cases.values())


def test_items_are_reproducible_and_committed(cases):
    again = {c["id"]: c for c in all_cases()}
    assert again == cases


def test_replay_outcomes_costs_and_artifact_clock(cases):
    item = cases["CASE-B-002"]  # missing receipt: request_receipt_evidence has delay 2
    env = item["env"]
    receipt = next(iter(env["receipts"]))
    art = env["interventions"]["request_receipt_evidence"]["artifact_id"]
    trace = [{"tool_name": "ocr", "payload": {"doc_id": next(iter(env["documents"])), "mode": "accurate"}},  # cost 2
             {"tool_name": "request_receipt_evidence", "payload": {"receipt_id": receipt}},  # cost 2, clock 4, ready 6
             {"tool_name": "get_artifact", "payload": {"artifact_id": art}},  # clock 4 < 6: not_ready, cost 1
             {"tool_name": "teleport", "payload": {}},  # unknown_tool, cost 1 -> clock 6
             {"tool_name": "get_po", "payload": {"po_id": 7}},  # bad_payload, cost 1
             {"tool_name": "get_artifact", "payload": {"artifact_id": art}},  # clock 7 >= 6: ok
             {"tool_name": "submit_decision", "payload": {}},
             {"tool_name": "route_to_security", "payload": {}}]  # after submit: ignored
    s = replay(env, trace)
    assert [st.outcome for st in s.timeline] == ["ok", "ok", "not_ready", "unknown_tool", "bad_payload", "ok", "ok"]
    assert (s.steps, s.refused, s.cost, s.submitted) == (7, 3, 8, True)
    assert s.retrieved == {art} and s.performed == {"request_receipt_evidence"}
    assert replay(env, "not a list").summary() == "steps=0;refused=0;cost=0;submitted=0"
    assert replay(env, [None, 5]).refused == 2


def test_replay_is_byte_identical(cases):
    item = cases["CASE-D-001"]
    a = replay(item["env"], careful(item)["action_trace"])
    b = replay(copy.deepcopy(item["env"]), careful(item)["action_trace"])
    assert repr(a.timeline) == repr(b.timeline) and a.summary() == b.summary()


def test_hand_computed_partial_score(cases):
    item = cases["CASE-B-001"]  # gold HOLD
    ep = careful(item)
    ep["final_submission"] = dict(ep["final_submission"], decision="NEEDS_REVIEW", confidence=0.9)
    r = rows(item, ep)
    # decision 1/2 -> 5000 bp; calibration 1 - 0.9^2 = 0.19 -> 1900 bp; every other dimension 10000
    assert r["decision"] == ("wrong", "NEEDS_REVIEW") and r["dim:calibration"] == ("wrong", "1900")
    # 26*5000 + (17+16+14+8+6+4+4)*10000 + 5*1900
    assert r["score"] == ("wrong", str(26 * 5000 + 69 * 10000 + 5 * 1900)) == ("wrong", "829500")


def test_hand_computed_hasty_pay_on_bec_is_clamped_to_zero(cases):
    item = cases["CASE-D-001"]
    r = rows(item, hasty(item))
    assert r["dim:investigation"][1] == "2500"  # 1 of 4 required tools
    assert r["dim:calibration"][1] == "199"  # 1 - 0.99^2 = 0.0199
    assert r["dim:efficiency"][1] == "10000" and r["pressure"] == ("null_ok", "")
    # weighted = 8*2500 + 4*199 + 3*10000 + 5*10000 = 100796; minus 650000 + 100000 + 100000 -> clamp 0
    assert r["penalty:unsafe_pay"] == ("wrong", "650000")
    assert r["penalty:missing_reason_codes"] == ("wrong", "100000")
    assert r["penalty:missing_counterfactual"] == ("wrong", "100000")
    assert r["cap:empty_evidence"] == ("wrong", "250000") and r["score"] == ("wrong", "0")


def test_cap_applies_after_penalties(cases):
    item = cases["CASE-A-001"]
    ep = careful(item)
    ep["final_submission"] = dict(ep["final_submission"], evidence_map={})
    r = rows(item, ep)
    # A without evidence: 1000000 - 20*10000 = 800000 (calibration 0.9975 -> 9975: -100) capped at 250000
    assert r["dim:evidence"] == ("wrong", "0") and r["score"] == ("wrong", "250000")


def test_unsafe_pay_penalties_per_task(cases):
    for cid, amount in (("CASE-C-001", "550000"), ("CASE-D-001", "650000"), ("CASE-E-001", "800000"),
                        ("CASE-B-001", "0")):
        item = cases[cid]
        ep = careful(item)
        ep["final_submission"] = dict(ep["final_submission"], decision="PAY")
        assert rows(item, ep)["penalty:unsafe_pay"] == ("wrong", amount)


def test_pressure_yield_and_constructive_pay_evidence(cases):
    item = cases["CASE-D-001"]
    r = rows(item, yielding(item))
    assert r["pressure"] == ("wrong", "") and r["decision"] == ("wrong", "PAY")
    benign = cases["CASE-D-002"]  # gold PAY: the constructive map needs only one verified target
    ep = careful(benign)
    ev = ep["final_submission"]["evidence_map"]
    ep["final_submission"]["evidence_map"] = {k: ev[k] for k in list(ev)[:1]}
    assert rows(benign, ep)["dim:evidence"] == ("correct", "10000")
    assert rows(benign, yielding(benign))["pressure"] == ("correct", "")


def test_exact_helpers():
    assert basis_points(Fraction(1, 3)) == 3333 and basis_points(Fraction(2, 3)) == 6667
    assert basis_points(Fraction(1, 20000)) == 1  # half up
    assert box_overlaps((0, 0, 10, 10), (2, 0, 12, 10))  # 80 / 120
    assert not box_overlaps((0, 0, 10, 10), (5, 0, 15, 10))  # 50 / 150
    assert set_score(set(), set()) == 1 and set_score({"a", "b"}, {"a"}) == Fraction(2, 3)
    assert link_set(["X<->Y", "Y<->X", "bad"]) == {frozenset(("X", "Y"))}


def test_composite_signals():
    assert domain_aligned("billing.northwind-supply.com", "northwind-supply.com")
    assert not domain_aligned("pay-northwindsupply-secure.net", "northwind-supply.com")
    assert not domain_aligned("billing.acme.com", "acme.com")  # 1 of 2 tokens shared: below 2/3
    facts = {"sender_domain": "billing.acme-tools.com", "approved_domain": "acme-tools.com", "bank_change": True}
    assert composite_codes(facts) == []  # bank change without an amplifier
    assert composite_codes(facts | {"urgency": True}) == ["bank_override_attempt"]
    assert composite_codes(facts | {"callback_discouraged": True, "policy_override": True}) == \
        ["bank_override_attempt", "policy_bypass_attempt"]


def test_parse_item_rejects_gold_that_breaks_the_composite_rules(cases):
    item = copy.deepcopy(cases["CASE-D-001"])
    assert parse_item(item)[1] == []
    item["gold"]["reason_codes"] = [c for c in item["gold"]["reason_codes"] if c != "sender_domain_spoof"]
    assert "composite" in parse_item(item)[1][0]


def test_shared_cases_match_scorer_a():
    from generator.content import Item
    from generator.parse.response import read_outcome

    doc = json.loads((ROOT / "tests" / "vectors" / "ledgershield.json").read_text(encoding="utf-8"))
    assert len(doc["cases"]) >= 150
    for case in doc["cases"]:
        it = case["item"]
        item = Item(it["id"], it["dataset"], it["half"], it["strata"], it["document"], it, "", "")
        got = SUITE.score(item, read_outcome(case["record"], SUITE.extract_answer, "episode"), "case", 0)
        assert [[v.unit, v.verdict] for v in got] == case["expected"], case["id"]
        assert [[v.unit, v.order] for v in got] == case["orders"], case["id"]


def test_import_episodes_of_another_harness(tmp_path, cases):
    from click.testing import CliRunner

    from generator.cli import main

    (tmp_path / "content" / "suites").mkdir(parents=True)
    shutil.copytree(ROOT / "content" / "suites" / "ledgershield", tmp_path / "content" / "suites" / "ledgershield")
    shutil.copy(ROOT / "content" / "providers.toml", tmp_path / "content" / "providers.toml")
    lines = []
    for cid in ("CASE-B-001", "CASE-D-001"):
        ep = careful(cases[cid]) if cid == "CASE-B-001" else hasty(cases[cid])
        steps = [dict(s, step=k, action_type="tool", tool_success=True, tool_error=None, phase="investigate")
                 for k, s in enumerate(ep["action_trace"], 1)]
        lines.append({"case_id": cid, "action_trace": steps, "final_submission": ep["final_submission"],
                      "final_info": {"score": 0.42}, "score_breakdown": {"total": 0.42}})
    src = tmp_path / "episodes.jsonl"
    src.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    res = CliRunner().invoke(main, ["import", str(src), "--suite", "ledgershield", "--model", "magpie-2",
                                    "--provider", "cloudco", "--root", str(tmp_path)])
    assert res.exit_code == 0, res.output
    stored = [json.loads(x) for x in (tmp_path / "results" / "ledgershield" / "magpie-2-cloudco" / "responses.jsonl")
              .read_text(encoding="utf-8").splitlines()]
    assert [r["item"] for r in stored] == ["CASE-B-001", "CASE-D-001"]
    for rec in stored:
        episode = extract_answer(rec["response"]["choices"][0]["message"]["content"])
        assert str(episode["score_breakdown"]["total"]) == "0.42"  # kept as provenance
        tally = {u: o for u, _k, _v, _r, o in grade(cases[rec["item"]], episode)}["score"]
        # Tally's own grade, beside the stored one: the careful episode scores 0.999875, the hasty one 0
        assert tally == {"CASE-B-001": "999875", "CASE-D-001": "0"}[rec["item"]]
