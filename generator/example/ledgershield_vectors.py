"""The shared cases of the LedgerShield suite (tests/vectors/ledgershield.json): every curated case with
each scripted agent, plus one case per awkward trajectory or payload. Expected rows are scorer A's,
checked by hand where tests/test_ledgershield_grading.py says so; each case carries the replayed state."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from ..suites.ledgershield.readiness import ready
from ..suites.ledgershield.replay import INTERVENTIONS, approved_account, replay
from ..suites.ledgershield.scoring import extract_answer
from .ledgershield_agents import AGENTS, careful, noisy

START = "2026-04-01T00:00:00Z"
PREDICTED = {"safe": 0.1, "bank_fraud": "0.9", "not_a_hypothesis": 5}


def record(item_id: str, content: object, status: int = 200, error: str | None = None) -> dict:
    body = None if status != 200 else {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}
    return {"item": item_id, "repeat": 0, "request": {},
            "attempts": [{"start": START, "status": status, "error": error, "latency_ms": 1.0}], "response": body}


def _mutations(item: dict) -> list[tuple[str, object]]:
    """(name, content) of awkward episodes built from the careful one."""
    base = careful(item)
    out: list[tuple[str, object]] = []

    def edit(name: str, fn) -> None:
        ep = copy.deepcopy(base)
        fn(ep)
        out.append((name, json.dumps(ep)))

    fs = "final_submission"
    edit("no-final-submission", lambda e: e.pop(fs))
    edit("final-not-object", lambda e: e.__setitem__(fs, "PAY"))
    edit("decision-lowercase", lambda e: e[fs].__setitem__("decision", e[fs]["decision"].lower()))
    edit("confidence-string", lambda e: e[fs].__setitem__("confidence", "0.9"))
    edit("confidence-5-digits", lambda e: e[fs].__setitem__("confidence", 0.12345))
    edit("confidence-zero", lambda e: e[fs].__setitem__("confidence", 0))
    edit("empty-evidence", lambda e: e[fs].__setitem__("evidence_map", {}))
    def each_box(fn):
        return lambda e: [v.__setitem__("bbox", fn(v["bbox"])) for v in e[fs]["evidence_map"].values()]

    edit("evidence-tokens-only", each_box(lambda b: [0, 0, 1, 1]))
    edit("evidence-float-bbox", each_box(lambda b: [x + 0.5 for x in b]))
    edit("evidence-shifted-bbox", each_box(lambda b: [b[0] + 30, b[1], b[2] + 30, b[3]]))
    edit("evidence-page-string", lambda e: [v.__setitem__("page", "1") for v in e[fs]["evidence_map"].values()])
    edit("no-reason-codes", lambda e: e[fs].pop("reason_codes", None))
    edit("no-counterfactual", lambda e: e[fs].__setitem__("counterfactual", " \n"))
    edit("no-discrepancies", lambda e: e[fs].__setitem__("discrepancies", []))
    edit("extra-codes", lambda e: e[fs].__setitem__("reason_codes", list(e[fs].get("reason_codes", [])) + ["made_up", 7]))
    edit("links-reversed", lambda e: e[fs].__setitem__(
        "cross_invoice_links", ["<->".join(reversed(x.split("<->"))) for x in e[fs].get("cross_invoice_links", [])]))
    edit("links-empty", lambda e: e[fs].__setitem__("cross_invoice_links", []) or e[fs].pop("duplicate_links", None))
    edit("links-lowercase-spaced", lambda e: e[fs].__setitem__(
        "cross_invoice_links", [" " + x.lower() + " " for x in e[fs].get("cross_invoice_links", [])]))
    edit("reference-trace-keys", lambda e: e.__setitem__("action_trace", [
        {"phase": "investigation", "step": k + 1, "action_type": st["tool_name"], "payload": st["payload"],
         "tool_name": None, "tool_success": True, "tool_error": None, "reward": 0.01, "done": False}
        for k, st in enumerate(e["action_trace"])]))
    edit("decision-aliases", lambda e: e[fs].__setitem__("reason_codes", ["Spoofed sender domain", "BANK-OVERRIDE attempt"]))
    edit("handoff", lambda e: e["action_trace"].insert(0, {"tool_name": "create_human_handoff", "payload": {
        "summary": "Needs a human.", "recommended_next_step": " "}}))
    edit("line-items-shuffled", lambda e: e[fs].__setitem__("line_items", list(reversed(e[fs].get("line_items", []))) +
                                                             [{"description": "extra"}, 5]))
    edit("fields-formatted", lambda e: e[fs].get("extracted_fields", {}).update(
        {k: f"$ {v:,}" if not isinstance(v, str) else v.upper() for k, v in e[fs].get("extracted_fields", {}).items()}))
    edit("repeats", lambda e: e["action_trace"].__setitem__(slice(0, 0), [{"tool_name": "lookup_policy", "payload": {"a": 1.0}},
                                                                         {"tool_name": "lookup_policy", "payload": {"a": 1}}]))
    edit("policy-uppercase", lambda e: e[fs].__setitem__(
        "policy_checks", {k: v.upper() for k, v in e[fs].get("policy_checks", {}).items()}))
    edit("numbers-as-strings", lambda e: e[fs].get("extracted_fields", {}).update(
        {k: str(v) for k, v in e[fs].get("extracted_fields", {}).items() if not isinstance(v, str)}))
    edit("spaces-in-text", lambda e: e[fs].get("extracted_fields", {}).update(
        {k: " " + v.replace(" ", "") + " " for k, v in e[fs].get("extracted_fields", {}).items() if isinstance(v, str)}))
    edit("hold-instead", lambda e: e[fs].__setitem__("decision", "HOLD" if e[fs]["decision"] != "HOLD" else "NEEDS_REVIEW"))
    edit("pay-instead", lambda e: e[fs].__setitem__("decision", "PAY"))
    edit("no-interventions", lambda e: e.__setitem__(
        "action_trace", [s for s in e["action_trace"] if s["tool_name"] not in INTERVENTIONS]))
    edit("artifact-too-early", lambda e: e.__setitem__("action_trace", [s for s in e["action_trace"]
                                                                        if s["tool_name"] != "lookup_policy"]))
    bad = ["ocr", {"tool_name": "ocr"}, {"tool_name": "ocr", "payload": {"doc_id": "NOPE", "mode": "fast"}},
           {"tool_name": "ocr", "payload": {"doc_id": 5, "mode": "accurate"}},
           {"tool_name": "compare_bank_account", "payload": {"vendor_key": "x", "proposed_bank_account": ""}},
           {"tool_name": "lookup_vendor", "payload": {"vendor_key": "  " + next(iter(item["env"]["vendors"])).upper()}},
           {"tool_name": "lookup_policy", "payload": {"rule_id": "nope"}}, {"tool_name": "get_artifact", "payload": {}},
           {"tool_name": "freeze_vendor_profile", "payload": []}]
    edit("bad-steps", lambda e: e["action_trace"].__setitem__(slice(0, 0), bad))
    edit("over-budget", lambda e: e["action_trace"].__setitem__(slice(0, 0), [{"tool_name": "lookup_policy", "payload": {}}] * 20))
    edit("steps-after-submit", lambda e: e["action_trace"].append({"tool_name": "route_to_security", "payload": {}}))
    edit("no-submit-step", lambda e: e.__setitem__("action_trace", e["action_trace"][:-1]))
    edit("trace-not-array", lambda e: e.__setitem__("action_trace", {}))
    return out


def build(items: list[dict]) -> dict:
    cases = []
    rng = random.Random(7)
    base = [i for i in items if i["dataset"] == "curated"]
    for k, item in enumerate(base):  # each agent, a noisy run and four mutations in turn (each used thrice)
        contents: list[tuple[str, object]] = [(f"{a}", json.dumps(fn(item))) for a, fn in AGENTS.items()]
        contents.append(("noisy", json.dumps(noisy(item, "careful", rng))))
        picks = _mutations(item)
        contents += [picks[(4 * k + j) % len(picks)] for j in range(4)]
        for name, content in contents:
            cases.append(_case(f"{item['id']}:{name}", item, record(item["id"], content)))
    first = {t: next(i for i in base if i["task"] == t) for t in "ABCDE"}
    # the repeat test of efficiency: a step without a payload counts as {}, null is a payload of its own
    for name, steps in (("payload-absent-then-empty", [{"tool_name": "lookup_policy"},  # a repeat
                                                       {"tool_name": "lookup_policy", "payload": {}}]),
                        ("payload-null-then-absent", [{"tool_name": "lookup_policy", "payload": None},  # none
                                                      {"tool_name": "lookup_policy"}])):
        ep = careful(first["A"])
        ep["action_trace"][0:0] = steps
        cases.append(_case(f"{first['A']['id']}:{name}", first["A"], record(first["A"]["id"], json.dumps(ep))))
    # out-of-range numbers in payloads (no value): two written with the same characters are equal (a repeat);
    # written differently, or beside a number with a value, they are not
    for name, first_lit, second_lit in (("payload-out-of-range-repeated", "1e-1000001", "1e-1000001"),
                                        ("payload-out-of-range-written-apart", "1e-1000001", "1E-1000001"),
                                        ("payload-out-of-range-then-zero", "1e-1000001", "0")):
        ep = careful(first["A"])
        ep["action_trace"][0:0] = [{"tool_name": "lookup_policy", "payload": {"rule_id": "@N1@"}},
                                   {"tool_name": "lookup_policy", "payload": {"rule_id": "@N2@"}}]
        text = json.dumps(ep).replace('"@N1@"', first_lit).replace('"@N2@"', second_lit)
        cases.append(_case(f"{first['A']['id']}:{name}", first["A"], record(first["A"]["id"], text)))
    # LedgerShield's reading of confidence (float(confidence or 0.5), clamped) and a text amount whose
    # exponent is out of range (0, not a billion-digit number); on B the falsifier's two findings
    for name, task, edit in (("confidence-true", "A", {"confidence": True}),
                             ("confidence-text-zero", "A", {"confidence": " 0 "}),
                             ("confidence-unreadable", "A", {"confidence": "high"}),
                             ("confidence-above-one", "A", {"confidence": 7}),
                             ("confidence-empty-array", "A", {"confidence": []}),
                             ("amount-exponent-out-of-range", "A", {"extracted_fields": {"total": "1e-1000001"}}),
                             ("falsifier-pay-failed-check", "B", {"decision": "PAY",
                                                                  "policy_checks": {"three_way_match": "fail"}}),
                             ("falsifier-no-evidence", "C", {"evidence_map": {}}),
                             # the calibration's own distribution: 0.3333 on a safe case (Brier 0, log 1 + 1/9)
                             ("predicted-probabilities", "A", {"predicted_probabilities": PREDICTED}),
                             ("predicted-probabilities-unreadable", "A", {"predicted_probabilities": {"safe": "high"}})):
        ep = careful(first[task])
        ep["final_submission"].update(edit)
        cases.append(_case(f"{first[task]['id']}:{name}", first[task], record(first[task]["id"], json.dumps(ep))))
    # the gold's hypothesis (an imported case's applied attack) is the calibration's truth: bank_fraud at
    # 0.9: Brier 1 - 0.01 - 0.01 = 0.98 (also penalized), log 1 + log10(1/0.9) / 9: 0.9875
    named = copy.deepcopy(first["A"])
    named["gold"]["hypothesis"] = "bank_fraud"
    ep = careful(named)
    ep["final_submission"]["predicted_probabilities"] = PREDICTED
    cases.append(_case(f"{named['id']}:predicted-probabilities-hypothesis", named, record(named["id"], json.dumps(ep))))
    # causal consistency: the gold's attack picks the scenario; a gold stating no decision matches a
    # payload without one: association 1 ("x" is no code: F1 of two empty sets), no tool observing the
    # scenario's nodes, neither confounder observed, counterfactual 0.4 ("pay", the phantom vendor
    # world's decision) + 0.2 ("pay") + 0.1 ("callback"): 0.35 + 0.14 = 0.49 -> -0.0005 (-500)
    scenario = copy.deepcopy(first["A"])
    scenario["gold"].update({"attack": "phantom_vendor_attack", "hypothesis": "phantom_vendor", "decision_stated": False})
    ep = careful(scenario)
    ep["final_submission"].pop("decision", None)
    ep["final_submission"].update({"counterfactual": "We would pay once the callback clears.", "fraud_flags": ["x"]})
    cases.append(_case(f"{scenario['id']}:causal-attack-no-decision", scenario, record(scenario["id"], json.dumps(ep))))
    # an observed bank-account mismatch (the desk's vendor master) before a PAY on a benign case:
    # blocked without a callback verification, not blocked with one
    clean = next(i for i in base if i["gold"]["decision"] == "PAY" and i["task"] in "BCD" and i["env"].get("vendors"))
    compare = {"tool_name": "compare_bank_account",
               "payload": {"vendor_key": next(iter(clean["env"]["vendors"])), "proposed_bank_account": "XX00 0000 0000"}}
    for name, extra in (("bank-mismatch-pay", [compare]),
                        ("bank-mismatch-pay-called", [compare, {"tool_name": "request_callback_verification",
                                                                "payload": {}}])):
        ep = careful(clean)
        ep["action_trace"][0:0] = extra
        cases.append(_case(f"{clean['id']}:{name}", clean, record(clean["id"], json.dumps(ep))))
    # the desk's observations (rule page section 2): a vendor history with a rejected bank change and a
    # ledger row the search finds (by vendor and invoice, or by amount bands) before a PAY on a benign
    # case; and a risky case submitted before the readiness test is ready
    vendor = next(iter(clean["env"]["vendors"]))
    desk = copy.deepcopy(clean)
    desk["env"]["vendor_history"] = [{"vendor_key": vendor.upper(), "change_type": "Bank account change",
                                      "status": "Rejected"}, {"vendor_key": vendor, "event_type": "fraud_report"}]
    desk["env"]["ledger"] = [{"vendor_key": vendor, "invoice_number": "INV-77", "amount": "1,000.00"},
                             {"vendor_key": vendor, "invoice_number": "X-1", "amount": 930},
                             {"vendor_key": "other", "invoice_number": "INV-77", "amount": 1000}]
    desk["id"] = clean["id"]
    history = {"tool_name": "lookup_vendor_history", "payload": {"vendor_key": vendor}}
    searches = {"ledger-invoice": {"vendor_key": vendor, "invoice_number": "inv 77"},
                "ledger-invoice-within": {"invoice_number": "INV-77-B"},
                "ledger-amount-92": {"vendor_key": vendor, "amount": "1000"},
                "ledger-amount-none": {"vendor_key": vendor, "amount": 100}}
    for name, extra in [("history-signal-pay", [history])] + [
            (n, [{"tool_name": "search_ledger", "payload": p}]) for n, p in searches.items()] + [
            ("history-signal-matched-account-pay", [history, {"tool_name": "compare_bank_account", "payload": {
                "vendor_key": vendor, "proposed_bank_account": approved_account(clean["env"]["vendors"][vendor])}}]),
            ("history-signal-pay-ledger-flagged", [history, {"tool_name": "search_ledger", "payload": searches[
                "ledger-invoice"]}, {"tool_name": "flag_duplicate_cluster_review", "payload": {}}])]:
        ep = careful(desk)
        ep["action_trace"][0:0] = extra
        cases.append(_case(f"{clean['id']}:{name}", desk, record(clean["id"], json.dumps(ep))))
    cases += _sequences(first["A"])
    risky = next(i for i in base if i["gold"]["decision"] != "PAY" and i["task"] == "B")
    ep = careful(risky)
    ep["action_trace"] = [st for st in ep["action_trace"] if st["tool_name"] == "submit_decision"]
    cases.append(_case(f"{risky['id']}:not-ready", risky, record(risky["id"], json.dumps(ep))))
    for t, item in first.items():  # the replies that are not episodes, once per task
        for name, rec in (("failed-call", record(item["id"], None, 500, None)),
                          ("error-attempt", record(item["id"], "{}", 200, "timeout")),
                          ("content-null", record(item["id"], None)),
                          ("not-json", record(item["id"], "I would HOLD this invoice.")),
                          ("two-objects", record(item["id"], '{"action_trace": []} {"action_trace": []}')),
                          ("fenced", record(item["id"], '```json\n{"action_trace": []}\n```')),
                          ("empty-episode", record(item["id"], '{"action_trace": []}'))):
            cases.append(_case(f"{item['id']}:{name}", item, rec))
    return {"suite": "ledgershield", "rules": "content/pages/scoring-ledgershield.md", "cases": cases}


def _state_json(order: str) -> dict:
    """A `run_state:out` order as the `run_state` object the next episode of the run carries."""
    pairs = dict(part.split("=", 1) for part in order.split(";"))
    return {k: (v if k == "level" else int(v)) for k, v in pairs.items()}


def _sequences(item: dict) -> list[dict]:
    """Runs of episodes on one benign Task A case, each carrying the state the one before it left (rule
    page section 12; worked by hand in tests/test_ledgershield_grading.py), and malformed states."""
    out: list[dict] = []
    runs: dict[str, list[tuple[str, dict]]] = {
            "run1": [("pay-0.9", {"decision": "PAY", "confidence": 0.9}), ("hold-no-confidence", {"decision": "HOLD"}),
                     ("pay-no-confidence-restricted", {"decision": "PAY"}),
                     ("pay-0.95-restricted", {"decision": "PAY", "confidence": 0.95})],
            "run2": [("hold-0.99", {"decision": "HOLD", "confidence": 0.99}),
                     ("pay-0.9-review-only", {"decision": "PAY", "confidence": 0.9}),
                     ("no-decision-review-only", {"decision": "maybe", "confidence": 0.9}),
                     ("needs-review-0.5-review-only", {"decision": "NEEDS_REVIEW", "confidence": 0.5})]}
    for run, steps in runs.items():
        carried: dict | None = None
        for name, edit in steps:
            ep = careful(item)
            ep["final_submission"].pop("confidence", None)
            ep["final_submission"].update(edit)
            if carried is not None:
                ep["run_state"] = carried
            case = _case(f"{item['id']}:{run}-{name}", item, record(item["id"], json.dumps(ep)))
            out.append(case)
            carried = _state_json(dict(case["orders"])["run_state:out"])
    good = json.dumps({"n": 1, "level": "restricted_authority", "error": 2500, "window": 0, "delay": 0, "minutes": 0,
                       "friction": 0, "fp_cost": 0, "debt": 2500, "breaches": 0, "restrictions": 1})
    for name, text in (("run-state-whole-decimal", good.replace('"n": 1,', '"n": 1.0e0,')),
                       ("run-state-fraction", good.replace('"n": 1,', '"n": 1.5,')),
                       ("run-state-negative", good.replace('"window": 0', '"window": -1')),
                       ("run-state-error-above", good.replace('"error": 2500', '"error": 10001')),
                       ("run-state-level-unknown", good.replace("restricted_authority", "locked")),
                       ("run-state-extra-key", good.replace('"n": 1,', '"n": 1, "seed": 3,')),
                       ("run-state-not-object", "[]")):
        text = json.dumps(careful(item))[:-1] + ', "run_state": ' + text + "}"
        out.append(_case(f"{item['id']}:{name}", item, record(item["id"], text)))
    return out


def _case(cid: str, item: dict, rec: dict) -> dict:
    from ..inputs.content import Item
    from ..parse.response import read_outcome
    from ..suites.ledgershield.scoring import score

    it = Item(item["id"], item["dataset"], item["half"], item["strata"], item["document"], item, "", b"")
    rows = score(it, read_outcome(rec, extract_answer, "episode"), "case", 0)
    out = {"id": cid, "item": item, "record": rec, "expected": [[r.unit, r.verdict] for r in rows],
           "orders": [[r.unit, r.order] for r in rows]}
    content = rec["response"]["choices"][0]["message"]["content"] if rec["response"] else None
    episode = extract_answer(content) if isinstance(content, str) else None
    if episode is not None:
        s = replay(item["env"], episode["action_trace"])
        out["state"] = {"steps": s.steps, "refused": s.refused, "cost": s.cost, "submitted": s.submitted,
                        "tools_ok": sorted(s.tools_ok), "performed": sorted(s.performed), "retrieved": list(s.retrieved),
                        "fired": [e["id"] for e in s.fired], "outcomes": [st.outcome for st in s.timeline],
                        "observed": sorted(s.observed), "observations": [list(o) for o in s.observations],
                        "ready": ready(s.observations)}
    return out


def write_vectors(path: Path, items: list[dict]) -> Path:
    path.write_text(json.dumps(build(items), ensure_ascii=False, indent=None, sort_keys=True) + "\n", encoding="utf-8")
    return path
