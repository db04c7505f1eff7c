"""`tally reveal`: publish a round's exact committed item files with a signed reveal statement, and
the round's committed private responses when responses.json commits to them (responses.py).

The statement (`reveal.json`, canonical JSON, signed in the reveal namespace as `reveal.json.sig`)
names the round, the SHA-256 of its SHA256SUMS, the item count and the claimed date, and takes the
next place in the chain of signed files. Withholding a revealed round's items is then a failure,
not "not yet revealed", and removing the statement breaks the chain.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..inputs.ids import is_safe_id
from . import (
    ITEMS,
    RESPONSES,
    REVEAL,
    REVEAL_FORMAT,
    REVEAL_NAMESPACE,
    REVEAL_SIG,
    SUMS,
    CommitError,
)
from .canonical import canonical, parse_sums, sha256_hex
from .chain import head_link
from .keyfiles import fingerprint, load_private_key
from .keys import find_key, load_registry, now_utc
from .layout import read_manifest, round_dir
from .responses import reveal_files
from .rounds import is_utc_time
from .sshsig import sign

DATE_CLAIM = "the signer's own claim; only an external timestamp could prove it"


def _source_problems(source: Path, listed: dict[str, str], out: Path) -> list[str]:
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
    return errors + [f"{p}: in {source} but not committed in this round" for p in extra]


def reveal(root: Path, round_name: str, source: Path, key_path: Path, revealed_at: str | None = None,
           responses_withheld: str | None = None) -> list[str]:
    """Copy the exact committed item files from `source` into the round's items/ and sign a reveal
    statement; returns the item paths. Nothing is written unless every listed file is present in
    `source` with its committed hash and `source` holds no other item file."""
    if not is_safe_id(round_name) or not (round_dir(root, round_name) / SUMS).is_file():
        raise CommitError(f"no committed round {round_name!r} in content/commitments/")
    out = round_dir(root, round_name)
    if (out / REVEAL).exists():
        raise CommitError(f"{out / REVEAL} already exists: {round_name} was revealed")
    if revealed_at is not None and not is_utc_time(revealed_at):
        raise CommitError(f"--revealed-at {revealed_at!r} must look like 2026-10-30T09:00:00Z")
    key = load_private_key(key_path, root)
    record = find_key(load_registry(root), fingerprint_=fingerprint(bytes(key.verify_key)))
    if record is None or record.get("status") != "active":
        raise CommitError(f"key {fingerprint(bytes(key.verify_key))} is not an active key in content/keys/keys.json")
    sums = (out / SUMS).read_bytes()
    entries, problems = parse_sums(sums)
    if problems:
        raise CommitError(f"{out / SUMS}: " + "; ".join(problems))
    listed = dict(entries[1:])
    errors = _source_problems(source, listed, out)
    if errors:
        raise CommitError("nothing revealed:\n  " + "\n  ".join(errors))
    manifest = read_manifest(root, round_name) or {}
    responses = reveal_files(root, round_name, responses_withheld)  # the committed private responses, checked
    site = record["namespaces"][0].split("@", 1)[1]
    namespace = REVEAL_NAMESPACE.format(site=site)
    statement = canonical({
        "format": REVEAL_FORMAT, "round": round_name, "benchmark": manifest.get("benchmark"),
        "sha256sums_sha256": hashlib.sha256(sums).hexdigest(), "item_count": len(listed),
        "revealed_at": revealed_at or now_utc(), "revealed_at_is": DATE_CLAIM,
        "signer": {"key": record["name"], "principal": record["principal"], "namespace": namespace,
                   "fingerprint": record["fingerprint"]},
        "previous": head_link(root),
    } | ({"responses_sha256": sha256_hex((out / RESPONSES).read_bytes()),
          "response_records": sum(x.count(b"\n") for x in responses.values())} if responses else {})
      | ({"responses_sha256": sha256_hex((out / RESPONSES).read_bytes()), "responses_withheld": responses_withheld}
         if responses_withheld and (out / RESPONSES).is_file() else {}))
    (out / ITEMS).mkdir(exist_ok=True)
    for path in listed:
        (out / path).write_bytes((source / path).read_bytes())
    for path, data in responses.items():
        (out / path).parent.mkdir(exist_ok=True)
        (out / path).write_bytes(data)
    (out / REVEAL_SIG).write_bytes(sign(key, statement, namespace).encode())
    (out / REVEAL).write_bytes(statement)
    return list(listed)
