"""Key rotation: a statement naming the old and the new key (with their public keys), signed by both.

This is the only way a new key becomes trusted: `tally verify` follows these statements from the
pinned root key (trust.py). The old key stays in allowed_signers without valid-before, so every round
it signed keeps verifying; keys.json marks it retired, and a round it signs after the rotation date
fails `tally verify`.
"""

from __future__ import annotations

from pathlib import Path

from . import ROTATION_FORMAT, CommitError
from .canonical import canonical
from .keyfiles import fingerprint, load_private_key, pub_line
from .keys import find_key, keys_dir, load_registry, now_utc, save_registry
from .rounds import is_utc_time
from .sshsig import sign
from .trust import ROTATIONS

DATE_CLAIM = "the signers' own claim"


def _who(record: dict, key) -> dict:
    pub = bytes(key.verify_key)
    return {"name": record["name"], "principal": record["principal"], "fingerprint": fingerprint(pub),
            "public_key": pub_line(pub).strip()}


def rotate(root: Path, old_key: Path, new_key: Path, *, date: str | None = None, reason: str = "") -> Path:
    """Retire the old key in favour of the new one; both sign the statement. Returns its path."""
    old, new = load_private_key(old_key, root), load_private_key(new_key, root)
    registry = load_registry(root)
    old_rec = find_key(registry, fingerprint_=fingerprint(bytes(old.verify_key)))
    new_rec = find_key(registry, fingerprint_=fingerprint(bytes(new.verify_key)))
    if old_rec is None or new_rec is None:
        raise CommitError("both keys must be registered in content/keys/keys.json (tally keys new)")
    if old_rec is new_rec:
        raise CommitError("the old and the new key are the same key")
    if old_rec.get("status") != "active" or new_rec.get("status") != "active":
        raise CommitError("both keys must be active")
    if date is not None and not is_utc_time(date):
        raise CommitError(f"--date {date!r} must look like 2026-10-01T09:00:00Z")
    namespace = old_rec["namespaces"][1]
    date = date or now_utc()
    statement = canonical({"format": ROTATION_FORMAT, "old": _who(old_rec, old), "new": _who(new_rec, new),
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
