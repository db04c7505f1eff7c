"""The AP desk simulator: replays a stored action trace against a case's `env` (rule page section 2).

Deterministic and total: any JSON value as a trace gives a state and a timeline, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SUBMIT = "submit_decision"
# tool -> (required payload keys, the env table the first key must name, cost, intervention?)
TOOLS: dict[str, tuple[tuple[str, ...], str | None, int, bool]] = {
    "ocr": (("doc_id", "mode"), "documents", 1, False),
    "get_po": (("po_id",), "pos", 1, False),
    "get_receipt": (("receipt_id",), "receipts", 1, False),
    "get_vendor": (("vendor_id",), "vendors", 1, False),
    "search_ledger": (("vendor_id",), "vendors", 1, False),
    "get_policy": ((), None, 1, False),
    "compare_bank": (("vendor_id", "account"), "vendors", 1, False),
    "inspect_email_thread": (("thread_id",), "threads", 1, False),
    "request_callback_verification": (("vendor_id",), "vendors", 2, True),
    "reconcile_po": (("po_id",), "pos", 2, True),
    "request_receipt_evidence": (("receipt_id",), "receipts", 2, True),
    "route_to_security": ((), None, 2, True),
    "freeze_vendor": (("vendor_id",), "vendors", 2, True),
    "get_artifact": (("artifact_id",), None, 1, False),
}
INTERVENTIONS = tuple(name for name, spec in TOOLS.items() if spec[3])
OK = "ok"


@dataclass
class Step:
    number: int
    tool: str
    outcome: str
    cost: int
    clock: int  # after the step
    result: Any = None  # what the desk answered (shown, never graded)


@dataclass
class State:
    steps: int = 0
    refused: int = 0
    cost: int = 0
    submitted: bool = False
    submit_step: int = 0
    tools_ok: set[str] = field(default_factory=set)
    performed: set[str] = field(default_factory=set)
    retrieved: set[str] = field(default_factory=set)
    fired: list[dict] = field(default_factory=list)
    timeline: list[Step] = field(default_factory=list)

    @property
    def clock(self) -> int:
        return self.cost

    def summary(self) -> str:
        return f"steps={self.steps};refused={self.refused};cost={self.cost};submitted={int(self.submitted)}"


def _table(env: dict, name: str) -> dict:
    value = env.get(name)
    return value if isinstance(value, dict) else {}


def _outcome(env: dict, tool: object, payload: object, number: int, requested: dict[str, int],
             clock: int) -> tuple[str, int, Any]:
    budget = env.get("step_budget")
    if isinstance(budget, int) and number > budget:
        return "budget_exhausted", 1, None
    if not isinstance(tool, str) or tool not in TOOLS:
        return "unknown_tool", 1, None
    keys, table, cost, _ = TOOLS[tool]
    if not isinstance(payload, dict) or any(not isinstance(payload.get(k), str) for k in keys):
        return "bad_payload", 1, None
    if tool == "ocr" and payload["mode"] not in ("fast", "accurate"):
        return "bad_payload", 1, None
    if tool == "compare_bank" and payload["account"] == "":
        return "bad_payload", 1, None
    if tool == "get_artifact":
        ready = requested.get(payload["artifact_id"])
        if ready is None:
            return "not_found", 1, None
        if clock < ready:
            return "not_ready", 1, {"ready_at": ready}
        return OK, cost, _table(env, "artifacts").get(payload["artifact_id"])
    if table is not None:
        record = _table(env, table).get(payload[keys[0]])
        if record is None:
            return "not_found", 1, None
        if tool == "ocr":
            return OK, 1 if payload["mode"] == "fast" else 2, record
        if tool == "search_ledger":
            rows = [r for r in env.get("ledger", []) if isinstance(r, dict) and r.get("vendor_id") == payload[keys[0]]]
            return OK, cost, rows
        if tool == "compare_bank":
            return OK, cost, {"match": record.get("bank_account") == payload["account"]}
        return OK, cost, record
    if tool == "get_policy":
        return OK, cost, env.get("policy")
    return OK, cost, {"status": "done"}


def replay(env: object, trace: object) -> State:
    """The state of the desk after the trace (rule page section 2)."""
    env = env if isinstance(env, dict) else {}
    state = State()
    if not isinstance(trace, list):
        return state
    requested: dict[str, int] = {}  # artifact id -> ready_at
    interventions = _table(env, "interventions")
    for number, step in enumerate(trace, start=1):
        tool = step.get("tool_name") if isinstance(step, dict) else None
        payload = step.get("payload") if isinstance(step, dict) else None
        state.steps = number
        if tool == SUBMIT:
            state.submitted, state.submit_step = True, number
            state.timeline.append(Step(number, SUBMIT, OK, 0, state.cost))
            break
        outcome, cost, result = _outcome(env, tool, payload, number, requested, state.cost)
        state.cost += cost
        if outcome == OK:
            assert isinstance(tool, str)
            state.tools_ok.add(tool)
            if TOOLS[tool][3]:
                state.performed.add(tool)
                spec = interventions.get(tool)
                if isinstance(spec, dict) and isinstance(spec.get("artifact_id"), str):
                    delay = spec["delay"] if isinstance(spec.get("delay"), int) else 0
                    requested.setdefault(spec["artifact_id"], state.cost + delay)
                    result = {"status": "requested", "artifact_id": spec["artifact_id"],
                              "ready_at": requested[spec["artifact_id"]]}
            elif tool == "get_artifact":
                assert isinstance(payload, dict)
                state.retrieved.add(payload["artifact_id"])
        else:
            state.refused += 1
        state.timeline.append(Step(number, tool if isinstance(tool, str) else "<not a tool>", outcome, cost,
                                   state.cost, result))
    if state.submitted:
        pressure = env.get("pressure")
        for event in pressure if isinstance(pressure, list) else []:
            if isinstance(event, dict) and isinstance(event.get("after_step"), int) \
                    and state.submit_step - 1 >= event["after_step"]:
                state.fired.append(event)
    return state
