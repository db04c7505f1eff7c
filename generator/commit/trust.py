"""The pinned root key and the keys reached from it through signed rotation statements.

Nothing in content/keys/ is trusted by itself. The root is the key whose fingerprint is pinned (by
`tally verify --trust`, or by `trust` in tally.toml), found among the `.pub` files; every later key is
named, with its public key, in a rotation statement signed by the key it replaces and by itself, in
the key-rotation namespace. keys.json and allowed_signers are only checked against the result
(verify_keys.py): editing them cannot make a key trusted.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from ..inputs.config import ConfigError, commitments_settings, is_fingerprint, load_config
from . import ROTATION_FORMAT, ROTATION_NAMESPACE, namespace_site
from .canonical import parse_canonical
from .checks import Checks
from .keyfiles import fingerprint, parse_pub_line
from .keys import keys_dir, load_registry
from .sshsig import verify as sshsig_verify

ROTATIONS = "rotations"


def parse_time(value: object) -> dt.datetime | None:
    """An ISO 8601 time with a zone, or None."""
    try:
        t = dt.datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return t if t.tzinfo else None


@dataclass
class TrustedKey:
    fingerprint: str
    pub: bytes
    name: str
    principal: str
    since: str | None = None  # date of the rotation that handed over to this key (None: the root)
    retired: str | None = None  # date of the rotation that retired it
    statement: str | None = None  # the rotation statement that reached it, relative to content/keys/


@dataclass
class Trust:
    pin: str | None = None
    source: str | None = None  # "--trust" or "tally.toml"
    keys: dict[str, TrustedKey] = field(default_factory=dict)  # reached keys by fingerprint
    statements: dict[str, dict] = field(default_factory=dict)  # verified rotation statements by path
    sites: dict[str, str] = field(default_factory=dict)  # site of a signature namespace -> where seen first

    def by_pub(self, pub: bytes) -> TrustedKey | None:
        return self.keys.get(fingerprint(pub))

    def when_not_active(self, key: TrustedKey, when: object) -> str | None:
        """Why `key` was not the signing key at the claimed time `when`, or None."""
        t = parse_time(when)
        if t is None:
            return f"the date {when!r} is not an ISO 8601 time with a zone"
        since, retired = parse_time(key.since), parse_time(key.retired)
        if since is not None and t < since:
            return f"dated {when}, before the rotation of {key.since} that hands over to key {key.name}"
        if retired is not None and t > retired:
            return f"dated {when}, after key {key.name} was retired on {key.retired}"
        return None

    def note_site(self, site: str, where: str, checks: Checks) -> None:
        """Every signature of a project uses the namespaces of one site."""
        if site in self.sites:
            return
        self.sites[site] = where
        if len(self.sites) > 1:
            first_site, first_where = next(iter(self.sites.items()))
            checks.add("trust", "namespaces", False, f"{where} signs for site {site!r}, but {first_where} for "
                       f"{first_site!r}: one project signs for one site")


def resolve_pin(root: Path, option: str | None, checks: Checks) -> tuple[str | None, str | None]:
    """The pinned fingerprint and where it came from: --trust wins; tally.toml must not disagree."""
    try:
        configured = commitments_settings(load_config(root))["trust"]
    except ConfigError as exc:
        checks.add("trust", "tally.toml", False, str(exc))
        configured = None
    if option is not None:
        if not is_fingerprint(option):
            checks.add("trust", "pinned key", False, f"--trust {option!r} is not a fingerprint like SHA256:<43 base64>")
            return None, None
        if configured is not None and configured != option:
            checks.add("trust", "pinned key", False, f"tally.toml pins {configured}, but --trust pins {option}: "
                       "the repository names a different root key than the one you trust")
        return option, "--trust"
    return (configured, "tally.toml") if configured else (None, None)


def build_trust(root: Path, option: str | None, checks: Checks) -> Trust:
    """Pin the root key and follow the rotation statements from it; every problem is a failed check."""
    trust = Trust()
    trust.pin, trust.source = resolve_pin(root, option, checks)
    folder = keys_dir(root)
    pubs = _pub_files(folder, checks)
    if trust.pin is None:
        if pubs or any(c.subject == "trust" and not c.ok for c in checks):
            checks.add("trust", "pinned key", False, "no key is pinned, so nothing here can be trusted: pass "
                       "--trust FINGERPRINT (published outside this repository) or set trust in the "
                       "[commitments] section of tally.toml")
        return trust
    if trust.pin not in pubs:
        checks.add("trust", "pinned key", False, f"no .pub file in content/keys/ holds the pinned key {trust.pin} "
                   f"(pinned by {trust.source}): the keys were replaced, or the pin is wrong")
        return trust
    pub, file_name, comment = pubs[trust.pin]
    record = _record(root, trust.pin)
    pinned = TrustedKey(trust.pin, pub, str(record.get("name") or Path(file_name).stem),
                        str(record.get("principal") or comment or Path(file_name).stem))
    trust.keys[trust.pin] = pinned
    where = ("pinned by --trust" if trust.source == "--trust" else "pinned by tally.toml, which is one of the "
             "checked files: compare it with the fingerprint published outside this repository")
    checks.add("trust", "pinned key", True, f"{file_name} holds the pinned key {trust.pin} ({where})")
    _follow_rotations(root, folder, trust, pinned, checks)
    return trust


def _pub_files(folder: Path, checks: Checks) -> dict[str, tuple[bytes, str, str]]:
    found: dict[str, tuple[bytes, str, str]] = {}
    for path in sorted(folder.glob("*.pub")) if folder.is_dir() else []:
        try:
            text = path.read_text(encoding="ascii")
            pub = parse_pub_line(text)
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            checks.add("keys", path.name, False, f"not an ssh-ed25519 public key: {exc}")
            continue
        parts = text.split()
        found.setdefault(fingerprint(pub), (pub, path.name, parts[2] if len(parts) > 2 else ""))
    return found


def _record(root: Path, fp: str) -> dict:
    try:
        registry = load_registry(root)
    except Exception:  # noqa: BLE001 - verify_keys reports an unreadable registry
        return {}
    return next((r for r in registry["keys"] if isinstance(r, dict) and r.get("fingerprint") == fp), {})


def _statements(folder: Path) -> dict[str, tuple[bytes, dict, list[str]]]:
    out = {}
    rotations = folder / ROTATIONS
    for path in sorted(rotations.glob("*.json")) if rotations.is_dir() else []:
        data = path.read_bytes()
        stmt, problem = parse_canonical(data)
        problems = [problem] if problem else []
        stmt = stmt if isinstance(stmt, dict) else {}
        if stmt.get("format") != ROTATION_FORMAT:
            problems.append(f"format is {stmt.get('format')!r}, expected {ROTATION_FORMAT!r}")
        for role in ("old", "new"):
            if not isinstance(stmt.get(role), dict):
                problems.append(f"no {role} key")
                stmt[role] = {}
        if parse_time(stmt.get("date")) is None:
            problems.append("date is not an ISO 8601 time with a zone")
        out[f"{ROTATIONS}/{path.name}"] = (data, stmt, problems)
    return out


def _follow_rotations(root: Path, folder: Path, trust: Trust, pinned: TrustedKey, checks: Checks) -> None:
    """Follow the rotation statements from the pinned key, adding each key they hand over to."""
    statements = _statements(folder)
    frontier, used = [pinned], set()
    while frontier:
        key = frontier.pop(0)
        nexts = [rel for rel, (_, stmt, _) in statements.items() if stmt["old"].get("fingerprint") == key.fingerprint]
        used.update(nexts)
        if len(nexts) > 1:
            checks.add("keys", f"rotation of {key.name}", False,
                       f"{len(nexts)} statements retire key {key.name} ({', '.join(nexts)}): the key chain forks")
            continue
        for rel in nexts:
            data, stmt, problems = statements[rel]
            new = None if problems else _verify_statement(folder, rel, data, stmt, key, trust, problems, checks)
            if new is not None and new.fingerprint in trust.keys:
                problems.append(f"hands over to {new.fingerprint}, a key already reached: a cycle")
            label = f"rotation {stmt['old'].get('name')} -> {stmt['new'].get('name')}"
            if problems or new is None:
                checks.add("keys", label, False, f"{rel}: " + "; ".join(problems))
                continue
            key.retired = new.since = stmt["date"]
            trust.keys[new.fingerprint] = new
            trust.statements[rel] = stmt
            frontier.append(new)
            checks.add("keys", label, True, f"{rel} is signed by both keys; {key.name} handed over to {new.name} "
                       f"({new.fingerprint}) on {stmt['date']} (the signers' claim)")
    for rel in sorted(set(statements) - used):
        retired = statements[rel][1]["old"].get("fingerprint")
        checks.add("keys", f"rotation {rel}", False, f"{rel} retires key {retired}, which is not reached from the "
                   "pinned key")


def _verify_statement(folder: Path, rel: str, data: bytes, stmt: dict, old: TrustedKey, trust: Trust,
                      problems: list[str], checks: Checks) -> TrustedKey | None:
    namespace = stmt.get("namespace")
    site = namespace_site(namespace, ROTATION_NAMESPACE)
    if site is None:
        problems.append(f"namespace {namespace!r} is not a key-rotation namespace ({ROTATION_NAMESPACE})")
        return None
    when = parse_time(stmt["date"])
    since = parse_time(old.since)
    if since is not None and when is not None and when < since:
        problems.append(f"dated {stmt['date']}, before key {old.name} was handed over to ({old.since})")
    try:
        if parse_pub_line(str(stmt["old"].get("public_key"))) != old.pub:
            problems.append("the old key's public_key is not the key it names")
        new_pub = parse_pub_line(str(stmt["new"].get("public_key")))
    except ValueError as exc:
        problems.append(f"public_key: {exc}")
        return None
    if fingerprint(new_pub) != stmt["new"].get("fingerprint"):
        problems.append(f"the new key's public_key has fingerprint {fingerprint(new_pub)}, "
                        f"the statement names {stmt['new'].get('fingerprint')}")
    stem = rel[:-len(".json")]
    for role, expected in (("old", old.pub), ("new", new_pub)):
        try:
            signer = sshsig_verify((folder / f"{stem}.{role}.sig").read_text(encoding="ascii"), data, str(namespace))
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            problems.append(f"the {role} key's signature {stem}.{role}.sig: {exc}")
            continue
        if signer != expected:
            problems.append(f"{stem}.{role}.sig is signed by {fingerprint(signer)}, not by the {role} key")
    if problems:
        return None
    trust.note_site(site, rel, checks)
    new = stmt["new"]
    return TrustedKey(fingerprint(new_pub), new_pub, str(new.get("name")), str(new.get("principal")),
                      statement=rel)
