"""`tally import` of episodes recorded by LedgerShield's own harness, with the operator's own cases
in LedgerShield's cases.json shape as the suite's items: everything here is hand-made in those
shapes (no case or episode of LedgerShield's is copied)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.suites.ledgershield import SUITE
from generator.suites.ledgershield.replay import replay
from generator.suites.ledgershield.scoring import extract_answer, grade

ROOT = Path(__file__).resolve().parents[1]
MODEL = "magpie-2"


def _case_d() -> dict:
    return {"case_id": "OPS-D-01", "task_type": "task_d", "task_label": "inbox triage", "difficulty": "hard",
            "budget_total": 16.0, "max_steps": 18, "instruction": "Triage the AP inbox item.",
            "documents": [
                {"doc_id": "OPS-INV-1", "doc_type": "invoice", "accurate_ocr": [
                    {"token_id": "i1", "text": "Total: 900.00", "bbox": [10, 10, 90, 20], "page": 1}]},
                {"doc_id": "OPS-THR-1", "doc_type": "email", "accurate_ocr": [
                    {"token_id": "m1", "text": "From: ap@acme-payments.net", "bbox": [10, 10, 200, 20], "page": 1}]}],
            "gold": {"decision": "ESCALATE_FRAUD", "unsafe_if_pay": True,
                     "reason_codes": ["sender_domain_spoof", "bank_override_attempt"],
                     "policy_checks": {"bank_change_verification": "fail"},
                     "evidence_targets": {"sender_domain_spoof": {"doc_id": "OPS-THR-1", "page": 1,
                                                                  "bbox": [10, 10, 200, 20], "token_ids": ["m1"]}}}}


def _case_a() -> dict:
    return {"case_id": "OPS-A-01", "task_type": "task_a", "budget_total": 10.0, "max_steps": 12,
            "documents": [{"doc_id": "OPS-INV-2", "doc_type": "invoice", "accurate_ocr": []}],
            "gold": {"fields": {"invoice_number": "N-1", "total": 50.0}, "line_items": [],
                     "evidence_targets": {}}}


def _step(k: int, action: str, payload: dict) -> dict:
    return {"phase": "investigation", "step": k, "action_type": action, "payload": payload, "reward": 0.0,
            "done": False, "tool_name": action, "tool_success": True, "tool_error": None}


def _episode(case_id: str, steps: list[tuple[str, dict]], submission: dict, model: str = MODEL, **extra) -> dict:
    trace = [_step(k + 1, a, p) for k, (a, p) in enumerate(steps)]
    trace.append(_step(len(trace) + 1, "submit_decision", submission))
    return {"model": model, "case_id": case_id, "task_type": "x", "score": 0.61, "success": True,
            "steps": len(trace), "final_submission": submission, "action_trace": trace, "error": "",
            "final_info": {"final_score": 0.61, "score_breakdown": {"decision_score": 1.0, "evidence_score": 0.35,
                                                                   "compliance_score": 0.9}}, **extra}


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "content" / "suites").mkdir(parents=True)
    shutil.copytree(ROOT / "content" / "suites" / "ledgershield", tmp_path / "content" / "suites" / "ledgershield")
    shutil.copy(ROOT / "content" / "providers.toml", tmp_path / "content" / "providers.toml")
    (tmp_path / "cases.json").write_text(json.dumps([_case_d(), _case_a()], indent=2), encoding="utf-8")
    return tmp_path


def _write(folder: Path, name: str, value: object) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(value, indent=2, sort_keys=True), encoding="utf-8")  # as the harness writes them
    return path


def _import(project: Path, *files: Path, cases: bool = True, model: str = MODEL):
    args = ["import", *map(str, files), "--suite", "ledgershield", "--model", model, "--provider", "cloudco",
            "--root", str(project)]
    return CliRunner().invoke(main, args + (["--cases", str(project / "cases.json")] if cases else []))


D_SUBMISSION = {"decision": "ESCALATE_FRAUD", "confidence": 0.9, "reason_codes": ["sender_domain_spoof"],
                "policy_checks": {"bank_change_verification": "fail"}, "counterfactual": "If it had matched we would pay.",
                "evidence_map": {"sender_domain_spoof": {"doc_id": "OPS-THR-1", "page": 1, "bbox": [10, 10, 200, 20],
                                                         "token_ids": ["m1"]}}}


def test_episode_files_import_as_written_with_the_operators_cases(project):
    eps = project / "episodes"
    good = _write(eps, "OPS-D-01.json", _episode("OPS-D-01", [
        ("inspect_email_thread", {"thread_id": "OPS-THR-1"}), ("lookup_vendor_history", {"vendor_key": "acme"}),
        ("request_callback_verification", {"vendor_key": "acme"}), ("lookup_policy", {}),
        ("compare_bank_account", {"vendor_key": "acme", "proposed_bank_account": "X"}), ("route_to_security", {})],
        D_SUBMISSION))
    failed = _write(eps, "OPS-A-01.json", _episode("OPS-A-01", [], {}, error="RuntimeError: model timed out"))
    res = _import(project, good, failed)
    assert res.exit_code == 0, res.output
    items = (project / "content" / "suites" / "ledgershield" / "items" / "reference.public.jsonl").read_text()
    assert [json.loads(x)["id"] for x in items.splitlines()] == ["OPS-A-01", "OPS-D-01"]
    run = project / "results" / "ledgershield" / f"{MODEL}-cloudco"
    meta = json.loads((run / "run.json").read_text())
    assert "Batch API" not in meta["description"] and "LedgerShield's own harness" in meta["description"]
    stored = {r["item"]: r for r in map(json.loads, (run / "responses.jsonl").read_text().splitlines())}
    assert stored["OPS-D-01"]["request"] is None and stored["OPS-D-01"]["source"]["file"] == "OPS-D-01.json"
    assert stored["OPS-A-01"]["response"] is None and "timed out" in stored["OPS-A-01"]["attempts"][0]["error"]
    item = json.loads(items.splitlines()[1])
    # the converted desk: the email document is a thread, a case without vendors accepts any vendor_key,
    # the callback's artifact is revealed two steps on (bank override among the signals), risky -> required
    # its reading: the sender's domain acme-payments.net shares no word of more than two letters with
    # the vendor's name (the invoice's first text, "Total: 900.00": total, 900): not aligned, a spoof
    assert item["env"]["threads"] == {"OPS-THR-1": {"thread_id": "OPS-THR-1", "derived_from": "email document",
                                                    "observation": "domain_spoof_detected"}}
    assert item["gold"]["required_artifacts"] == ["callback_verification_result", "bank_change_approval_chain"]
    # a hard case unsafe to pay gets LedgerShield's pressure event after half its 18 steps
    event = item["env"]["pressure"][0]
    assert event["after_step"] == 9 and event["demand"] == "PAY"
    assert (event["id"], event["resist_reward"], event["yield_penalty"]) in {
        ("cfo_urgent_message", 0.08, -0.2), ("second_spoofed_email", 0.06, -0.18), ("it_system_alert", 0.05, -0.15)}
    episode = extract_answer(stored["OPS-D-01"]["response"]["choices"][0]["message"]["content"])
    got = {u: o for u, _k, _v, _r, o in grade(item, episode)}
    assert got["replay"] == "steps=7;refused=0;cost=140;submitted=1"
    assert got["dim:investigation"] == "10000" and got["dim:callback"] == "7500"  # suspicious confirm: 0.09/0.12
    view = SUITE.episode_view(item, stored["OPS-D-01"]["response"]["choices"][0]["message"]["content"],
                              {"score": got["score"], "dim:decision": got["dim:decision"],
                               "dim:evidence": got["dim:evidence"]})
    rows = {r["key"]: (r["theirs"], r["what"]) for r in view["provenance"]}
    assert rows["final_info.final_score"] == ("0.61", "score")
    assert rows["score_breakdown.evidence_score"] == ("0.35", "dimension evidence")
    assert rows["score_breakdown.compliance_score"] == ("0.9", "")
    again = _import(project, good, failed)  # importing again stores nothing new
    assert again.exit_code == 0 and "0 record(s) stored" in again.output


def test_a_file_in_the_wrong_shape_gets_one_clear_error(project):
    eps = project / "episodes"
    wrong = _write(eps, "notes.json", {"hello": [1, 2, 3] * 2000})
    cases_as_episodes = project / "cases.json"
    res = _import(project, wrong, cases_as_episodes)
    assert res.exit_code == 2
    errors = [line for line in res.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 2 and all("not a LedgerShield episode file" in e for e in errors)
    assert not (project / "results").exists()


def test_the_model_is_checked_against_the_file(project):
    path = _write(project / "episodes", "OPS-D-01.json", _episode("OPS-D-01", [], D_SUBMISSION, model="other-model"))
    res = _import(project, path)
    assert res.exit_code == 2 and "of model 'other-model', not 'magpie-2'" in res.output


def test_cases_in_the_wrong_shape_and_unknown_cases(project):
    path = _write(project / "episodes", "OPS-D-01.json", _episode("OPS-D-01", [], D_SUBMISSION))
    res = _import(project, path, cases=False)  # the cases were never given: OPS-D-01 is no item
    assert res.exit_code == 2 and "is not an item of this suite (give LedgerShield's cases with --cases" in res.output
    (project / "cases.json").write_text('{"case_id": "x"}', encoding="utf-8")
    res = _import(project, path)
    assert res.exit_code == 2 and "not LedgerShield's cases.json shape" in res.output


def test_fixture_tables_beside_the_cases_file_make_unknown_ids_fail(project):
    """LedgerShield's vendors.json, po_records.json, receipts.json and policy_rules.json beside the
    cases file become the desk's tables (a case's context_overrides replacing them): a lookup of an
    id they do not hold is not_found, as in the reference, and leaves investigation short."""
    steps = [("inspect_email_thread", {"thread_id": "OPS-THR-1"}), ("lookup_vendor_history", {"vendor_key": "acme"}),
             ("lookup_policy", {"rule_id": "POL-9"}), ("compare_bank_account", {"vendor_key": "ACME ",
                                                                               "proposed_bank_account": "X"}),
             ("search_ledger", {}), ("request_callback_verification", {})]
    path = _write(project / "episodes", "OPS-D-01.json", _episode("OPS-D-01", steps, D_SUBMISSION))
    assert _import(project, path).exit_code == 0  # no fixture files: every id is accepted
    items = project / "content" / "suites" / "ledgershield" / "items" / "reference.public.jsonl"
    item = json.loads(items.read_text().splitlines()[1])
    episode = json.loads(path.read_text())
    before = {u: o for u, _k, _v, _r, o in grade(item, episode)}
    assert before["dim:investigation"] == "10000"  # D's four tools and the callback (risky), all ok
    (project / "vendors.json").write_text(json.dumps([{"vendor_key": "acme", "bank_account": "DE1"}, {"name": "x"}]))
    (project / "policy_rules.json").write_text(json.dumps([{"rule_id": "POL-1", "title": "callback"}]))
    cases = json.loads((project / "cases.json").read_text())
    cases[1]["context_overrides"] = {"vendors": [{"vendor_key": "globex"}]}  # OPS-A-01's own vendor master
    (project / "cases.json").write_text(json.dumps(cases))
    assert _import(project, path).exit_code == 0
    a_item, d_item = (json.loads(x) for x in items.read_text().splitlines())
    assert sorted(d_item["env"]["vendors"]) == ["acme"] and sorted(d_item["env"]["policy"]) == ["POL-1"]
    assert sorted(a_item["env"]["vendors"]) == ["globex"] and "pos" not in d_item["env"]  # no po_records.json
    after = {u: o for u, _k, _v, _r, o in grade(d_item, episode)}
    # lookup_policy of POL-9 is not_found: 4 of the 5 tools investigation asks for
    assert after["dim:investigation"] == str(10000 * 4 // 5) == "8000"
    # the same steps and cost (a step costs whatever its outcome); one of them now refused
    assert (before["replay"], after["replay"]) == ("steps=7;refused=0;cost=155;submitted=1",
                                                   "steps=7;refused=1;cost=155;submitted=1")
    (project / "receipts.json").write_text('{"receipt_id": "GRN-1"}')
    res = _import(project, path)
    assert res.exit_code == 2 and "receipts.json: not LedgerShield's receipts.json shape" in res.output


def test_ledger_and_vendor_history_files_and_the_artifacts_statuses(project):
    """ledger_index.json and vendor_history.json beside the cases file become the desk's `ledger` and
    `vendor_history` rows (a case's context_overrides replacing them, an empty list included); the
    artifacts get LedgerShield's statuses from the gold's signals, which the readiness test reads."""
    (project / "ledger_index.json").write_text(json.dumps([{"vendor_key": "acme", "invoice_number": "N-1"}, 7]))
    res = _import(project, _write(project / "episodes", "OPS-A-01.json", _episode("OPS-A-01", [], {})))
    assert res.exit_code == 2 and "ledger_index.json: not LedgerShield's ledger_index.json shape" in res.output
    (project / "ledger_index.json").write_text(json.dumps([{"vendor_key": "acme", "invoice_number": "N-1"}]))
    (project / "vendor_history.json").write_text(json.dumps([{"vendor_key": "acme", "change_type": "bank_change",
                                                              "status": "rejected"}]))
    cases = json.loads((project / "cases.json").read_text())
    cases[1]["context_overrides"] = {"vendor_history": []}  # OPS-A-01's own (empty) history
    cases[0]["gold"]["discrepancies"] = ["price_mismatch"]
    (project / "cases.json").write_text(json.dumps(cases))
    path = _write(project / "episodes", "OPS-D-01.json", _episode("OPS-D-01", [], D_SUBMISSION))
    assert _import(project, path).exit_code == 0
    items = project / "content" / "suites" / "ledgershield" / "items" / "reference.public.jsonl"
    a_item, d_item = (json.loads(x) for x in items.read_text().splitlines())
    assert d_item["env"]["ledger"] == a_item["env"]["ledger"] == [{"vendor_key": "acme", "invoice_number": "N-1"}]
    assert d_item["env"]["vendor_history"][0]["status"] == "rejected" and a_item["env"]["vendor_history"] == []
    # bank_override_attempt: the approval chain finds a mismatch; price_mismatch: the PO report is flagged
    arts = d_item["env"]["artifacts"]
    assert arts["bank_change_approval_chain"] == {"status": "mismatch_found"}
    assert arts["po_reconciliation_report"] == {"status": "reconciled_with_flags"}
    assert arts["receipt_reconciliation_report"] == {"status": "reconciled_clean"}
    assert arts["duplicate_cluster_report"] == {"status": "no_cluster"}
    assert a_item["env"]["artifacts"]["bank_change_approval_chain"] == {"status": "clean"}
    # the history's rejected bank change is observed (a follow-up is due: the callback), then the approval
    # chain's mismatch reveals policy_bypass_attempt (route_to_security due)
    steps = [("lookup_vendor_history", {"vendor_key": "acme"}), ("request_bank_change_approval_chain", {}),
             ("lookup_policy", {}), ("lookup_policy", {})]
    state = replay(d_item["env"], [_step(k + 1, a, p) for k, (a, p) in enumerate(steps)])
    assert state.observed == {"historical_bank_change_rejected", "policy_bypass_attempt"}
    assert state.observations == [("lookup_vendor_history", "suspicious_history"),
                                  ("bank_change_approval_chain", "chain_clean"),
                                  ("bank_change_approval_chain", "mismatch_found")]


def test_the_hidden_signals_read_all_four_gold_lists_and_the_attack_names_the_hypothesis():
    """LedgerShield derives its hidden risk signals from the gold's reason codes, fraud flags,
    discrepancies and campaign signals: a discrepancy alone (price_mismatch) requires the PO
    reconciliation report and flags it, a campaign signal (shared_bank_account) requires the cluster
    review, the freeze and their artifacts; the first applied attack the table names is the hypothesis."""
    from generator.suites.ledgershield.cases_import import case_item

    case = {"case_id": "OPS-B-07", "task_type": "task_b", "documents": [],
            "generator_metadata": {"applied_attacks": ["unknown_attack", "split_payment_attack", "ceo_fraud_attack"]},
            "gold": {"decision": "HOLD", "unsafe_if_pay": True, "discrepancies": ["price_mismatch"],
                     "campaign_signals": ["shared_bank_account"]}}
    it = case_item(case, "cases.json[0]")
    assert it["gold"]["required_artifacts"] == ["duplicate_cluster_report", "callback_verification_result",
                                                "po_reconciliation_report"]
    assert it["gold"]["required_interventions"] == ["lookup_policy", "lookup_po", "lookup_receipt",
                                                    "flag_duplicate_cluster_review", "freeze_vendor_profile"]
    assert it["env"]["artifacts"]["po_reconciliation_report"]["status"] == "reconciled_with_flags"
    assert it["gold"]["hypothesis"] == "split_payment"
    del case["generator_metadata"]
    assert "hypothesis" not in case_item(case, "cases.json[0]")["gold"]


def test_an_email_threads_reading_is_ledgershields(tmp_path: Path):
    """inspect_email_thread is an observation of the readiness test: domain_spoof_detected when the
    sender's domain is not the expected one (or, with none expected, shares no word with the vendor's
    name), or the text urges, discourages the callback or overrides the workflow; else domain_clean.
    The row of email_threads.json beside the cases file comes before the document's own text."""
    from generator.suites.ledgershield.cases_import import read_cases
    from generator.suites.ledgershield.thread_reading import observation

    assert observation("a@acme.example", "Invoice", "Attached.", "acme.example") == "domain_clean"
    assert observation("a@acme-pay.example", "Invoice", "Attached.", "acme.example") == "domain_spoof_detected"
    assert observation("A@Acme.example", "Invoice", "Please  Do not   verify by phone.", "acme.example") == \
        "domain_spoof_detected"  # lowercased, whitespace runs as one space
    assert observation("a@acme.example", "Pay TODAY", "", "acme.example") == "domain_spoof_detected"
    assert observation("billing@northwind.example", "", "ok", "", "Northwind Industrial Ltd") == "domain_clean"
    assert observation("billing@nw-remit.example", "", "ok", "", "Northwind Industrial Ltd") == "domain_spoof_detected"
    assert observation("billing@nw-remit.example", "", "ok", "", "Co Ltd") == "domain_clean"  # no vendor word left
    case = _case_d()
    (tmp_path / "cases.json").write_text(json.dumps([case]), encoding="utf-8")
    assert read_cases(tmp_path / "cases.json")[0]["env"]["threads"]["OPS-THR-1"]["observation"] == "domain_spoof_detected"
    row = {"thread_id": "OPS-THR-1", "from": "ap@acme.example", "subject": "Invoice 7", "messages": ["Attached."],
           "vendor_domain": "acme.example"}
    (tmp_path / "email_threads.json").write_text(json.dumps([row]), encoding="utf-8")
    item = read_cases(tmp_path / "cases.json")[0]
    assert item["env"]["threads"]["OPS-THR-1"]["observation"] == "domain_clean"
    # the replay: the thread's reading, and domain_clean for a thread the desk does not hold
    steps = [{"action_type": "inspect_email_thread", "payload": {"thread_id": "OPS-THR-1"}},
             {"action_type": "inspect_email_thread", "payload": {"thread_id": "THR-404"}}]
    assert replay(item["env"], steps).observations == [("inspect_email_thread", "domain_clean")] * 2
    item["env"]["threads"]["OPS-THR-1"]["observation"] = "domain_spoof_detected"
    assert replay(item["env"], steps[:1]).observations == [("inspect_email_thread", "domain_spoof_detected")]


def _counted(episode: dict, counter: object) -> dict:
    episode["final_info"]["institutional_memory"] = {"case_counter": counter}
    return episode


def _stored(project: Path) -> list[tuple[str, dict | None]]:
    run = project / "results" / "ledgershield" / f"{MODEL}-cloudco" / "responses.jsonl"
    out = []
    for rec in map(json.loads, run.read_text().splitlines()):
        content = rec["response"]["choices"][0]["message"]["content"] if rec["response"] else None
        out.append((rec["item"], json.loads(content).get("run_state") if content else None))
    return out


A_SUBMISSION = {"decision": "PAY", "confidence": 0.5}
AFTER_A = {"n": 1, "level": "restricted_authority", "error": 2500, "window": 0, "delay": 0, "minutes": 0,
           "friction": 0, "fp_cost": 0, "debt": 2500, "breaches": 0, "restrictions": 1}


def test_imported_episodes_are_served_in_the_order_of_their_recorded_case_counters(project):
    """Rule page section 12: given D then A, with LedgerShield's counters 2 and 1, A was served first; it
    carries the initial state and D the state A left: a right PAY (the case states no decision) at 1/2 on a
    benign Task A case, x = 1/4, error 0.25 >= 0.22: restricted authority and one restriction."""
    eps = project / "episodes"
    d = _write(eps, "OPS-D-01.json", _counted(_episode("OPS-D-01", [], D_SUBMISSION), 2))
    a = _write(eps, "OPS-A-01.json", _counted(_episode("OPS-A-01", [], A_SUBMISSION), 1))
    res = _import(project, d, a)
    assert res.exit_code == 0, res.output
    initial = dict.fromkeys(AFTER_A, 0) | {"level": "full_authority"}
    assert _stored(project) == [("OPS-A-01", initial), ("OPS-D-01", AFTER_A)]
    items = project / "content" / "suites" / "ledgershield" / "items" / "reference.public.jsonl"
    item = {json.loads(x)["id"]: json.loads(x) for x in items.read_text().splitlines()}["OPS-D-01"]
    content = json.loads((project / "results" / "ledgershield" / f"{MODEL}-cloudco" / "responses.jsonl")
                         .read_text().splitlines()[1])["response"]["choices"][0]["message"]["content"]
    got = {u: o for u, _k, _v, _r, o in grade(item, extract_answer(content))}
    assert got["run_state:in"].startswith("n=1;level=restricted_authority;error=2500;")


def test_counters_of_one_mean_fresh_environments_and_equal_ones_several(project):
    eps = project / "episodes"
    d = _write(eps, "OPS-D-01.json", _counted(_episode("OPS-D-01", [], D_SUBMISSION), 1))
    a = _write(eps, "OPS-A-01.json", _counted(_episode("OPS-A-01", [], A_SUBMISSION), 1))
    res = _import(project, d, a)
    assert res.exit_code == 0, res.output
    assert _stored(project) == [("OPS-D-01", None), ("OPS-A-01", None)]  # each alone: no state carried in
    shutil.rmtree(project / "results")
    _write(eps, "OPS-D-01.json", _counted(_episode("OPS-D-01", [], D_SUBMISSION), 2))
    _write(eps, "OPS-A-01.json", _counted(_episode("OPS-A-01", [], A_SUBMISSION), 2))
    res = _import(project, d, a)
    assert res.exit_code != 0 and "several environments" in res.output
    assert not (project / "results" / "ledgershield").exists() or not list((project / "results").rglob("*.jsonl"))


def test_without_counters_the_files_order_is_the_served_order(project):
    eps = project / "episodes"
    a = _write(eps, "OPS-A-01.json", _episode("OPS-A-01", [], A_SUBMISSION))
    d = _write(eps, "OPS-D-01.json", _episode("OPS-D-01", [], D_SUBMISSION))
    res = _import(project, a, d)
    assert res.exit_code == 0, res.output
    assert [s for _i, s in _stored(project)][1] == AFTER_A
