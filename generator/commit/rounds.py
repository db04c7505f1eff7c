"""`tally commit` and `tally reveal`: fix a round's private items under a signature, later publish them."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import os
import secrets
import shutil
import tomllib
from pathlib import Path

from .. import __version__
from ..ids import id_problem, is_safe_id
from . import ITEMS, MANIFEST, MANIFEST_FORMAT, SUMS, SUMS_ED25519, SUMS_SSHSIG, CommitError
from .canonical import (
    ITEM_PATH,
    canonical,
    item_file,
    item_path,
    new_salt,
    parse_sums,
    render_sums,
    sha256_hex,
    sums_entries,
)
from .keyfiles import fingerprint, load_private_key
from .keys import find_key, load_registry, now_utc
from .layout import chain_heads, private_round_dir, round_dir
from .merkle import root as merkle_root
from .sshsig import sign

DATE_CLAIM = "the signer's own claim; only an external timestamp could prove it"


def read_private_items(items_dir: Path) -> list[dict]:
    """Every item with half "private" from the *.jsonl files in `items_dir`."""
    files = sorted(items_dir.glob("*.jsonl"))
    if not files:
        raise CommitError(f"{items_dir}: no .jsonl item files")
    items, seen = [], {}
    for path in files:
        for number, line in enumerate(path.read_bytes().split(b"\n"), start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                item = json.loads(line)
            except ValueError as exc:
                raise CommitError(f"{where}: not valid JSON: {exc}") from None
            if not isinstance(item, dict) or (p := id_problem(item.get("id"), "item id")) is not None:
                raise CommitError(f"{where}: {p if isinstance(item, dict) else 'an item must be an object'}")
            if item.get("half") != "private":
                continue
            if item["id"] in seen:
                raise CommitError(f"{where}: item id {item['id']!r} already at {seen[item['id']]}")
            seen[item["id"]] = where
            items.append(item)
    if not items:
        raise CommitError(f"{items_dir}: no private items (half \"private\")")
    return items


def scorer_of(root: Path, benchmark: str) -> dict:
    path = root / "content" / "suites" / benchmark / "suite.toml"
    try:
        suite = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CommitError(f"{path}: cannot read the suite that will score these items: {exc}") from None
    return {"suite": benchmark, "suite_version": str(suite.get("version", "")),
            "scorer": str(suite.get("scorer", "")), "tally_version": __version__}


def _previous(root: Path) -> dict:
    heads = chain_heads(root)
    if not heads:
        return {"round": None, "sha256sums_sha256": None}
    if len(heads) > 1:
        raise CommitError(f"the chain of rounds forks ({', '.join(heads)}); run `tally verify` and fix it first")
    sums = round_dir(root, heads[0]) / SUMS
    return {"round": heads[0], "sha256sums_sha256": hashlib.sha256(sums.read_bytes()).hexdigest()}


def _outside_content(root: Path, path: Path, what: str) -> None:
    try:
        path.resolve().relative_to((root / "content").resolve())
    except ValueError:
        return
    raise CommitError(f"{path}: {what} must be outside content/ (everything in content/ is published)")


def _is_utc_time(value: str) -> bool:
    try:
        return value.endswith("Z") and dt.datetime.fromisoformat(value[:-1] + "+00:00") is not None
    except ValueError:
        return False


def commit(root: Path, round_name: str, items_dir: Path, key_path: Path, *, private_dir: Path | None = None,
           benchmark: str | None = None, committed_at: str | None = None) -> dict:
    """Write salted item files to private storage and the signed round to content/commitments/ROUND/."""
    if (p := id_problem(round_name, "round")) is not None:
        raise CommitError(p)
    out = round_dir(root, round_name)
    if out.exists():
        raise CommitError(f"{out} already exists; a committed round is never rewritten")
    if committed_at is not None and not _is_utc_time(committed_at):
        raise CommitError(f"--committed-at {committed_at!r} must look like 2026-10-30T09:00:00Z")
    key = load_private_key(key_path, root / "content")
    pub = bytes(key.verify_key)
    record = find_key(load_registry(root), fingerprint_=fingerprint(pub))
    if record is None or record.get("status") != "active":
        raise CommitError(f"key {fingerprint(pub)} is not an active key in content/keys/keys.json")
    benchmark = benchmark or (items_dir.resolve().parent.name if items_dir.name == "items" else "")
    if (p := id_problem(benchmark, "benchmark")) is not None:
        raise CommitError(p + " (pass --benchmark)")
    scorer = scorer_of(root, benchmark)
    items = read_private_items(items_dir)
    private = private_dir or private_round_dir(root, round_name)
    _outside_content(root, private, "private storage")
    if private.exists() and any(private.iterdir()):
        raise CommitError(f"{private} is not empty; private storage of a round is written once")

    files: dict[str, bytes] = {}
    for item in items:
        opaque = secrets.token_hex(8)
        while item_path(opaque) in files:
            opaque = secrets.token_hex(8)
        try:
            files[item_path(opaque)] = item_file(benchmark, round_name, opaque, item, new_salt())
        except ValueError as exc:
            raise CommitError(f"item {item['id']}: cannot be written as RFC 8785 JSON ({exc}); "
                              "write money as strings and keep integers within 2^53") from None
    digests = [bytes.fromhex(sha256_hex(files[p])) for p in sorted(files)]
    manifest = canonical({
        "format": MANIFEST_FORMAT, "benchmark": benchmark, "round": round_name,
        "committed_at": committed_at or now_utc(), "committed_at_is": DATE_CLAIM,
        "item_count": len(files), "item_path": ITEM_PATH,
        "merkle": {"tree": "RFC 6962, SHA-256", "entries": "SHA-256 of each item file, in SHA256SUMS order",
                   "root": merkle_root(digests).hex(), "size": len(digests)},
        "signer": {"key": record["name"], "principal": record["principal"],
                   "namespace": record["namespaces"][0], "fingerprint": record["fingerprint"]},
        "previous": _previous(root), "scorer": scorer,
    })
    sums = render_sums(sums_entries(manifest, files))

    (private / ITEMS).mkdir(parents=True, exist_ok=True, mode=0o700)
    for path, data in files.items():
        (private / path).write_bytes(data)
    tmp = out.with_name(f".{round_name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (tmp / MANIFEST).write_bytes(manifest)
    (tmp / SUMS).write_bytes(sums)
    (tmp / SUMS_SSHSIG).write_bytes(sign(key, sums, record["namespaces"][0]).encode())
    (tmp / SUMS_ED25519).write_bytes(base64.b64encode(key.sign(sums).signature) + b"\n")
    os.replace(tmp, out)
    return {"round": round_name, "items": len(files), "dir": out, "private": private,
            "fingerprint": record["fingerprint"], "merkle_root": merkle_root(digests).hex()}


def reveal(root: Path, round_name: str, source: Path) -> list[str]:
    """Copy the exact committed item files from `source` into the round's items/; returns the paths.

    Nothing is copied unless every listed file is present in `source` with its committed hash and
    `source` holds no other item file.
    """
    if not is_safe_id(round_name) or not (round_dir(root, round_name) / SUMS).is_file():
        raise CommitError(f"no committed round {round_name!r} in content/commitments/")
    out = round_dir(root, round_name)
    entries, problems = parse_sums((out / SUMS).read_bytes())
    if problems:
        raise CommitError(f"{out / SUMS}: " + "; ".join(problems))
    listed = dict(entries[1:])
    errors = []
    for path, digest in listed.items():
        src = source / path
        if not src.is_file():
            errors.append(f"{path}: missing from {source}")
        elif sha256_hex(src.read_bytes()) != digest:
            errors.append(f"{path}: differs from its commitment")
        elif (out / path).exists() and (out / path).read_bytes() != src.read_bytes():
            errors.append(f"{path}: a different file is already published")
    src_items = source / ITEMS
    extra = sorted(p.relative_to(source).as_posix() for p in src_items.rglob("*")
                   if p.is_file() and p.relative_to(source).as_posix() not in listed) if src_items.is_dir() else []
    errors += [f"{p}: in {source} but not committed in this round" for p in extra]
    if errors:
        raise CommitError("nothing revealed:\n  " + "\n  ".join(errors))
    (out / ITEMS).mkdir(exist_ok=True)
    for path in listed:
        (out / path).write_bytes((source / path).read_bytes())
    return list(listed)
