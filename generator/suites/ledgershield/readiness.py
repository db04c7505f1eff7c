"""LedgerShield's decision readiness (rule page section 2, "Decision readiness"): a sequential test
over twelve fraud hypotheses whose likelihood ratios the desk's answers update, in exact arithmetic.

Each observation multiplies every risky hypothesis's likelihood ratio by L(h) / L(safe), with L from
the table below (hundredths). With a uniform prior the posterior of `safe` is 1 / (1 + sum of the
ratios), and a hypothesis h is within the test's reach when ln(ratio_h) >= 55/100 ln(18), i.e.
ratio_h^20 >= 18^11: both are exact comparisons of rationals, no logarithm is taken.
"""

from __future__ import annotations

from fractions import Fraction

from .log10 import log10_digits
from .text import normalize_text

HYPOTHESES = ("safe", "bank_fraud", "duplicate_billing", "vendor_takeover", "ceo_bec", "phantom_vendor",
              "supply_chain_compromise", "insider_collusion", "multi_entity_layering", "campaign_fraud",
              "split_payment", "threshold_evasion")
# channel -> observation -> L(h) in hundredths, in the order of HYPOTHESES
LIKELIHOODS: dict[str, dict[str, tuple[int, ...]]] = {
    "compare_bank_account": {
        "mismatch": (2, 95, 5, 88, 72, 60, 84, 46, 68, 64, 18, 16),
        "match": (98, 5, 95, 12, 28, 40, 16, 54, 32, 36, 82, 84)},
    "search_ledger": {
        "duplicate_found": (3, 10, 92, 14, 8, 6, 16, 20, 72, 80, 88, 74),
        "no_duplicate": (97, 90, 8, 86, 92, 94, 84, 80, 28, 20, 12, 26)},
    "inspect_email_thread": {
        "domain_spoof_detected": (1, 78, 5, 92, 94, 62, 87, 55, 50, 67, 18, 24),
        "domain_clean": (99, 22, 95, 8, 6, 38, 13, 45, 50, 33, 82, 76)},
    "lookup_vendor_history": {
        "suspicious_history": (10, 74, 18, 70, 30, 82, 78, 60, 52, 48, 35, 32),
        "clean_history": (90, 26, 82, 30, 70, 18, 22, 40, 48, 52, 65, 68)},
    "callback_verification_result": {
        "callback_dispute": (1, 88, 4, 85, 36, 66, 82, 40, 46, 40, 10, 8),
        "callback_clean": (94, 5, 90, 8, 32, 24, 15, 55, 40, 44, 78, 82),
        "callback_suspicious_confirm": (4, 8, 6, 20, 34, 12, 28, 62, 36, 28, 10, 12)},
    "duplicate_cluster_report": {
        "cluster_detected": (2, 6, 95, 10, 4, 6, 12, 18, 76, 82, 90, 78),
        "no_cluster": (98, 94, 5, 90, 96, 94, 88, 82, 24, 18, 10, 22)},
    "bank_change_approval_chain": {
        "mismatch_found": (1, 92, 5, 78, 40, 55, 84, 62, 48, 44, 8, 6),
        "chain_clean": (99, 8, 95, 22, 60, 45, 16, 38, 52, 56, 92, 94)},
    "po_reconciliation_report": {
        "reconciled_with_flags": (4, 8, 70, 12, 10, 74, 34, 58, 22, 24, 42, 46),
        "po_clean": (96, 92, 30, 88, 90, 26, 66, 42, 78, 76, 58, 54)},
    "receipt_reconciliation_report": {
        "reconciled_with_flags": (6, 10, 62, 14, 10, 70, 30, 50, 20, 20, 38, 40),
        "receipt_clean": (94, 90, 38, 86, 90, 30, 70, 50, 80, 80, 62, 60)},
}
# an intervention's own answer is read on the channel of its artifact, as a clean observation
INTERVENTION_CHANNELS = {
    "request_callback_verification": ("callback_verification_result", "callback_clean"),
    "flag_duplicate_cluster_review": ("duplicate_cluster_report", "no_cluster"),
    "request_bank_change_approval_chain": ("bank_change_approval_chain", "chain_clean"),
    "request_po_reconciliation": ("po_reconciliation_report", "po_clean"),
    "request_additional_receipt_evidence": ("receipt_reconciliation_report", "receipt_clean"),
}
READY = Fraction(55, 100)
DISTANCE_DIGITS = 4
BOUNDARY_BASE, BOUNDARY_NUM, BOUNDARY_DEN = 18, 11, 20  # ln(ratio) >= 55/100 ln(18)  <=>  ratio^20 >= 18^11


def artifact_observation(artifact_id: str, content: dict) -> tuple[str, str] | None:
    """(channel, observation) a revealed artifact gives, or None for an artifact of no channel."""
    if artifact_id == "callback_verification_result":
        signal = content.get("risk_signal")
        signal = normalize_text(signal if isinstance(signal, str) and signal else content.get("outcome"))
        if signal in ("callback_dispute_confirmed", "dispute", "callback_dispute"):
            return artifact_id, "callback_dispute"
        if signal in ("callback_suspicious_confirm", "adversarial_confirm"):
            return artifact_id, "callback_suspicious_confirm"
        return artifact_id, "callback_clean"
    flagged = {"duplicate_cluster_report": ("cluster_detected", "no_cluster"),
               "bank_change_approval_chain": ("mismatch_found", "chain_clean"),
               "po_reconciliation_report": ("reconciled_with_flags", "po_clean"),
               "receipt_reconciliation_report": ("reconciled_with_flags", "receipt_clean")}
    if artifact_id not in flagged:
        return None
    hit, clean = flagged[artifact_id]
    return artifact_id, hit if normalize_text(content.get("status")) == hit else clean


def ratios(observations: list[tuple[str, str]]) -> dict[str, Fraction]:
    """Each risky hypothesis's likelihood ratio against `safe` after the observations."""
    out = {h: Fraction(1) for h in HYPOTHESES[1:]}
    for channel, key in observations:
        row = LIKELIHOODS.get(channel, {}).get(key)
        if row is None:
            continue
        for k, h in enumerate(HYPOTHESES[1:], start=1):
            out[h] *= Fraction(row[k], row[0])
    return out


def posterior(observations: list[tuple[str, str]]) -> dict[str, Fraction]:
    """The posterior over the hypotheses (uniform prior)."""
    r = ratios(observations)
    total = 1 + sum(r.values(), Fraction(0))
    return {"safe": 1 / total, **{h: v / total for h, v in r.items()}}


def _reached(ratio: Fraction) -> bool:
    return ratio.numerator ** BOUNDARY_DEN >= BOUNDARY_BASE ** BOUNDARY_NUM * ratio.denominator ** BOUNDARY_DEN


def ready(observations: list[tuple[str, str]]) -> bool:
    """Readiness >= 0.55: the posterior of safe is at least 55/100, or some risky hypothesis's
    ratio has reached 55 % of the way to the test's upper boundary ln(18)."""
    post = posterior(observations)
    return post["safe"] >= READY or any(_reached(v) for v in ratios(observations).values())


def readiness_value(observations: list[tuple[str, str]]) -> Fraction:
    """LedgerShield's numeric readiness (the resolution dimension reads it): 1 - the smallest distance
    to a boundary, the distances rounded to four decimals (a tie to even): `safe`'s is 1 - its
    posterior, a risky hypothesis's max(0, 1 - log10(ratio) / log10(18)) (both logarithms log10.py's
    twelve truncated decimals; a ratio below 1 is farther than `safe`, which is always below 1)."""
    distances = [round(1 - posterior(observations)["safe"], DISTANCE_DIGITS)]
    upper = log10_digits(Fraction(BOUNDARY_BASE))
    for ratio in ratios(observations).values():
        if ratio >= 1:
            distances.append(round(max(Fraction(0), 1 - log10_digits(ratio) / upper), DISTANCE_DIGITS))
    return 1 - min(distances)
