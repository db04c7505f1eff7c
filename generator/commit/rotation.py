"""Key rotation: a statement naming the old and the new key, signed by both.

The old key stays in allowed_signers without valid-before, so every round it signed keeps verifying;
keys.json marks it retired, and a round it signs after the rotation date fails `tally verify`.
"""

from __future__ import annotations

from pathlib import Path

from ..ids import is_safe_id
from . import ROTATION_FORMAT, CommitError
from .canonical import canonical, parse_canonical
from .checks import Checks
from .keyfiles import fingerprint, load_private_key
from .keys import find_key, keys_dir, load_registry, now_utc, save_registry
from .sshsig import check_allowed, sign
from .sshsig import verify as sshsig_verify
from .verify_keys import KeyContext

ROTATIONS = "rotations"
DATE_CLAIM = "the signers' own claim"


def _who(record: dict) -> dict:
    return {"name": record["name"], "principal": record["principal"], "fingerprint": record["fingerprint"]}


def rotate(root: Path, old_key: Path, new_key: Path, *, date: str | None = None, reason: str = "") -> Path:
    """Retire the old key in favour of the new one; both sign the statement. Returns its path."""
    content = root / "content"
    old, new = load_private_key(old_key, content), load_private_key(new_key, content)
    registry = load_registry(root)
    old_rec = find_key(registry, fingerprint_=fingerprint(bytes(old.verify_key)))
    new_rec = find_key(registry, fingerprint_=fingerprint(bytes(new.verify_key)))
    if old_rec is None or new_rec is None:
        raise CommitError("both keys must be registered in content/keys/keys.json (tally keys new)")
    if old_rec is new_rec:
        raise CommitError("the old and the new key are the same key")
    if old_rec.get("status") != "active" or new_rec.get("status") != "active":
        raise CommitError("both keys must be active")
    namespace = old_rec["namespaces"][1]
    date = date or now_utc()
    statement = canonical({"format": ROTATION_FORMAT, "old": _who(old_rec), "new": _who(new_rec),
                           "date": date, "date_is": DATE_CLAIM, "namespace": namespace, "reason": reason})
    folder = keys_dir(root) / ROTATIONS
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{old_rec['name']}--{new_rec['name']}"
    path = folder / f"{stem}.json"
    if path.exists():
        raise CommitError(f"{path} already exists")
    path.write_bytes(statement)
    (folder / f"{stem}.old.sig").write_bytes(sign(old, statement, namespace).encode())
    (folder / f"{stem}.new.sig").write_bytes(sign(new, statement, namespace).encode())
    old_rec["status"] = "retired"
    registry["rotations"].append({"old": old_rec["name"], "new": new_rec["name"],
                                  "old_fingerprint": old_rec["fingerprint"],
                                  "new_fingerprint": new_rec["fingerprint"], "date": date,
                                  "statement": f"{ROTATIONS}/{stem}.json"})
    save_registry(root, registry)
    return path


def check_rotations(root: Path, ctx: KeyContext, checks: Checks) -> None:
    folder = keys_dir(root)
    for rot in ctx.registry.get("rotations", []):
        label = f"rotation {rot.get('old')} -> {rot.get('new')}"
        problems = []
        statement = str(rot.get("statement"))
        if not (statement.startswith(ROTATIONS + "/") and statement.endswith(".json")
                and is_safe_id(statement[len(ROTATIONS) + 1:])):
            checks.add("keys", label, False, f"statement path {statement!r} is not rotations/<safe id>.json")
            continue
        try:
            data = (folder / statement).read_bytes()
        except OSError as exc:
            checks.add("keys", label, False, f"statement unreadable: {exc}")
            continue
        stmt, problem = parse_canonical(data)
        stmt = stmt if isinstance(stmt, dict) else {}
        if problem:
            problems.append(problem)
        if stmt.get("format") != ROTATION_FORMAT:
            problems.append(f"format is {stmt.get('format')!r}")
        if stmt.get("date") != rot.get("date"):
            problems.append("keys.json date differs from the signed statement")
        namespace = str(stmt.get("namespace"))
        for role in ("old", "new"):
            who = stmt.get(role) if isinstance(stmt.get(role), dict) else {}
            if who.get("fingerprint") != rot.get(f"{role}_fingerprint"):
                problems.append(f"{role} key in keys.json differs from the signed statement")
            sig_path = folder / (statement[:-len(".json")] + f".{role}.sig")
            try:
                pub = sshsig_verify(sig_path.read_text(encoding="ascii"), data, namespace)
            except (OSError, ValueError, UnicodeDecodeError) as exc:
                problems.append(f"{role} key's signature: {exc}")
                continue
            if fingerprint(pub) != who.get("fingerprint"):
                problems.append(f"{role} signature is by {fingerprint(pub)}, not {who.get('fingerprint')}")
            elif (why := check_allowed(ctx.allowed, str(who.get("principal")), namespace, pub)) is not None:
                problems.append(f"{role} key: {why}")
        checks.add("keys", label, not problems, "; ".join(problems) or
                   f"signed by both keys; the old key retired on {rot.get('date')} (the signers' claim)")
