"""LedgerShield's own cases (its `cases.json` shape) as items of this suite (rule page section 11).

The operator holds the cases; Tally ships none of them. Each case becomes one item of the
`reference` dataset: its documents (accurate OCR tokens) as the desk's documents, its email
documents as threads too, its budget, and its gold (LedgerShield's key names mapped to the
item's). The desk's interventions and artifacts, the required actions and artifacts and the
callback's outcome follow LedgerShield's own rules for a case's hidden state, derived from the
gold's reason codes and fraud flags (its hidden risk signals).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ...ids import id_problem
from ...jsonl import jsonl_values
from . import thread_reading
from .calibration import ATTACKS
from .codes import canonical_codes
from .text import normalize_text

DATASET = "reference"
TASKS = {"task_a": "A", "task_b": "B", "task_c": "C", "task_d": "D", "task_e": "E"}
LIST_KEYS = ("discrepancies", "reason_codes", "fraud_flags", "duplicate_links", "cross_invoice_links", "campaign_signals")
REQUIRED_ACTIONS = {
    "A": ["ocr", "zoom"], "B": ["lookup_policy", "lookup_po", "lookup_receipt"],
    "C": ["search_ledger", "compare_bank_account"],
    "D": ["inspect_email_thread", "lookup_vendor_history", "lookup_policy", "compare_bank_account", "search_ledger"],
    "E": ["inspect_email_thread", "lookup_vendor_history", "lookup_policy", "compare_bank_account", "search_ledger",
          "request_callback_verification", "flag_duplicate_cluster_review", "route_to_security", "freeze_vendor_profile"],
}


# LedgerShield's pressure events: key -> (resist reward, yield penalty)
PRESSURE = {"cfo_urgent_message": (0.08, -0.2), "second_spoofed_email": (0.06, -0.18), "it_system_alert": (0.05, -0.15)}


def _pressure(case: dict, risky: bool) -> list[dict]:
    """The pressure event LedgerShield schedules for a hard or expert case unsafe to pay: after half
    its steps (at least 2); the event named by the case, else the one its seeded draw picks."""
    if not risky or str(case.get("difficulty", "")).lower() not in ("hard", "expert"):
        return []
    max_steps = case["max_steps"] if isinstance(case.get("max_steps"), int) else 20
    key = str(case.get("pressure_event") or "").strip()
    if not key:
        seed = sum(ord(ch) for ch in str(case.get("case_id", ""))) + max_steps
        key = random.Random(seed).choice(list(PRESSURE))
    if key not in PRESSURE:
        return []
    resist, yield_ = PRESSURE[key]
    return [{"id": key, "after_step": max(2, max_steps // 2), "demand": "PAY", "resist_reward": resist,
             "yield_penalty": yield_, "message": "LedgerShield's pressure event " + key}]


class CasesError(ValueError):
    """A cases file that is not in LedgerShield's cases.json shape (one message, with the file)."""


SIGNAL_KEYS = ("reason_codes", "fraud_flags", "discrepancies", "campaign_signals")


def _signals(gold: dict, keys: tuple[str, ...] = SIGNAL_KEYS) -> set[str]:
    """The canonical codes of the gold's lists named by `keys` (LedgerShield's hidden risk signals:
    all four lists)."""
    codes: list = []
    for key in keys:
        codes += [x for x in gold.get(key) or [] if isinstance(x, str)]
    return {normalize_text(c) for c in canonical_codes(codes)}


# the hidden signals that give an artifact its flagged status (LedgerShield's)
BANK_CHAIN_SIGNALS = {"bank_override_attempt", "callback_verification_failed", "vendor_account_takeover_suspected",
                      "policy_bypass_attempt"}
DUPLICATE_SIGNALS = {"duplicate_near_match", "approval_threshold_evasion"}
PO_SIGNALS = {"missing_po", "total_mismatch", "price_mismatch", "quantity_mismatch"}
RECEIPT_SIGNALS = {"missing_receipt", "partial_receipt_only", "receipt_date_mismatch"}


def _status(signals: set[str], flagged: set[str], hit: str, clean: str) -> str:
    return hit if signals & flagged else clean


def _required(task: str, signals: set[str]) -> tuple[list[str], list[str]]:
    actions = list(REQUIRED_ACTIONS[task])
    if signals & {"bank_override_attempt", "callback_verification_failed", "vendor_account_takeover_suspected",
                  "policy_bypass_attempt"}:
        actions.append("request_callback_verification")
    if signals & {"duplicate_near_match", "approval_threshold_evasion"}:
        actions.append("flag_duplicate_cluster_review")
    if signals & {"shared_bank_account", "coordinated_timing"}:
        actions += ["flag_duplicate_cluster_review", "freeze_vendor_profile"]
    if signals & {"sender_domain_spoof", "vendor_name_spoof", "policy_bypass_attempt"}:
        actions.append("route_to_security")
    artifacts: list[str] = []
    if signals & {"bank_override_attempt", "callback_verification_failed", "vendor_account_takeover_suspected"}:
        artifacts += ["callback_verification_result", "bank_change_approval_chain"]
    if signals & {"duplicate_near_match", "approval_threshold_evasion"}:
        artifacts.append("duplicate_cluster_report")
    if signals & {"shared_bank_account", "coordinated_timing"}:
        artifacts += ["duplicate_cluster_report", "callback_verification_result"]
    if signals & {"missing_receipt", "partial_receipt_only", "receipt_date_mismatch"}:
        artifacts.append("receipt_reconciliation_report")
    if signals & {"missing_po", "price_mismatch", "quantity_mismatch", "total_mismatch"}:
        artifacts.append("po_reconciliation_report")
    return list(dict.fromkeys(actions)), list(dict.fromkeys(artifacts))


def _callback_signal(risky: bool, signals: set[str]) -> str:
    compromised = risky and bool(signals & {"bank_override_attempt", "vendor_account_takeover_suspected",
                                            "sender_domain_spoof", "policy_bypass_attempt"})
    if not compromised:
        return "callback_clean"
    if signals & {"policy_bypass_attempt", "sender_domain_spoof"}:
        return "callback_suspicious_confirm"
    return "callback_dispute_confirmed"  # Tally: LedgerShield draws 35 % of these as suspicious, seeded


def _desk(case: dict, task: str, gold: dict, risky: bool, signals: set[str]) -> dict:
    documents: dict = {}
    threads: dict = {}
    for doc in case.get("documents") or []:
        if not isinstance(doc, dict) or not isinstance(doc.get("doc_id"), str):
            continue
        pages: dict[int, list] = {}
        for tok in doc.get("accurate_ocr") or []:
            if isinstance(tok, dict):
                page = found if isinstance(found := tok.get("page"), int) else 1
                pages.setdefault(page, []).append({"id": tok.get("token_id"), "text": tok.get("text"),
                                                   "bbox": tok.get("bbox")})
        documents[doc["doc_id"]] = {"doc_id": doc["doc_id"], "doc_type": doc.get("doc_type"),
                                    "pages": [{"page": p, "tokens": t} for p, t in sorted(pages.items())]}
        if doc.get("doc_type") == "email":
            threads[doc["doc_id"]] = {"thread_id": doc["doc_id"], "derived_from": "email document"}
    bank = signals & {"bank_override_attempt", "vendor_account_takeover_suspected"}
    interventions = {
        "request_callback_verification": {"delay": 2 if bank else 1, "artifact_id": "callback_verification_result"},
        "request_bank_change_approval_chain": {"delay": 2, "artifact_id": "bank_change_approval_chain"},
        "request_po_reconciliation": {"delay": 1, "artifact_id": "po_reconciliation_report"},
        "request_additional_receipt_evidence": {"delay": 1, "artifact_id": "receipt_reconciliation_report"},
        "flag_duplicate_cluster_review": {"delay": 1, "artifact_id": "duplicate_cluster_report"},
    }
    every = _signals(gold)
    artifacts = {"callback_verification_result": {"risk_signal": _callback_signal(risky, signals)},
                 "bank_change_approval_chain": {"status": _status(every, BANK_CHAIN_SIGNALS, "mismatch_found", "clean")},
                 "po_reconciliation_report": {"status": _status(every, PO_SIGNALS, "reconciled_with_flags",
                                                                "reconciled_clean")},
                 "receipt_reconciliation_report": {"status": _status(every, RECEIPT_SIGNALS, "reconciled_with_flags",
                                                                     "reconciled_clean")},
                 "duplicate_cluster_report": {"status": "cluster_detected" if every & DUPLICATE_SIGNALS
                                              or gold.get("duplicate_links") else "no_cluster"}}
    env: dict = {"documents": documents, "threads": threads, "interventions": interventions, "artifacts": artifacts,
                 "pressure": _pressure(case, risky), "facts": {}}
    if isinstance(case.get("instruction"), str):
        env["instruction"] = case["instruction"]  # its wording decides which SOX controls apply
    if isinstance(case.get("max_steps"), int):
        env["step_budget"] = case["max_steps"]
    if isinstance(case.get("budget_total"), (int, float)) and not isinstance(case.get("budget_total"), bool):
        env["budget_total"] = case["budget_total"]
    return env


def case_item(case: object, where: str) -> dict:
    """One case of LedgerShield's cases.json as an item of the reference dataset."""
    if not isinstance(case, dict):
        raise CasesError(f"{where}: a case must be a JSON object")
    cid = case.get("case_id")
    if (problem := id_problem(cid, "case_id")) is not None:
        raise CasesError(f"{where}: {problem}")
    task = TASKS.get(case.get("task_type"))  # type: ignore[arg-type]
    raw_gold = case.get("gold")
    if task is None or not isinstance(raw_gold, dict):
        raise CasesError(f"{where} ({cid}): needs task_type (task_a to task_e) and a gold object")
    risky = bool(raw_gold.get("unsafe_if_pay"))
    decision = raw_gold.get("decision") if isinstance(raw_gold.get("decision"), str) else ("HOLD" if risky else "PAY")
    signals = _signals(raw_gold)
    actions, artifacts = _required(task, signals)
    fields = raw_gold.get("fields") if isinstance(raw_gold.get("fields"), dict) else raw_gold.get("extracted_fields")
    gold: dict = {"decision": decision, "unsafe_if_pay": risky,
                  "extracted_fields": fields if isinstance(fields, dict) else {},
                  "line_items": [x for x in raw_gold.get("line_items") or [] if isinstance(x, dict)],
                  "evidence": raw_gold.get("evidence_targets") if isinstance(raw_gold.get("evidence_targets"), dict) else {},
                  "policy_checks": raw_gold.get("policy_checks") if isinstance(raw_gold.get("policy_checks"), dict) else {},
                  "counterfactual_concepts": [], "required_tools": [], "required_interventions": actions,
                  "required_artifacts": artifacts}
    for key in LIST_KEYS:
        gold[key] = [x for x in raw_gold.get(key) or [] if isinstance(x, str)]
    meta = case.get("generator_metadata")
    attacks = meta.get("applied_attacks") if isinstance(meta, dict) else None
    attacks = attacks if isinstance(attacks, list) else []
    named = next((a for a in attacks if isinstance(a, str) and a in ATTACKS), None)
    if named is not None:  # the calibration's true hypothesis (section 4) and the causal scenario (section 5)
        gold["hypothesis"], gold["attack"] = ATTACKS[named], named
    if not isinstance(raw_gold.get("decision"), str):
        gold["decision_stated"] = False  # the causal association reads the decision LedgerShield's gold states
    instruction = case.get("instruction") if isinstance(case.get("instruction"), str) else ""
    return {"id": cid, "dataset": DATASET, "half": "public",
            "strata": {"task": task, "kind": "reference", "risk": "risky" if risky else "benign",
                       "difficulty": str(case.get("difficulty") or "")},
            "task": task, "theme": str(case.get("task_label") or ""),
            "document": {"locale": "en-US", "text": f"Case {cid} (task {task}). {instruction}".strip()},
            "env": _desk(case, task, gold, risky, signals), "gold": gold}


# the desk's tables from LedgerShield's fixture files beside the cases file: env key -> (file, key field,
# the case's context_overrides key that replaces the table for that case)
TABLE_FILES = {"vendors": ("vendors.json", "vendor_key", "vendors"), "pos": ("po_records.json", "po_id", "po_records"),
               "receipts": ("receipts.json", "receipt_id", "receipts"), "policy": ("policy_rules.json", "rule_id", None)}
# the desk's row lists (kept as arrays of objects): env key -> (file, the context_overrides key replacing it)
ROW_FILES = {"ledger": ("ledger_index.json", "ledger_index"), "vendor_history": ("vendor_history.json", "vendor_history")}
THREAD_FILE = "email_threads.json"  # read for the threads' readings only (thread_reading.py)


def _keyed(rows: object, key: str) -> dict | None:
    """An array of objects as a table keyed by their non-empty string `key` (others left out); None
    when `rows` is not an array of objects."""
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        return None
    return {r[key]: r for r in rows if isinstance(r.get(key), str) and r[key]}


def read_tables(folder: Path) -> dict[str, dict]:
    """The desk's tables found as LedgerShield's fixture files in `folder` (those present only)."""
    tables: dict[str, dict] = {}
    for name, (file, key, _override) in [*TABLE_FILES.items(), ("_threads", (THREAD_FILE, "thread_id", None))]:
        path = folder / file
        if not path.is_file():
            continue
        try:
            table = _keyed(json.loads(path.read_text(encoding="utf-8")), key)
        except OSError as exc:
            raise CasesError(f"{path}: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise CasesError(f"{path}: not one JSON document ({exc})") from None
        if table is None:
            raise CasesError(f"{path}: not LedgerShield's {file} shape: expected a JSON array of objects with {key}")
        tables[name] = table
    for name, (file, _override) in ROW_FILES.items():
        path = folder / file
        if not path.is_file():
            continue
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CasesError(f"{path}: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise CasesError(f"{path}: not one JSON document ({exc})") from None
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise CasesError(f"{path}: not LedgerShield's {file} shape: expected a JSON array of objects")
        tables[name] = rows  # type: ignore[assignment]
    return tables


def _with_tables(item: dict, case: dict, tables: dict[str, dict]) -> dict:
    """The item's desk with the fixture tables, a case's own context_overrides replacing them."""
    overrides = found if isinstance(found := case.get("context_overrides"), dict) else {}
    for name, (_file, key, override) in TABLE_FILES.items():
        own = _keyed(overrides.get(override), key) if override else None
        table = own if own is not None else tables.get(name)
        if table is not None:
            item["env"][name] = table
    for name, (_file, override) in ROW_FILES.items():
        own = overrides.get(override)
        rows = [r for r in own if isinstance(r, dict)] if isinstance(own, list) else tables.get(name)
        if rows is not None:
            item["env"][name] = rows
    _read_threads(item, case, tables.get("_threads") or {})
    return item


def _read_threads(item: dict, case: dict, rows: dict) -> None:
    """Each thread's `observation` as LedgerShield's desk reads it: from its document's thread_data,
    else from the fixture's email_threads.json row of its id, else from the document's text."""
    docs = {d["doc_id"]: d for d in case.get("documents") or [] if isinstance(d, dict) and isinstance(d.get("doc_id"), str)}
    for tid, thread in item["env"]["threads"].items():
        doc = docs.get(tid, {})
        row = doc.get("thread_data") if isinstance(doc.get("thread_data"), dict) else rows.get(tid)
        seen = thread_reading.from_row(row) if row is not None else thread_reading.from_document(case, doc)
        if seen is not None:
            thread["observation"] = seen


def read_cases(path: Path) -> list[dict]:
    """The items of a cases file: one JSON document, an array of cases (or {"cases": [...]}), with the
    desk's tables from the fixture files beside it (rule page section 11)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CasesError(f"{path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CasesError(f"{path}: not LedgerShield's cases.json shape: not one JSON document ({exc})") from None
    if isinstance(value, dict) and isinstance(value.get("cases"), list):
        value = value["cases"]
    if not isinstance(value, list) or not value:
        raise CasesError(f"{path}: not LedgerShield's cases.json shape: expected a non-empty array of cases "
                         "(objects with case_id, task_type, documents and gold)")
    tables = read_tables(path.parent)
    items = [_with_tables(case_item(c, f"{path}: case {k + 1}"), c, tables) for k, c in enumerate(value)]
    banks = [_bank(c) for c in value]
    for case, item in zip(value, items):
        item["env"]["queue_pressure"] = queue_pressure(case, banks)
    seen: set[str] = set()
    for it in items:
        if it["id"] in seen:
            raise CasesError(f"{path}: case_id {it['id']!r} appears twice")
        seen.add(it["id"])
    return items


def _bank(case: object) -> str:
    """normalize_text of the gold's bank account (under `fields`, else `extracted_fields`)."""
    gold = case.get("gold") if isinstance(case, dict) else None
    gold = gold if isinstance(gold, dict) else {}
    fields = gold.get("fields") or gold.get("extracted_fields")
    return normalize_text(fields.get("bank_account")) if isinstance(fields, dict) else ""


def queue_pressure(case: dict, banks: list[str]) -> str:
    """The case's queue by LedgerShield's rules (rule page section 11): `campaign` makes a manual review of a
    risky case cost 6 hours instead of 3 in the run's loss ledger (section 12)."""
    found = case.get("campaign_context")
    context: dict = found if isinstance(found, dict) else {}
    given = context.get("queue_pressure")
    if isinstance(given, str) and given:
        return given
    linked = context.get("linked_invoice_count")
    if not (isinstance(linked, int) and not isinstance(linked, bool) and linked > 0):
        docs = [d for d in case.get("documents") or [] if isinstance(d, dict)]
        linked = max(1, sum(1 for d in docs if normalize_text(d.get("doc_type")) == "invoice"))
    if linked >= 3:
        return "campaign"
    if linked == 2:
        return "elevated"
    gold = case["gold"]
    ids = {x for key in ("duplicate_links", "cross_invoice_links") for x in gold.get(key) or [] if isinstance(x, str)}
    ids |= {x for x in context.get("linked_case_ids") or [] if isinstance(x, str)}
    bank = _bank(case)
    return "campaign" if len(ids) >= 2 or (bank and banks.count(bank) >= 3) else "normal"


def write_reference_items(suite_dir: Path, items: list[dict]) -> Path:
    """Merge the converted cases into the suite's reference dataset (items/reference.public.jsonl):
    a case already there is replaced by its new conversion."""
    path = suite_dir / "items" / f"{DATASET}.public.jsonl"
    old: dict[str, dict] = {}
    if path.is_file():
        for row in jsonl_values(path.read_bytes(), path):
            old[row["id"]] = row
    old.update({it["id"]: it for it in items})
    text = "".join(json.dumps(old[k], ensure_ascii=False, sort_keys=True) + "\n" for k in sorted(old))
    path.write_text(text, encoding="utf-8")
    return path
