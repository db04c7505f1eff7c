"""`tally verify`: everything a reader can check with stock tools, plus the Merkle root, the canonical
form, the item count and the chain of rounds. Needs no private key and no network."""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
from pathlib import Path

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from . import ITEMS, MANIFEST, MANIFEST_FORMAT, SUMS, SUMS_ED25519, SUMS_SSHSIG
from .canonical import ITEM_PATH, item_problems, opaque_id_of, parse_canonical, parse_sums, sha256_hex
from .checks import Checks
from .keyfiles import fingerprint
from .layout import chain_order, previous_of, read_manifest, round_dir, round_names
from .merkle import root as merkle_root
from .sshsig import check_allowed
from .sshsig import verify as sshsig_verify
from .verify_keys import KeyContext, check_keys

KNOWN = {MANIFEST, SUMS, SUMS_SSHSIG, SUMS_ED25519, ITEMS}


def verify(root: Path, round_name: str | None = None) -> Checks:
    checks = Checks()
    ctx = check_keys(root, checks)
    from .rotation import check_rotations

    check_rotations(root, ctx, checks)
    names = chain_order(root)
    if round_name is not None:
        if round_name not in names:
            checks.add(round_name, "round", False, "no such round in content/commitments/ (no manifest.json)")
            return checks
        names = [round_name]
    elif not names:
        checks.add("commitments", "rounds", True, "no committed rounds")
    for name in names:
        verify_round(root, name, ctx, checks)
    return checks


def _parse_time(value: object) -> dt.datetime | None:
    try:
        t = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo else None


def verify_round(root: Path, name: str, ctx: KeyContext, checks: Checks) -> None:
    folder = round_dir(root, name)
    missing = [f for f in (MANIFEST, SUMS, SUMS_SSHSIG, SUMS_ED25519) if not (folder / f).is_file()]
    extra = sorted(p.name for p in folder.iterdir() if p.name not in KNOWN)
    note = f" (not part of the round, ignored: {extra[:5]})" if extra else ""
    checks.add(name, "files", not missing, f"missing {missing}" if missing
               else "manifest.json, SHA256SUMS and both signatures present" + note)
    if missing:
        return
    sums = (folder / SUMS).read_bytes()
    entries, problems = parse_sums(sums)
    checks.add(name, "SHA256SUMS form", not problems,
               "; ".join(problems) or f"{len(entries)} lines, manifest first, items sorted, LF endings")
    listed = dict(entries)
    manifest_bytes = (folder / MANIFEST).read_bytes()
    manifest, problem = parse_canonical(manifest_bytes)
    manifest = manifest if isinstance(manifest, dict) else {}
    signer = manifest.get("signer") if isinstance(manifest.get("signer"), dict) else {}

    _check_signatures(name, folder, sums, signer, ctx, checks)
    ok = listed.get(MANIFEST) == sha256_hex(manifest_bytes)
    checks.add(name, "manifest hash", ok, "manifest.json matches its line in SHA256SUMS" if ok else
               "manifest.json differs from the hash in SHA256SUMS (edited or re-dated after signing)")
    _check_manifest(name, manifest, problem, entries, checks)
    _check_chain(root, name, manifest, checks)
    _check_signer_dates(name, manifest, ctx, checks)
    items = folder / ITEMS
    if items.is_dir() and any(items.iterdir()):
        _check_revealed(name, folder, entries, manifest, checks)
    else:
        checks.add(name, "status", True, f"committed; {len(entries) - 1} items not yet revealed")


def _check_signatures(name: str, folder: Path, sums: bytes, signer: dict, ctx: KeyContext, checks: Checks) -> None:
    namespace, principal = str(signer.get("namespace")), str(signer.get("principal"))
    try:
        pub = sshsig_verify((folder / SUMS_SSHSIG).read_text(encoding="ascii"), sums, namespace)
    except (ValueError, UnicodeDecodeError) as exc:
        checks.add(name, "SSHSIG signature", False, f"{SUMS_SSHSIG} does not verify over SHA256SUMS: {exc}")
        pub = None
    if pub is not None:
        why = check_allowed(ctx.allowed, principal, namespace, pub)
        fp = fingerprint(pub)
        if why is None and fp != signer.get("fingerprint"):
            why = f"signed by {fp}, but the manifest names {signer.get('fingerprint')}"
        checks.add(name, "SSHSIG signature", why is None, why or
                   f"valid, by {fp} as {principal} in namespace {namespace}, allowed by allowed_signers")
    pem = ctx.pems.get(str(signer.get("fingerprint")))
    try:
        raw = base64.b64decode((folder / SUMS_ED25519).read_bytes().strip(), validate=True)
        if pem is None:
            raise ValueError(f"no SPKI PEM in content/keys/ for {signer.get('fingerprint')}")
        VerifyKey(pem).verify(sums, raw)
        checks.add(name, "Ed25519 signature", True, f"{SUMS_ED25519} verifies with the signer's PEM key")
    except (ValueError, binascii.Error, BadSignatureError) as exc:
        checks.add(name, "Ed25519 signature", False, f"{SUMS_ED25519} does not verify: {exc or 'bad signature'}")


def _check_manifest(name: str, m: dict, problem: str | None, entries: list, checks: Checks) -> None:
    problems = [problem] if problem else []
    count = len(entries) - 1
    expected = {"format": MANIFEST_FORMAT, "round": name, "item_path": ITEM_PATH, "item_count": count}
    problems += [f"{k} is {m.get(k)!r}, expected {v!r}" for k, v in expected.items() if m.get(k) != v]
    if _parse_time(m.get("committed_at")) is None:
        problems.append("committed_at is not an ISO 8601 time with a zone")
    checks.add(name, "manifest", not problems, "; ".join(problems) or
               f"canonical; {count} items; committed_at {m.get('committed_at')} (the signer's claim)")
    merkle = m.get("merkle") if isinstance(m.get("merkle"), dict) else {}
    digests = [bytes.fromhex(d) for p, d in entries if p != "manifest.json"]
    got = merkle_root(digests).hex()
    ok = merkle.get("root") == got and merkle.get("size") == len(digests)
    checks.add(name, "Merkle root", ok, f"RFC 6962 root {got[:16]}... over {len(digests)} items matches"
               if ok else f"manifest says root {merkle.get('root')} size {merkle.get('size')}; "
               f"SHA256SUMS gives {got} size {len(digests)}")


def _check_chain(root: Path, name: str, m: dict, checks: Checks) -> None:
    prev = m.get("previous") if isinstance(m.get("previous"), dict) else {}
    prev_name = previous_of(m)
    siblings = [n for n in round_names(root) if n != name and previous_of(read_manifest(root, n)) == prev_name]
    if siblings:
        checks.add(name, "chain", False, f"rounds {siblings} name the same previous round: the chain forks")
        return
    if prev_name is None:
        ok = prev.get("sha256sums_sha256") is None
        checks.add(name, "chain", ok, "first round of the chain" if ok else "previous hash without a round")
        return
    prev_sums = round_dir(root, prev_name) / SUMS
    if not prev_sums.is_file():
        checks.add(name, "chain", False, f"previous round {prev_name!r} is not in content/commitments/")
        return
    got = hashlib.sha256(prev_sums.read_bytes()).hexdigest()
    if got != prev.get("sha256sums_sha256"):
        checks.add(name, "chain", False, f"previous round {prev_name}'s SHA256SUMS hash is {got}, "
                   f"this manifest fixed {prev.get('sha256sums_sha256')}: {prev_name} changed after {name} was signed")
        return
    mine, theirs = _parse_time(m.get("committed_at")), _parse_time((read_manifest(root, prev_name) or {}).get("committed_at"))
    ok = mine is not None and theirs is not None and mine >= theirs
    checks.add(name, "chain", ok, f"follows {prev_name} (SHA256SUMS hash matches)" if ok else
               f"committed_at {m.get('committed_at')} is earlier than previous round {prev_name}'s: back-dated")


def _check_signer_dates(name: str, m: dict, ctx: KeyContext, checks: Checks) -> None:
    signer = m.get("signer") if isinstance(m.get("signer"), dict) else {}
    when = _parse_time(m.get("committed_at"))
    for rot in ctx.registry.get("rotations", []):
        if rot.get("old_fingerprint") == signer.get("fingerprint"):
            retired = _parse_time(rot.get("date"))
            if when is not None and retired is not None and when > retired:
                checks.add(name, "signer", False, f"signed by {signer.get('fingerprint')} after its rotation "
                           f"on {rot.get('date')}")
                return


def _check_revealed(name: str, folder: Path, entries: list, m: dict, checks: Checks) -> None:
    listed = dict(entries[1:])
    present = {p.relative_to(folder).as_posix() for p in (folder / ITEMS).rglob("*") if p.is_file()}
    withheld = sorted(set(listed) - present)
    uncommitted = sorted(present - set(listed))
    changed = sorted(p for p in set(listed) & present if sha256_hex((folder / p).read_bytes()) != listed[p])
    checks.add(name, "revealed items", not withheld and not changed, "; ".join(filter(None, [
        withheld and f"{len(withheld)} committed item(s) withheld: {withheld[:5]}",
        changed and f"{len(changed)} item(s) differ from their commitment: {changed[:5]}"]))
        or f"all {len(listed)} committed items are published and match")
    checks.add(name, "no uncommitted items", not uncommitted,
               f"{len(uncommitted)} published file(s) not in SHA256SUMS: {uncommitted[:5]}" if uncommitted
               else "the published item set equals the committed set")
    problems, ids = [], {}
    for p in sorted(set(listed) & present):
        item, found = item_problems((folder / p).read_bytes(), str(m.get("benchmark")), name, opaque_id_of(p))
        problems += [f"{p}: {f}" for f in found]
        if item is not None and ids.setdefault(item["id"], p) != p:
            problems.append(f"{p}: item id {item['id']!r} also in {ids[item['id']]}")
    checks.add(name, "item files", not problems, "; ".join(problems[:5]) + (" ..." if len(problems) > 5 else "")
               or f"{len(ids)} canonical item files with salts and distinct item ids")
