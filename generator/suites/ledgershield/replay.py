"""The AP desk simulator: replays a stored action trace against a case's `env` (rule page section 2).

The tools, payload keys and costs are LedgerShield's own (an agent written for it runs here
unchanged); intervention artifacts are revealed by the desk itself, some steps after the request.
Deterministic and total: any JSON value as a trace gives a state and a timeline, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .readiness import INTERVENTION_CHANNELS, artifact_observation
from .text import amount, normalize_id, normalize_text

SUBMIT = "submit_decision"
# tool -> (required string payload keys, the env table the first key must name, cost in hundredths)
LOOKUPS: dict[str, tuple[tuple[str, ...], str | None, int]] = {
    "zoom": (("doc_id",), "documents", 20),
    "get_doc_crop": (("doc_id",), "documents", 20),
    "ocr": (("doc_id",), "documents", 45),  # 110 with mode "accurate"
    "lookup_vendor": (("vendor_key",), "vendors", 20),
    "lookup_vendor_history": ((), None, 25),
    "lookup_policy": ((), None, 15),
    "lookup_po": (("po_id",), "pos", 20),
    "lookup_receipt": (("receipt_id",), "receipts", 20),
    "search_ledger": ((), None, 35),
    "inspect_email_thread": (("thread_id",), "threads", 25),
    "compare_bank_account": (("vendor_key", "proposed_bank_account"), "vendors", 15),
}
INTERVENTION_COSTS: dict[str, int] = {
    "request_callback_verification": 40,
    "freeze_vendor_profile": 20,
    "request_bank_change_approval_chain": 30,
    "request_po_reconciliation": 30,
    "request_additional_receipt_evidence": 25,
    "route_to_procurement": 15,
    "route_to_security": 20,
    "flag_duplicate_cluster_review": 25,
    "create_human_handoff": 20,
}
INTERVENTIONS = tuple(INTERVENTION_COSTS)
TOOLS = tuple(LOOKUPS) + INTERVENTIONS
ACCURATE_OCR = 110
OK = "ok"
ARTIFACT_KEY = "ready_at_step"


@dataclass
class Step:
    number: int
    tool: str
    outcome: str
    cost: int  # hundredths of a budget unit
    clock: int  # the case clock (steps) after the step
    result: Any = None  # what the desk answered (shown, never graded)
    revealed: list[str] = field(default_factory=list)  # artifacts the desk revealed after this step
    payload: Any = None  # the payload as sent, {} when the step has none (repeat detection, rule page 4)


@dataclass
class State:
    steps: int = 0
    refused: int = 0
    cost: int = 0  # hundredths
    submitted: bool = False
    submit_step: int = 0
    tools_ok: set[str] = field(default_factory=set)
    performed: set[str] = field(default_factory=set)
    retrieved: list[str] = field(default_factory=list)  # revealed artifact ids, in order
    pending: list[str] = field(default_factory=list)  # requested, not yet revealed at the end
    fired: list[dict] = field(default_factory=list)
    handoff: dict = field(default_factory=dict)  # payload of the last ok create_human_handoff
    observed: set[str] = field(default_factory=set)  # risk signals the desk's answers revealed
    observations: list[tuple[str, str]] = field(default_factory=list)  # (channel, observation) for readiness
    timeline: list[Step] = field(default_factory=list)
    authority_blocked: bool = False  # the run's authority gate blocked the decision (run_state.py)

    @property
    def tool_steps(self) -> list[Step]:
        """Processed steps of a known tool (the trajectory the reference grades; the submit excluded)."""
        return [s for s in self.timeline if s.tool in TOOLS and s.outcome != "budget_exhausted"]

    def summary(self) -> str:
        return f"steps={self.steps};refused={self.refused};cost={self.cost};submitted={int(self.submitted)}"


def _table(env: dict, name: str) -> dict:
    value = env.get(name)
    return value if isinstance(value, dict) else {}


def vendors_named(env: dict, key: object) -> list[dict]:
    """Every vendor whose table key or `vendor_key` equals `key` after normalize_text, in table order."""
    if not isinstance(key, str):
        return []
    want = normalize_text(key)
    return [record for name, record in _table(env, "vendors").items() if isinstance(record, dict)
            and (normalize_text(name) == want or normalize_text(record.get("vendor_key", "")) == want)]


def find_vendor(env: dict, key: object) -> dict | None:
    """The first vendor `key` names (vendors_named), or None."""
    found = vendors_named(env, key)
    return found[0] if found else None


def approved_account(vendor: dict) -> object:
    """The vendor master's approved account, as LedgerShield's comparison takes it (None when none)."""
    for key in ("bank_account", "approved_bank_account"):
        if isinstance(vendor.get(key), str) and vendor[key]:
            return vendor[key]
    allowed = vendor.get("allowed_bank_accounts")
    return allowed[0] if isinstance(allowed, list) and allowed else None


def bank_mismatch(env: dict, payload: dict) -> bool:
    """An ok compare_bank_account on a desk with a vendor master reveals bank_account_mismatch when no
    vendor the key names has an approved account that is a string equal to the proposed one (exactly)."""
    named = vendors_named(env, payload.get("vendor_key")) if "vendors" in env else []
    proposed = payload.get("proposed_bank_account")
    return bool(named) and not any(isinstance(proposed, str) and approved_account(v) == proposed for v in named)


def _vendor_rows(env: dict, rows_name: str, payload: dict) -> list:
    rows = env.get(rows_name)
    rows = rows if isinstance(rows, list) else []
    want = normalize_text(payload.get("vendor_key", "")) if isinstance(payload.get("vendor_key"), str) else ""
    number = payload.get("invoice_number") if isinstance(payload.get("invoice_number"), str) else ""
    out = []
    for r in rows:
        if not isinstance(r, dict):
            continue
        if (want and normalize_text(str(r.get("vendor_key", ""))) == want) or (number and r.get("invoice_number") == number):
            out.append(r)
    return out


def step_tool(step: object) -> object:
    """The step's tool: its `action_type` when that is a string (LedgerShield's own traces), else its
    `tool_name`; a step that is not an object has none."""
    if not isinstance(step, dict):
        return None
    return step["action_type"] if isinstance(step.get("action_type"), str) else step.get("tool_name")


def step_cost(tool: str, payload: object) -> int:
    if tool == "ocr" and isinstance(payload, dict) and payload.get("mode") == "accurate":
        return ACCURATE_OCR
    return LOOKUPS[tool][2] if tool in LOOKUPS else INTERVENTION_COSTS[tool]


def _lookup(env: dict, tool: str, payload: dict) -> tuple[str, Any]:
    keys, table, _ = LOOKUPS[tool]
    if any(not isinstance(payload.get(k), str) for k in keys):
        return "bad_payload", None
    if table is not None and table not in env:  # a case converted from LedgerShield's cases.json
        return OK, {"note": f"this case holds no {table}: the id is not checked"}
    if table == "vendors":
        record = find_vendor(env, payload[keys[0]])
    elif table is not None:
        record = _table(env, table).get(payload[keys[0]])
    else:
        record = None
    if table is not None and record is None:
        return "not_found", None
    if tool == "compare_bank_account":
        assert isinstance(record, dict)
        approved = record.get("bank_account")
        return OK, {"vendor_key": payload["vendor_key"], "approved_bank_account": approved,
                    "proposed_bank_account": payload["proposed_bank_account"],
                    "matched": normalize_text(str(approved)) == normalize_text(payload["proposed_bank_account"])}
    if tool == "lookup_policy":
        rule = payload.get("rule_id")
        policy = env.get("policy")
        if isinstance(rule, str) and rule and "policy" in env:
            found = policy.get(rule) if isinstance(policy, dict) else None
            return (OK, {rule: found}) if found is not None else ("not_found", None)
        return OK, policy
    if tool == "search_ledger":
        return OK, _vendor_rows(env, "ledger", payload)
    if tool == "lookup_vendor_history":
        return OK, _vendor_rows(env, "vendor_history", payload)
    return OK, record


def _outcome(env: dict, tool: object, payload: object, number: int) -> tuple[str, int, Any]:
    budget = env.get("step_budget")
    if isinstance(budget, int) and number > budget:
        return "budget_exhausted", 0, None
    if not isinstance(tool, str) or tool not in TOOLS:
        return "unknown_tool", 0, None
    cost = step_cost(tool, payload)
    if not isinstance(payload, dict):
        return "bad_payload", cost, None
    if tool in INTERVENTION_COSTS:
        return OK, cost, {"status": "recorded"}
    outcome, result = _lookup(env, tool, payload)
    return outcome, cost, result


def replay(env: object, trace: object) -> State:
    """The state of the desk after the trace (rule page section 2)."""
    env = env if isinstance(env, dict) else {}
    state = State()
    if not isinstance(trace, list):
        return state
    scheduled: dict[str, int] = {}  # artifact id -> ready at step number, in request order
    interventions = _table(env, "interventions")
    for number, step in enumerate(trace, start=1):
        tool = step_tool(step)
        payload = step.get("payload") if isinstance(step, dict) else None
        state.steps = number
        if tool == SUBMIT:
            state.submitted, state.submit_step = True, number
            state.timeline.append(Step(number, SUBMIT, OK, 0, number))
            break
        outcome, cost, result = _outcome(env, tool, payload, number)
        state.cost += cost
        if outcome not in ("unknown_tool", "budget_exhausted"):
            _observe(env, state, tool, payload, outcome)
        if outcome == OK:
            assert isinstance(tool, str) and isinstance(payload, dict)
            state.tools_ok.add(tool)
            if tool == "compare_bank_account" and bank_mismatch(env, payload):
                state.observed.add("bank_account_mismatch")
            if tool in INTERVENTION_COSTS:
                state.performed.add(tool)
                if tool == "create_human_handoff":
                    state.handoff = payload
                spec = interventions.get(tool)
                if isinstance(spec, dict) and isinstance(spec.get("artifact_id"), str):
                    delay = spec["delay"] if isinstance(spec.get("delay"), int) and spec["delay"] > 1 else 1
                    art = spec["artifact_id"]
                    if art not in scheduled and art not in state.retrieved:
                        scheduled[art] = number + delay
                    result = {"status": "requested", "artifact_id": art, ARTIFACT_KEY: scheduled.get(art, number)}
        else:
            state.refused += 1
        revealed = []
        if outcome not in ("unknown_tool", "budget_exhausted"):
            for art, ready in list(scheduled.items()):
                if ready <= number:
                    revealed.append(art)
                    state.retrieved.append(art)
                    del scheduled[art]
                    _observe_artifact(env, state, art)
        name = tool if isinstance(tool, str) else "<not a tool>"
        sent = step["payload"] if isinstance(step, dict) and "payload" in step else {}  # absent: {} (repeat test)
        state.timeline.append(Step(number, name, outcome, cost, number, result, revealed, sent))
    state.pending = list(scheduled)
    if state.submitted:
        pressure = env.get("pressure")
        for event in pressure if isinstance(pressure, list) else []:
            if isinstance(event, dict) and isinstance(event.get("after_step"), int) \
                    and state.submit_step - 1 >= event["after_step"]:
                state.fired.append(event)
    return state




def ledger_hits(env: dict, payload: dict) -> list[int]:
    """The match scores (hundredths) of the rows of `env.ledger` LedgerShield's search_ledger finds
    (rule page section 2, "What the desk observes"); a row is found with a score of at least 45."""
    rows = env.get("ledger")
    vendor = normalize_text(payload.get("vendor_key"))
    invoice = normalize_id(payload.get("invoice_number"))
    query = amount(payload["amount"]) if payload.get("amount") is not None else None
    hits = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict):
            continue
        score = 0
        if vendor:
            if normalize_text(row.get("vendor_key")) != vendor:
                continue
            score += 20
        row_invoice = normalize_id(row.get("invoice_number"))
        signal = 0
        if invoice and row_invoice == invoice:
            signal += 55
        elif invoice and row_invoice and (row_invoice in invoice or invoice in row_invoice):
            signal += 30
        if query is not None:
            theirs = amount(row.get("amount"))
            similarity = 1 - abs(theirs - query) / max(abs(theirs), abs(query), Fraction(1))
            signal += 25 if similarity >= Fraction(98, 100) else 18 if similarity >= Fraction(92, 100) else \
                10 if similarity >= Fraction(80, 100) else 0
        if signal and score + signal >= 45:
            hits.append(score + signal)
    return hits


def history_rows(env: dict, payload: dict) -> list[dict]:
    """The rows of `env.vendor_history` whose vendor_key equals the payload's (normalize_text)."""
    rows = env.get("vendor_history")
    want = normalize_text(payload.get("vendor_key"))
    return [r for r in rows if isinstance(r, dict) and normalize_text(r.get("vendor_key")) == want] \
        if isinstance(rows, list) else []


def history_flags(rows: list[dict]) -> set[str]:
    out = set()
    for row in rows:
        event = row.get("event_type")
        kind = normalize_text(event if isinstance(event, str) and event else row.get("change_type"))
        if "bank" in kind and normalize_text(row.get("status")) in ("rejected", "failed", "denied"):
            out.add("historical_bank_change_rejected")
        if "fraud" in kind:
            out.add("historical_fraud_event")
    return out


def _has_readings(env: dict) -> bool:
    """The desk carries LedgerShield's readings of its threads (an imported case): some thread has an
    `observation`."""
    return any(isinstance(t, dict) and "observation" in t for t in _table(env, "threads").values())


def _observe(env: dict, state: State, tool: object, payload: object, outcome: str) -> None:
    """What a processed step of a known tool shows LedgerShield's sequential test and its risk signals."""
    if tool in INTERVENTION_CHANNELS:
        if outcome == OK:
            state.observations.append(INTERVENTION_CHANNELS[tool])
        return
    if not isinstance(payload, dict):
        return
    if tool == "inspect_email_thread" and _has_readings(env):
        thread = _table(env, "threads").get(payload.get("thread_id")) if outcome == OK else None
        seen = thread.get("observation") if isinstance(thread, dict) else None
        state.observations.append((tool, seen if seen in ("domain_spoof_detected", "domain_clean") else "domain_clean"))
    elif tool == "compare_bank_account" and "vendors" in env:
        matched = outcome == OK and not bank_mismatch(env, payload)
        state.observations.append((tool, "match" if matched else "mismatch"))
    elif tool == "search_ledger" and isinstance(env.get("ledger"), list):
        hits = ledger_hits(env, payload)
        state.observations.append((tool, "duplicate_found" if hits else "no_duplicate"))
        if any(h < 80 for h in hits):
            state.observed.add("duplicate_near_match")
    elif tool == "lookup_vendor_history" and isinstance(env.get("vendor_history"), list):
        rows = history_rows(env, payload)
        state.observations.append((tool, "suspicious_history" if rows else "clean_history"))
        state.observed |= history_flags(rows)


ARTIFACT_SIGNALS = {("callback_verification_result", "callback_suspicious_confirm"): "callback_suspicious_confirm",
                    ("callback_verification_result", "callback_dispute"): "callback_dispute_confirmed",
                    ("bank_change_approval_chain", "mismatch_found"): "policy_bypass_attempt",
                    ("duplicate_cluster_report", "cluster_detected"): "duplicate_near_match"}


def _observe_artifact(env: dict, state: State, art: str) -> None:
    seen = artifact_observation(art, artifact_content(env, art))
    if seen is None:
        return
    state.observations.append(seen)
    if seen in ARTIFACT_SIGNALS:
        state.observed.add(ARTIFACT_SIGNALS[seen])


def artifact_of(env: dict, intervention: str) -> str | None:
    spec = _table(env, "interventions").get(intervention)
    return spec["artifact_id"] if isinstance(spec, dict) and isinstance(spec.get("artifact_id"), str) else None


def artifact_content(env: dict, artifact_id: str) -> dict:
    value = _table(env, "artifacts").get(artifact_id)
    return value if isinstance(value, dict) else {}
