"""LedgerShield's reason-code vocabulary and its aliases (rule page section 3, reason codes)."""

from __future__ import annotations

import re

from .text import normalize_text

REASON_CODES = frozenset((
    "price_mismatch", "quantity_mismatch", "missing_receipt", "duplicate_po_reference", "invalid_invoice_date",
    "total_mismatch", "tax_id_mismatch", "partial_receipt_only", "missing_po", "receipt_date_mismatch",
    "bank_account_mismatch", "vendor_master_mismatch", "bank_override_attempt", "vendor_name_spoof",
    "sender_domain_spoof", "duplicate_near_match", "approval_threshold_evasion", "urgent_payment_pressure",
    "callback_verification_failed", "callback_suspicious_confirm", "callback_dispute_confirmed",
    "vendor_account_takeover_suspected", "policy_bypass_attempt", "instruction_override_attempt",
    "prompt_injection_attempt", "shared_bank_account", "coordinated_timing",
))
ALIASES = {
    "bank mismatch": "bank_override_attempt", "bank account mismatch": "bank_override_attempt",
    "remittance override": "bank_override_attempt", "bank change attempt": "bank_override_attempt",
    "spoofed sender domain": "sender_domain_spoof", "sender spoof": "sender_domain_spoof",
    "domain spoof": "sender_domain_spoof", "duplicate invoice": "duplicate_near_match",
    "duplicate cluster": "duplicate_near_match", "invoice splitting": "approval_threshold_evasion",
    "threshold evasion": "approval_threshold_evasion", "approval threshold splitting": "approval_threshold_evasion",
    "policy bypass": "policy_bypass_attempt", "callback bypass": "policy_bypass_attempt",
    "instruction override": "instruction_override_attempt", "prompt injection": "prompt_injection_attempt",
    "shared bank": "shared_bank_account", "same bank account": "shared_bank_account",
    "shared remittance account": "shared_bank_account", "coordinated invoice timing": "coordinated_timing",
    "linked invoice timing": "coordinated_timing", "coordinated invoices": "coordinated_timing",
}
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def canonical_code(value: object) -> str:
    """A reason code's canonical name, or the empty text when it has none."""
    text = normalize_text(value)
    if not text:
        return ""
    slug = _NOT_SLUG.sub("_", text).strip("_")
    return slug if slug in REASON_CODES else ALIASES.get(text, "")


def canonical_codes(value: object) -> list[str]:
    return [c for c in (canonical_code(v) for v in value) if c] if isinstance(value, list) else []
