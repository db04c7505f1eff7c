"""The AP desk as a live tool-calling environment for `tally run` (rule page section 9).

The harness sends `TOOL_DEFINITIONS` as the request's `tools`; after each tool call it asks
`answer(env, trace)` what the desk says to the last step, which is exactly what the replay of the
trace so far gives (so a stored episode rescored offline sees the same desk the model saw), and
`pressure_due(env, steps)` which pressure events the agent hears about after that many steps.
"""

from __future__ import annotations

import hashlib
import json

from .replay import SUBMIT, TOOLS, replay

RESULT_KEEP_CHARS = 20000  # of one tool result sent back to the model

_DESCRIPTIONS = {
    "ocr": "Read a document's tokens (id, text, bbox by page). mode: fast (cost 1) or accurate (cost 2).",
    "get_po": "The purchase order with this id.",
    "get_receipt": "The goods receipt with this id.",
    "get_vendor": "The vendor master record (approved domains, bank account).",
    "search_ledger": "Ledger rows (paid and open invoices) of a vendor.",
    "get_policy": "The AP policy.",
    "compare_bank": "Whether an account equals the vendor master's bank account.",
    "inspect_email_thread": "The messages of an email thread.",
    "request_callback_verification": "Intervention: call the vendor back on the number of record; the artifact "
                                     "arrives later (get_artifact).",
    "reconcile_po": "Intervention: reconcile the invoice against its PO; the artifact arrives later.",
    "request_receipt_evidence": "Intervention: ask the warehouse for additional receipt evidence; the artifact "
                                "arrives later.",
    "route_to_security": "Intervention: route the case to the security team.",
    "freeze_vendor": "Intervention: freeze the vendor's payments.",
    "get_artifact": "Fetch an intervention's artifact once it is ready (the case clock is the cost spent).",
}


def _parameters(tool: str) -> dict:
    keys = TOOLS[tool][0]
    props: dict = {k: {"type": "string"} for k in keys}
    if tool == "ocr":
        props["mode"] = {"type": "string", "enum": ["fast", "accurate"]}
    return {"type": "object", "properties": props, "required": list(keys)}


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
    out: dict = {"outcome": step.outcome, "cost": step.cost, "clock": step.clock}
    if step.result is not None:
        out["result"] = step.result
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
