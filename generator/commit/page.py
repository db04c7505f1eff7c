"""What the site shows per round: status, signer, the claimed date, downloads and a reader's commands.

`commitments_context(root)` returns plain data (no HTML); paths are relative to content/, which the
site publishes with the same layout (commitments/<round>/... next to keys/...).
"""

from __future__ import annotations

from pathlib import Path

from . import ITEMS, MANIFEST, SUMS, SUMS_ED25519, SUMS_SSHSIG
from .canonical import parse_sums
from .keys import ALLOWED_SIGNERS, find_key
from .layout import chain_order, read_manifest, round_dir
from .verify import verify

NOT_PROVEN = [
    "that the date is true: it is the signer's own claim, and only an external timestamp "
    "(for example RFC 3161, `openssl ts`) could attest it",
    "that the items never leaked: they were sent to model APIs",
    "that scores used exactly these items, unless per-item results are published at reveal",
]
ITEM_SET_COMMAND = ("diff <(sed -n 's/^SHA256 (\\(items\\/[^)]*\\)) = .*/\\1/p' SHA256SUMS) "
                    "<(find items -type f | LC_ALL=C sort)")


def reader_commands(round_name: str, principal: str, namespace: str, pem: str, pub: str,
                    revealed: bool) -> list[dict]:
    """The shell commands a reader runs (bash), from a copy of content/ with this round and keys/."""
    keys = "../../keys"
    cmds = [
        ("Go to the round's folder", f"cd commitments/{round_name}"),
        ("Show the signing key's fingerprint; compare it with the one published elsewhere",
         f"ssh-keygen -lf {keys}/{pub}"),
        ("Check the signature over the list of commitments",
         f"ssh-keygen -Y verify -f {keys}/{ALLOWED_SIGNERS} -I {principal} -n {namespace} "
         f"-s {SUMS_SSHSIG} < {SUMS}"),
        ("Check the same signature with openssl (raw Ed25519)",
         f"base64 -d {SUMS_ED25519} > s.bin && openssl pkeyutl -verify -pubin -inkey {keys}/{pem} "
         f"-rawin -in {SUMS} -sigfile s.bin"),
    ]
    if revealed:
        cmds += [("Check that every committed item is published and identical", f"sha256sum -c --strict {SUMS}"),
                 ("Check that no uncommitted item was added (sha256sum does not notice extra files)",
                  ITEM_SET_COMMAND)]
    else:
        cmds.append(("Check the manifest (the items are not published yet)",
                     f"sha256sum -c --ignore-missing {SUMS}"))
    return [{"what": what, "command": command} for what, command in cmds]


def commitments_context(root: Path) -> list[dict]:
    """One dict per round, in chain order (oldest first)."""
    checks = verify(root)
    key_failures = [c.message for c in checks if c.subject == "keys" and not c.ok]
    from .keys import load_registry

    try:
        registry = load_registry(root)
    except Exception:  # noqa: BLE001 - verify already reported it
        registry = {"keys": [], "rotations": []}
    out = []
    for name in chain_order(root):
        m = read_manifest(root, name) or {}
        signer = m.get("signer") if isinstance(m.get("signer"), dict) else {}
        record = find_key(registry, fingerprint_=str(signer.get("fingerprint"))) or {}
        folder = round_dir(root, name)
        entries, _ = parse_sums((folder / SUMS).read_bytes()) if (folder / SUMS).is_file() else ([], [])
        revealed = (folder / ITEMS).is_dir() and any((folder / ITEMS).iterdir())
        failures = key_failures + [f"{c.name}: {c.message}" for c in checks if c.subject == name and not c.ok]
        status = "failed" if failures else ("revealed-and-verified" if revealed else "committed")
        count, fp, date = m.get("item_count"), signer.get("fingerprint"), m.get("committed_at")
        claims = [f"These {count} items were fixed when key {fp} signed this list; any change is detectable; "
                  f"the signer claims the date {date}."]
        if revealed and not failures:
            claims.append(f"All {count} committed items are published and match.")
        base = f"commitments/{name}"
        out.append({
            "round": name, "benchmark": m.get("benchmark"), "status": status, "verified": not failures,
            "failures": failures, "item_count": count,
            "committed_at": date, "committed_at_label": "claimed by the signer, not proven",
            "signer": {"key": record.get("name"), "principal": signer.get("principal"), "fingerprint": fp,
                       "key_status": record.get("status")},
            "namespace": signer.get("namespace"),
            "merkle": m.get("merkle"), "previous": m.get("previous"), "scorer": m.get("scorer"),
            "files": [{"path": f"{base}/{f}", "name": f} for f in (MANIFEST, SUMS, SUMS_SSHSIG, SUMS_ED25519)],
            "item_files": [f"{base}/{p}" for p, _ in entries[1:]] if revealed else [],
            "key_files": [f"keys/{ALLOWED_SIGNERS}"] + [f"keys/{record[k]}" for k in ("openssh", "pem") if k in record],
            "commands": reader_commands(name, str(signer.get("principal")), str(signer.get("namespace")),
                                        str(record.get("pem")), str(record.get("openssh")), revealed),
            "claims": claims, "not_proven": NOT_PROVEN,
        })
    return out
