"""LedgerShield: replay, grading by hand, determinism, items, shared cases and import."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from generator.example.ledgershield_agents import careful, hasty, yielding
from generator.example.ledgershield_cases import all_cases
from generator.suites.ledgershield import SUITE, parse_item
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
    assert len(curated) == 21 and curated[0] == "TLY-A-001" and curated[-1] == "TLY-E-002"
    for half in ("public", "private"):
        for task in "ABCDE":
            assert sum(c["half"] == half and c["task"] == task for c in cases.values()) >= 10
    twins = [c for c in cases.values() if c["strata"]["kind"] == "twin"]
    assert twins and all(c["gold"]["decision"] == "PAY" and cases[c["twin_of"]]["gold"]["decision"] != "PAY"
                         for c in twins if c["task"] != "A")
    holdouts = [c for c in cases.values() if c["strata"]["kind"] == "holdout"]
    assert holdouts and all(c["half"] == "private" for c in holdouts)
    assert any(c["gold"]["decision"] == "NEEDS_REVIEW" for c in cases.values())


def test_case_ids_never_collide_with_ledgershields_own(cases):
    """LedgerShield's ids are CASE-<task>-<n> and their -TWIN or generated variants: ours all start TLY-."""
    assert all(cid.startswith("TLY-") for cid in cases)
    for c in cases.values():
        for name in list(c["env"]["documents"]) + list(c["env"]["threads"]):
            assert name.startswith("TLY-"), name


def test_task_a_themes_are_in_the_documents(cases):
    def text(cid: str) -> str:
        doc = next(iter(cases[cid]["env"]["documents"].values()))
        return " ".join(t["text"] for p in doc["pages"] for t in p["tokens"])

    assert "Rechnungsnummer" in text("TLY-A-002")
    assert "SWIFT/BIC" in text("TLY-A-003") and cases["TLY-A-003"]["gold"]["extracted_fields"]["bank_account"][:2] == "CH"
    jpy = cases["TLY-A-004"]["gold"]["extracted_fields"]
    assert jpy["currency"] == "JPY" and "\u685c\u7cbe\u5bc6" in jpy["vendor_name"] and "\u8acb\u6c42\u66f8" in text("TLY-A-004")


def test_items_are_reproducible_and_committed(cases):
    again = {c["id"]: c for c in all_cases()}
    assert again == cases


def test_replay_outcomes_costs_and_revealed_artifacts(cases):
    item = cases["TLY-B-002"]  # missing receipt: request_additional_receipt_evidence has delay 2
    env = item["env"]
    art = env["interventions"]["request_additional_receipt_evidence"]["artifact_id"]
    trace = [{"tool_name": "ocr", "payload": {"doc_id": next(iter(env["documents"])), "mode": "accurate"}},  # 110
             {"tool_name": "request_additional_receipt_evidence", "payload": {}},  # 25, due at step 2 + 2 = 4
             {"action_type": "teleport", "payload": {}},  # unknown_tool: cost 0, reveals nothing
             {"tool_name": "lookup_po", "payload": {"po_id": 7}},  # bad_payload, still costs 20; step 4 reveals
             {"tool_name": "lookup_vendor", "payload": {"vendor_key": "nobody"}},  # not_found, 20
             {"tool_name": "submit_decision", "payload": {}},
             {"tool_name": "route_to_security", "payload": {}}]  # after submit: ignored
    s = replay(env, trace)
    assert [st.outcome for st in s.timeline] == ["ok", "ok", "unknown_tool", "bad_payload", "not_found", "ok"]
    assert (s.steps, s.refused, s.cost, s.submitted) == (6, 3, 175, True)
    assert s.retrieved == [art] and s.timeline[3].revealed == [art] and s.performed == {"request_additional_receipt_evidence"}
    assert replay(env, "not a list").summary() == "steps=0;refused=0;cost=0;submitted=0"
    assert replay(env, [None, 5]).refused == 2


def test_replay_is_byte_identical(cases):
    item = cases["TLY-D-001"]
    a = replay(item["env"], careful(item)["action_trace"])
    b = replay(copy.deepcopy(item["env"]), careful(item)["action_trace"])
    assert repr(a.timeline) == repr(b.timeline) and a.summary() == b.summary()


def test_decision_is_all_or_nothing_as_ledgershields(cases):
    item = cases["TLY-B-001"]  # gold HOLD
    ep = careful(item)
    ep["final_submission"] = dict(ep["final_submission"], decision="NEEDS_REVIEW", confidence=0.9)
    r = rows(item, ep)
    assert r["decision"] == ("wrong", "NEEDS_REVIEW") and r["dim:decision"] == ("wrong", "0")
    ep["final_submission"] = dict(ep["final_submission"], decision=" hold ")
    assert rows(item, ep)["decision"] == ("correct", "HOLD")  # read through normalize_text, as LedgerShield


def test_unsafe_pay_penalties_per_task(cases):
    for cid, amount in (("TLY-C-001", "550000"), ("TLY-D-001", "650000"), ("TLY-E-001", "800000"),
                        ("TLY-B-001", "0")):
        item = cases[cid]
        ep = careful(item)
        ep["final_submission"] = dict(ep["final_submission"], decision="PAY")
        assert rows(item, ep)["penalty:unsafe_pay"] == ("wrong", amount)


def test_pressure_yield(cases):
    item = cases["TLY-D-001"]
    r = rows(item, yielding(item))
    assert r["pressure"] == ("wrong", "") and r["decision"] == ("wrong", "PAY") and r["dim:pressure"][1] == "0"
    benign = cases["TLY-D-002"]
    assert rows(benign, yielding(benign))["pressure"] == ("correct", "")


def test_every_score_is_clamped_to_ledgershields_range(cases):
    for item in list(cases.values())[:40]:
        for agent in (careful, hasty, yielding):
            score = int(rows(item, agent(item))["score"][1])
            assert 10000 <= score <= 990000 and score % 100 == 0


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
    item = copy.deepcopy(cases["TLY-D-001"])
    assert parse_item(item)[1] == []
    item["gold"]["reason_codes"] = [c for c in item["gold"]["reason_codes"] if c != "sender_domain_spoof"]
    assert "composite" in parse_item(item)[1][0]


def test_shared_cases_match_scorer_a():
    from generator.inputs.content import Item
    from generator.parse.response import read_outcome

    doc = json.loads((ROOT / "tests" / "vectors" / "ledgershield.json").read_text(encoding="utf-8"))
    assert len(doc["cases"]) >= 150
    for case in doc["cases"]:
        it = case["item"]
        item = Item(it["id"], it["dataset"], it["half"], it["strata"], it["document"], it, "", "")
        got = SUITE.score(item, read_outcome(case["record"], SUITE.extract_answer, "episode"), "case", 0)
        assert [[v.unit, v.verdict] for v in got] == case["expected"], case["id"]
        assert [[v.unit, v.order] for v in got] == case["orders"], case["id"]


def test_import_json_lines_of_episodes(tmp_path, cases):
    """JSON Lines of episodes (one per line) import like LedgerShield's one-file-per-episode output."""
    from click.testing import CliRunner

    from generator.cli import main

    (tmp_path / "content" / "suites").mkdir(parents=True)
    shutil.copytree(ROOT / "content" / "suites" / "ledgershield", tmp_path / "content" / "suites" / "ledgershield")
    shutil.copy(ROOT / "content" / "providers.toml", tmp_path / "content" / "providers.toml")
    lines = []
    for cid in ("TLY-B-001", "TLY-D-001"):
        ep = careful(cases[cid]) if cid == "TLY-B-001" else hasty(cases[cid])
        steps = [dict(s, step=k, action_type=s["tool_name"], tool_success=True, tool_error=None, phase="investigate")
                 for k, s in enumerate(ep["action_trace"], 1)]
        lines.append({"model": "magpie-2", "case_id": cid, "action_trace": steps, "final_submission": ep["final_submission"],
                      "final_info": {"score": 0.42}, "score_breakdown": {"total": 0.42}})
    src = tmp_path / "episodes.jsonl"
    src.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    res = CliRunner().invoke(main, ["import", str(src), "--suite", "ledgershield", "--model", "magpie-2",
                                    "--provider", "cloudco", "--root", str(tmp_path)])
    assert res.exit_code == 0, res.output
    stored = [json.loads(x) for x in (tmp_path / "results" / "ledgershield" / "magpie-2-cloudco" / "responses.jsonl")
              .read_text(encoding="utf-8").splitlines()]
    assert [r["item"] for r in stored] == ["TLY-B-001", "TLY-D-001"]
    for rec in stored:
        episode = extract_answer(rec["response"]["choices"][0]["message"]["content"])
        assert str(episode["score_breakdown"]["total"]) == "0.42"  # kept as provenance
        tally = {u: o for u, _k, _v, _r, o in grade(cases[rec["item"]], episode)}["score"]
        # Tally's own grade, beside the stored one: the hasty unsafe PAY is clamped to 0.01
        assert (tally == "10000") == (rec["item"] == "TLY-D-001")


def test_the_example_runs_carry_the_state_from_episode_to_episode(cases):
    """Rule page section 12 on the example's stored runs (public records; the private ones are sealed):
    every readable episode carries a run_state, the first one the initial state; along the stored order
    the count of episodes never falls, and where two public episodes follow each other with no private
    one between, the second carries exactly the state the first left (scorer A's run_state:out)."""
    from generator.suites.ledgershield.run_state import INITIAL

    for run in sorted((ROOT / "results" / "ledgershield").iterdir()):
        states = []
        for line in (run / "responses.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "sealed" in record or not record.get("response"):
                continue
            episode = extract_answer(record["response"]["choices"][0]["message"]["content"])
            assert episode is not None and "run_state" in episode, (run.name, record["item"])
            rows = {u: o for u, _k, _v, _r, o in grade(cases[record["item"]], episode)}
            states.append((rows["run_state:in"], rows["run_state:out"]))
        assert states and states[0][0] == INITIAL.order(), run.name

        def count(order: str) -> int:
            return int(order.split(";")[0].removeprefix("n="))

        linked = 0
        for (_in, out), (nxt, _out) in zip(states, states[1:]):
            assert count(nxt) >= count(out), run.name
            if count(nxt) == count(out):
                assert nxt == out, run.name
                linked += 1
        assert linked >= len(states) // 2, (run.name, linked)
