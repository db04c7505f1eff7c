"""Fuzz cases of LedgerShield (generator/fuzz): the boundaries of content/pages/scoring-ledgershield.md.

Episodes are built from the item's desk and gold: a trace of the required tools and interventions
(with their ids), then `submit_decision` with the gold payload or a near-miss of it: `confidence`
in [0, 1] with 10000 c an integer (and just outside), evidence boxes shifted to the overlap limit
2 x intersection >= union (a shift of a third of the width), numbers at exact decimal equality,
text equality that ignores only U+0020, the step budget and the par cost. The steps use
LedgerShield's tool names and payload keys, so the desk's observations are reached: a bank
comparison with the approved account or one character off, a ledger search at the amount bands'
edges (98, 92 and 80 hundredths) and a part of the invoice number, a vendor history lookup by key,
and the payload's `predicted_probabilities` next to the readings' bounds; half the near-misses carry an
incoming `run_state` at the carried state's edges (section 12), one in eight of them malformed.
"""

from __future__ import annotations

import random
from decimal import Decimal

from generator.fuzz import Num

DELTAS = ("0.01", "0.001", "1", "0.0001", "0.00001")
NUMBERS = ("0", "1", "0.9999", "0.99995", "1.0001", "-0", "0.5", "1e-1000001", "1e1000001", "0.12345", "1.0",
           "100E-2", "0e1000001")
WORDS = ("PAY", "HOLD", "NEEDS_REVIEW", "ESCALATE_FRAUD", "pay", "PAY ", "pass", "fail", "submit_decision",
         "ocr", "fast", "accurate", "get_artifact", "route_to_security", "X<->Y", "A<->B<->C")
ID_TOOLS = {"ocr": ("doc_id", "documents"), "zoom": ("doc_id", "documents"), "lookup_po": ("po_id", "pos"),
            "lookup_receipt": ("receipt_id", "receipts"), "inspect_email_thread": ("thread_id", "threads")}
VENDOR_TOOLS = ("lookup_vendor", "lookup_vendor_history", "compare_bank_account", "search_ledger")
HYPOTHESES = ("safe", "bank_fraud", "duplicate_billing", "vendor_takeover", "ceo_bec", "phantom_vendor",
              "supply_chain_compromise", "insider_collusion", "multi_entity_layering", "campaign_fraud",
              "split_payment", "threshold_evasion")
BANDS = ("0.98", "0.92", "0.80", "0.7999", "1.02", "1.0204", "1")   # ledger amount ratios at the bands' edges


def _vendors(env: dict) -> dict:
    vendors = env.get("vendors")
    return vendors if isinstance(vendors, dict) else {}


def _vendor_key(rnd: random.Random, env: dict) -> str:
    vendors = _vendors(env)
    keys = [str(v.get("vendor_key") or k) if isinstance(v, dict) else str(k) for k, v in sorted(vendors.items())]
    key = rnd.choice(keys or ["none"])
    return rnd.choice((key, key.upper(), " " + key + " ", key + "x"))


def _ledger_search(rnd: random.Random, env: dict, payload: dict) -> None:
    rows = [r for r in env.get("ledger") or [] if isinstance(r, dict)]
    if not rows:
        return
    row = rnd.choice(rows)
    payload["vendor_key"] = rnd.choice((str(row.get("vendor_key", "")), payload["vendor_key"], ""))
    number = str(row.get("invoice_number") or "")
    payload["invoice_number"] = rnd.choice((number, number[:-1], number.lower().replace("-", " "), "X" + number, ""))
    try:
        amount = Decimal(str(row.get("amount")).replace(",", ""))
        payload["amount"] = rnd.choice((Num(format(amount * Decimal(rnd.choice(BANDS)), "f")), None, "abc"))
    except ArithmeticError:
        payload["amount"] = None


def _step(rnd: random.Random, env: dict, tool: str) -> dict:
    payload: dict = {}
    if tool in ID_TOOLS:
        key, table = ID_TOOLS[tool]
        ids = sorted(env.get(table) or {}) or ["none"]
        payload[key] = rnd.choice(ids)
    if tool in VENDOR_TOOLS:
        payload["vendor_key"] = _vendor_key(rnd, env)
    if tool == "ocr":
        payload["mode"] = rnd.choice(("fast", "accurate", "Accurate"))
    if tool == "compare_bank_account":
        accounts = [str(v.get("bank_account")) for v in _vendors(env).values() if isinstance(v, dict) and v.get("bank_account")]
        account = rnd.choice(accounts or ["XX00 1"])
        payload["proposed_bank_account"] = rnd.choice((account, account, account + " ", account[:-1] + "9", ""))
    if tool == "search_ledger":
        _ledger_search(rnd, env, payload)
    step: dict = {"action_type": tool, "payload": payload}
    if rnd.random() < 0.05:
        bad: tuple[object, ...] = ({}, None, "x")
        step["payload"] = rnd.choice(bad)  # a bad payload still costs, and still reveals artifacts
    return step


def _probabilities(rnd: random.Random, gold: dict) -> dict:
    names = rnd.sample(HYPOTHESES, rnd.choice((1, 2, 3, 12)))
    values = ("0.5", "0.25", "1", "0", "-0.0001", "0.00001", "1000000000", "1000000001", "0.3333")
    out: dict = {n: Num(rnd.choice(values)) for n in names}
    if rnd.random() < 0.2:
        out[rnd.choice(names)] = rnd.choice(("0.5", True, None, "x", [1]))
    return out


def _box(rnd: random.Random, box: list) -> list:
    x1, y1, x2, y2 = (int(v) for v in box)
    shift = max((x2 - x1) // 3 + rnd.choice((0, 0, 1)), 0)
    out: list = [x1 + shift, y1, x2 + shift, y2]
    if rnd.random() < 0.2:
        out[rnd.randrange(4)] = rnd.choice((Num("10.0"), Num("1e1"), "10", Num("10.5"), Num("1e1000001")))
    return out


def _number(rnd: random.Random, value: object) -> object:
    d = Decimal(str(value)) + Decimal(rnd.choice(DELTAS + ("0", "0"))) * rnd.choice((1, -1))
    return rnd.choice((Num(format(d, "f")), format(d, "f"), Num(format(d, "E")), " " + format(d, "f")))


def _payload(rnd: random.Random, gold: dict, near: bool) -> dict:
    out: dict = {k: gold[k] for k in ("decision", "discrepancies", "reason_codes", "fraud_flags", "duplicate_links",
                                      "cross_invoice_links", "campaign_signals", "policy_checks") if k in gold}
    out["extracted_fields"] = dict(gold.get("extracted_fields") or {})
    out["line_items"] = [dict(x) for x in gold.get("line_items") or [] if isinstance(x, dict)]
    out["evidence_map"] = {k: dict(v) for k, v in (gold.get("evidence") or {}).items() if isinstance(v, dict)}
    out["confidence"] = Num(rnd.choice(NUMBERS[:3]))
    groups = gold.get("counterfactual_concepts") or []
    out["counterfactual"] = " ".join(str(g[0]) for g in groups if isinstance(g, list) and g) or "none"
    if not near:
        return out
    out["confidence"] = Num(rnd.choice(NUMBERS)) if rnd.random() < 0.8 else rnd.choice(("0.9", None, True))
    for key, value in out["extracted_fields"].items():
        if isinstance(value, (int, float)) and rnd.random() < 0.6:
            out["extracted_fields"][key] = _number(rnd, value)
        elif isinstance(value, str) and rnd.random() < 0.4:
            out["extracted_fields"][key] = rnd.choice((value.replace(" ", ""), value + " ", value.replace(" ", "\u00a0"),
                                                       value.lower()))
    for line in out["line_items"]:
        for key in ("qty", "unit_price", "line_total"):
            if key in line and rnd.random() < 0.5:
                line[key] = _number(rnd, line[key])
    for entry in out["evidence_map"].values():
        if isinstance(entry.get("bbox"), list) and len(entry["bbox"]) == 4 and rnd.random() < 0.7:
            entry["bbox"] = _box(rnd, entry["bbox"])
        if rnd.random() < 0.2:
            entry["page"] = rnd.choice((Num("1.0"), "1", Num("1e0"), Num("2")))
    if rnd.random() < 0.3:
        out["decision"] = rnd.choice(WORDS[:6])
    if rnd.random() < 0.3:
        out["predicted_probabilities"] = _probabilities(rnd, gold)
    if rnd.random() < 0.2:
        out["confidence"] = Num(rnd.choice(("1e10", "-0.00001", "7.12345", "0.99", "0.995")))
    return out


LEVELS = ("full_authority", "restricted_authority", "review_only")
# the carried state's values at the rules' edges (rule page section 12): the gate's thresholds, the
# recovery window, each ledger ratio's bound and the largest whole number a state holds
STATE_VALUES = {"n": (0, 1, 2, 7, 10**15), "error": (0, 100, 1199, 1200, 1201, 2199, 2200, 3399, 3400, 10000),
                "window": (0, 1, 2, 3), "delay": (0, 300, 7999, 8000, 100000), "minutes": (0, 2800, 47999, 48000),
                "friction": (0, 18, 799, 800), "fp_cost": (0, 81200, 499999, 500000),
                "debt": (0, 2500, 79999, 80000), "breaches": (0, 1, 6, 7), "restrictions": (0, 1, 8, 9)}


def _run_state(rnd: random.Random) -> object:
    """An incoming run_state at the rules' edges, or (one time in eight) a malformed one."""
    state: dict = {k: rnd.choice(v) for k, v in STATE_VALUES.items()}
    state["level"] = rnd.choice(LEVELS)
    if rnd.random() < 0.125:
        key = rnd.choice(sorted(state))
        bad = rnd.choice(("drop", "extra", Num("1.5"), -1, Num("1.0e0"), "locked", None, 10**15 + 1, Num("1e1000001")))
        if bad == "drop":
            del state[key]
        elif bad == "extra":
            state["seed"] = 1
        else:
            state[key] = bad
    return state


def answers(rnd: random.Random, item: dict) -> list[object]:
    """An episode of the required tools then the gold decision, and near-misses of it."""
    env, gold = item.get("env"), item.get("gold")
    if not isinstance(env, dict) or not isinstance(gold, dict):
        return []
    tools = [t for t in list(gold.get("required_tools") or []) + list(gold.get("required_interventions") or [])
             if isinstance(t, str)]
    trace = [_step(rnd, env, t) for t in tools]
    for artifact in sorted(env.get("artifacts") or {}):
        trace.append({"tool_name": "get_artifact", "payload": {"artifact_id": artifact}})
    budget = env.get("step_budget")
    padding = int(budget) - len(trace) + rnd.choice((-1, 0, 1)) if isinstance(budget, int) and budget < 60 else 0
    padded = trace + [{"action_type": "lookup_policy", "payload": {}}] * max(padding, 0)
    exact = {"action_trace": trace + [{"tool_name": "submit_decision", "payload": _payload(rnd, gold, False)}]}
    near_payload = _payload(rnd, gold, True)
    near: dict = {"action_trace": (padded if rnd.random() < 0.3 else trace)
            + [{"tool_name": "submit_decision", "payload": near_payload}]}
    final: dict = {"action_trace": trace, "final_submission": _payload(rnd, gold, True)}
    for episode in (near, final):
        if rnd.random() < 0.5:
            episode["run_state"] = _run_state(rnd)
    return [exact, near, final, {"action_trace": {"x": 1}}, {"final_submission": near_payload}]
