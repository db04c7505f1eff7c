"""`tally verify`: everything a reader can check with stock tools, plus the Merkle root, the canonical
form, the item count, the salts, the dates along the chain and the key files. Needs no private key and
no network.

Trust comes only from the pinned root fingerprint (trust.py); the chain of signed files (chain.py)
must be one line from the first round to the newest entry, which must be the published head when
one is given.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import itertools
import json
from pathlib import Path

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from . import (
    COMMIT_NAMESPACE,
    ITEMS,
    MANIFEST,
    MANIFEST_FORMAT,
    RESPONSES,
    RESPONSES_DIR,
    RESPONSES_SIG,
    REVEAL,
    REVEAL_FORMAT,
    REVEAL_NAMESPACE,
    REVEAL_SIG,
    SUMS,
    SUMS_ED25519,
    SUMS_SSHSIG,
    namespace_site,
)
from .canonical import (
    ITEM_PATH,
    item_problems,
    opaque_id_of,
    parse_canonical,
    parse_sums,
    sha256_hex,
)
from .chain import Chain, walk
from .checks import Checks
from .keyfiles import fingerprint
from .layout import round_dir, round_names
from .merkle import root as merkle_root
from .salts import repeated_salts
from .sshsig import verify as sshsig_verify
from .trust import Trust, TrustedKey, build_trust, parse_time
from .verify_keys import check_keys

KNOWN = {MANIFEST, SUMS, SUMS_SSHSIG, SUMS_ED25519, ITEMS, REVEAL, REVEAL_SIG, RESPONSES, RESPONSES_SIG, RESPONSES_DIR}


def verify(root: Path, round_name: str | None = None, *, trust: str | None = None, head: str | None = None,
           site: str | None = None) -> Checks:
    """Check the keys from the pinned root (`trust` overrides tally.toml), the chain up to `head` (when
    given) and every round, or only `round_name` (with the chain checks that concern it); every
    signature's namespace must name `site` when given."""
    checks = Checks()
    trusted = build_trust(root, trust, checks)
    check_keys(root, trusted, checks)
    chain = walk(root)
    names = round_names(root)
    if round_name is not None and round_name not in names:
        checks.add(round_name, "round", False, "no such round folder in content/commitments/")
        return checks
    selected = [round_name] if round_name is not None else chain.rounds_in_order(names)
    if not names:
        checks.add("commitments", "rounds", True, "no committed rounds")
    _check_chain(chain, head, set(selected), checks)
    for name in selected:
        verify_round(root, name, trusted, checks)
    if round_name is None:
        from .coverage import check_coverage
        from .prereg import check_preregs

        check_coverage(root, checks)
        check_preregs(root, trusted, checks)
        _check_salt_reuse(root, selected, checks)
    _check_site(trusted, site, checks)
    return checks


def _check_site(trust: Trust, site: str | None, checks: Checks) -> None:
    signed = sorted(trust.sites)
    if site is None:
        checks.add("trust", "site", True, f"signatures name the site {', '.join(signed) or '(none)'} (not compared "
                   "with the published site name: pass --site)")
    else:
        others = [s for s in signed if s != site]
        checks.add("trust", "site", not others, f"signatures name the site {', '.join(others)}, not the published "
                   f"{site}: the project was signed for another site" if others else
                   f"every signature names the published site {site}")


def _check_salt_reuse(root: Path, names: list[str], checks: Checks) -> None:
    """A salt published by a revealed round must never be used again: with it, anyone could test a
    guessed item against a later commitment."""
    seen: dict[str, str] = {}
    problems = []
    for name in names:  # chain order: the earlier round keeps the salt
        items = round_dir(root, name) / ITEMS
        for path in sorted(items.glob("*.json")) if items.is_dir() else []:
            try:
                salt = json.loads(path.read_bytes()).get("salt")
            except (ValueError, AttributeError, OSError):
                continue
            where = f"{name}/{ITEMS}/{path.name}"
            if isinstance(salt, str) and salt in seen and not seen[salt].startswith(f"{name}/"):
                problems.append(f"{where} reuses the salt of {seen[salt]}, which was revealed earlier")
            elif isinstance(salt, str):
                seen.setdefault(salt, where)
    if problems:
        checks.add("commitments", "salts across rounds", False, "; ".join(problems[:5]))


def _check_chain(chain: Chain, head: str | None, selected: set[str], checks: Checks) -> None:
    problems = [(s, m) for s, m in chain.problems if s == "chain" or s in selected]
    order = chain.order
    for a, b in itertools.pairwise(order):
        ta, tb = parse_time(a.time), parse_time(b.time)
        if ta is not None and tb is not None and tb < ta:
            message = f"{b.path} is dated {b.time}, before {a.path} ({a.time}), which it follows: back-dated"
            problems.append((b.round, message))
    commits = {link.round: i for i, link in enumerate(order) if link.kind == "commit"}
    problems += [(link.round, f"{link.path} comes before the round's own SHA256SUMS on the chain")
                 for i, link in enumerate(order) if link.kind != "commit" and commits.get(link.round, i + 1) > i]
    for subject, message in problems:
        if subject == "chain" or subject in selected:
            checks.add(subject, "chain", False, message)
    if not chain.links:
        if head is not None:
            checks.add("chain", "head", False, f"no round here, but the published head is {head}")
        return
    last = chain.head
    hashes = [link.sha256 for link in order]
    if head is None:
        message = (f"{len(order)} signed files from {order[0].path} to {last.path}; head {last.sha256} "
                   "(not compared with a published head: pass --head)") if last else "no intact chain"
        checks.add("chain", "head", not problems, message if not problems else "the chain is broken (see above)")
    elif last is not None and head == last.sha256 and not problems:
        checks.add("chain", "head", True, f"{len(order)} signed files from {order[0].path} end at the published "
                   f"head {head} ({last.path})")
    elif head in hashes and head != hashes[-1]:
        newer = [link.path for link in order[hashes.index(head) + 1:]]
        checks.add("chain", "head", False, f"the chain goes on after the published head {head}: {len(newer)} newer "
                   f"entries ({', '.join(newer[:3])}) are not covered by it")
    elif last is not None and head == last.sha256:
        checks.add("chain", "head", False, f"the published head {head} is {last.path}, but the chain is broken")
    else:
        checks.add("chain", "head", False, f"no signed file on the chain has the published head's SHA-256 {head}: "
                   "the newest round or reveal statement was removed, or the head is wrong")


def verify_round(root: Path, name: str, trust: Trust, checks: Checks) -> None:
    folder = round_dir(root, name)
    manifest_bytes = (folder / MANIFEST).read_bytes() if (folder / MANIFEST).is_file() else b""
    manifest, problem = parse_canonical(manifest_bytes)
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        why = "is missing" if not manifest_bytes else (problem or f"is not a {MANIFEST_FORMAT} manifest")
        checks.add(name, "manifest", False, f"content/commitments/{name}/{MANIFEST} {why}: every folder there must "
                   "be a round with a valid manifest")
        return
    missing = [f for f in (SUMS, SUMS_SSHSIG, SUMS_ED25519) if not (folder / f).is_file()]
    extra = sorted(p.name for p in folder.iterdir() if p.name not in KNOWN)
    note = f" (not part of the round, not published: {extra[:5]})" if extra else ""
    checks.add(name, "files", not missing, f"missing {missing}" if missing
               else "manifest.json, SHA256SUMS and both signatures present" + note)
    if missing:
        return
    sums = (folder / SUMS).read_bytes()
    entries, problems = parse_sums(sums)
    checks.add(name, "SHA256SUMS form", not problems,
               "; ".join(problems) or f"{len(entries)} lines, manifest first, items sorted, LF endings")
    stored_signer = manifest.get("signer")
    signer: dict = stored_signer if isinstance(stored_signer, dict) else {}
    key = check_signature(name, "SSHSIG signature", folder / SUMS_SSHSIG, sums, signer, COMMIT_NAMESPACE,
                          trust, checks)
    _check_ed25519(name, folder, sums, signer, trust, checks)
    ok = dict(entries).get(MANIFEST) == sha256_hex(manifest_bytes)
    checks.add(name, "manifest hash", ok, "manifest.json matches its line in SHA256SUMS" if ok else
               "manifest.json differs from the hash in SHA256SUMS (edited or re-dated after signing)")
    _check_manifest(name, manifest, problem, entries, checks)
    if key is not None and (inactive := trust.when_not_active(key, manifest.get("committed_at"))):
        checks.add(name, "signer", False, f"the round is {inactive}")
    if (folder / RESPONSES).is_file():
        from .responses import check_responses

        check_responses(root, name, folder, manifest, trust, checks)
    else:
        from .responses import check_uncommitted

        check_uncommitted(root, name, manifest, checks)
    if (folder / REVEAL).is_file():
        _check_reveal(name, folder, sums, manifest, trust, checks)
        _check_revealed(name, folder, entries, manifest, checks)
    elif (folder / ITEMS).is_dir() and any((folder / ITEMS).iterdir()):
        checks.add(name, "status", False, f"{ITEMS}/ holds files, but there is no signed reveal statement "
                   f"({REVEAL}): a reveal is published with `tally reveal`")
    else:
        checks.add(name, "status", True, f"committed; {len(entries) - 1} items not yet revealed")


def check_signature(subject: str, label: str, sig_path: Path, data: bytes, signer: dict, template: str,
                    trust: Trust, checks: Checks) -> TrustedKey | None:
    """An SSHSIG over `data` in the namespace the file names, which must be of the file's kind
    (`template`), by a trusted key that the file names. Returns the key when all holds."""
    namespace = signer.get("namespace")
    site = namespace_site(namespace, template)
    if site is None:
        checks.add(subject, label, False, f"namespace {namespace!r} is not the namespace of this kind of file "
                   f"({template}): a signature made for another kind of file is not accepted")
        return None
    try:
        pub = sshsig_verify(sig_path.read_text(encoding="ascii"), data, str(namespace))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        checks.add(subject, label, False, f"{sig_path.name} does not verify over {sig_path.stem}: {exc}")
        return None
    key, fp = trust.by_pub(pub), fingerprint(pub)
    if key is None:
        checks.add(subject, label, False, f"signed by {fp}, which is neither the pinned key nor reached from it "
                   "through signed rotations")
        return None
    if fp != signer.get("fingerprint"):
        checks.add(subject, label, False, f"signed by {fp}, but the file names {signer.get('fingerprint')}")
        return None
    trust.note_site(site, f"{subject}/{sig_path.name}", checks)
    checks.add(subject, label, True, f"valid, by {key.name} ({fp}) in namespace {namespace}")
    return key


def _check_ed25519(name: str, folder: Path, sums: bytes, signer: dict, trust: Trust, checks: Checks) -> None:
    key = trust.keys.get(str(signer.get("fingerprint")))
    try:
        raw = base64.b64decode((folder / SUMS_ED25519).read_bytes().strip(), validate=True)
        if key is None:
            raise ValueError(f"{signer.get('fingerprint')} is not a trusted key")
        VerifyKey(key.pub).verify(sums, raw)
        checks.add(name, "Ed25519 signature", True, f"{SUMS_ED25519} verifies with the signer's key")
    except (ValueError, binascii.Error, BadSignatureError) as exc:
        checks.add(name, "Ed25519 signature", False, f"{SUMS_ED25519} does not verify: {exc or 'bad signature'}")


def _check_manifest(name: str, m: dict, problem: str | None, entries: list, checks: Checks) -> None:
    problems = [problem] if problem else []
    count = len(entries) - 1
    expected = {"format": MANIFEST_FORMAT, "round": name, "item_path": ITEM_PATH, "item_count": count}
    problems += [f"{k} is {m.get(k)!r}, expected {v!r}" for k, v in expected.items() if m.get(k) != v]
    if parse_time(m.get("committed_at")) is None:
        problems.append("committed_at is not an ISO 8601 time with a zone")
    checks.add(name, "manifest", not problems, "; ".join(problems) or
               f"canonical; round {name} as its folder; {count} items; committed_at {m.get('committed_at')} "
               "(the signer's claim)")
    stored_merkle = m.get("merkle")
    merkle: dict = stored_merkle if isinstance(stored_merkle, dict) else {}
    digests = [bytes.fromhex(d) for p, d in entries if p != MANIFEST]
    got = merkle_root(digests).hex()
    ok = merkle.get("root") == got and merkle.get("size") == len(digests)
    checks.add(name, "Merkle root", ok, f"RFC 6962 root {got[:16]}... over {len(digests)} items matches"
               if ok else f"manifest says root {merkle.get('root')} size {merkle.get('size')}; "
               f"SHA256SUMS gives {got} size {len(digests)}")


def _check_reveal(name: str, folder: Path, sums: bytes, manifest: dict, trust: Trust, checks: Checks) -> None:
    data = (folder / REVEAL).read_bytes()
    stmt, problem = parse_canonical(data)
    stmt = stmt if isinstance(stmt, dict) else {}
    problems = [problem] if problem else []
    expected = {"format": REVEAL_FORMAT, "round": name, "benchmark": manifest.get("benchmark"),
                "sha256sums_sha256": hashlib.sha256(sums).hexdigest(), "item_count": manifest.get("item_count")}
    problems += [f"{k} is {stmt.get(k)!r}, expected {v!r}" for k, v in expected.items() if stmt.get(k) != v]
    when, committed = parse_time(stmt.get("revealed_at")), parse_time(manifest.get("committed_at"))
    if when is None:
        problems.append("revealed_at is not an ISO 8601 time with a zone")
    elif committed is not None and when < committed:
        problems.append(f"revealed_at {stmt.get('revealed_at')} is before the round was committed")
    checks.add(name, "reveal statement", not problems, "; ".join(problems) or
               f"{REVEAL} reveals this round's {stmt.get('item_count')} items on {stmt.get('revealed_at')} "
               "(the signer's claim)")
    stored_signer = stmt.get("signer")
    signer: dict = stored_signer if isinstance(stored_signer, dict) else {}
    key = check_signature(name, "reveal signature", folder / REVEAL_SIG, data, signer, REVEAL_NAMESPACE,
                          trust, checks)
    if key is not None and (why := trust.when_not_active(key, stmt.get("revealed_at"))):
        checks.add(name, "reveal signer", False, f"the reveal statement is {why}")


def _check_revealed(name: str, folder: Path, entries: list, m: dict, checks: Checks) -> None:
    listed = dict(entries[1:])
    items = folder / ITEMS
    present = {p.relative_to(folder).as_posix() for p in items.rglob("*") if p.is_file()} if items.is_dir() else set()
    withheld = sorted(set(listed) - present)
    uncommitted = sorted(present - set(listed))
    changed = sorted(p for p in set(listed) & present if sha256_hex((folder / p).read_bytes()) != listed[p])
    checks.add(name, "revealed items", not withheld and not changed, "; ".join(filter(None, [
        f"{len(withheld)} of {len(listed)} committed item(s) withheld, though the signed reveal "
        f"statement says the round is revealed: {withheld[:5]}" if withheld else None,
        f"{len(changed)} item(s) differ from their commitment: {changed[:5]}" if changed else None]))
        or f"all {len(listed)} committed items are published and match")
    checks.add(name, "no uncommitted items", not uncommitted,
               f"{len(uncommitted)} published file(s) not in SHA256SUMS: {uncommitted[:5]}" if uncommitted
               else "the published item set equals the committed set")
    problems: list[str] = []
    ids: dict[str, str] = {}  # item id -> the file that holds it
    salts: dict[str, object] = {}  # file -> its salt, as read
    for p in sorted(set(listed) & present):
        data = (folder / p).read_bytes()
        item, found = item_problems(data, str(m.get("benchmark")), name, opaque_id_of(p))
        problems += [f"{p}: {f}" for f in found]
        if item is not None and ids.setdefault(item["id"], p) != p:
            problems.append(f"{p}: item id {item['id']!r} also in {ids[item['id']]}")
        try:
            salts[p] = json.loads(data).get("salt")
        except (ValueError, AttributeError):
            pass
    problems += repeated_salts(salts)
    checks.add(name, "item files", not problems, "; ".join(problems[:5]) + (" ..." if len(problems) > 5 else "")
               or f"{len(ids)} canonical item files with distinct random salts and distinct item ids")
