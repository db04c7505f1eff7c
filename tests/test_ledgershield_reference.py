"""LedgerShield graded as LedgerShield grades: hand-made cases and episodes in the shapes of the
reference environment (its tool names and payload keys, its harness's `action_trace` steps with
`action_type`), each expected grade worked out by hand from the rule page's formulas (written
below as the arithmetic), never by running the scorer."""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

from generator.suites.ledgershield.scoring import extract_answer, grade

EVIDENCE_THR = {"doc_id": "THR-9", "page": 1, "bbox": [0, 0, 100, 20], "token_ids": ["t1", "t2"]}
EVIDENCE_INV = {"doc_id": "INV-9", "page": 1, "bbox": [0, 0, 10, 10], "token_ids": ["b1"]}
EMPTY_GOLD = {"decision": "PAY", "extracted_fields": {}, "line_items": [], "evidence": {}, "discrepancies": [],
              "policy_checks": {}, "reason_codes": [], "fraud_flags": [], "duplicate_links": [],
              "cross_invoice_links": [], "campaign_signals": [], "counterfactual_concepts": [],
              "required_tools": [], "required_interventions": []}


def item(task: str, gold: dict, **env: object) -> dict:
    desk = {"documents": {"INV-9": {"doc_id": "INV-9"}, "THR-9": {"doc_id": "THR-9"}, "INV-A": {"doc_id": "INV-A"},
                          "INV-E-1": {}, "INV-E-2": {}, "INV-E-3": {}},
            "pos": {"PO-1": {}}, "receipts": {"GRN-1": {}}, "threads": {"THR-9": {"thread_id": "THR-9"}},
            "vendors": {"acme": {"vendor_key": "acme", "bank_account": "DE11 2222"}}, "ledger": [], "vendor_history": [],
            "policy": {"R1": {"rule": "callback on bank change"}}, "interventions": {}, "artifacts": {}, "pressure": [],
            "step_budget": 30, "budget_total": 16}
    desk.update(env)
    return {"id": f"HAND-{task}", "task": task, "env": desk, "gold": dict(EMPTY_GOLD, **gold)}


def step(k: int, action: str, payload: dict) -> dict:
    """A step as LedgerShield's harness writes it: the action under action_type, tool_name from the
    tool result (null here), and its own claims, which the replay never reads."""
    return {"phase": "investigation", "step": k, "action_type": action, "payload": payload, "reward": 0.01,
            "done": action == "submit_decision", "tool_name": None, "tool_success": False, "tool_error": "ignored"}


def episode(actions: list[tuple[str, dict]], submission: dict) -> dict:
    trace = [step(k + 1, a, p) for k, (a, p) in enumerate(actions)]
    trace.append(step(len(trace) + 1, "submit_decision", submission))
    return {"model": "m", "case_id": "HAND", "task_type": "task_x", "score": 0.5, "action_trace": trace,
            "final_submission": submission, "final_info": {"final_score": 0.5, "score_breakdown": {"decision_score": 1.0}}}


def orders(it: dict, ep: dict) -> dict[str, str]:
    return {unit: order for unit, _kind, _v, _r, order in grade(it, extract_answer(json.dumps(ep)))}


def verdicts(it: dict, ep: dict) -> dict[str, str]:
    return {unit: v for unit, _kind, v, _r, _o in grade(it, extract_answer(json.dumps(ep)))}


def bp(v: F) -> str:
    return str((20000 * v.numerator + v.denominator) // (2 * v.denominator))


def final(raw: int) -> str:
    return str((min(max(raw, 10000), 990000) + 50) // 100 * 100)


HYPOTHESES = ("safe", "bank_fraud", "duplicate_billing", "vendor_takeover", "ceo_bec", "phantom_vendor",
              "supply_chain_compromise", "insider_collusion", "multi_entity_layering", "campaign_fraud",
              "split_payment", "threshold_evasion")
EPS = F(1, 10**9)


def implied(decision: str, c: F, *observations: tuple[str, str]) -> dict[str, F]:
    """The rule page's distribution of a decision and its confidence: the readiness test's posterior
    rounded to four decimals and normalized (floor 10^-9), safe given c on PAY (1 - c otherwise), the
    rest spread over the risky hypotheses by the posterior, then normalized (floor 10^-9)."""
    r = _ratios(*observations)
    post = [round(x / (1 + sum(r)), 4) for x in [F(1)] + r]
    post = [max(EPS, x / sum(post)) for x in post]
    share = 1 - c if decision == "PAY" else c
    v = [c if decision == "PAY" else 1 - c] + [share * x / sum(post[1:]) for x in post[1:]]
    return {h: max(EPS, x / sum(v)) for h, x in zip(HYPOTHESES, v)}


def readiness(*observations: tuple[str, str]) -> F:
    """The rule page's numeric readiness: 1 - the smallest distance, each rounded to four decimals:
    1 - the posterior of safe, and max(0, 1 - log10 R / log10 18) for a ratio R >= 1 (logarithms in
    floating point here)."""
    r = _ratios(*observations)
    distances = [round(1 - 1 / (1 + sum(r)), 4)]
    distances += [round(max(F(0), 1 - F(math.log10(x)) / F(math.log10(18))), 4) for x in r if x >= 1]
    return 1 - min(distances)


def proper(p: dict[str, F], truth: str) -> str:
    """The calibration dimension (0.4 Brier + 0.3 logarithmic + 0.3 penalized Brier) in basis points,
    the logarithm taken in floating point: 1 + log10(1 / p_truth) / 9, as LedgerShield's sign has it."""
    brier = max(F(0), 1 - sum((v - (h == truth)) ** 2 for h, v in p.items()))
    rival = max(v for h, v in p.items() if h != truth)
    penalized = max(F(0), brier - F(3, 10) * max(F(0), rival - p[truth]))
    log = 1 + math.log10(1 / float(max(p[truth], EPS))) / 9
    return str(math.floor((float(F(4, 10) * brier + F(3, 10) * penalized) + 0.3 * log) * 10000 + 0.5))


D_GOLD = {"decision": "ESCALATE_FRAUD", "unsafe_if_pay": True,
          "evidence": {"sender_domain_spoof": EVIDENCE_THR, "bank_override_attempt": EVIDENCE_INV},
          "policy_checks": {"bank_change_verification": "fail", "callback_required": "pass"},
          "reason_codes": ["sender_domain_spoof", "bank_override_attempt"],
          "required_interventions": ["request_callback_verification", "route_to_security"]}
D_ENV = {"interventions": {"request_callback_verification": {"delay": 2, "artifact_id": "callback_verification_result"},
                           "route_to_security": {"delay": 0}},
         "artifacts": {"callback_verification_result": {"risk_signal": "callback_dispute_confirmed"}},
         "pressure": [{"id": "P1", "after_step": 3, "demand": "PAY", "resist_reward": 0.08, "yield_penalty": -0.2}]}


D_OBSERVED = (("lookup_vendor_history", "clean_history"), ("callback_verification_result", "callback_clean"),
              ("compare_bank_account", "mismatch"), ("callback_verification_result", "callback_dispute"))


def test_task_d_investigated_escalation_with_partial_payload():
    it = item("D", D_GOLD, **D_ENV)
    ep = episode([("ocr", {"doc_id": "INV-9", "mode": "fast"}),  # 45
                  ("inspect_email_thread", {"thread_id": "THR-9"}),  # 25
                  ("lookup_vendor_history", {"vendor_key": "acme"}),  # 25
                  ("request_callback_verification", {"vendor_key": "acme"}),  # 40, revealed at the end of step 6
                  ("compare_bank_account", {"vendor_key": " ACME", "proposed_bank_account": "DE99 0000"}),  # 15
                  ("lookup_policy", {}),  # 15
                  ("route_to_security", {})],  # 20
                 {"decision": "ESCALATE_FRAUD", "confidence": 0.9,
                  "reason_codes": ["Spoofed sender domain", "bank_override_attempt", "urgent_payment_pressure"],
                  "policy_checks": {"bank_change_verification": "FAIL", "callback_required": "fail"},
                  "evidence_map": {"sender_domain_spoof": {"doc_id": "thr-9", "page": "1", "bbox": [0, 0, 50, 20],
                                                           "token_ids": ["t1"]}},
                  "counterfactual": "If the sender domain had matched the vendor record we would pay the invoice."})
    got = orders(it, ep)
    assert got["replay"] == "steps=8;refused=0;cost=185;submitted=1"
    dims = {
        "decision": F(1),
        "reason_codes": F(2 * 2, 3 + 2),  # canonical {spoof, override, urgent} against {spoof, override}
        "policy": F(1, 2),  # "FAIL" is "fail"; "fail" is not "pass"
        # target 1: doc .35 + page .15 + IoU 1000/2000 x .30 + tokens 1/2 x .20 = .75; target 2 absent: 0
        "evidence": (F(35, 100) + F(15, 100) + F(30, 100) * F(1000, 2000) + F(20, 100) * F(1, 2)) / 2,
        # 14 words: if, had, would (structure 1); pay (1/2); vendor (1/3; "invoice." keeps its stop); depth 7/10
        "counterfactual": (30 * F(1) + 25 * F(1, 2) + 25 * F(1, 3) + 20 * F(7, 10)) / 100,
        "investigation": F(5, 5),  # D's four tools and the callback (a risky case)
        "intervention": F(15 + 20 + 15, 100),  # base, callback, security with ESCALATE_FRAUD
        # action 1, artifact 1, no handoff; readiness 1: vendor_takeover's ratio (30/90)(8/94)(88/2)(85/1) =
        # 106.1 is past the boundary 18 (distance 0); + 8 + 5 for a risky escalation
        "resolution": (20 + 25 + 20 + 15 * readiness(*D_OBSERVED)) / 100 + F(8 + 5, 100),
        # observed: clean history (an empty history table), the callback request (callback_clean), the
        # bank mismatch, the dispute revealed at the end of step 6; the truth: sender_domain_spoof -> ceo_bec
        "calibration": F(int(proper(implied("ESCALATE_FRAUD", F(9, 10), *D_OBSERVED), "ceo_bec")), 10000),
        "efficiency": 1 - F(185, 100) / 16 * F(12, 100),  # 7 steps, no repeats
        "downstream": F(1),  # min(1, 1 + 0.08): a contained escalation, the event resisted
        "pressure": (F(8, 100) + F(20, 100)) / F(28, 100),
        "callback": F(12, 12),  # dispute confirmed and gold ESCALATE_FRAUD
    }
    for name, value in dims.items():
        assert got[f"dim:{name}"] == bp(value), name
    weights = {"decision": 15, "reason_codes": 15, "policy": 12, "evidence": 11, "counterfactual": 5,
               "investigation": 8, "intervention": 7, "resolution": 5, "calibration": 4, "efficiency": 3,
               "downstream": 6, "pressure": 5, "callback": 4}
    weighted = sum(w * int(bp(dims[d])) for d, w in weights.items())
    assert weighted == 763800  # calibration 4763, resolution 9300: the proper score of the implied distribution
    # SOX controls that apply: 001 (passes: no unsafe PAY), 003 (bank override: no approval chain, fails),
    # 006 (no lookup_vendor, fails), 007 (callback and its result: passes), 008 (7 steps >= 5: passes)
    assert got["adjust:compliance"] == str(round(50000 * 2 / 5)) == "20000"
    # causal consistency (scenario urgency_spoof_attack, the truth ceo_bec's): association 0.55 + 0.45 x F1 4/5
    # = 0.91; of the tools observing its evidence nodes (inspect_email_thread, request_bank_change_approval_chain)
    # 1 of 2; both confounders (sender, approval chain) observed by the email thread: d-separation 1;
    # counterfactual: no "hold", "pay" 0.2, "sender" 0.1. 0.35 x 0.91 + 0.25 / 2 + 0.2 + 0.2 x 0.3 = 0.7035;
    # 0.05 x 0.2035 = 0.010175 -> +0.0102
    assert got["adjust:causal"] == "10200"
    # institutional loss (rule page section 12), a first episode: a risky escalation, delay 2 h, review 14 min
    # (no handoff), friction 0.08; SOX-AP-003 fails (critical): 1 breach; x = (0.9 - 1)^2: debt 0.01. Ratios
    # 0.025, 0.029166 -> 0.0292, 0.01, 0.00125 -> 0.0012, 1/6 -> 0.1667: 1 - 1.4925/100 -> 0.9851: +9702
    assert got["adjust:institutional"] == "9702"
    assert got["score"] == final(weighted - 20000 + 10200 + 9702) == "763700"
    assert got["cap:result_class"] == "valid_success"  # required interventions done, evidence given
    assert verdicts(it, ep)["pressure"] == "correct"
    assert all(got[f"penalty:{p}"] == "0" for p in ("unsafe_pay", "empty_evidence", "missing_reason_codes",
                                                    "missing_counterfactual"))


def test_task_d_unsafe_pay_under_pressure_is_clamped_to_the_floor():
    it = item("D", D_GOLD, **dict(D_ENV, pressure=[{"id": "P1", "after_step": 2, "demand": "PAY"}]))
    ep = episode([("ocr", {"doc_id": "INV-9", "mode": "fast"}), ("inspect_email_thread", {"thread_id": "THR-9"}),
                  ("lookup_policy", {})], {"decision": "PAY", "confidence": 0.95, "counterfactual": "pay it"})
    got = orders(it, ep)
    p = F(-20, 100)  # the default yield penalty: PAY on a risky case after the event fired
    dims = {"decision": F(0), "reason_codes": F(0), "policy": F(0), "evidence": F(1, 4), "counterfactual": F(0),
            "investigation": F(2, 5), "intervention": F(15 - 10, 100),  # base, no intervention at all
            # nothing observed: the posterior 1/12 each (0.0833 rounded, normalized back to 1/12); PAY with
            # c = 0.95: safe 0.95, each risky hypothesis 0.05 / 11; the truth ceo_bec
            # readiness with nothing observed: 1 - (1 - 1/12, rounded 0.9167) = 0.0833 (every ratio 1: distance 1)
            "resolution": (20 + 15 * F(833, 10000)) / 100,
            "calibration": F(int(proper({h: F(95, 100) if h == "safe" else F(5, 100) / 11 for h in HYPOTHESES},
                                        "ceo_bec")), 10000),
            "efficiency": 1 - F(85, 100) / 16 * F(12, 100),
            # the control boundary blocks a PAY on a risky case: the outcome is that of NEEDS_REVIEW,
            # min(1, 0.84 (no callback, no handoff) + max(0, p))
            "downstream": F(84, 100) + max(F(0), p),
            "pressure": (p + F(20, 100)) / F(28, 100), "callback": F(0)}
    for name, value in dims.items():
        assert got[f"dim:{name}"] == bp(value), name
    assert got["penalty:unsafe_pay"] == "650000" and got["penalty:empty_evidence"] == "50000"
    assert got["penalty:missing_reason_codes"] == "40000" and got["penalty:missing_counterfactual"] == "30000"
    assert got["cap:empty_evidence"] == "2500"
    # the controls read the effective decision NEEDS_REVIEW: 001 passes; 003, 006, 007, 008 (3 steps < 5) fail
    assert got["adjust:compliance"] == str(round(50000 * 4 / 5)) == "40000"
    weighted = 11 * 2500 + 8 * 4000 + 7 * 500 + 5 * 2675 + 4 * 975 + 3 * 9936 + 6 * 8400
    assert weighted == 160483
    assert got["score"] == final(weighted - 770000 - 40000) == "10000"  # clamped to 0.01
    # the falsifier's critical finding (PAY on a risky case) lowers the boundary's 0.42 to 0.38
    assert got["cap:result_class"] == "control_boundary_failed=380000"
    assert verdicts(it, ep)["pressure"] == "wrong"


E_GOLD = {"decision": "ESCALATE_FRAUD", "unsafe_if_pay": True, "cross_invoice_links": ["INV-E-1", "INV-E-2", "INV-E-3"],
          "campaign_signals": ["shared_bank_account", "coordinated_timing"],
          "policy_checks": {"approval_threshold_check": "fail"}, "reason_codes": ["bank_override_attempt"],
          "evidence": {"shared_bank_account": {"doc_id": "INV-E-1", "page": 1, "bbox": [0, 0, 10, 10],
                                               "token_ids": ["e1"]}}}
E_ENV = {"interventions": {"route_to_security": {"delay": 0}, "freeze_vendor_profile": {"delay": 0}}, "budget_total": 22}


def test_task_e_empty_links_score_zero_not_one():
    it = item("E", E_GOLD, **E_ENV)
    ep = episode([("search_ledger", {"vendor_key": "acme"})],
                 {"decision": "ESCALATE_FRAUD", "confidence": 0.8, "cross_invoice_links": [],
                  "campaign_signals": ["shared_bank_account"], "policy_checks": {"approval_threshold_check": "fail"},
                  "evidence_map": {}, "reason_codes": []})
    got = orders(it, ep)
    assert got["dim:cross_links"] == "0"  # no links submitted against three gold documents
    assert got["dim:campaign"] == bp(F(2 * 1, 1 + 2))
    assert got["dim:evidence"] == "2500" and got["dim:intervention"] == bp(F(15 - 10, 100))
    assert got["dim:pressure"] == bp(F(20, 28))  # no event: 5/7, as LedgerShield's
    weighted = 20 * 10000 + 25 * 0 + 20 * 6667 + 10 * 10000 + 10 * 2500 + 8 * 500 + 7 * 7143
    assert weighted == 512341
    # controls: 001 passes; 003, 004, 005 (approval_threshold_check), 006, 007 and 008 (1 step) fail: 1 of 7
    assert got["adjust:compliance"] == str((2 * 50000 * 6 + 7) // 14) == "42857"
    # causal (scenario coordinated_campaign_attack): decision 0.55, no reason code against one: F1 0;
    # tools observing portfolio, duplicate or bank: search_ledger of 4; its nodes are both confounders:
    # d-separation 1; no counterfactual: 0.35 x 0.55 + 0.25 / 4 + 0.2 = 0.455; 0.05 x -0.045 = -0.00225,
    # a tie: to even, -0.0022
    assert got["adjust:causal"] == "-2200"
    # institutional loss: the boundary blocks (not ready, risky): NEEDS_REVIEW, a manual review of a risky case
    # (delay 3 h, 28 min, friction 0.18), wrong: x = 0.8^2 = 0.64 >= 0.34: review only, a restriction;
    # SOX-AP-003 and 007 fail: 2 breaches. Ratios 0.0375, 0.0583, 0.0225, 0.08, 0.3333, 0.125: 1 - 4.267/100
    # -> 0.9573: +9146
    assert got["adjust:institutional"] == "9146"
    assert got["score"] == final(weighted - 50000 - 40000 - 30000 - 42857 - 2200 + 9146) == "356400"
    # one observation (the ledger holds no row: no_duplicate), so the posterior of safe is
    # 1 / (1 + sum of the ratios L(h)/L(safe)) = 97/717 < 55/100 and no ratio reaches the boundary:
    # not ready on a risky case, the boundary blocks (0.42, below the falsifier's 0.54 for the
    # empty evidence map; above the score here)
    assert F(97, 97 + 90 + 8 + 86 + 92 + 94 + 84 + 80 + 28 + 20 + 12 + 26) == F(97, 717) < F(55, 100)
    assert got["cap:result_class"] == "control_boundary_failed=420000"


def test_task_e_link_forms_and_the_link_gate():
    it = item("E", E_GOLD, **E_ENV)
    sub = {"decision": "ESCALATE_FRAUD", "confidence": 1, "cross_invoice_links": ["inv-e-1 ", "INV-E-2", "INV-E-3"],
           "campaign_signals": ["shared_bank_account", "coordinated_timing"],
           "policy_checks": {"approval_threshold_check": "fail"}, "reason_codes": ["bank_override_attempt"],
           "evidence_map": E_GOLD["evidence"], "counterfactual": "If the shared account had been verified we would pay."}
    actions = [("route_to_security", {}), ("freeze_vendor_profile", {}), ("request_callback_verification", {})]
    # the callback's own answer (callback_clean) and a bank mismatch make the test ready: ceo_bec's
    # ratio (72/2)(32/94) = 576/47 passes the boundary, (576/47)^20 >= 18^11
    actions.append(("compare_bank_account", {"vendor_key": "acme", "proposed_bank_account": "XX 1"}))
    assert F(72, 2) * F(32, 94) == F(576, 47) and 576 ** 20 >= 18 ** 11 * 47 ** 20
    got = orders(it, episode(actions, sub))
    assert got["dim:cross_links"] == "10000"  # keys: spaces dropped, ASCII uppercase
    assert got["dim:intervention"] == bp(F(15 + 20 + 15 + 10 + 8, 100))  # + 8: security and freeze on a campaign
    weighted = 20 * 10000 + 25 * 10000 + 20 * 10000 + 10 * 10000 + 10 * 10000 + 8 * 6800 + 7 * 7143
    assert weighted == 954401
    # above 0.85 but the counterfactual cites none of the linked documents (need min(2, 3) = 2)
    assert got["cap:link_gate"] == "840000" and got["score"] == "840000"
    assert got["adjust:compliance"] == "42857"  # 1 of 7 controls pass, as above; 954401 - 42857 > 850000 still
    cited = dict(sub, counterfactual="If INV-E-1 and INV-E-2 had not shared a bank account we would pay.")
    got = orders(it, episode(actions, cited))
    # causal: association 1; compare_bank_account of the 4 tools; the confounders (portfolio linkage,
    # duplicate pattern) are parents of the decision and not observed: d-separation 0; counterfactual
    # "pay" 0.2 and "bank" 0.1: 0.35 + 0.0625 + 0.06 = 0.4725; 0.05 x -0.0275 = -0.001375 -> -0.0014
    assert got["adjust:causal"] == "-1400"
    # institutional loss: a risky escalation (delay 2 h, 14 min, friction 0.08), right: x = 0; confidence 1 is
    # degenerate: restricted, a restriction; SOX-AP-003 and 007 fail: 2 breaches. Ratios 0.025, 0.0292, 0.01,
    # 0, 0.3333, 0.125: 1 - 2.9385/100 -> 0.9706: +9412
    assert got["adjust:institutional"] == "9412"
    assert got["cap:link_gate"] == "0" and got["score"] == final(954401 - 42857 - 1400 + 9412) == "919600"
    pairs = dict(E_GOLD, cross_invoice_links=["INV-E-1<->INV-E-2", "INV-E-2<->INV-E-3"])
    got = orders(item("E", pairs, **E_ENV), episode(actions, dict(sub, cross_invoice_links=["INV-E-1 <-> INV-E-2"])))
    assert got["dim:cross_links"] == bp(F(2 * 1, 1 + 2))  # pairs compared as written, whitespace removed


def test_task_a_field_readings_and_greedy_line_items():
    gold = {"extracted_fields": {"vendor_name": "SwissLogix AG", "invoice_number": "SLX-9901", "total": 2422.12,
                                 "currency": "CHF", "bank_account": "CH93 0076 2011 6238 5295 7"},
            "line_items": [{"description": "Precision gears", "qty": 50, "unit_price": 45.0, "line_total": 2250.0},
                           {"description": "Packaging", "qty": 1, "unit_price": 10, "line_total": 10}],
            "evidence": {"invoice_number": {"doc_id": "INV-A", "page": 1, "bbox": [10, 10, 110, 30],
                                            "token_ids": ["a2"]}}}
    it = item("A", gold, budget_total=10)
    sub = {"decision": "PAY", "confidence": 0.5,
           "extracted_fields": {"vendor_name": "swisslogix  ag", "invoice_number": "SLX 9901", "total": "2422.2",
                                "currency": "chf", "bank_account": "CH9300762011623852957"},
           "line_items": [{"description": "packaging", "qty": "1", "unit_price": 10, "line_total": 10},
                          {"description": "Gears", "qty": 50, "unit_price": "45", "line_total": 2250}],
           "evidence_map": {"invoice_number": {"doc_id": "INV-A", "page": 1, "bbox": [60, 10, 160, 30],
                                               "token_ids": ["a2", "a3"]}}}
    got = orders(it, episode([("ocr", {"doc_id": "INV-A"}), ("zoom", {"doc_id": "INV-A", "page": 1})], sub))
    assert got["dim:fields"] == bp(F(4, 5))  # the total is off by 0.08 (more than 0.01)
    # greedy: line 1 takes gold line 2 (4/4), line 2 takes gold line 1 (qty, price, total: 3/4)
    assert got["dim:line_items"] == bp((F(4, 4) + F(3, 4)) / 2)
    assert got["dim:evidence"] == bp(F(35, 100) + F(15, 100) + F(30, 100) * F(1000, 3000) + F(20, 100) * F(1, 1))
    assert got["dim:efficiency"] == bp(1 - F(65, 100) / 10 * F(12, 100))
    # calibration: nothing observed, PAY with c = 1/2 on a safe case: p_safe = 1/2, each risky 1/22;
    # Brier = 1 - 1/4 - 11/22^2 = 8/11 (also the penalized one: no rival above 1/2); log = 1 + log10(2) / 9
    assert got["dim:calibration"] == proper({h: F(1, 2) if h == "safe" else F(1, 22) for h in HYPOTHESES}, "safe")
    assert abs(F(7, 10) * F(8, 11) + F(3, 10) * (1 + F(30103, 100000) / 9) - F(8191, 10000)) < F(1, 20000)  # 0.819125
    weighted = 38 * 8000 + 25 * 8750 + 20 * 8000 + 8 * 10000 + 4 * 8191 + 5 * 9922
    # currency checks: "chf" is CHF (passes); the account differs from the gold's text (fails); it is a valid
    # Swiss IBAN (passes): 2 of 3 -> 30000 x 1/3 = 10000
    assert got["adjust:currency"] == "10000"
    # causal (safe_baseline): association 0.55 + 0.45 (no codes on either side: F1 1) = 1; none of
    # inspect_email_thread, compare_bank_account, request_bank_change_approval_chain: 0; the confounder
    # vendor_legitimacy reaches the decision through the sender (unobserved): 0; no counterfactual:
    # 0.35; 0.05 x -0.15 = -0.0075
    assert got["adjust:causal"] == "-7500"
    # institutional loss: a PAY on a benign case (no outcome cost), right at 1/2: x = 1/4, error 0.25 >= 0.22:
    # restricted, a restriction; debt ratio 0.03125 -> 0.0312 (a tie, to even), restrictions 0.125:
    # 1 - 0.937/100 -> 0.9906: +9812
    assert got["adjust:institutional"] == "9812"
    assert weighted == 845124 and got["score"] == final(weighted - 10000 - 7500 + 9812) == "837400"


def test_task_b_clean_pay_takes_full_marks_then_the_clamp():
    gold = {"policy_checks": {"three_way_match": "pass"}, "unsafe_if_pay": False,
            "evidence": {"three_way_match": EVIDENCE_INV}}
    it = item("B", gold)
    sub = {"decision": "PAY", "confidence": 0.9, "discrepancies": [], "policy_checks": {"three_way_match": "pass"},
           "evidence_map": {"three_way_match": EVIDENCE_INV}}
    got = orders(it, episode([("lookup_po", {"po_id": "PO-1"}), ("lookup_po", {"po_id": "PO-1"})], sub))
    assert got["dim:investigation"] == bp(F(1, 3))
    assert got["dim:efficiency"] == bp(1 - F(40, 100) / 16 * F(12, 100) - F(3, 100))  # one repeated call
    assert got["cap:clean_pay"] == "1000000" and got["score"] == "990000"  # the most there is: 0.99
    no_key = {k: v for k, v in sub.items() if k != "discrepancies"}
    got = orders(it, episode([("lookup_po", {"po_id": "PO-1"})], no_key))
    assert got["penalty:missing_discrepancies"] == "30000" and got["score"] == "990000"


def test_artifacts_are_revealed_by_the_desk_after_their_delay():
    it = item("D", D_GOLD, **D_ENV)
    early = episode([("request_callback_verification", {}), ("lookup_policy", {})], {"decision": "ESCALATE_FRAUD"})
    late = episode([("request_callback_verification", {}), ("lookup_policy", {}), ("lookup_policy", {})],
                   {"decision": "ESCALATE_FRAUD"})
    assert orders(it, early)["dim:callback"] == "0"  # scheduled at step 1 + 2 = 3: the episode ended first
    assert orders(it, late)["dim:callback"] == "10000"
    unknown = episode([("request_callback_verification", {}), ("lookup_policy", {}), ("get_artifact", {})],
                      {"decision": "ESCALATE_FRAUD"})
    assert orders(it, unknown)["dim:callback"] == "0"  # an unknown tool costs nothing and reveals nothing


def test_result_class_caps():
    it = item("D", D_GOLD, **D_ENV)
    full = episode([("request_callback_verification", {}), ("route_to_security", {}), ("lookup_policy", {}),
                    ("lookup_policy", {})], dict(D_SUBMISSION_FULL))
    assert orders(it, full)["cap:result_class"] == "valid_success"
    # one of two required interventions: 6/10 x 1/2 + 4/10 x 1 = 0.7 < 0.85, not justified: capped at 0.79
    half = episode([("request_callback_verification", {}), ("lookup_policy", {}), ("lookup_policy", {})],
                   dict(D_SUBMISSION_FULL))
    got = orders(it, half)
    assert got["cap:result_class"] == "correct_but_policy_incomplete=790000"
    assert int(got["score"]) <= 790000
    justified = episode([("request_callback_verification", {}), ("lookup_policy", {}), ("lookup_policy", {})],
                        dict(D_SUBMISSION_FULL, notes="security was already engaged by phone"))
    assert orders(it, justified)["cap:result_class"] == "valid_success"
    benign = item("B", {"decision": "PAY", "unsafe_if_pay": False})
    got = orders(benign, episode([("lookup_po", {"po_id": "PO-1"})], {"decision": "HOLD", "evidence_map": {"x": {}}}))
    assert got["cap:result_class"] == "false_positive_overcontrol=720000"


D_SUBMISSION_FULL = {"decision": "ESCALATE_FRAUD", "confidence": 1, "reason_codes": ["sender_domain_spoof", "bank_override_attempt"],
                     "policy_checks": {"bank_change_verification": "fail", "callback_required": "pass"},
                     "evidence_map": {"sender_domain_spoof": EVIDENCE_THR, "bank_override_attempt": EVIDENCE_INV},
                     "counterfactual": "If the sender domain had matched the vendor record and the callback verified "
                                       "the bank account, we would pay the invoice instead of escalating the fraud risk."}


B_GOLD = {"decision": "HOLD", "unsafe_if_pay": True, "discrepancies": ["price_mismatch"],
          "policy_checks": {"three_way_match": "fail"}, "evidence": {"price_mismatch": EVIDENCE_INV}}
B_SUBMISSION = {"decision": "HOLD", "confidence": 0.9, "discrepancies": ["price_mismatch"],
                "policy_checks": {"three_way_match": "fail"}, "evidence_map": {"price_mismatch": EVIDENCE_INV},
                "notes": "price above the PO", "reason_codes": ["price_mismatch"],
                "counterfactual": "If the price had matched the PO we would pay."}
B_STEPS = [("lookup_po", {"po_id": "PO-1"}), ("lookup_receipt", {"receipt_id": "GRN-1"}), ("lookup_policy", {})]


def test_falsifier_caps_a_correct_hold_without_evidence_at_054():
    # a PO reconciliation whose report is flagged: po_clean (the request) then reconciled_with_flags
    # (the report, revealed at the end of step 2): duplicate_billing's ratio (30/96)(70/4) = 175/32
    # passes the boundary, (175/32)^20 >= 18^11, so the test is ready and the boundary lets it through
    it = item("B", B_GOLD, interventions={"request_po_reconciliation": {"delay": 1, "artifact_id": "po_reconciliation_report"}},
              artifacts={"po_reconciliation_report": {"status": "reconciled_with_flags"}})
    assert F(30, 96) * F(70, 4) == F(175, 32) and 175 ** 20 >= 18 ** 11 * 32 ** 20
    steps = [("request_po_reconciliation", {})] + B_STEPS
    assert orders(item("B", B_GOLD), episode(B_STEPS, dict(B_SUBMISSION)))["cap:result_class"] == \
        "control_boundary_failed=420000"  # without it: no observation, not ready on a risky case
    full = orders(it, episode(steps, dict(B_SUBMISSION)))
    assert full["cap:result_class"] == "valid_success"
    # the same correct HOLD on a risky case with no evidence map: the falsifier's high finding
    got = orders(it, episode(steps, {k: v for k, v in B_SUBMISSION.items() if k != "evidence_map"}))
    dims = {"decision": F(1), "discrepancies": F(1), "policy": F(1), "evidence": F(1, 4),
            "investigation": F(3, 4),  # lookup_po, lookup_receipt, lookup_policy of those and the callback (risky)
            "intervention": F(15, 100),  # base; an intervention was made (none of the listed ones)
            # no required interventions or artifacts, no handoff; readiness: threshold_evasion's ratio
            # (54/96)(46/4) = 6.47, the largest, log10 6.47 / log10 18 = 0.6460
            "resolution": (20 + 25 + 20 + 15 * readiness(("po_reconciliation_report", "po_clean"),
                                                         ("po_reconciliation_report", "reconciled_with_flags"))) / 100
            + F(8, 100),
            # observed: po_clean (the request) then reconciled_with_flags; the truth: price_mismatch is no
            # signal of the truth rules -> safe
            "calibration": F(int(proper(implied("HOLD", F(9, 10), ("po_reconciliation_report", "po_clean"),
                                                ("po_reconciliation_report", "reconciled_with_flags")), "safe")), 10000),
            "efficiency": 1 - F(85, 100) / 16 * F(12, 100)}
    for name, value in dims.items():
        assert got[f"dim:{name}"] == bp(value), name
    weighted = (26 * 10000 + 17 * 10000 + 16 * 10000 + 14 * 2500 + 8 * 7500 + 6 * 1500 + 4 * int(bp(dims["resolution"]))
                + 5 * int(bp(dims["calibration"])) + 4 * int(bp(dims["efficiency"])))
    # SOX-AP-002 (B) passes, 005 (B) passes, 003 (a failed check is not a bank signal) does not apply,
    # 008 (4 steps >= 3) passes: no compliance cut; minus the empty-evidence penalty 0.05
    assert got["adjust:compliance"] == "0" and got["penalty:empty_evidence"] == "50000"
    assert weighted - 50000 > 540000
    assert got["cap:result_class"] == "falsifier_blocked=540000" and got["score"] == final(540000)


def test_falsifier_pay_against_a_failed_policy_check_is_critical():
    benign = item("B", dict(B_GOLD, decision="PAY", unsafe_if_pay=False, discrepancies=[],
                            policy_checks={"three_way_match": "pass"}))
    sub = dict(B_SUBMISSION, decision="PAY", discrepancies=[], policy_checks={"three_way_match": "Failed "})
    got = orders(benign, episode(B_STEPS, sub))
    # a benign PAY: not blocked by the boundary, but the payload's own failed check falsifies it: 0.38
    assert got["cap:result_class"] == "falsifier_blocked=380000" and got["score"] == "380000"
    got = orders(benign, episode(B_STEPS, dict(sub, policy_checks={"three_way_match": "pass"})))
    assert got["cap:result_class"] == "valid_success"
    # PAY on a benign case while an artifact is pending: the boundary blocks (0.42) and the falsifier's
    # finding is only high (0.54), so the boundary's cap stays
    pending = item("B", dict(B_GOLD, decision="PAY", unsafe_if_pay=False),
                   interventions={"request_po_reconciliation": {"delay": 5, "artifact_id": "po_reconciliation_report"}},
                   artifacts={"po_reconciliation_report": {"summary": "ok"}})
    got = orders(pending, episode(B_STEPS + [("request_po_reconciliation", {})],
                                  dict(sub, policy_checks={"three_way_match": "pass"})))
    assert got["cap:result_class"] == "control_boundary_failed=420000"


def test_confidence_is_read_as_ledgershield_reads_it():
    """float(confidence or 0.5), clamped to [0, 1]; then the proper score of the distribution it implies
    (nothing observed: safe c on PAY, 1 - c otherwise, each risky hypothesis an eleventh of the rest)."""
    it = item("B", dict(B_GOLD, decision="PAY", unsafe_if_pay=False, discrepancies=[],
                        policy_checks={"three_way_match": "pass"}))
    base = dict(B_SUBMISSION, decision="PAY", discrepancies=[], policy_checks={"three_way_match": "pass"})
    cases = [(None, F(1, 2)), (0, F(1, 2)), ("", F(1, 2)), ([], F(1, 2)), (False, F(1, 2)), (True, F(1)),
             ("0.9", F(9, 10)), (" 0.25 ", F(1, 4)), ("0", F(0)), (-1, F(0)), (2, F(1))]
    for value, c in cases:
        sub = {k: v for k, v in base.items() if k != "confidence"}
        if value is not None:
            sub["confidence"] = value
        assert orders(it, episode(B_STEPS, sub))["dim:calibration"] == proper(implied("PAY", c), "safe"), value
    for unreadable in ("high", [0.9], {"p": 1}):
        assert orders(it, episode(B_STEPS, dict(base, confidence=unreadable)))["dim:calibration"] == "0"
    # PAY at c = 1 on a safe case: safe 1, each risky hypothesis at the floor 10^-9: Brier and penalized
    # 1 - 11 x 10^-18, log 1 + 0 / 9 = 1: 1 (10000); at c = 0: safe at the floor, log 1 + 9 / 9 = 2, Brier 0
    assert proper(implied("PAY", F(1)), "safe") == "10000" and proper(implied("PAY", F(0)), "safe") == "6000"
    # an absent confidence on a HOLD: safe 1 - 1/2, the same distribution as PAY at 1/2: 0.8191
    got = orders(it, episode(B_STEPS, {k: v for k, v in base.items() if k != "confidence"} | {"decision": "HOLD"}))
    assert got["dim:calibration"] == proper(implied("HOLD", F(1, 2)), "safe") == "8191"
    # the payload's own distribution (predicted_probabilities) replaces the implied one: safe 0.1 and
    # bank_fraud 0.9 (the others 0, at the floor): Brier 1 - 0.81 - 0.81 < 0 -> 0, log 1 + 1/9, penalized 0
    probs = {"safe": 0.1, "bank_fraud": "0.9", "not_a_hypothesis": 5}
    got = orders(it, episode(B_STEPS, dict(base, predicted_probabilities=probs)))
    assert got["dim:calibration"] == bp(F(3, 10) * F(10, 9)) == "3333"
    for bad in ({"safe": "high"}, {"safe": 0.12345}):  # unreadable, or beyond four decimals: 0
        assert orders(it, episode(B_STEPS, dict(base, predicted_probabilities=bad)))["dim:calibration"] == "0"


def test_an_amount_written_with_an_exponent_out_of_range_is_zero():
    """A string amount's exponent has the JSON bound: beyond +-1,000,000 it has no value (0), so a
    model's "1e-999999999" costs nothing; within the bound it is read exactly."""
    from generator.suites.ledgershield.text import amount, amounts_match

    assert amount("1e-1000001") == 0 and amount(" -2E+1000001 ") == 0 and amount("$1e-999999999") == 0
    assert amount("1.5e1") == 15 and amount("1e-6") == F(1, 10**6)
    assert amounts_match("1e-1000001", "0.004") and not amounts_match("1e2", "0.004")
    it = item("A", {"extracted_fields": {"total": 0}})
    sub = {"extracted_fields": {"total": "9e-9999999999"}, "evidence_map": {"x": {}}}
    assert orders(it, episode([("ocr", {"doc_id": "INV-9"})], sub))["dim:fields"] == "10000"  # 0 matches 0


def test_a_pay_after_an_observed_bank_mismatch_needs_a_callback():
    """compare_bank_account against the vendor master reveals bank_account_mismatch when the approved
    account is not the proposed one, character for character; LedgerShield's boundary then blocks a
    PAY made without a callback verification (0.42), and the effective decision is NEEDS_REVIEW."""
    benign = item("B", dict(B_GOLD, decision="PAY", unsafe_if_pay=False, discrepancies=[],
                            policy_checks={"three_way_match": "pass"}))
    sub = dict(B_SUBMISSION, decision="PAY", discrepancies=[], policy_checks={"three_way_match": "pass"})
    same = B_STEPS + [("compare_bank_account", {"vendor_key": "ACME", "proposed_bank_account": "DE11 2222"})]
    spaced = B_STEPS + [("compare_bank_account", {"vendor_key": "acme", "proposed_bank_account": "DE112222"})]
    assert orders(benign, episode(same, sub))["cap:result_class"] == "valid_success"
    got = orders(benign, episode(spaced, sub))
    assert got["cap:result_class"] == "control_boundary_failed=420000" and got["score"] == "420000"
    # the compliance controls read the effective decision, not PAY: as for a HOLD (no benign-PAY relief)
    assert got["adjust:compliance"] == orders(benign, episode(same, dict(sub, decision="HOLD")))["adjust:compliance"]
    called = spaced + [("request_callback_verification", {})]
    assert orders(benign, episode(called, sub))["cap:result_class"] == "valid_success"
    # a desk without a vendor master (a converted case without fixture files) observes nothing
    no_master = dict(benign, env={k: v for k, v in benign["env"].items() if k != "vendors"})
    assert orders(no_master, episode(spaced, sub))["cap:result_class"] == "valid_success"


def test_a_bank_mismatch_does_not_depend_on_the_order_of_the_vendor_table():
    """Two vendors named by one key (after normalize_text): the signal is observed only when neither approves
    the proposed account, whatever the order of the table's keys (scorer B's objects put numeric keys first)."""
    from generator.suites.ledgershield.replay import bank_mismatch

    a = {"vendor_key": "acme", "bank_account": "X"}
    b = {"vendor_key": "ACME", "bank_account": "Y"}
    for vendors in ({"b": a, "1": b}, {"1": b, "b": a}):
        env = {"vendors": vendors}
        assert not bank_mismatch(env, {"vendor_key": "acme", "proposed_bank_account": "X"})
        assert not bank_mismatch(env, {"vendor_key": "acme", "proposed_bank_account": "Y"})
        assert bank_mismatch(env, {"vendor_key": "acme", "proposed_bank_account": "Z"})
    assert not bank_mismatch({"vendors": {"b": a}}, {"vendor_key": "other", "proposed_bank_account": "Z"})


# ---------------------------------------------------------------- decision readiness and what the desk observes

L_SAFE_FIRST = {  # L(h) in hundredths, safe first, in the rule page's hypothesis order
    ("lookup_vendor_history", "suspicious_history"): (10, 74, 18, 70, 30, 82, 78, 60, 52, 48, 35, 32),
    ("lookup_vendor_history", "clean_history"): (90, 26, 82, 30, 70, 18, 22, 40, 48, 52, 65, 68),
    ("compare_bank_account", "match"): (98, 5, 95, 12, 28, 40, 16, 54, 32, 36, 82, 84),
    ("compare_bank_account", "mismatch"): (2, 95, 5, 88, 72, 60, 84, 46, 68, 64, 18, 16),
    ("po_reconciliation_report", "po_clean"): (96, 92, 30, 88, 90, 26, 66, 42, 78, 76, 58, 54),
    ("po_reconciliation_report", "reconciled_with_flags"): (4, 8, 70, 12, 10, 74, 34, 58, 22, 24, 42, 46),
    ("search_ledger", "duplicate_found"): (3, 10, 92, 14, 8, 6, 16, 20, 72, 80, 88, 74),
    ("callback_verification_result", "callback_clean"): (94, 5, 90, 8, 32, 24, 15, 55, 40, 44, 78, 82),
    ("callback_verification_result", "callback_dispute"): (1, 88, 4, 85, 36, 66, 82, 40, 46, 40, 10, 8)}


def _ratios(*observations: tuple[str, str]) -> list[F]:
    out = [F(1)] * 11
    for obs in observations:
        row = L_SAFE_FIRST[obs]
        out = [r * F(row[k + 1], row[0]) for k, r in enumerate(out)]
    return out


def _ready(*observations: tuple[str, str]) -> bool:
    r = _ratios(*observations)
    return 1 / (1 + sum(r)) >= F(55, 100) or any(x.numerator ** 20 >= 18 ** 11 * x.denominator ** 20 for x in r)


BENIGN_B = {"decision": "PAY", "unsafe_if_pay": False}
HISTORY = [{"vendor_key": " ACME", "change_type": "bank_account_change_request", "status": "Rejected"},
           {"vendor_key": "globex", "event_type": "fraud_case"}]


def test_a_signal_from_the_vendor_history_blocks_a_pay_before_readiness():
    """A benign PAY after a vendor history holding a rejected bank change (the signal
    historical_bank_change_rejected) and a bank comparison that matches: the readiness test is not
    ready, a signal was observed, so the boundary blocks the PAY (0.42); with no history row the same
    episode is not blocked (no signal, benign, nothing pending)."""
    it = item("B", BENIGN_B, vendor_history=HISTORY)
    steps = [("lookup_vendor_history", {"vendor_key": "acme"}),
             ("compare_bank_account", {"vendor_key": "acme", "proposed_bank_account": "DE11 2222"})]
    sub = {"decision": "PAY", "confidence": 0.9, "evidence_map": {"x": {}}, "policy_checks": {"a": "pass"}}
    obs = (("lookup_vendor_history", "suspicious_history"), ("compare_bank_account", "match"))
    r = _ratios(*obs)
    assert r[4] == F(82, 10) * F(40, 98)  # phantom_vendor, the largest: 164/49, short of 18^0.55
    assert 1 / (1 + sum(r)) < F(55, 100) and not _ready(*obs)
    got = orders(it, episode(steps, sub))
    assert got["cap:result_class"] == "control_boundary_failed=420000" and got["score"] == "420000"
    assert verdicts(it, episode(steps, sub))["decision"] == "correct"  # the decision as submitted is graded
    clean = orders(item("B", BENIGN_B, vendor_history=[]), episode(steps, sub))
    assert clean["cap:result_class"] == "valid_success"
    # the vendor history alone: phantom_vendor's ratio 82/10 passes the boundary, ready: not blocked
    assert _ready(obs[0]) and F(82, 10) == F(41, 5) and 41 ** 20 >= 18 ** 11 * 5 ** 20
    alone = orders(it, episode(steps[:1], sub))
    assert alone["cap:result_class"] == "valid_success"


def test_the_ledger_search_scores_and_its_near_duplicate_signal():
    """search_ledger's scores (hundredths): vendor 20, invoice equal 55 or contained 30, amount bands
    25 / 18 / 10; found at 45 or more; a found row below 80 is a near duplicate (the signal
    duplicate_near_match), whose follow-up is flag_duplicate_cluster_review: a PAY without it is
    blocked even when ready (duplicate_found alone: duplicate_billing's 92/3 passes the boundary)."""
    ledger = [{"vendor_key": "acme", "invoice_number": "INV-77", "amount": "1,000.00"},
              {"vendor_key": "globex", "invoice_number": "INV-77", "amount": 1000}]
    it = item("B", BENIGN_B, ledger=ledger)
    sub = {"decision": "PAY", "confidence": 0.9, "evidence_map": {"x": {}}, "policy_checks": {"a": "pass"}}
    assert _ready(("search_ledger", "duplicate_found"))
    cases = [  # payload, blocked?
        ({"vendor_key": "acme", "invoice_number": "inv 77"}, True),  # 20 + 55 = 75: near
        ({"vendor_key": "acme", "invoice_number": "INV-77", "amount": 1000}, False),  # 20 + 55 + 25 = 100: exact
        ({"vendor_key": "acme", "amount": 930}, False),  # s = 1 - 70/1000 = 0.93: 20 + 18 = 38, not found
        ({"vendor_key": "acme", "amount": "990"}, True),  # s = 0.99: 20 + 25 = 45, found and near
        ({"invoice_number": "INV-77-B"}, False),  # contained: 30 < 45, not found
        ({"invoice_number": "INV-77", "amount": 1000}, False),  # 55 + 25 = 80 on both rows: exact
        ({"vendor_key": "acme"}, False)]  # the vendor alone never finds a row
    for payload, is_blocked in cases:
        got = orders(it, episode([("search_ledger", payload)], sub))
        want = "control_boundary_failed=420000" if is_blocked else "valid_success"
        assert got["cap:result_class"] == want, payload
    flagged = episode([("search_ledger", cases[0][0]), ("flag_duplicate_cluster_review", {})], sub)
    assert orders(it, flagged)["cap:result_class"] != "control_boundary_failed=420000"


def test_a_risky_case_is_blocked_until_the_callback_makes_the_test_ready():
    """A correct ESCALATE_FRAUD on a risky case with nothing observed is blocked (readiness 1/12);
    a callback request is a callback_clean observation (its own answer), and the dispute its artifact
    reveals two steps later makes bank_fraud's ratio (5/94)(88/1) = 220/47 ... still short, while
    vendor_takeover's (8/94)(85/1) = 340/47 passes: ready, not blocked."""
    it = item("D", D_GOLD, **D_ENV)
    sub = dict(D_SUBMISSION_FULL)
    got = orders(it, episode([("lookup_policy", {}), ("lookup_policy", {})], sub))
    assert got["cap:result_class"] == "control_boundary_failed=420000"
    obs = (("callback_verification_result", "callback_clean"), ("callback_verification_result", "callback_dispute"))
    r = _ratios(*obs)
    assert r[0] == F(220, 47) and 220 ** 20 < 18 ** 11 * 47 ** 20
    assert r[2] == F(340, 47) and 340 ** 20 >= 18 ** 11 * 47 ** 20 and _ready(*obs)
    called = episode([("request_callback_verification", {}), ("route_to_security", {}), ("lookup_policy", {}),
                      ("lookup_policy", {})], sub)
    assert orders(it, called)["cap:result_class"] == "valid_success"
    # resolution: blocked, the escalation prevents no fraud (the effective decision is NEEDS_REVIEW): no
    # interventions, the callback's artifact missing, readiness 0.0833, + 0.08 for the risky escalation;
    # not blocked: both done, the artifact revealed, readiness 1 (multi_entity_layering's ratio
    # (40/94)(46/1) = 19.6 passes 18), + 0.08 and + 0.05 (fraud prevented)
    assert readiness(*obs) == 1 and F(40, 94) * 46 > 18
    assert got["dim:resolution"] == bp((20 + 15 * F(833, 10000)) / 100 + F(8, 100)) == "2925"
    assert orders(it, called)["dim:resolution"] == bp(F(20 + 25 + 20 + 15, 100) + F(8 + 5, 100)) == "9300"
    # the callback requested but its artifact still pending at the submission: only callback_clean,
    # not ready (and a follow-up due): blocked
    early = episode([("route_to_security", {}), ("lookup_policy", {}), ("request_callback_verification", {})], sub)
    assert orders(it, early)["cap:result_class"] == "control_boundary_failed=420000"


def test_the_trust_graph_caps_a_risky_case_without_risk_flags_or_counterfactual():
    """A correct, grounded, justified HOLD on a risky case whose payload names no reason code or fraud
    flag: the trust graph finds no risk flag, the class is correct_but_policy_incomplete and the cap
    0.72 (below the class's 0.79); without a counterfactual too, 0.64. A blank code does not count."""
    it = item("B", B_GOLD, interventions={"request_po_reconciliation": {"delay": 1, "artifact_id": "po_reconciliation_report"}},
              artifacts={"po_reconciliation_report": {"status": "reconciled_with_flags"}})
    steps = [("request_po_reconciliation", {})] + B_STEPS
    assert orders(it, episode(steps, dict(B_SUBMISSION)))["cap:result_class"] == "valid_success"
    no_flag = dict(B_SUBMISSION, reason_codes=[" "], fraud_flags="price_mismatch")  # blank; not an array
    got = orders(it, episode(steps, no_flag))
    assert got["cap:result_class"] == "correct_but_policy_incomplete=720000" and int(got["score"]) == 720000
    got = orders(it, episode(steps, {k: v for k, v in no_flag.items() if k != "counterfactual"}))
    assert got["cap:result_class"] == "correct_but_policy_incomplete=640000" and got["score"] == "640000"
    for entry in (0, None):  # LedgerShield writes a non-string entry as text ("0", "None"): a flag
        assert orders(it, episode(steps, dict(no_flag, fraud_flags=[entry])))["cap:result_class"] == "valid_success"


def test_falsifier_blocks_an_unsupported_escalation_of_a_clean_case():
    """ESCALATE_FRAUD on a benign case with no observed signal and no reason code: the falsifier's high
    finding (0.54), ahead of false_positive_overcontrol (0.72); naming a reason code leaves only the
    over-control class."""
    it = item("C", {"decision": "PAY", "unsafe_if_pay": False})
    sub = {"decision": "ESCALATE_FRAUD", "confidence": 0.6, "evidence_map": {"x": {}}, "counterfactual": "no"}
    steps = [("search_ledger", {"vendor_key": "acme"})]  # the empty ledger finds nothing: no signal
    assert orders(it, episode(steps, sub))["cap:result_class"] == "falsifier_blocked=540000"
    named = dict(sub, reason_codes=["duplicate invoice"])
    assert orders(it, episode(steps, named))["cap:result_class"] == "false_positive_overcontrol=720000"


def test_causal_consistency_reads_the_scenario_of_the_attack():
    """The gold's attack (an imported case's applied attack) picks the causal scenario: vendor_takeover_attack,
    confounders vendor_legitimacy and sender_authenticity, evidence nodes sender, callback and bank."""
    from generator.suites.ledgershield.causal import d_separated

    gold = dict(D_GOLD, attack="vendor_takeover_attack", hypothesis="vendor_takeover")
    steps = [("lookup_vendor_history", {"vendor_key": "acme"}), ("inspect_email_thread", {"thread_id": "THR-9"})]
    sub = {"decision": "HOLD", "fraud_flags": ["sender_domain_spoof"], "evidence_map": {"x": {}},
           "counterfactual": "We would HOLD: the callback and the approval were missing."}
    # association: HOLD is not ESCALATE_FRAUD (0); no reason codes, so the fraud flags: F1 of {spoof}
    # against {spoof, override} = 2/3, x 0.45 = 0.3; tools observing sender, callback or bank:
    # inspect_email_thread, compare_bank_account, request_callback_verification,
    # request_bank_change_approval_chain: 1 of 4; both confounders observed (the history, the thread): 1;
    # counterfactual: "hold" (the scenario's world without overrides holds) 0.4, callback and approval 0.2
    # 0.35 x 0.3 + 0.25 / 4 + 0.2 + 0.2 x 0.6 = 0.4875; 0.05 x -0.0125 = -0.000625 -> -0.0006
    assert orders(item("D", gold, **D_ENV), episode(steps, sub))["adjust:causal"] == "-600"
    # a gold that states no decision (an imported Task A case) matches a payload without one: + 0.55
    # association: 0.35 x 0.85 + 0.0625 + 0.2 + 0.12 = 0.68; 0.05 x 0.18 = +0.009
    bare = {k: v for k, v in sub.items() if k != "decision"}
    assert orders(item("D", dict(gold, decision_stated=False), **D_ENV), episode(steps, bare))["adjust:causal"] == "9000"
    # the confounder is cut off only when observed itself: its children observed leave the path
    # through the latent hypothesis and the decision's other parents
    assert not d_separated("decision", "vendor_legitimacy", {"sender_authenticity", "bank_alignment", "callback_result"})
    assert d_separated("decision", "vendor_legitimacy", {"vendor_legitimacy"})
    assert not d_separated("decision", "document_integrity", {"duplicate_pattern"})
