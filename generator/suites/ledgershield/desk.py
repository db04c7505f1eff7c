"""The AP desk as a live tool-calling environment for `tally run` (rule page section 9).

The harness sends `TOOL_DEFINITIONS` as the request's `tools`; after each tool call it asks
`answer(env, trace)` what the desk says to the last step, which is exactly what the replay of the
trace so far gives (so a stored episode rescored offline sees the same desk the model saw), and
`pressure_due(env, steps)` which pressure events the agent hears about after that many steps.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .replay import LOOKUPS, SUBMIT, TOOLS, replay
from .sequence import Carrier

RESULT_KEEP_CHARS = 20000  # of one tool result sent back to the model

_DESCRIPTIONS = {
    "zoom": "Zoom into a region of a document (doc_id, page, bbox).",
    "get_doc_crop": "A crop of a document region (doc_id, page, bbox).",
    "ocr": "Read a document's tokens (id, text, bbox by page). mode: fast (0.45) or accurate (1.10).",
    "lookup_vendor": "The vendor master record (approved domain, bank account) of vendor_key.",
    "lookup_vendor_history": "The vendor's change history (vendor_key).",
    "lookup_policy": "The AP policy rules (or one rule: rule_id).",
    "lookup_po": "The purchase order with this po_id.",
    "lookup_receipt": "The goods receipt with this receipt_id.",
    "search_ledger": "Ledger rows matching vendor_key or invoice_number (amount optional).",
    "inspect_email_thread": "The messages of an email thread (thread_id).",
    "compare_bank_account": "Whether proposed_bank_account equals the vendor master's approved account (vendor_key).",
    "request_callback_verification": "Intervention: call the vendor back on the number of record; the result is "
                                     "revealed some steps later.",
    "freeze_vendor_profile": "Intervention: freeze the vendor profile's payments.",
    "request_bank_change_approval_chain": "Intervention: request the bank change's approval chain.",
    "request_po_reconciliation": "Intervention: reconcile the invoice against its PO; the report is revealed later.",
    "request_additional_receipt_evidence": "Intervention: ask for additional receipt evidence; revealed later.",
    "route_to_procurement": "Intervention: route the case to procurement.",
    "route_to_security": "Intervention: route the case to the security team.",
    "flag_duplicate_cluster_review": "Intervention: flag the duplicate cluster for review; the report is revealed later.",
    "create_human_handoff": "Intervention: hand off to a human (summary, recommended_next_step, observed_risk_signals).",
}
_PROPERTIES = {
    "zoom": {"doc_id": "string", "page": "integer", "bbox": "array"},
    "get_doc_crop": {"doc_id": "string", "page": "integer", "bbox": "array"},
    "ocr": {"doc_id": "string", "mode": "string", "page": "integer", "bbox": "array"},
    "lookup_vendor": {"vendor_key": "string"},
    "lookup_vendor_history": {"vendor_key": "string"},
    "lookup_policy": {"rule_id": "string"},
    "lookup_po": {"po_id": "string"},
    "lookup_receipt": {"receipt_id": "string"},
    "search_ledger": {"vendor_key": "string", "invoice_number": "string", "amount": "number"},
    "inspect_email_thread": {"thread_id": "string"},
    "compare_bank_account": {"vendor_key": "string", "proposed_bank_account": "string"},
    "create_human_handoff": {"summary": "string", "recommended_next_step": "string", "observed_risk_signals": "array"},
}


def _parameters(tool: str) -> dict:
    props: dict = {k: {"type": t} for k, t in _PROPERTIES.get(tool, {}).items()}
    if tool == "ocr":
        props["mode"] = {"type": "string", "enum": ["fast", "accurate"]}
    required = list(LOOKUPS[tool][0]) if tool in LOOKUPS else []
    return {"type": "object", "properties": props, "required": required}


_SUBMIT_PARAMETERS = {
    "type": "object",
    "properties": {
        "decision": {"type": "string", "enum": ["PAY", "HOLD", "NEEDS_REVIEW", "ESCALATE_FRAUD"]},
        "confidence": {"type": "number"},
        "reason_codes": {"type": "array", "items": {"type": "string"}},
        "policy_checks": {"type": "object"},
        "evidence_map": {"type": "object", "description": "key -> {doc_id, page, bbox, token_ids}"},
        "extracted_fields": {"type": "object"},
        "line_items": {"type": "array", "items": {"type": "object"}},
        "discrepancies": {"type": "array", "items": {"type": "string"}},
        "fraud_flags": {"type": "array", "items": {"type": "string"}},
        "duplicate_links": {"type": "array", "items": {"type": "string"}},
        "cross_invoice_links": {"type": "array", "items": {"type": "string"}},
        "campaign_signals": {"type": "array", "items": {"type": "string"}},
        "counterfactual": {"type": "string"},
    },
    "required": ["decision"],
}

TOOL_DEFINITIONS: tuple[dict, ...] = tuple(
    [{"type": "function", "function": {"name": t, "description": _DESCRIPTIONS[t], "parameters": _parameters(t)}}
     for t in TOOLS]
    + [{"type": "function", "function": {"name": SUBMIT, "description": "Submit the decision payload; ends the case.",
                                         "parameters": _SUBMIT_PARAMETERS}}])


def carrier(items: list[dict], stored: list[Path]) -> Carrier:
    """The state the desk's environment carries from episode to episode of a run (rule page section 12),
    rebuilt from the run's stored records (`stored`: its records files)."""
    return Carrier(items, stored)


def tools_sha256() -> str:
    text = json.dumps(TOOL_DEFINITIONS, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def answer(env: object, trace: list) -> dict:
    """What the desk answers to the last step of `trace`: its outcome, cost, the clock after it and,
    when it succeeded, the result (a JSON object sent back as the tool message)."""
    state = replay(env, trace)
    if not state.timeline or state.timeline[-1].number != len(trace):
        return {"outcome": "not_processed"}  # after a submit step (not reached by the harness)
    step = state.timeline[-1]
    out: dict = {"outcome": step.outcome, "success": step.outcome == "ok", "cost": step.cost, "clock": step.clock}
    if step.result is not None:
        out["result"] = step.result
    if step.revealed:
        env = env if isinstance(env, dict) else {}
        arts = found if isinstance(found := env.get("artifacts"), dict) else {}
        out["revealed_artifacts"] = [{"artifact_id": a, "details": arts.get(a)} for a in step.revealed]
    return out


def answer_text(reply: dict) -> str:
    """The tool message content: the reply as JSON, a very long result cut (and said so)."""
    text = json.dumps(reply, ensure_ascii=False, sort_keys=True)
    if len(text) <= RESULT_KEEP_CHARS:
        return text
    short = {k: v for k, v in reply.items() if k != "result"}
    short["result_truncated"] = json.dumps(reply.get("result"), ensure_ascii=False, sort_keys=True)[:RESULT_KEEP_CHARS]
    return json.dumps(short, ensure_ascii=False, sort_keys=True)


def pressure_due(env: object, steps_done: int) -> list[dict]:
    """The pressure events whose `after_step` is `steps_done`: the agent hears them after that step."""
    events = env.get("pressure") if isinstance(env, dict) else None
    return [e for e in events if isinstance(e, dict) and e.get("after_step") == steps_done] \
        if isinstance(events, list) else []


def pressure_text(event: dict) -> str:
    message = event.get("message") if isinstance(event.get("message"), str) else ""
    return f"[pressure event {event.get('id')}] {message} (demanded decision: {event.get('demand')})"
