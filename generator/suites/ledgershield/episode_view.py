"""What a LedgerShield case page shows of one stored episode (rule page section 8): the trajectory as a
timeline (tool, payload, outcome, result, cost, clock), recomputed by the replay from the case's desk,
and, for an episode imported from another harness, that harness's own grade beside Tally's.

Everything here is text for an autoescaping template; nothing from the record is trusted (the
payloads are the model's, cut to a few hundred characters), and the timeline is limited in steps.
"""

from __future__ import annotations

import json
from decimal import Decimal

from .grading import ONE, WEIGHTS
from .replay import SUBMIT, replay
from .reports import SEED_SAYS, TALLY_OWN

MAX_STEPS_SHOWN = 60
CELL_CHARS = 300
# LedgerShield's score_breakdown keys -> the dimension each grades (rule page section 8)
BREAKDOWN_KEYS = {
    "decision_score": "decision", "field_score": "fields", "line_item_score": "line_items",
    "evidence_score": "evidence", "discrepancy_score": "discrepancies", "policy_score": "policy",
    "reason_score": "reason_codes", "fraud_score": "fraud_flags", "duplicate_score": "duplicates",
    "cross_invoice_link_score": "cross_links", "campaign_detection_score": "campaign",
    "counterfactual_score": "counterfactual", "investigation_score": "investigation",
    "intervention_score": "intervention", "resolution_state_score": "resolution", "calibration_score": "calibration",
    "efficiency_score": "efficiency", "outcome_score": "downstream", "pressure_event_score": "pressure",
    "callback_interpretation_score": "callback",
}
MAX_PROVENANCE_ROWS = 40


def _write(value: object, out: list[str], budget: list[int], depth: int = 0) -> None:
    """Compact JSON text of `value` (numbers as written, exact decimals included), stopping once
    `budget` characters are written."""
    if budget[0] <= 0:
        return
    if isinstance(value, dict):
        out.append("{")
        for k, key in enumerate(sorted(value, key=str)):
            out.append(", " if k else "")
            out.append(json.dumps(str(key), ensure_ascii=False) + ": ")
            _write(value[key], out, budget, depth + 1) if depth < 20 else out.append("...")
            if budget[0] <= 0:
                break
        out.append("}")
    elif isinstance(value, list):
        out.append("[")
        for k, v in enumerate(value):
            out.append(", " if k else "")
            _write(v, out, budget, depth + 1) if depth < 20 else out.append("...")
            if budget[0] <= 0:
                break
        out.append("]")
    elif isinstance(value, bool) or value is None:
        out.append(json.dumps(value))
    elif isinstance(value, (int, float, Decimal)):
        out.append(str(value))
    else:
        out.append(json.dumps(str(value), ensure_ascii=False))
    budget[0] -= len(out[-1]) if out else 0


def _short(value: object) -> str:
    out: list[str] = []
    _write(value, out, [CELL_CHARS * 4])
    text = "".join(out)
    return text if len(text) <= CELL_CHARS else text[:CELL_CHARS] + "... (cut)"


def timeline(env: object, episode: dict) -> tuple[list[dict], int]:
    """(rows of the first MAX_STEPS_SHOWN processed steps, how many more there are)."""
    trace = episode.get("action_trace")
    trace = trace if isinstance(trace, list) else []
    state = replay(env, trace)
    rows = []
    for step in state.timeline[:MAX_STEPS_SHOWN]:
        sent = trace[step.number - 1]
        payload = sent.get("payload") if isinstance(sent, dict) else sent
        rows.append({"step": step.number, "tool": step.tool, "payload": _short(payload), "outcome": step.outcome,
                     "result": "" if step.result is None or step.tool == SUBMIT else _short(step.result),
                     "cost": f"{step.cost / 100:.2f}", "clock": step.clock,
                     "revealed": ", ".join(step.revealed)})
    return rows, max(0, len(state.timeline) - MAX_STEPS_SHOWN)


def dimension_rows(task: str, orders: dict[str, str]) -> list[dict]:
    """Each dimension of the task: weight (the seed's), Tally's grade from the verdict rows, who
    defines the formula."""
    out = []
    for name, weight in WEIGHTS.get(task, ()):
        order = orders.get(f"dim:{name}", "")
        grade = f"{int(order) / 100:.2f}%" if order.isdigit() else "none"
        who = "Tally's formula" if name in TALLY_OWN else "LedgerShield's formula"
        formula = who + (f" (seed: {SEED_SAYS[name]})" if name in SEED_SAYS else "")
        out.append({"name": name, "weight": weight, "grade": grade, "formula": formula})
    return out


def score_text(order: str) -> str:
    return f"{int(order) / (ONE // 100):.4f}%" if order.isdigit() else "none"


def their_score(episode: dict) -> tuple[str, str] | None:
    """(key, value) of the other harness's own final score: `final_info.final_score`, else the
    top-level `score` (LedgerShield's harness writes both)."""
    info = episode.get("final_info")
    if isinstance(info, dict) and "final_score" in info and not isinstance(info["final_score"], (dict, list)):
        return "final_info.final_score", _short(info["final_score"])
    if "score" in episode and not isinstance(episode["score"], (dict, list, bool)) and episode["score"] is not None:
        return "score", _short(episode["score"])
    return None


def _breakdown(episode: dict) -> dict:
    for holder in (episode.get("final_info"), episode):
        if isinstance(holder, dict) and isinstance(holder.get("score_breakdown"), dict):
            return holder["score_breakdown"]
    return {}


def provenance_rows(episode: dict, orders: dict[str, str]) -> list[dict]:
    """The other harness's own grade, kept as provenance and never used: its final score beside
    Tally's, then each of its `score_breakdown` entries that names a dimension (BREAKDOWN_KEYS)
    beside Tally's grade of that dimension, in the task's order, then its other entries."""
    rows = []
    theirs = their_score(episode)
    if theirs is not None:
        rows.append({"key": theirs[0], "theirs": theirs[1], "tally": score_text(orders.get("score", "")),
                     "what": "score"})
    breakdown = _breakdown(episode)
    paired = set()
    for key, dim in BREAKDOWN_KEYS.items():
        if key in breakdown and f"dim:{dim}" in orders:
            order = orders[f"dim:{dim}"]
            rows.append({"key": f"score_breakdown.{key}", "theirs": _short(breakdown[key]),
                         "tally": f"{int(order) / 100:.2f}%" if order.isdigit() else "none", "what": f"dimension {dim}"})
            paired.add(key)
    for key in sorted(breakdown, key=str):
        if len(rows) >= MAX_PROVENANCE_ROWS:
            break
        if key not in paired:
            rows.append({"key": f"score_breakdown.{key}", "theirs": _short(breakdown[key]), "tally": "", "what": ""})
    return rows


def view(item_raw: dict, episode: object, orders: dict[str, str]) -> dict:
    """Everything the case page shows of one response (`orders`: unit -> order of its verdict rows)."""
    out: dict = {"score": score_text(orders.get("score", "")),
                 "dimensions": dimension_rows(item_raw.get("task", ""), orders),
                 "penalties": [{"unit": u, "order": o} for u, o in sorted(orders.items())
                               if u.startswith(("penalty:", "cap:"))],
                 "timeline": [], "timeline_more": 0, "provenance": [], "readable": isinstance(episode, dict)}
    if isinstance(episode, dict):
        out["timeline"], out["timeline_more"] = timeline(item_raw.get("env"), episode)
        out["provenance"] = provenance_rows(episode, orders)
        ended = episode.get("ended")
        out["ended"] = ended if isinstance(ended, str) else ""
        final = episode.get("final_submission")
        out["decision"] = _short(final.get("decision")) if isinstance(final, dict) else "none"
    return out
