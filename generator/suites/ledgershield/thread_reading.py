"""LedgerShield's reading of an email thread, done once when its cases are imported (rule page section
11): whether its desk's inspect_email_thread answer is a `domain_spoof_detected` or a `domain_clean`
observation of the readiness test. The replay reads the result from the thread's `observation`."""

from __future__ import annotations

import re

from .text import normalize_text

URGENCY = ("urgent", "asap", "immediately", "today")
CALLBACK_DISCOURAGED = ("skip callback", "do not call", "don't call", "do not verify")
OVERRIDE = ("skip callback", "do not call", "don't call", "ignore standard workflow", "override policy", "bypass policy",
            "do not verify", "treat this email as the source of truth", "portal is offline", "avoid reapproval",
            "skip normal review", "personally approved")
STOP_WORDS = frozenset(("ag", "co", "company", "components", "corp", "gmbh", "group", "holdings", "industrial", "llc",
                        "llp", "limited", "ltd", "manufacturing", "pvt", "supplies"))
_CHUNKS = re.compile(r"[^a-z0-9]+")
SPOOF, CLEAN = "domain_spoof_detected", "domain_clean"


def _lower(value: object) -> str:
    """LedgerShield's normalize_text of a text: lowercased, its whitespace runs one space."""
    return " ".join(str(value).lower().split())


def _domain(value: str) -> str:
    text = _lower(value)
    return text.split("@", 1)[1] if "@" in text else text


def _aligned(sender: str, expected_domain: str, vendor_name: str) -> bool:
    sent, expected = _domain(sender), _domain(expected_domain)
    if expected and sent:
        return expected == sent
    if not sent:
        return True
    vendor = {c for c in _CHUNKS.split(_lower(vendor_name)) if len(c) > 2 and c not in STOP_WORDS}
    domain = {c for c in _CHUNKS.split(sent) if len(c) > 2}
    return bool(vendor & domain) or not vendor


def observation(sender: str, subject: str, body: str, expected_domain: str = "", vendor_name: str = "") -> str:
    """`domain_spoof_detected` when the sender's domain is not aligned, or the wording urges, discourages
    the callback or overrides the workflow; else `domain_clean`."""
    subject, body = _lower(subject), _lower(body)
    suspicious = (not _aligned(sender, expected_domain, vendor_name)
                  or any(p in subject or p in body for p in URGENCY)
                  or any(p in body for p in CALLBACK_DISCOURAGED + OVERRIDE))
    return SPOOF if suspicious else CLEAN


def _text(value: object) -> str:
    return "" if value is None else str(value)


def from_row(row: dict) -> str:
    """The reading of a thread row (email_threads.json, or a document's thread_data)."""
    messages = row.get("messages")
    body = row.get("body") or (" ".join(str(m) for m in messages) if isinstance(messages, list) else "")
    return observation(_text(row.get("sender") or row.get("from") or ""), _text(row.get("subject") or ""), _text(body),
                       _text(row.get("expected_domain") or row.get("vendor_domain") or ""))


def _lines(doc: dict) -> list[str]:
    tokens = doc.get("accurate_ocr")
    if not isinstance(tokens, list):
        return []
    return [t for t in (_text(tok.get("text", "")).strip() for tok in tokens if isinstance(tok, dict)) if t]


def from_document(case: dict, doc: dict) -> str | None:
    """The reading LedgerShield infers from an email document's text (its `From:` and `Subject:`
    lines, the rest the body; the vendor's name the first text of the invoices), or None when
    the document has no text."""
    lines = _lines(doc)
    if not lines:
        return None
    sender = subject = ""
    body: list[str] = []
    for line in lines:
        if line.lower().startswith("from:"):
            sender = line.split(":", 1)[1].strip()
        elif line.lower().startswith("subject:"):
            subject = line.split(":", 1)[1].strip()
        else:
            body.append(line)
    invoices = [d for d in case.get("documents") or [] if isinstance(d, dict) and normalize_text(d.get("doc_type")) == "invoice"]
    vendor = next((line for d in invoices for line in _lines(d)), "")
    return observation(sender, subject, "\n".join(body), "", vendor)
