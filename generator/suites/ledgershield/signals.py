"""The seed's composite signal rules, used to check an item's gold reason codes (rule page section 6)."""

from __future__ import annotations

import re
from fractions import Fraction

COMPOSITE = ("bank_override_attempt", "sender_domain_spoof", "policy_bypass_attempt")
AMPLIFIERS = ("domain_mismatch", "callback_discouraged", "policy_override", "urgency")


def domain_tokens(domain: str) -> set[str]:
    labels = domain.lower().split(".")
    return {t for label in labels[:-1] for t in re.split(r"-", label) if t}


def domain_aligned(sender: str, approved: str) -> bool:
    """Token overlap (Jaccard of the dot- and dash-separated tokens, top-level label dropped) >= 2/3."""
    a, b = domain_tokens(sender), domain_tokens(approved)
    if not a or not b:
        return False
    return Fraction(len(a & b), len(a | b)) >= Fraction(2, 3)


def composite_codes(facts: dict) -> list[str]:
    """The composite reason codes the facts of a case call for, in the order of COMPOSITE."""
    flags = dict(facts)
    flags["domain_mismatch"] = bool(facts.get("sender_domain")) and not domain_aligned(
        facts.get("sender_domain", ""), facts.get("approved_domain", ""))
    out = []
    if flags.get("bank_change") and any(flags.get(a) for a in AMPLIFIERS):
        out.append("bank_override_attempt")
    if flags["domain_mismatch"]:
        out.append("sender_domain_spoof")
    if flags.get("callback_discouraged") and flags.get("policy_override"):
        out.append("policy_bypass_attempt")
    return out
