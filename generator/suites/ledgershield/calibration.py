"""LedgerShield's calibration dimension (rule page section 4, `calibration`): a proper score of the
distribution the submission implies over the readiness test's twelve hypotheses, against the case's
true hypothesis. Exact rationals; the logarithmic part is log10 computed digit by digit in integers
(log10.py: twelve decimals, truncated), so both scorers get the same digits. As LedgerShield's, the
logarithmic part is 1 + log10(1 / p) / 9, between 1 and 2: it grows as the truth's probability falls
(LedgerShield divides ln p by ln 10^-9, a negative number)."""

from __future__ import annotations

from fractions import Fraction

from .codes import canonical_codes
from .log10 import log10_digits
from .readiness import HYPOTHESES, posterior

EPSILON = Fraction(1, 10**9)
WEIGHTS = (Fraction(4, 10), Fraction(3, 10), Fraction(3, 10))  # Brier, logarithmic, penalized Brier
PENALTY = Fraction(3, 10)
POSTERIOR_DIGITS = 4
# the generator's attack names -> the true hypothesis (a case's generator_metadata.applied_attacks)
ATTACKS = {
    "bank_override_attack": "bank_fraud", "vendor_takeover_attack": "vendor_takeover", "ceo_fraud_attack": "ceo_bec",
    "domain_typosquat_attack": "vendor_takeover", "near_duplicate_invoice_attack": "duplicate_billing",
    "fake_receipt_attack": "duplicate_billing", "phantom_vendor_attack": "phantom_vendor",
    "inflated_line_items_attack": "duplicate_billing", "urgency_spoof_attack": "ceo_bec",
    "approval_threshold_evasion_attack": "threshold_evasion", "workflow_override_attack": "insider_collusion",
    "split_payment_attack": "split_payment", "coordinated_campaign_attack": "campaign_fraud",
    "supply_chain_compromise_attack": "supply_chain_compromise", "insider_collusion_attack": "insider_collusion",
    "multi_entity_layering_attack": "multi_entity_layering",
}
# (signals that must all be present, or any of them when the flag is False) -> hypothesis, first match wins
SIGNAL_RULES: tuple[tuple[frozenset[str], bool, str], ...] = (
    (frozenset(("shared_bank_account", "coordinated_timing", "vendor_account_takeover_suspected")), True,
     "multi_entity_layering"),
    (frozenset(("shared_bank_account", "coordinated_timing")), False, "campaign_fraud"),
    (frozenset(("vendor_account_takeover_suspected", "bank_override_attempt")), True, "supply_chain_compromise"),
    (frozenset(("policy_bypass_attempt", "approval_threshold_evasion")), True, "insider_collusion"),
    (frozenset(("urgent_payment_pressure", "sender_domain_spoof")), False, "ceo_bec"),
    (frozenset(("sender_domain_spoof", "vendor_account_takeover_suspected")), False, "vendor_takeover"),
    (frozenset(("duplicate_near_match", "approval_threshold_evasion")), True, "split_payment"),
    (frozenset(("approval_threshold_evasion",)), True, "threshold_evasion"),
    (frozenset(("duplicate_near_match",)), True, "duplicate_billing"),
    (frozenset(("bank_override_attempt",)), True, "bank_fraud"),
)


def true_hypothesis(gold: dict) -> str:
    """The case's true hypothesis: the gold's `hypothesis` when it names one, else by the signal rules
    over the canonical codes of its reason codes, fraud flags, discrepancies and campaign signals."""
    named = gold.get("hypothesis")
    if isinstance(named, str) and named in HYPOTHESES:
        return named
    signals: set[str] = set()
    for key in ("reason_codes", "fraud_flags", "discrepancies", "campaign_signals"):
        signals |= set(canonical_codes(gold.get(key)))
    for wanted, every, hypothesis in SIGNAL_RULES:
        if (wanted <= signals) if every else bool(wanted & signals):
            return hypothesis
    return "safe"


def published_posterior(observations: list[tuple[str, str]]) -> dict[str, Fraction]:
    """The readiness test's posterior as LedgerShield hands it to its grader: each value rounded to
    four decimals (a tie to even), then normalized (each over their total, at least EPSILON)."""
    return normalized({h: round(v, POSTERIOR_DIGITS) for h, v in posterior(observations).items()})


def implied(decision: str | None, confidence: Fraction, observations: list[tuple[str, str]]) -> dict[str, Fraction]:
    """The distribution a decision and its confidence imply: `safe` gets c on PAY (1 - c otherwise),
    the rest is spread over the risky hypotheses by the published posterior."""
    post = published_posterior(observations)
    risky_total = sum((post[h] for h in HYPOTHESES[1:]), Fraction(0))
    share = 1 - confidence if decision == "PAY" else confidence
    out = {"safe": confidence if decision == "PAY" else 1 - confidence}
    out.update({h: share * post[h] / risky_total for h in HYPOTHESES[1:]})
    return out


def normalized(values: dict[str, Fraction]) -> dict[str, Fraction]:
    """Each value over their total, at least EPSILON; 1/12 each when the total is not positive."""
    total = sum(values.values(), Fraction(0))
    if total <= 0:
        return {h: Fraction(1, len(HYPOTHESES)) for h in HYPOTHESES}
    return {h: max(EPSILON, values.get(h, Fraction(0)) / total) for h in HYPOTHESES}


def proper_score(probabilities: dict[str, Fraction], truth: str) -> Fraction:
    """0.4 Brier + 0.3 logarithmic + 0.3 penalized Brier of the (normalized) distribution; the
    logarithmic part is 1 + log10(1 / p_truth) / 9, between 1 and 2 (LedgerShield's sign)."""
    p = normalized(probabilities)
    brier = max(Fraction(0), 1 - sum(((v - (h == truth)) ** 2 for h, v in p.items()), Fraction(0)))
    q = p[truth]
    log = 1 + log10_digits(1 / max(q, EPSILON)) / 9  # LedgerShield's 1 + ln(p) / ln(10^-9): 1 at p = 1
    rival = max(v for h, v in p.items() if h != truth)
    penalized = max(Fraction(0), brier - PENALTY * max(Fraction(0), rival - q))
    return WEIGHTS[0] * brier + WEIGHTS[1] * log + WEIGHTS[2] * penalized
