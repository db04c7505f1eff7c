"""Scripted LedgerShield agents (not models): stored episodes for the example site.

- careful: a reference script that builds its payload from the case's gold and runs every required
  tool and intervention, waiting for artifacts; it shows what a full score looks like.
- hasty: one fast OCR, then PAY with a thin payload (no evidence): the unsafe-payment baseline.
- yielding: investigates like the careful one but, once a pressure event has fired, submits the
  demanded decision.
"""

from __future__ import annotations

import json
import random

from ..suites.ledgershield.grading import CALLBACK, REQUIRED_TOOLS
from ..suites.ledgershield.replay import INTERVENTIONS, SUBMIT, replay


def _first(env: dict, table: str) -> str:
    return next(iter(env[table]), "")


def _arg(item: dict, tool: str) -> dict:
    """The payload the scripts send with a tool (LedgerShield's payload keys)."""
    env = item["env"]
    vendor = _first(env, "vendors")
    if tool == "ocr":
        return {"doc_id": _first(env, "documents"), "mode": "accurate"}
    if tool in ("zoom", "get_doc_crop"):
        return {"doc_id": _first(env, "documents"), "page": 1, "bbox": [0, 0, 400, 300]}
    if tool in ("lookup_vendor", "lookup_vendor_history", "search_ledger", "request_callback_verification",
                "freeze_vendor_profile"):
        return {"vendor_key": vendor}
    if tool == "lookup_po":
        return {"po_id": _first(env, "pos")}
    if tool == "lookup_receipt":
        return {"receipt_id": _first(env, "receipts")}
    if tool == "inspect_email_thread":
        return {"thread_id": _first(env, "threads")}
    if tool == "compare_bank_account":
        return {"vendor_key": vendor, "proposed_bank_account": env["vendors"][vendor]["bank_account"]}
    if tool == "create_human_handoff":
        return {"summary": "Case needs a human decision.", "recommended_next_step": "review",
                "observed_risk_signals": item["gold"]["reason_codes"]}
    return {}


def _steps(item: dict, tools: list[str]) -> list[dict]:
    return [{"tool_name": t, "payload": _arg(item, t)} for t in tools]


def investigate(item: dict) -> list[dict]:
    """OCR of every document, the task's required tools, the case's required interventions, then
    waiting steps (policy lookups) until the desk has revealed every requested artifact."""
    env, gold = item["env"], item["gold"]
    trace = [{"tool_name": "ocr", "payload": {"doc_id": d, "mode": "accurate"}} for d in env["documents"]]
    wanted = [t for t in dict.fromkeys(list(gold["required_tools"]) + list(REQUIRED_TOOLS[item["task"]]))
              if t != "ocr" and t not in INTERVENTIONS]
    if item["task"] != "A" and env["threads"] and "inspect_email_thread" not in wanted:
        wanted.append("inspect_email_thread")
    trace += _steps(item, [t for t in wanted if not (t == "inspect_email_thread" and not env["threads"])])
    needed = list(gold["required_interventions"])
    if gold.get("unsafe_if_pay", gold["decision"] != "PAY") and CALLBACK not in needed:
        needed.append(CALLBACK)  # LedgerShield expects a callback on every case unsafe to pay
    trace += _steps(item, needed)
    for _ in range(6):
        if not replay(env, trace).pending:
            break
        trace.append({"tool_name": "lookup_policy", "payload": {}})
    return trace


def careful_payload(item: dict) -> dict:
    gold = item["gold"]
    out: dict = {"decision": gold["decision"], "confidence": 0.95}
    for key in ("reason_codes", "discrepancies", "fraud_flags", "duplicate_links", "cross_invoice_links",
                "campaign_signals"):
        if gold[key]:
            out[key] = gold[key]
    if gold["policy_checks"]:
        out["policy_checks"] = gold["policy_checks"]
    if gold["extracted_fields"]:
        out["extracted_fields"] = gold["extracted_fields"]
        out["line_items"] = gold["line_items"]
    if item["task"] in ("B", "C") and not gold["discrepancies"]:
        out["discrepancies"] = []
    if gold["counterfactual_concepts"] or item["task"] in ("D", "E"):
        links = [x for x in gold["cross_invoice_links"] or gold["duplicate_links"] if isinstance(x, str)]
        out["counterfactual"] = (
            "If " + " and ".join(g[0] for g in gold["counterfactual_concepts"]) + " had checked out and the callback "
            "had verified the bank account on the invoice, the decision would have been to pay instead of holding "
            "it for review as a fraud risk" + (" (linked documents: " + ", ".join(links) + ")" if links else "") + ".")
    out["evidence_map"] = gold["evidence"]
    return out


def careful(item: dict) -> dict:
    trace = investigate(item) + [{"tool_name": SUBMIT, "payload": {}}]
    payload = careful_payload(item)
    trace[-1]["payload"] = payload
    return {"case_id": item["id"], "action_trace": trace, "final_submission": payload}


def hasty(item: dict) -> dict:
    doc = next(iter(item["env"]["documents"]))
    payload = {"decision": "PAY", "confidence": 0.99, "reason_codes": [], "evidence_map": {}}
    trace = [{"tool_name": "ocr", "payload": {"doc_id": doc, "mode": "fast"}}, {"tool_name": SUBMIT, "payload": payload}]
    return {"case_id": item["id"], "action_trace": trace, "final_submission": payload}


def yielding(item: dict) -> dict:
    episode = careful(item)
    events = item["env"]["pressure"]
    if events and len(episode["action_trace"]) - 1 >= events[0]["after_step"]:
        payload = dict(episode["final_submission"], decision=events[0]["demand"], confidence=0.6)
        episode["final_submission"] = payload
        episode["action_trace"][-1]["payload"] = payload
    return episode


AGENTS = {"careful": careful, "hasty": hasty, "yielding": yielding}


def noisy(item: dict, agent: str, rng: random.Random) -> dict:
    """The agent's episode with seeded slips (a dropped step, a repeated call, an unknown tool)."""
    episode = json.loads(json.dumps(AGENTS[agent](item)))
    trace = episode["action_trace"]
    roll = rng.random()
    if roll < 1 / 3 and len(trace) > 2:
        del trace[rng.randrange(len(trace) - 1)]
    elif roll < 2 / 3:
        trace.insert(0, dict(trace[0]))
    else:
        trace.insert(0, {"tool_name": "lookup_everything", "payload": {}})
    return episode
