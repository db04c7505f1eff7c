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

from ..suites.ledgershield.replay import SUBMIT, TOOLS, replay


def _arg(item: dict, tool: str) -> dict:
    env = item["env"]
    first = {"pos": next(iter(env["pos"]), ""), "receipts": next(iter(env["receipts"]), ""),
             "vendors": next(iter(env["vendors"]), ""), "threads": next(iter(env["threads"]), ""),
             "documents": next(iter(env["documents"]), "")}
    keys, table, _cost, _ = TOOLS[tool]
    out = {k: first.get(table or "", "") for k in keys[:1]}
    if tool == "ocr":
        out["mode"] = "accurate"
    if tool == "compare_bank":
        vendor = env["vendors"][out["vendor_id"]]
        out["account"] = vendor["bank_account"]
    return out


def _steps(item: dict, tools: list[str]) -> list[dict]:
    return [{"tool_name": t, "payload": _arg(item, t)} for t in tools]


def investigate(item: dict) -> list[dict]:
    """Required tools (OCR of every document), interventions, filler until artifacts are ready, artifacts."""
    env, gold = item["env"], item["gold"]
    trace = [{"tool_name": "ocr", "payload": {"doc_id": d, "mode": "accurate"}} for d in env["documents"]]
    trace += _steps(item, [t for t in gold["required_tools"] if t != "ocr"])
    trace += _steps(item, gold["required_interventions"])
    arts = [env["interventions"][i]["artifact_id"] for i in gold["required_interventions"]
            if "artifact_id" in env["interventions"].get(i, {})]
    for _ in range(6):
        state = replay(env, trace)
        if all(not _pending(env, state, trace, a) for a in arts):
            break
        trace.append({"tool_name": "get_policy", "payload": {}})
    trace += [{"tool_name": "get_artifact", "payload": {"artifact_id": a}} for a in arts]
    return trace


def _pending(env: dict, state, trace: list[dict], art: str) -> bool:
    probe = replay(env, trace + [{"tool_name": "get_artifact", "payload": {"artifact_id": art}}])
    return probe.timeline[-1].outcome != "ok"


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
    if gold["counterfactual_concepts"] or item["task"] in ("D", "E"):
        out["counterfactual"] = "If " + " and ".join(g[0] for g in gold["counterfactual_concepts"]) + \
            " had checked out, the decision would differ."
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
    if roll < 0.15 and len(trace) > 2:
        del trace[rng.randrange(len(trace) - 1)]
    elif roll < 0.3:
        trace.insert(0, dict(trace[0]))
    elif roll < 0.4:
        trace.insert(0, {"tool_name": "lookup_everything", "payload": {}})
    return episode
