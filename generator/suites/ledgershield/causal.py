"""LedgerShield's causal-consistency adjustment (rule page section 5, "Causal consistency"): a score
of the submission against a small causal graph of the case's scenario, added to the episode score
as 0.05 x (score - 0.5). Exact rationals; the d-separation test is the moral-graph test on the
graph below."""

from __future__ import annotations

from fractions import Fraction

from .calibration import ATTACKS, true_hypothesis
from .codes import canonical_codes
from .text import normalize_text

DECISION = "decision"
# the graph: node -> its parents
PARENTS: dict[str, tuple[str, ...]] = {
    "latent_hypothesis": (),
    "vendor_legitimacy": ("latent_hypothesis",),
    "sender_authenticity": ("latent_hypothesis", "vendor_legitimacy"),
    "bank_alignment": ("latent_hypothesis", "vendor_legitimacy"),
    "document_integrity": ("latent_hypothesis",),
    "approval_chain_integrity": ("latent_hypothesis",),
    "duplicate_pattern": ("latent_hypothesis", "document_integrity"),
    "portfolio_linkage": ("latent_hypothesis",),
    "callback_result": ("latent_hypothesis", "vendor_legitimacy"),
    DECISION: ("sender_authenticity", "bank_alignment", "duplicate_pattern", "approval_chain_integrity",
               "portfolio_linkage", "callback_result"),
    "payment_outcome": (DECISION, "latent_hypothesis"),
}
# a tool -> the nodes a successful call of it observes
OBSERVES: dict[str, tuple[str, ...]] = {
    "inspect_email_thread": ("sender_authenticity", "approval_chain_integrity"),
    "compare_bank_account": ("bank_alignment",),
    "search_ledger": ("duplicate_pattern", "portfolio_linkage"),
    "lookup_vendor_history": ("vendor_legitimacy",),
    "request_callback_verification": ("callback_result",),
    "flag_duplicate_cluster_review": ("duplicate_pattern", "portfolio_linkage"),
    "request_bank_change_approval_chain": ("approval_chain_integrity", "bank_alignment"),
    "request_po_reconciliation": ("document_integrity",),
    "request_additional_receipt_evidence": ("document_integrity",),
    "route_to_security": ("payment_outcome",),
}
# scenario -> (confounders, evidence nodes); a scenario's hypothesis is the calibration's table's
SCENARIOS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "safe_baseline": (("vendor_legitimacy",), ("bank_alignment", "sender_authenticity")),
    "bank_override_attack": (("vendor_legitimacy", "approval_chain_integrity"),
                             ("bank_alignment", "callback_result", "approval_chain_integrity")),
    "vendor_takeover_attack": (("vendor_legitimacy", "sender_authenticity"),
                               ("sender_authenticity", "callback_result", "bank_alignment")),
    "ceo_fraud_attack": (("sender_authenticity", "approval_chain_integrity"),
                         ("sender_authenticity", "approval_chain_integrity", "callback_result")),
    "domain_typosquat_attack": (("sender_authenticity",), ("sender_authenticity", "bank_alignment")),
    "near_duplicate_invoice_attack": (("document_integrity",), ("duplicate_pattern", "document_integrity")),
    "fake_receipt_attack": (("document_integrity", "approval_chain_integrity"),
                            ("document_integrity", "approval_chain_integrity")),
    "phantom_vendor_attack": (("vendor_legitimacy", "document_integrity"),
                              ("vendor_legitimacy", "document_integrity", "callback_result")),
    "inflated_line_items_attack": (("document_integrity",), ("document_integrity", "approval_chain_integrity")),
    "urgency_spoof_attack": (("sender_authenticity", "approval_chain_integrity"),
                             ("sender_authenticity", "approval_chain_integrity")),
    "approval_threshold_evasion_attack": (("approval_chain_integrity",), ("approval_chain_integrity", "duplicate_pattern")),
    "workflow_override_attack": (("approval_chain_integrity", "sender_authenticity"),
                                 ("approval_chain_integrity", "sender_authenticity", "callback_result")),
    "split_payment_attack": (("duplicate_pattern", "approval_chain_integrity"),
                             ("duplicate_pattern", "portfolio_linkage", "approval_chain_integrity")),
    "coordinated_campaign_attack": (("portfolio_linkage", "duplicate_pattern"),
                                    ("portfolio_linkage", "duplicate_pattern", "bank_alignment")),
    "supply_chain_compromise_attack": (("vendor_legitimacy", "bank_alignment"),
                                       ("vendor_legitimacy", "bank_alignment", "callback_result")),
    "insider_collusion_attack": (("approval_chain_integrity",), ("approval_chain_integrity", "callback_result")),
    "multi_entity_layering_attack": (("portfolio_linkage", "vendor_legitimacy"),
                                     ("portfolio_linkage", "bank_alignment", "callback_result")),
}
# the scenario of a hypothesis when no attack names one (LedgerShield keeps the last in its table's order)
BY_HYPOTHESIS = {"safe": "safe_baseline", "bank_fraud": "bank_override_attack",
                 "vendor_takeover": "domain_typosquat_attack", "ceo_bec": "urgency_spoof_attack",
                 "duplicate_billing": "inflated_line_items_attack", "phantom_vendor": "phantom_vendor_attack",
                 "threshold_evasion": "approval_threshold_evasion_attack", "insider_collusion": "insider_collusion_attack",
                 "split_payment": "split_payment_attack", "campaign_fraud": "coordinated_campaign_attack",
                 "supply_chain_compromise": "supply_chain_compromise_attack",
                 "multi_entity_layering": "multi_entity_layering_attack"}
# the counterfactual's decision with no override: PAY for these hypotheses, else HOLD
PAID_WORLDS = {"safe", "phantom_vendor"}
KEYWORDS = ("bank", "callback", "duplicate", "approval", "sender")
WEIGHT = Fraction(5, 100)


def scenario(gold: dict) -> str:
    """The gold's `attack` when it names a scenario, else the scenario of the calibration's truth."""
    attack = gold.get("attack")
    if isinstance(attack, str) and attack in SCENARIOS:
        return attack
    return BY_HYPOTHESIS[true_hypothesis(gold)]


def _ancestral(nodes: set[str]) -> set[str]:
    seen, stack = set(nodes), list(nodes)
    while stack:
        for parent in PARENTS[stack.pop()]:
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return seen


def d_separated(x: str, y: str, given: set[str]) -> bool:
    """x and y are d-separated by `given`: in the moral graph of the ancestral set of {x, y} and
    `given` (each edge undirected, the parents of each node joined), with the nodes of `given`
    removed, no path joins them (a node of `given` removed is separated from everything)."""
    keep = _ancestral({x, y} | given)
    links: dict[str, set[str]] = {n: set() for n in keep}
    for child in keep:
        parents = [p for p in PARENTS[child] if p in keep]
        for k, p in enumerate(parents):
            links[child].add(p)
            links[p].add(child)
            for q in parents[k + 1:]:
                links[p].add(q)
                links[q].add(p)
    if x in given or y in given:
        return True
    seen, stack = {x}, [x]
    while stack:
        node = stack.pop()
        if node == y:
            return False
        for nxt in links[node] - given - seen:
            seen.add(nxt)
            stack.append(nxt)
    return True


def _f1(got: set[str], want: set[str]) -> Fraction:
    if not got and not want:
        return Fraction(1)
    if not got or not want:
        return Fraction(0)
    return Fraction(2 * len(got & want), len(got) + len(want))


def _codes(source: dict) -> set[str]:
    """The canonical codes of `reason_codes`, or of `fraud_flags` when that is empty or absent."""
    codes = source.get("reason_codes")
    if not (isinstance(codes, list) and codes):
        codes = source.get("fraud_flags")
    return {t for t in (normalize_text(c) for c in canonical_codes(codes if isinstance(codes, list) else [])) if t}


def causal_score(payload: dict, gold: dict, tools_ok: set[str]) -> Fraction:
    """0.35 association + 0.25 intervention + 0.20 d-separation + 0.20 counterfactual."""
    name = scenario(gold)
    confounders, evidence = SCENARIOS[name]
    stated = gold.get("decision") if gold.get("decision_stated", True) else None
    association = Fraction(55, 100) * (normalize_text(payload.get("decision")) == normalize_text(stated)) \
        + Fraction(45, 100) * _f1(_codes(payload), _codes(gold))
    needed = {tool for tool, nodes in OBSERVES.items() if set(nodes) & set(evidence)}
    intervention = Fraction(len(needed & tools_ok), len(needed)) if needed else Fraction(1)
    observed = {n for tool in tools_ok for n in OBSERVES.get(tool, ())}
    dsep = Fraction(sum(d_separated(DECISION, c, observed) for c in confounders), len(confounders))
    text = normalize_text(payload.get("counterfactual"))
    counter = Fraction(0)
    if text:
        world = "pay" if ATTACKS.get(name, "safe") in PAID_WORLDS else "hold"
        counter += Fraction(4, 10) * (world in text)
        counter += Fraction(2, 10) * ("pay" in text)
        counter += min(Fraction(4, 10), Fraction(sum(k in text for k in KEYWORDS), 10))
        counter = min(Fraction(1), counter)
    return Fraction(35, 100) * association + Fraction(25, 100) * intervention + Fraction(20, 100) * dsep \
        + Fraction(20, 100) * counter


def causal_amount(payload: dict, gold: dict, tools_ok: set[str]) -> int:
    """The adjustment added, in millionths: 0.05 x (the score rounded to four decimals - 0.5), rounded
    to four decimals (a tie to even)."""
    overall = round(causal_score(payload, gold, tools_ok), 4)
    return int(round(WEIGHT * (overall - Fraction(1, 2)), 4) * 10**6)

