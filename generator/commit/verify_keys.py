"""Checks on content/keys/: every registered key's files agree, and allowed_signers lists it usably."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..ids import is_safe_id
from .checks import Checks
from .keyfiles import fingerprint, parse_pub_line, parse_spki_pem
from .keys import ALLOWED_SIGNERS, REGISTRY, keys_dir, load_registry
from .sshsig import AllowedSigner, parse_allowed_signers


@dataclass
class KeyContext:
    registry: dict = field(default_factory=lambda: {"keys": [], "rotations": []})
    allowed: list[AllowedSigner] = field(default_factory=list)
    pems: dict[str, bytes] = field(default_factory=dict)  # fingerprint -> key from its SPKI PEM


def check_keys(root: Path, checks: Checks) -> KeyContext:
    ctx = KeyContext()
    folder = keys_dir(root)
    try:
        ctx.registry = load_registry(root)
    except Exception as exc:  # noqa: BLE001 - any unreadable registry is a failed check
        checks.add("keys", REGISTRY, False, str(exc))
        return ctx
    signers = folder / ALLOWED_SIGNERS
    if not signers.is_file():
        checks.add("keys", ALLOWED_SIGNERS, False, f"{ALLOWED_SIGNERS} is missing")
    else:
        data = signers.read_bytes()
        if b"\r" in data:
            checks.add("keys", ALLOWED_SIGNERS, False,
                       "contains CR characters (CRLF line endings?); check that .gitattributes marks it -text")
        try:
            ctx.allowed = parse_allowed_signers(data.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            checks.add("keys", ALLOWED_SIGNERS, False, str(exc))
        expiring = [e.line for e in ctx.allowed if "valid-before" in e.options]
        if expiring:
            checks.add("keys", ALLOWED_SIGNERS, False,
                       f"valid-before on line(s) {expiring}: ssh-keygen checks it at verification time, "
                       "so every older signature by that key stops verifying")
    for record in ctx.registry["keys"]:
        _check_record(folder, record, ctx, checks)
    return ctx


def _check_record(folder: Path, record: dict, ctx: KeyContext, checks: Checks) -> None:
    name = str(record.get("name"))
    fp = record.get("fingerprint")
    if not all(is_safe_id(record.get(k)) for k in ("openssh", "pem")):
        checks.add("keys", name, False, "keys.json file names must be safe identifiers")
        return
    problems = []
    try:
        pub = parse_pub_line((folder / str(record.get("openssh"))).read_text(encoding="ascii"))
        if fingerprint(pub) != fp:
            problems.append(f"{record.get('openssh')} has fingerprint {fingerprint(pub)}, keys.json says {fp}")
        if parse_pub_line(str(record.get("public_key"))) != pub:
            problems.append("keys.json public_key differs from the .pub file")
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        checks.add("keys", name, False, f"OpenSSH public key: {exc}")
        return
    try:
        pem = parse_spki_pem((folder / str(record.get("pem"))).read_text(encoding="ascii"))
        ctx.pems[str(fp)] = pem
        if pem != pub:
            problems.append(f"{record.get('pem')} holds a different key than {record.get('openssh')}")
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        problems.append(f"SPKI PEM: {exc}")
    if not any(e.pub == pub for e in ctx.allowed):
        problems.append(f"not listed in {ALLOWED_SIGNERS}")
    checks.add("keys", name, not problems,
               "; ".join(problems) or f"{fp} ({record.get('status')}): .pub, .pem and {ALLOWED_SIGNERS} agree")
