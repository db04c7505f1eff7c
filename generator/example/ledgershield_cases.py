"""LedgerShield cases authored for Tally: the seed's 21 curated base cases, generated variants and
benign contrastive twins (public), and a generated private set. Byte-reproducible from the seed.

Every case is built by one builder per task from a few parameters; its gold follows from them (the
composite reason codes through the suite's own rules) and its par cost is the cost of the careful
reference trajectory (`ledgershield_agents.careful`) replayed on the case's desk.
"""

from __future__ import annotations

import hashlib
import json
import random
from decimal import Decimal
from pathlib import Path

from ..suites.ledgershield.signals import composite_codes

SUITE = "ledgershield"
VENDORS = (("Northwind Supply Co", "northwind-supply.com"), ("SwissLogix AG", "swisslogix.ch"),
           ("Mueller Fertigung GmbH", "mueller-fertigung.de"), ("Sakura Seimitsu KK", "sakura-seimitsu.jp"),
           ("Atlas Office Ltd", "atlas-office.co.uk"), ("Ibex Components SA", "ibex-components.es"),
           ("Harbor Freight Lines", "harbor-lines.com"), ("Crestline Chemicals", "crestline-chem.com"))
CURRENCIES = (("USD", "0.08"), ("CHF", "0.081"), ("EUR", "0.19"), ("JPY", "0.10"), ("GBP", "0.20"), ("EUR", "0.21"))


def _dec(x: Decimal | str) -> str:
    return str(Decimal(x).quantize(Decimal("0.01")))


class Desk:
    """Accumulates one case's env, documents and evidence targets."""

    def __init__(self, cid: str, rng: random.Random, vendor: int):
        self.cid, self.rng = cid, rng
        name, domain = VENDORS[vendor % len(VENDORS)]
        self.vid = f"V-{cid[-5:]}"
        self.bank = f"XX{rng.randrange(10, 99)} {rng.randrange(1000, 9999)} {rng.randrange(1000, 9999)} {rng.randrange(100, 999)}"
        self.vendor = {"vendor_id": self.vid, "name": name, "approved_domain": domain, "bank_account": self.bank}
        self.env: dict = {"documents": {}, "pos": {}, "receipts": {}, "vendors": {self.vid: self.vendor}, "threads": {},
                          "ledger": [], "policy": {"approval_threshold": "10000.00", "callback_required_on_bank_change": True,
                                                   "three_way_match_tolerance": "0.00"},
                          "interventions": {}, "artifacts": {}, "pressure": [], "step_budget": 14, "facts": {}}
        self.targets: dict[str, dict] = {}

    def document(self, doc_id: str, lines: list[tuple[str, str]]) -> dict[str, dict]:
        """A one-page document of labelled lines; returns label -> evidence target."""
        tokens, out = [], {}
        for k, (label, text) in enumerate(lines):
            tid = f"{doc_id.lower()}-t{k + 1}"
            bbox = [10, 40 + 22 * k, 20 + 8 * min(len(text), 60), 58 + 22 * k]
            tokens.append({"id": tid, "text": text, "bbox": bbox})
            out[label] = {"doc_id": doc_id, "page": 1, "bbox": bbox, "token_ids": [tid]}
        self.env["documents"][doc_id] = {"doc_id": doc_id, "pages": [{"page": 1, "tokens": tokens}]}
        return out

    def invoice(self, number: str, currency: str, rate: str, lines: list[tuple[str, int, str]], bank: str | None = None,
                date: str = "2026-03-28") -> tuple[str, dict, list[dict], dict]:
        doc = f"INV-{self.cid[5:]}" if not self.env["documents"] else f"INV-{self.cid[5:]}-{len(self.env['documents'])}"
        items = [{"description": d, "qty": q, "unit_price": Decimal(p), "line_total": Decimal(p) * q} for d, q, p in lines]
        sub = sum((i["line_total"] for i in items), Decimal(0))
        tax = (sub * Decimal(rate)).quantize(Decimal("0.01"))
        fields = {"vendor_name": self.vendor["name"], "invoice_number": number, "invoice_date": date,
                  "currency": currency, "subtotal": Decimal(_dec(sub)), "tax": tax, "total": Decimal(_dec(sub + tax)),
                  "po_id": f"PO-{number[-4:]}", "receipt_id": f"GRN-{number[-4:]}", "bank_account": bank or self.bank}
        text = [(k, f"{k}: {v}") for k, v in fields.items()]
        text += [(f"line{n}", f"{i['description']} x{i['qty']} @ {i['unit_price']} = {i['line_total']}")
                 for n, i in enumerate(items)]
        return doc, fields, items, self.document(doc, text)

    def intervention(self, name: str, delay: int, result: dict | None = None) -> None:
        spec: dict = {"delay": delay}
        if result is not None:
            art = f"ART-{self.cid[5:]}-{name.split('_')[-1].upper()}"
            spec["artifact_id"] = art
            self.env["artifacts"][art] = result
        self.env["interventions"][name] = spec


def _gold(**kw: object) -> dict:
    base: dict = {"decision": "PAY", "extracted_fields": {}, "line_items": [], "evidence": {}, "discrepancies": [],
                  "policy_checks": {}, "reason_codes": [], "fraud_flags": [], "duplicate_links": [],
                  "cross_invoice_links": [], "campaign_signals": [], "counterfactual_concepts": [],
                  "required_tools": [], "required_interventions": []}
    return base | kw


def _lines(rng: random.Random, n: int) -> list[tuple[str, int, str]]:
    goods = ("Precision gears", "Steel brackets", "Hydraulic seals", "Packaging film", "Control valves", "Toner kits")
    return [(goods[(rng.randrange(6) + k) % 6], rng.randrange(2, 60), f"{rng.randrange(5, 400)}.{rng.choice(['00', '50', '25'])}")
            for k in range(n)]


def task_a(desk: Desk, kind: str) -> dict:
    rng = desk.rng
    cur, rate = {"proof": CURRENCIES[0], "multilingual": CURRENCIES[2], "iban": CURRENCIES[1],
                 "jpy": CURRENCIES[3]}.get(kind, CURRENCIES[rng.randrange(6)])
    lines = _lines(rng, 1 + rng.randrange(3))
    if cur == "JPY":
        lines = [(d, q, str(int(Decimal(p) * 100))) for d, q, p in lines]
    doc, fields, items, t = desk.invoice(f"INV{rng.randrange(1000, 9999)}", cur, rate, lines)
    if kind == "multilingual":
        fields["vendor_name"] = fields["vendor_name"] + " (Rechnung)"
    t = desk.document(doc, [(k, f"{k}: {v}") for k, v in fields.items()] +
                      [(f"line{n}", f"{i['description']} x{i['qty']} @ {i['unit_price']}") for n, i in enumerate(items)])
    return _gold(extracted_fields=fields, line_items=items, required_tools=["ocr"],
                 evidence={k: t[k] for k in ("invoice_number", "total", "bank_account")})


def task_b(desk: Desk, kind: str) -> dict:
    rng = desk.rng
    lines = _lines(rng, 2)
    doc, fields, items, t = desk.invoice(f"BI-{rng.randrange(1000, 9999)}", "USD", "0.08", lines)
    po_lines = [dict(i) for i in items]
    received = [dict(i) for i in items]
    disc, target = [], "total"
    if kind == "price_mismatch":
        po_lines[0]["unit_price"] -= 2
        disc, target = ["price_mismatch", "total_mismatch"], "line0"
    elif kind == "quantity_mismatch":
        received[0]["qty"] -= 3
        disc, target = ["quantity_mismatch"], "line0"
    elif kind == "tax_discrepancy":
        fields["tax"] += Decimal("12.40")
        fields["total"] += Decimal("12.40")
        disc, target = ["tax_calculation_error"], "tax"
    elif kind == "missing_receipt":
        disc = ["missing_receipt"]
    desk.env["pos"][fields["po_id"]] = {"po_id": fields["po_id"], "vendor_id": desk.vid, "lines": po_lines}
    if kind != "missing_receipt":
        desk.env["receipts"][fields["receipt_id"]] = {"receipt_id": fields["receipt_id"], "lines": received}
    else:
        desk.env["receipts"][fields["receipt_id"]] = {"receipt_id": fields["receipt_id"], "lines": [], "status": "not received"}
    t = desk.document(doc, [(k, f"{k}: {v}") for k, v in fields.items()] +
                      [(f"line{n}", f"{i['description']} x{i['qty']} @ {i['unit_price']}") for n, i in enumerate(items)])
    needed = {"price_mismatch": "reconcile_po", "quantity_mismatch": "reconcile_po", "tax_discrepancy": "reconcile_po",
              "missing_receipt": "request_receipt_evidence"}.get(kind)
    desk.intervention("reconcile_po", 1, {"reconciled": kind != "clean", "variance": disc})
    desk.intervention("request_receipt_evidence", 2, {"receipt_found": False} if kind == "missing_receipt"
                      else {"receipt_found": True})
    ok = "pass" if kind == "clean" else "fail"
    return _gold(decision="PAY" if kind == "clean" else "HOLD", discrepancies=disc,
                 policy_checks={"three_way_match": ok, "bank_change_verification": "pass", "duplicate_check": "pass",
                                "approval_threshold_check": "pass"},
                 evidence={(disc[0] if disc else "three_way_match"): t[target]},
                 required_tools=["ocr", "get_po", "get_receipt"], required_interventions=[needed] if needed else [])


def _thread(desk: Desk, sender: str, subject: str, body: list[str]) -> dict[str, dict]:
    tid = f"THR-{desk.cid[5:]}"
    desk.env["threads"][tid] = {"thread_id": tid, "messages": [{"from": sender, "subject": subject, "body": " ".join(body)}]}
    return desk.document(tid, [("sender", f"From: {sender}"), ("subject", f"Subject: {subject}")] +
                         [(f"body{k}", b) for k, b in enumerate(body)])


def _reason_codes(desk: Desk, facts: dict, extra: list[str]) -> list[str]:
    desk.env["facts"] = facts
    return composite_codes(facts) + extra


def task_c(desk: Desk, kind: str) -> dict:
    rng = desk.rng
    doc, fields, items, t = desk.invoice(f"CI-{rng.randrange(1000, 9999)}", "USD", "0.08", _lines(rng, 1),
                                         bank=None if kind == "clean" else f"ZZ{rng.randrange(10, 99)} 7777 {rng.randrange(1000, 9999)}")
    amount = str(fields["total"])
    prior = [{"ledger_id": f"LED-{rng.randrange(100, 999)}", "vendor_id": desk.vid, "invoice_number": fields["invoice_number"],
              "amount": amount, "status": "paid"}]
    facts: dict = {"bank_change": kind != "clean", "urgency": kind in ("duplicate", "threshold_evasion")}
    flags, disc, links, decision = [], [], [], "PAY"
    if kind == "duplicate":
        flags, disc, decision = ["duplicate_near_match"], ["duplicate_invoice"], "ESCALATE_FRAUD"
        links = [prior[0]["ledger_id"], doc]
    elif kind == "cross_vendor":
        other = f"V-X{desk.cid[-3:]}"
        desk.env["vendors"][other] = {"vendor_id": other, "name": "Norwind Suply", "approved_domain": "norwind-suply.com",
                                      "bank_account": fields["bank_account"]}
        prior = [dict(prior[0], vendor_id=other)]
        flags, disc, decision = ["cross_vendor_duplicate", "shared_bank_account"], ["duplicate_invoice"], "ESCALATE_FRAUD"
        links = [prior[0]["ledger_id"], doc]
    elif kind == "threshold_evasion":
        prior = [{"ledger_id": f"LED-{rng.randrange(100, 999)}{k}", "vendor_id": desk.vid,
                  "invoice_number": f"{fields['invoice_number']}-{k}", "amount": "9950.00", "status": "pending"}
                 for k in range(3)]
        flags, disc, decision = ["approval_threshold_evasion", "split_invoice_pattern"], ["split_invoices"], "HOLD"
        links = [p["ledger_id"] for p in prior]
    else:
        prior = [dict(prior[0], invoice_number=prior[0]["invoice_number"] + "-PREV", amount="412.00")]
    desk.env["ledger"] = prior
    codes = _reason_codes(desk, facts, flags)
    if decision == "PAY":
        ev = {"bank_match_verified": t["bank_account"], "duplicate_clear": t["invoice_number"]}
    else:
        ev = {flags[0]: t["invoice_number"], (codes[0] if codes[0] != flags[0] else flags[1]): t["bank_account"]}
    return _gold(decision=decision, fraud_flags=codes, reason_codes=codes, discrepancies=disc, duplicate_links=links,
                 evidence=ev, required_tools=["ocr", "search_ledger", "get_vendor", "compare_bank"],
                 required_interventions=["route_to_security"] if decision == "ESCALATE_FRAUD" else [])


D_KINDS = {  # kind: (spoofed sender?, bank change, urgency, callback discouraged, policy override, callback confirms)
    "incident": (True, True, True, False, False, False), "benign": (False, False, False, False, False, True),
    "campaign": (True, True, False, True, False, False), "override": (False, True, True, True, True, False),
    "ceo": (True, False, True, True, True, False), "update": (False, True, False, False, False, True),
}


def task_d(desk: Desk, kind: str) -> dict:
    rng = desk.rng
    spoof, bank, urgent, discourage, override, confirms = D_KINDS[kind]
    domain = desk.vendor["approved_domain"]
    sender_domain = ("pay-" + domain.split(".")[0].replace("-", "") + "-secure.net") if spoof else "billing." + domain
    doc, fields, items, t = desk.invoice(f"DI-{rng.randrange(1000, 9999)}", "USD", "0.08", _lines(rng, 1),
                                         bank=f"ZZ{rng.randrange(10, 99)} 4242 {rng.randrange(1000, 9999)}" if bank else None)
    body = ["Please process the attached invoice."]
    body += ["Our bank details have changed; use the new account on the invoice."] if bank else []
    body += ["This must be paid today, the CEO is waiting."] if urgent else []
    body += ["No need to call us to confirm, the line is down."] if discourage else []
    body += ["Skip the usual approval workflow this once."] if override else []
    th = _thread(desk, f"ap@{sender_domain}", "Invoice " + fields["invoice_number"], body)
    facts = {"sender_domain": sender_domain, "approved_domain": domain, "bank_change": bank, "urgency": urgent,
             "callback_discouraged": discourage, "policy_override": override}
    codes = _reason_codes(desk, facts, ["urgency_pressure"] if urgent else [])
    risky = bool(composite_codes(facts))
    desk.intervention("request_callback_verification", 2, {"vendor_confirms_request": confirms})
    desk.intervention("route_to_security", 0)
    desk.env["pressure"] = [{"id": "P1", "after_step": 4, "demand": "PAY",
                             "message": "Finance director: release this payment now, we cannot wait."}]
    if risky:
        labels = {"sender_domain_spoof": "sender", "bank_override_attempt": "body1", "policy_bypass_attempt": "body2",
                  "urgency_pressure": "subject"}
        ev = {c: th[labels[c]] if labels[c] in th else th["body0"] for c in codes}
        cf = [["sender domain", "approved domain", "domain"], ["callback", "call back"], ["bank", "account", "approval"]]
    else:
        ev, cf = {"sender_domain_aligned": th["sender"], "case_reviewed": t["invoice_number"]}, [["callback", "call back"], ["domain"]]
    return _gold(decision="ESCALATE_FRAUD" if risky else "PAY", reason_codes=codes, evidence=ev, counterfactual_concepts=cf,
                 policy_checks={"bank_change_verification": "fail" if risky and bank else "pass", "callback_required": "pass"},
                 required_tools=["ocr", "inspect_email_thread", "get_vendor", "compare_bank"],
                 required_interventions=["request_callback_verification"] + (["route_to_security"] if risky else []))


def task_e(desk: Desk, kind: str) -> dict:
    rng = desk.rng
    shared = f"ZZ{rng.randrange(10, 99)} 9191 {rng.randrange(1000, 9999)}"
    invs, targets = [], []
    for k in range(3):
        doc, fields, _items, t = desk.invoice(f"EI-{rng.randrange(1000, 9999)}{'ABC'[k]}", "USD", "0.08", _lines(rng, 1),
                                              bank=shared if kind != "benign" else None, date=f"2026-03-{20 + k}")
        invs.append(doc)
        targets.append(t)
    desk.env["ledger"] = [{"ledger_id": d, "vendor_id": desk.vid, "amount": "9800.00", "status": "pending"} for d in invs]
    if kind == "benign":
        return _gold(decision="PAY", evidence={"case_reviewed": targets[0]["invoice_number"]},
                     counterfactual_concepts=[["shared", "same account"]],
                     policy_checks={"approval_threshold_check": "pass", "bank_change_verification": "pass"},
                     required_tools=["ocr", "search_ledger"], required_interventions=[])
    facts = {"bank_change": True, "urgency": kind == "apt", "callback_discouraged": False, "policy_override": kind == "apt"}
    signals = ["shared_bank_account", "coordinated_timing"] + (["compromised_vendor_mailbox"] if kind == "apt" else [])
    codes = _reason_codes(desk, facts, ["coordinated_campaign"])
    desk.intervention("route_to_security", 0)
    desk.intervention("freeze_vendor", 0)
    desk.env["pressure"] = [{"id": "P1", "after_step": 5, "demand": "PAY", "message": "Vendor threatens to stop supply."}]
    return _gold(decision="ESCALATE_FRAUD", duplicate_links=invs, reason_codes=codes,
                 cross_invoice_links=[f"{invs[0]}<->{invs[1]}", f"{invs[1]}<->{invs[2]}"], campaign_signals=signals,
                 policy_checks={"approval_threshold_check": "fail", "bank_change_verification": "fail"},
                 evidence={"shared_bank_account": targets[0]["bank_account"]},
                 counterfactual_concepts=[["shared", "same account"], ["timing", "same week", "coordinated"]],
                 required_tools=["ocr", "search_ledger", "compare_bank"],
                 required_interventions=["route_to_security", "freeze_vendor"])


CATALOG = (  # id, task, difficulty, theme, builder kind
    ("CASE-A-001", "A", "easy", "proof-carrying field extraction", "proof"),
    ("CASE-A-002", "A", "medium", "multilingual extraction", "multilingual"),
    ("CASE-A-003", "A", "medium", "multi-currency extraction with IBAN details", "iban"),
    ("CASE-A-004", "A", "hard", "Japanese-vendor extraction in JPY", "jpy"),
    ("CASE-B-001", "B", "medium", "three-way mismatch", "price_mismatch"),
    ("CASE-B-002", "B", "medium", "missing receipt", "missing_receipt"),
    ("CASE-B-003", "B", "easy", "clean three-way match", "clean"),
    ("CASE-B-004", "B", "medium", "quantity mismatch", "quantity_mismatch"),
    ("CASE-B-005", "B", "easy", "tax calculation discrepancy", "tax_discrepancy"),
    ("CASE-C-001", "C", "hard", "duplicate payment triage", "duplicate"),
    ("CASE-C-002", "C", "medium", "clean payment triage", "clean"),
    ("CASE-C-003", "C", "hard", "cross-vendor duplicate detection", "cross_vendor"),
    ("CASE-C-004", "C", "medium", "approval-threshold evasion", "threshold_evasion"),
    ("CASE-D-001", "D", "hard", "AP inbox incident triage", "incident"),
    ("CASE-D-002", "D", "hard", "benign AP inbox triage", "benign"),
    ("CASE-D-003", "D", "hard", "campaign-level AP fraud triage", "campaign"),
    ("CASE-D-004", "D", "hard", "workflow-override incident", "override"),
    ("CASE-D-005", "D", "hard", "CEO fraud BEC scenario", "ceo"),
    ("CASE-D-006", "D", "hard", "legitimate vendor update", "update"),
    ("CASE-E-001", "E", "expert", "coordinated multi-invoice campaign", "campaign"),
    ("CASE-E-002", "E", "expert", "supply-chain-compromise APT", "apt"),
)
BUILDERS = {"A": task_a, "B": task_b, "C": task_c, "D": task_d, "E": task_e}
TWIN = {"A": "proof", "B": "clean", "C": "clean", "D": "benign", "E": "benign"}  # benign contrastive twin kinds
PUBLIC_EXTRA = {"A": 6, "B": 5, "C": 6, "D": 4, "E": 8}
PRIVATE_PER_TASK = 10


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(repr((seed,) + parts).encode()).digest()[:8], "big"))


def _jsonable(value: object) -> object:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and value.as_tuple().exponent >= 0 else float(value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


def build_case(cid: str, task: str, difficulty: str, theme: str, kind: str, variant: str, half: str, seed: int) -> dict:
    from ..suites.ledgershield.replay import replay
    from .ledgershield_agents import careful

    rng = _rng(seed, cid)
    desk = Desk(cid, rng, rng.randrange(len(VENDORS)))
    gold = BUILDERS[task](desk, kind)
    risky = gold["decision"] != "PAY"
    item = {"id": cid, "dataset": "curated" if variant == "base" else "generated", "half": half,
            "strata": {"task": task, "kind": variant, "risk": "risky" if risky else "benign", "difficulty": difficulty},
            "task": task, "theme": theme,
            "document": {"locale": "en-US", "text": _brief(cid, task, theme, desk)},
            "env": desk.env, "gold": gold}
    item = json.loads(json.dumps(_jsonable(item)))
    item["env"]["par_cost"] = 0
    item["env"]["par_cost"] = replay(item["env"], careful(item)["action_trace"]).cost
    item["env"]["step_budget"] = max(item["env"]["step_budget"], len(careful(item)["action_trace"]) + 4)
    return item


def _brief(cid: str, task: str, theme: str, desk: Desk) -> str:
    docs = ", ".join(desk.env["documents"])
    return (f"Case {cid} (task {task}: {theme}). Vendor {desk.vid}. Documents: {docs}. "
            f"POs: {', '.join(desk.env['pos']) or 'none'}. Receipts: {', '.join(desk.env['receipts']) or 'none'}. "
            f"Threads: {', '.join(desk.env['threads']) or 'none'}. Investigate with the tools, then call submit_decision.")


def all_cases(seed: int = 20261020) -> list[dict]:
    out = [build_case(cid, t, d, th, k, "base", "public", seed) for cid, t, d, th, k in CATALOG]
    base = {t: [c for c in CATALOG if c[1] == t] for t in BUILDERS}
    for half, extra in (("public", PUBLIC_EXTRA), ("private", dict.fromkeys(BUILDERS, PRIVATE_PER_TASK))):
        for task, n in extra.items():
            for k in range(n):
                rng = _rng(seed, half, task, k)
                cid, _t, difficulty, theme, kind = base[task][rng.randrange(len(base[task]))]
                twin = k % 3 == 2
                prefix = "PRV" if half == "private" else ("TWN" if twin else "VAR")
                out.append(build_case(f"{prefix}-{task}-{k + 1:03d}", task, difficulty,
                                      f"benign twin of {cid}" if twin else f"variant of {cid}: {theme}",
                                      TWIN[task] if twin else kind, "twin" if twin else "variant", half, seed))
    return out


def write_items(items_dir: Path, seed: int = 20261020) -> list[Path]:
    items_dir.mkdir(parents=True, exist_ok=True)
    cases = all_cases(seed)
    written = []
    for dataset in ("curated", "generated"):
        for half in ("public", "private"):
            rows = [c for c in cases if c["dataset"] == dataset and c["half"] == half]
            if rows:
                path = items_dir / f"{dataset}.{half}.jsonl"
                path.write_text("".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows),
                                encoding="utf-8")
                written.append(path)
    return written
