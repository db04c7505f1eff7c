"""`tally commit`: fix a round's private items under a signature (reveals.py publishes them later)."""

from __future__ import annotations

import base64
import datetime as dt
import os
import secrets
import shutil
import tomllib
from pathlib import Path

from .. import __version__
from ..folders import refuse_links
from ..inputs.ids import id_problem
from ..inputs.jsonl import jsonl_lines
from ..inputs.stored_files import StoredFileError, read_stored
from . import (
    ITEMS,
    MANIFEST,
    MANIFEST_FORMAT,
    SUMS,
    SUMS_ED25519,
    SUMS_SSHSIG,
    CommitError,
)
from .canonical import (
    ITEM_PATH,
    canonical,
    item_file,
    item_path,
    new_salt,
    render_sums,
    sha256_hex,
    sums_entries,
)
from .chain import head_link
from .keyfiles import fingerprint, load_private_key
from .keys import find_key, load_registry, now_utc
from .layout import private_round_dir, round_dir
from .merkle import root as merkle_root
from .salts import salt_problems
from .sshsig import sign

DATE_CLAIM = "the signer's own claim; only an external timestamp could prove it"


def read_private_items(items_dir: Path) -> list[dict]:
    """Every item with half "private" from the *.jsonl (or gzip-compressed *.jsonl.gz) files in `items_dir`."""
    files = sorted([*items_dir.glob("*.jsonl"), *items_dir.glob("*.jsonl.gz")])
    if not files:
        raise CommitError(f"{items_dir}: no .jsonl item files")
    items: list[dict] = []
    seen: dict[str, str] = {}  # item id -> where it was first read
    for path in files:
        try:
            data = read_stored(path)
        except StoredFileError as exc:
            raise CommitError(str(exc)) from None
        for number, line, item, error in jsonl_lines(data):
            where = f"{path}:{number}"
            if error is not None:
                raise CommitError(f"{where}: {error}")
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


def _outside_content(root: Path, path: Path, what: str) -> None:
    try:
        path.resolve().relative_to((root / "content").resolve())
    except ValueError:
        return
    raise CommitError(f"{path}: {what} must be outside content/ (everything in content/ is published)")


def is_utc_time(value: str) -> bool:
    try:
        return value.endswith("Z") and dt.datetime.fromisoformat(value) is not None
    except ValueError:
        return False


def write_private_file(path: Path, data: bytes) -> None:
    """Write a salted item file readable by its owner only (mode 0600, whatever the umask)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
    finally:
        os.close(fd)


def commit(root: Path, round_name: str, items_dir: Path, key_path: Path, *, private_dir: Path | None = None,
           benchmark: str | None = None, committed_at: str | None = None) -> dict:
    """Write salted item files to private storage and the signed round to content/commitments/ROUND/."""
    if (p := id_problem(round_name, "round")) is not None:
        raise CommitError(p)
    out = round_dir(root, round_name)
    if out.exists():
        raise CommitError(f"{out} already exists; a committed round is never rewritten")
    if committed_at is not None and not is_utc_time(committed_at):
        raise CommitError(f"--committed-at {committed_at!r} must look like 2026-10-30T09:00:00Z")
    key = load_private_key(key_path, root)
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
    if private_dir is None:  # the default, inside the project: never through a committed link
        refuse_links(private, "private storage", root)
    _outside_content(root, private, "private storage")
    if private.exists() and any(private.iterdir()):
        raise CommitError(f"{private} is not empty; private storage of a round is written once")

    previous = head_link(root)
    files: dict[str, bytes] = {}
    salts: dict[str, str] = {}
    for item in items:
        opaque = secrets.token_hex(8)
        while item_path(opaque) in files:
            opaque = secrets.token_hex(8)
        salts[item_path(opaque)] = salt = new_salt()
        try:
            files[item_path(opaque)] = item_file(benchmark, round_name, opaque, item, salt)
        except ValueError as exc:
            raise CommitError(f"item {item['id']}: cannot be written as RFC 8785 JSON ({exc}); "
                              "write money as strings and keep integers within 2^53") from None
    if problems := salt_problems(salts):
        raise CommitError("refusing to write: salts must be 32 random bytes, one per item:\n  "
                          + "\n  ".join(problems[:5]))
    digests = [bytes.fromhex(sha256_hex(files[p])) for p in sorted(files)]
    manifest = canonical({
        "format": MANIFEST_FORMAT, "benchmark": benchmark, "round": round_name,
        "committed_at": committed_at or now_utc(), "committed_at_is": DATE_CLAIM,
        "item_count": len(files), "item_path": ITEM_PATH,
        "merkle": {"tree": "RFC 6962, SHA-256", "entries": "SHA-256 of each item file, in SHA256SUMS order",
                   "root": merkle_root(digests).hex(), "size": len(digests)},
        "signer": {"key": record["name"], "principal": record["principal"],
                   "namespace": record["namespaces"][0], "fingerprint": record["fingerprint"]},
        "previous": previous, "scorer": scorer,
    })
    sums = render_sums(sums_entries(manifest, files))

    (private / ITEMS).mkdir(parents=True, exist_ok=True, mode=0o700)
    for path, data in files.items():
        write_private_file(private / path, data)
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
