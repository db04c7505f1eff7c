"""What the site shows: the pinned key and the head (once, for the whole page), and per round its
status, signer, the claimed dates and its files.

`commitments_context(root)` returns plain data (no HTML): a list of rounds that also carries `trust`
and `head` for the page's one statement of them. Paths are relative to the site, which publishes
content/commitments/ and content/keys/ with the same layout (publish.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..inputs.config import ConfigError, commitments_settings, load_config
from . import ITEMS, MANIFEST, RESPONSES, RESPONSES_SIG, REVEAL, REVEAL_SIG, SUMS, SUMS_ED25519, SUMS_SSHSIG
from .canonical import parse_sums
from .chain import walk
from .keys import find_key, load_registry
from .layout import read_manifest, round_dir, round_names
from .verify import verify

NOT_PROVEN = [
    ("that the date is true: it is the signer's own claim, and only an external timestamp "
     "(for example RFC 3161, `openssl ts`) could attest it"),
    "that the items never leaked: they were sent to model APIs",
    ("that the private scores were computed on real answers, until the round's committed private responses "
     "are revealed"),
]
OUTSIDE = "the project's README (outside this site)"


class CommitmentsView(list):
    """The rounds, oldest first, with `trust` (the pinned fingerprint and where it is set) and `head`
    (the SHA-256 of the newest signed file)."""

    trust: dict
    head: str | None


def _pinned(root: Path) -> str | None:
    try:
        return commitments_settings(load_config(root))["trust"]
    except ConfigError:
        return None


def _signer_label(fp: object, pin: str | None) -> str:
    if fp is not None and fp == pin:
        return "the pinned key"
    return f"key {fp} (handed over from the pinned key by a signed rotation)"


def _responses(folder: Path) -> dict | None:
    """The round's responses statement (verify checks it), or None."""
    try:
        data = json.loads((folder / RESPONSES).read_bytes())
    except (OSError, ValueError):
        return None
    ok = isinstance(data, dict) and isinstance(data.get("runs"), list)
    return data if ok else None


def commitments_context(root: Path) -> CommitmentsView:
    """One dict per round, in chain order (oldest first)."""
    checks = verify(root)
    general = [c.message for c in checks if c.subject in ("keys", "trust", "chain") and not c.ok]
    try:
        registry = load_registry(root)
    except Exception:  # noqa: BLE001 - verify already reported it
        registry = {"keys": [], "rotations": []}
    chain = walk(root)
    pin = _pinned(root)
    out = CommitmentsView()
    out.trust = {"fingerprint": pin, "where": OUTSIDE}
    out.head = chain.head.sha256 if chain.head is not None and not chain.problems else None
    for name in chain.rounds_in_order(round_names(root)):
        m = read_manifest(root, name) or {}
        stored_signer = m.get("signer")
        signer: dict = stored_signer if isinstance(stored_signer, dict) else {}
        record = find_key(registry, fingerprint_=str(signer.get("fingerprint"))) or {}
        folder = round_dir(root, name)
        entries, _ = parse_sums((folder / SUMS).read_bytes()) if (folder / SUMS).is_file() else ([], [])
        revealed = (folder / REVEAL).is_file()
        failures = general + [f"{c.name}: {c.message}" for c in checks if c.subject == name and not c.ok]
        status = "failed" if failures else ("revealed-and-verified" if revealed else "committed")
        count, fp, date = m.get("item_count"), signer.get("fingerprint"), m.get("committed_at")
        label = _signer_label(fp, pin)
        claims = [(f"These {count} items were fixed when {label} signed this list; any change is detectable; "
                   f"the signer claims the date {date}.")]
        if revealed and not failures:
            claims.append(f"All {count} committed items are published and match; a signed reveal statement "
                          "records the reveal.")
        responses = _responses(folder)
        if responses is not None:
            claims.append(f"{responses['records']} private responses of {len(responses['runs'])} runs were fixed "
                          f"when their results were published (the signer claims {responses['committed_at']}).")
            if revealed and not failures:
                claims.append("They are published in responses/, match, and rescore to the published private "
                              "verdicts.")
        base = f"commitments/{name}"
        files = [MANIFEST, SUMS, SUMS_SSHSIG, SUMS_ED25519] + ([RESPONSES, RESPONSES_SIG] if responses else []) + \
            ([REVEAL, REVEAL_SIG] if revealed else [])
        out.append({
            "round": name, "benchmark": m.get("benchmark"), "status": status, "verified": not failures,
            "failures": failures, "item_count": count,
            "committed_at": date, "committed_at_label": "claimed by the signer, not proven",
            "signer": {"key": record.get("name"), "principal": signer.get("principal"), "fingerprint": fp,
                       "key_status": record.get("status"), "label": label, "pinned": fp is not None and fp == pin},
            "namespace": signer.get("namespace"),
            "merkle": m.get("merkle"), "previous": m.get("previous"), "scorer": m.get("scorer"),
            "files": [{"path": f"{base}/{f}", "name": f} for f in files],
            "item_files": [f"{base}/{p}" for p, _ in entries[1:]] if revealed and (folder / ITEMS).is_dir() else [],
            "key_files": [f"keys/{record[k]}" for k in ("openssh", "pem") if k in record],
            "claims": claims, "not_proven": NOT_PROVEN,
        })
    return out
