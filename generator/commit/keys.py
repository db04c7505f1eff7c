"""`tally keys new`: an Ed25519 pair; the private half outside the project, the public parts in content/keys/.

content/keys/ holds `<name>.pub` (OpenSSH line), `<name>.pem` (SPKI, for openssl), `allowed_signers`
(every key ever used: never add valid-before to a retired key or remove it, or old signatures stop
verifying) and `keys.json` (fingerprints as ssh-keygen prints them, principal, namespaces, status).
Neither is trusted by `tally verify`: trust comes from the pinned root fingerprint and the signed
rotation statements (trust.py); these files are only checked to agree with them.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from nacl.signing import SigningKey

from ..inputs.ids import id_problem
from . import KEYS_DIR, CommitError
from . import namespaces as namespaces_of
from .keyfiles import fingerprint, pub_line, spki_pem, write_private_key

REGISTRY = "keys.json"
ALLOWED_SIGNERS = "allowed_signers"
_HEADER = ("# Keys that sign Tally commitments: every key ever used. Never remove a retired key or add\n"
           "# valid-before to it: ssh-keygen checks validity at verification time, so old rounds would fail.\n")


def keys_dir(root: Path) -> Path:
    return root.joinpath(*KEYS_DIR)


def now_utc() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def load_registry(root: Path) -> dict:
    path = keys_dir(root) / REGISTRY
    if not path.exists():
        return {"format": 1, "keys": [], "rotations": []}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise CommitError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("keys"), list):
        raise CommitError(f"{path}: expected an object with a list of keys")
    data.setdefault("rotations", [])
    return data


def save_registry(root: Path, registry: dict) -> Path:
    path = keys_dir(root) / REGISTRY
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((json.dumps(registry, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return path


def find_key(registry: dict, *, fingerprint_: str | None = None, name: str | None = None) -> dict | None:
    for record in registry["keys"]:
        if (fingerprint_ is not None and record.get("fingerprint") == fingerprint_) or \
           (name is not None and record.get("name") == name):
            return record
    return None


def allowed_signers_line(principal: str, namespaces: list[str], pub: bytes) -> str:
    return f'{principal} namespaces="{",".join(namespaces)}" {pub_line(pub).strip()}\n'


def new_key(root: Path, name: str, private_path: Path, site: str, principal: str | None = None) -> dict:
    """Generate a key pair, write its private half to `private_path` (0600) and publish the rest."""
    if (p := id_problem(name, "key name")) is not None:
        raise CommitError(p)
    if (p := id_problem(site, "site")) is not None:
        raise CommitError(p)
    principal = principal or f"{name}@{site}"
    if not principal or any(c in principal for c in ' \t\n",#*?!'):
        raise CommitError(f"principal {principal!r} must not contain spaces, quotes, commas or wildcards")
    registry = load_registry(root)
    if find_key(registry, name=name) is not None:
        raise CommitError(f"a key named {name!r} is already in {keys_dir(root) / REGISTRY}")
    folder = keys_dir(root)
    for suffix in (".pub", ".pem"):
        if (folder / f"{name}{suffix}").exists():
            raise CommitError(f"{folder / (name + suffix)} already exists")
    key = SigningKey.generate()
    pub = bytes(key.verify_key)
    write_private_key(private_path, key, principal, root)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.pub").write_bytes(pub_line(pub, principal).encode())
    (folder / f"{name}.pem").write_bytes(spki_pem(pub).encode())
    namespaces = namespaces_of(site)
    signers = folder / ALLOWED_SIGNERS
    existing = signers.read_bytes() if signers.exists() else _HEADER.encode()
    if existing and not existing.endswith(b"\n"):
        existing += b"\n"
    signers.write_bytes(existing + allowed_signers_line(principal, namespaces, pub).encode())
    record = {"name": name, "principal": principal, "algorithm": "ssh-ed25519",
              "fingerprint": fingerprint(pub), "public_key": pub_line(pub).strip(),
              "openssh": f"{name}.pub", "pem": f"{name}.pem", "namespaces": namespaces,
              "status": "active", "created": now_utc()}
    registry["keys"].append(record)
    save_registry(root, registry)
    return record
