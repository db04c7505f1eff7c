"""Scripted agents played through LedgerShield's reference environment (run by the reference's own
Python, from `bench/ledgershield_reference.py`; it imports nothing of Tally's).

Usage: python ledgershield_reference_agents.py REFERENCE_CHECKOUT OUT_DIR [--one-environment]

For every case of the checkout's `server/fixtures/cases.json` and every behaviour below, one
episode is played in a fresh environment (so no state carries over between episodes; with
--one-environment, one environment per behaviour serves all its cases in order, as a harness
running one model through the cases does, and its state carries over) and written
as `OUT_DIR/<behaviour>/<case_id>.json` in the shape LedgerShield's harness writes (`model`,
`case_id`, `task_type`, `score`, `action_trace`, `final_submission`, `final_info`,
`score_breakdown`, `error`). The agents are scripted, not models; the careful one reads the case
file (its gold) to reach the high-score regime, the others do less, or wrong, on purpose.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any

BEHAVIOURS = ("careful", "hasty", "yielding", "empty", "sloppy")
ID_PATTERNS = {"po_id": re.compile(r"\bPO-[A-Z0-9-]+\b"), "receipt_id": re.compile(r"\bGRN-[A-Z0-9-]+\b")}
RISKY_INTERVENTIONS = ("request_callback_verification", "request_bank_change_approval_chain", "freeze_vendor_profile",
                       "route_to_security", "flag_duplicate_cluster_review")


def _texts(case: dict[str, Any]) -> list[str]:
    out = [str(case.get("instruction", ""))]
    for doc in case.get("documents", []):
        out += [str(t.get("text", "")) for t in doc.get("accurate_ocr", []) or []]
    return out


def _first(pattern: re.Pattern[str], texts: list[str]) -> str | None:
    for text in texts:
        found = pattern.search(text)
        if found:
            return found.group(0)
    return None


def _vendor_key(case: dict[str, Any], vendors: list[dict[str, Any]]) -> str:
    blob = " ".join(_texts(case)).lower()
    for vendor in vendors:
        for name in (vendor.get("vendor_name"), vendor.get("canonical_name")):
            if name and str(name).lower() in blob:
                return str(vendor["vendor_key"])
    for vendor in vendors:
        if str(vendor["vendor_key"]).split("-")[0] in blob:
            return str(vendor["vendor_key"])
    return str(vendors[0]["vendor_key"]) if vendors else "unknown"


def _bank(case: dict[str, Any]) -> str:
    for text in _texts(case):
        found = re.search(r"(?:Bank|IBAN|Account)[^A-Z0-9]*([A-Z]{2}[A-Z0-9]{8,30})", text)
        if found:
            return found.group(1)
    return "UNKNOWN"


def _investigation(case: dict[str, Any], vendors: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    docs = case.get("documents", [])
    texts = _texts(case)
    key = _vendor_key(case, vendors)
    steps: list[tuple[str, dict[str, Any]]] = []
    for doc in docs:
        if doc.get("doc_type") == "invoice":
            steps.append(("ocr", {"doc_id": doc["doc_id"], "mode": "accurate"}))
    first_invoice = next((d["doc_id"] for d in docs if d.get("doc_type") == "invoice"), docs[0]["doc_id"])
    steps.append(("zoom", {"doc_id": first_invoice, "bbox": [0, 0, 400, 400]}))
    for doc in docs:
        if doc.get("doc_type") == "email":
            steps.append(("inspect_email_thread", {"thread_id": doc["doc_id"]}))
    steps += [("lookup_vendor", {"vendor_key": key}), ("lookup_vendor_history", {"vendor_key": key})]
    po, grn = _first(ID_PATTERNS["po_id"], texts), _first(ID_PATTERNS["receipt_id"], texts)
    if po:
        steps.append(("lookup_po", {"po_id": po}))
    if grn:
        steps.append(("lookup_receipt", {"receipt_id": grn}))
    steps += [("lookup_policy", {}), ("search_ledger", {"vendor_key": key}),
              ("compare_bank_account", {"vendor_key": key, "proposed_bank_account": _bank(case)})]
    return steps


def _gold_submission(case: dict[str, Any]) -> dict[str, Any]:
    gold = case.get("gold", {})
    links = [str(x) for x in gold.get("cross_invoice_links", []) or gold.get("duplicate_links", []) or []]
    sub: dict[str, Any] = {
        "decision": gold.get("decision", "PAY"),
        "confidence": 0.9,
        "extracted_fields": copy.deepcopy(gold.get("fields") or gold.get("extracted_fields") or {}),
        "line_items": copy.deepcopy(gold.get("line_items", [])),
        "evidence_map": copy.deepcopy(gold.get("evidence_targets", {})),
        "discrepancies": list(gold.get("discrepancies", [])),
        "policy_checks": dict(gold.get("policy_checks", {})),
        "reason_codes": list(gold.get("reason_codes", [])) or list(gold.get("fraud_flags", [])),
        "fraud_flags": list(gold.get("fraud_flags", [])),
        "duplicate_links": list(gold.get("duplicate_links", [])),
        "cross_invoice_links": list(gold.get("cross_invoice_links", [])),
        "campaign_signals": list(gold.get("campaign_signals", [])),
        "counterfactual": ("If the vendor bank account had matched the vendor master and the callback had verified "
                           "the invoice, then we would pay instead of escalating the fraud risk; linked documents "
                           + " ".join(links) + "."),
        "notes": "Investigated the invoice, the vendor master and the ledger before deciding.",
    }
    return sub


def _script(case: dict[str, Any], behaviour: str, vendors: list[dict[str, Any]]
            ) -> list[tuple[str, dict[str, Any]]]:
    """The actions of one behaviour on one case, the submission last."""
    gold = case.get("gold", {})
    risky = bool(gold.get("unsafe_if_pay"))
    max_steps = int(case.get("max_steps", 20) or 20)
    docs = case.get("documents", [])
    invoice = next((d["doc_id"] for d in docs if d.get("doc_type") == "invoice"), docs[0]["doc_id"])
    if behaviour == "empty":
        return [("submit_decision", {"decision": "NEEDS_REVIEW"})]
    if behaviour == "hasty":
        return [("ocr", {"doc_id": invoice, "mode": "fast"}),
                ("submit_decision", {"decision": "PAY", "confidence": 0.95, "notes": "looks fine"})]
    investigation = _investigation(case, vendors)
    if behaviour == "yielding":
        steps = investigation[:3]
        while len(steps) < max_steps // 2 + 1:
            steps.append(("lookup_policy", {}))
        sub = _gold_submission(case)
        sub.update({"decision": "PAY", "confidence": 0.7, "evidence_map": dict(list(sub["evidence_map"].items())[:1])})
        return steps + [("submit_decision", sub)]
    steps = list(investigation)
    if risky:
        steps += [(name, {}) for name in RISKY_INTERVENTIONS]
        steps.append(("create_human_handoff", {"summary": "risk signals found", "recommended_next_step": "escalate"}))
    steps = steps[: max(1, max_steps - 2)]
    sub = _gold_submission(case)
    if behaviour == "sloppy":
        wrong = {"PAY": "HOLD", "HOLD": "PAY", "NEEDS_REVIEW": "PAY", "ESCALATE_FRAUD": "NEEDS_REVIEW"}
        sub["decision"] = wrong.get(str(gold.get("decision", "PAY")), "HOLD")
        sub["confidence"] = 0.6
        sub["evidence_map"] = dict(list(sub["evidence_map"].items())[: max(1, len(sub["evidence_map"]) // 2)])
        sub["reason_codes"] = sub["reason_codes"][:1]
        sub.pop("notes")
        steps = steps[: len(steps) // 2]
    return steps + [("submit_decision", sub)]


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def play(reference: Path, out: Path, one_environment: bool = False) -> int:
    sys.path.insert(0, str(reference))
    from models import LedgerShieldAction  # the reference's own modules
    from server.environment import LedgerShieldEnvironment

    cases = json.loads((reference / "server" / "fixtures" / "cases.json").read_text(encoding="utf-8"))
    vendors = json.loads((reference / "server" / "fixtures" / "vendors.json").read_text(encoding="utf-8"))
    count = 0
    for behaviour in BEHAVIOURS:
        folder = out / behaviour
        folder.mkdir(parents=True, exist_ok=True)
        env = LedgerShieldEnvironment()
        for case in cases:
            if not one_environment:
                env = LedgerShieldEnvironment()
            env.reset(case_id=case["case_id"])
            trace: list[dict[str, Any]] = []
            info: dict[str, Any] = {}
            for number, (action, payload) in enumerate(_script(case, behaviour, vendors), start=1):
                observation = env.step(LedgerShieldAction(action_type=action, payload=copy.deepcopy(payload)))
                result = getattr(observation, "last_tool_result", {}) or {}
                trace.append({"phase": "script", "step": number, "action_type": action, "payload": payload,
                              "reward": float(getattr(env, "_last_reward", 0.0) or 0.0),
                              "done": bool(getattr(env, "_last_done", False)), "tool_name": result.get("tool_name"),
                              "tool_success": bool(result.get("success", False)), "tool_error": result.get("error")})
                if getattr(env, "_last_done", False):
                    info = _jsonable(getattr(env, "_last_info", {}) or {})
                    break
            episode = {"model": f"script-{behaviour}", "case_id": case["case_id"], "task_type": case["task_type"],
                       "score": round(float(info.get("final_score", 0.0) or 0.0), 4), "steps": len(trace),
                       "final_submission": trace[-1]["payload"] if trace and trace[-1]["done"] else {},
                       "final_info": info, "score_breakdown": info.get("score_breakdown", {}),
                       "action_trace": trace, "error": ""}
            (folder / f"{case['case_id']}.json").write_text(json.dumps(episode, indent=2, sort_keys=True),
                                                          encoding="utf-8")
            count += 1
    return count


if __name__ == "__main__":
    print(play(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve(), "--one-environment" in sys.argv[3:]))
