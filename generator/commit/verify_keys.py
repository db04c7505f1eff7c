"""Checks on content/keys/ against the trusted keys: every key file, keys.json record and
allowed_signers entry must be a key reached from the pinned root, and the files must agree.

None of these files grants trust (trust.py does); a key added to them without a signed rotation
statement is a failure, not a new signer.
"""

from __future__ import annotations

from pathlib import Path

from ..inputs.ids import is_safe_id
from .checks import Checks
from .keyfiles import fingerprint, parse_pub_line, parse_spki_pem
from .keys import ALLOWED_SIGNERS, REGISTRY, keys_dir, load_registry
from .sshsig import parse_allowed_signers
from .trust import Trust


def check_keys(root: Path, trust: Trust, checks: Checks) -> None:
    folder = keys_dir(root)
    try:
        registry = load_registry(root)
    except Exception as exc:  # noqa: BLE001 - any unreadable registry is a failed check
        checks.add("keys", REGISTRY, False, str(exc))
        registry = {"keys": [], "rotations": []}
    pinned = trust.pin is not None and trust.pin in trust.keys
    _check_allowed_signers(folder, trust, pinned, checks)
    _check_key_files(folder, trust, pinned, checks)
    for record in registry["keys"]:
        _check_record(folder, record if isinstance(record, dict) else {}, trust, pinned, checks)
    _check_registry_rotations(registry, trust, pinned, checks)


def _unreached(fp: str, trust: Trust, pinned: bool) -> bool:
    return pinned and fp not in trust.keys


def _check_allowed_signers(folder: Path, trust: Trust, pinned: bool, checks: Checks) -> None:
    signers = folder / ALLOWED_SIGNERS
    if not signers.is_file():
        if folder.is_dir() and any(folder.iterdir()):
            checks.add("keys", ALLOWED_SIGNERS, False, f"{ALLOWED_SIGNERS} is missing")
        return
    data = signers.read_bytes()
    problems = []
    if b"\r" in data:
        problems.append("contains CR characters (CRLF line endings?); check that .gitattributes marks it -text")
    try:
        entries = parse_allowed_signers(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        checks.add("keys", ALLOWED_SIGNERS, False, str(exc))
        return
    for e in entries:
        if "valid-before" in e.options:
            problems.append(f"valid-before on line {e.line}: ssh-keygen checks it at verification time, "
                            "so every older signature by that key stops verifying")
        if _unreached(fingerprint(e.pub), trust, pinned):
            problems.append(f"line {e.line} lists key {fingerprint(e.pub)}, which is not reached from the pinned "
                            "key through signed rotations")
    reached = "all of them keys reached from the pinned key" if pinned else "not checked against a pinned key"
    checks.add("keys", ALLOWED_SIGNERS, not problems, "; ".join(problems) or
               f"{len(entries)} entries, {reached} (never used to trust a key)")


def _check_key_files(folder: Path, trust: Trust, pinned: bool, checks: Checks) -> None:
    problems = []
    for path in sorted(folder.glob("*.pub")) if folder.is_dir() else []:
        try:
            fp = fingerprint(parse_pub_line(path.read_text(encoding="ascii")))
        except (OSError, ValueError, UnicodeDecodeError):
            continue  # trust.py reported it
        if _unreached(fp, trust, pinned):
            problems.append(f"{path.name} holds key {fp}, which is not reached from the pinned key through signed "
                            "rotations")
    for path in sorted(folder.glob("*.pem")) if folder.is_dir() else []:
        try:
            fp = fingerprint(parse_spki_pem(path.read_text(encoding="ascii")))
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            problems.append(f"{path.name}: not an Ed25519 public key: {exc}")
            continue
        if _unreached(fp, trust, pinned):
            problems.append(f"{path.name} holds key {fp}, which is not reached from the pinned key")
    if problems or pinned:
        checks.add("keys", "key files", not problems, "; ".join(problems) or
                   f"every .pub and .pem file holds one of the {len(trust.keys)} keys reached from the pinned key")


def _check_record(folder: Path, record: dict, trust: Trust, pinned: bool, checks: Checks) -> None:
    name = str(record.get("name"))
    fp = str(record.get("fingerprint"))
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
        if parse_spki_pem((folder / str(record.get("pem"))).read_text(encoding="ascii")) != pub:
            problems.append(f"{record.get('pem')} holds a different key than {record.get('openssh')}")
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        problems.append(f"SPKI PEM: {exc}")
    key = trust.keys.get(fp)
    if _unreached(fp, trust, pinned):
        problems.append(f"{fp} is not reached from the pinned key through signed rotations")
    elif key is not None and (record.get("status") == "retired") != (key.retired is not None):
        problems.append(f"keys.json says {record.get('status')!r}, but the signed rotations say "
                        f"{'retired on ' + key.retired if key.retired else 'active'}")
    checks.add("keys", name, not problems,
               "; ".join(problems) or f"{fp} ({record.get('status')}): .pub, .pem and keys.json agree")


def _check_registry_rotations(registry: dict, trust: Trust, pinned: bool, checks: Checks) -> None:
    problems = []
    for rot in registry.get("rotations", []):
        rot = rot if isinstance(rot, dict) else {}
        stmt = trust.statements.get(str(rot.get("statement")))
        if stmt is None:
            if pinned:
                problems.append(f"keys.json lists rotation {rot.get('statement')!r}, which is not a verified "
                                "statement reached from the pinned key")
            continue
        if (rot.get("old_fingerprint"), rot.get("new_fingerprint"), rot.get("date")) != \
                (stmt["old"].get("fingerprint"), stmt["new"].get("fingerprint"), stmt.get("date")):
            problems.append(f"keys.json's record of {rot.get('statement')} differs from the signed statement")
    listed = {str(r.get("statement")) for r in registry.get("rotations", []) if isinstance(r, dict)}
    problems += [f"keys.json does not list the rotation {s}" for s in sorted(set(trust.statements) - listed)]
    if problems:
        checks.add("keys", "keys.json rotations", False, "; ".join(problems))
