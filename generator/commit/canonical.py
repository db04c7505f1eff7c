"""Canonical bytes: RFC 8785 item files with a per-item salt, the manifest, and the SHA256SUMS list.

Readers never re-serialise: a commitment is SHA-256 of the exact file bytes. Tally re-serialises only
to check that a file is in canonical form.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from typing import TypeAlias, Union

import rfc8785

from ..inputs.ids import is_safe_id
from . import ITEM_FORMAT, ITEMS, MANIFEST
from .salts import salt_problem

ITEM_PATH = ITEMS + "/{id}.json"
_SUMS_LINE = re.compile(r"SHA256 \(([^()\n]+)\) = ([0-9a-f]{64})")

# What RFC 8785 serialises: JSON scalars, sequences and string-keyed mappings of them.
JSONValue: TypeAlias = Union[None, bool, int, float, str, Sequence["JSONValue"], Mapping[str, "JSONValue"]]


def canonical(obj: JSONValue) -> bytes:
    """RFC 8785 bytes, UTF-8, no trailing newline. Raises ValueError for NaN or unsafe integers."""
    return rfc8785.dumps(obj)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def new_salt() -> str:
    return secrets.token_hex(32)


def item_path(opaque_id: str) -> str:
    return ITEM_PATH.format(id=opaque_id)


def item_file(benchmark: str, round_name: str, opaque_id: str, item: dict, salt: str) -> bytes:
    return canonical({"format": ITEM_FORMAT, "benchmark": benchmark, "round": round_name,
                      "id": opaque_id, "item": item, "salt": salt})


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key in object")
    return dict(pairs)


def parse_canonical(data: bytes) -> tuple[object, str | None]:
    """Parse JSON bytes; the problem is set when they are not valid, canonical RFC 8785 JSON."""
    try:
        obj = json.loads(data.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, ValueError) as exc:
        return None, f"not valid JSON: {exc}"
    try:
        again = canonical(obj)
    except ValueError as exc:
        return obj, f"not canonical: {exc}"
    if again != data:
        return obj, "not in RFC 8785 canonical form (re-serialising changes the bytes)"
    return obj, None


def item_problems(data: bytes, benchmark: str, round_name: str, opaque_id: str) -> tuple[dict | None, list[str]]:
    """Check a committed item file's form; returns the inner item (or None) and the problems."""
    obj, problem = parse_canonical(data)
    if problem:
        return None, [problem]
    if not isinstance(obj, dict):
        return None, ["an item file must be a JSON object"]
    problems = []
    expected = {"format": ITEM_FORMAT, "benchmark": benchmark, "round": round_name, "id": opaque_id}
    for key, value in expected.items():
        if obj.get(key) != value:
            problems.append(f"{key} is {obj.get(key)!r}, expected {value!r}")
    extra = set(obj) - set(expected) - {"item", "salt"}
    if extra:
        problems.append(f"unexpected keys {sorted(extra)}")
    if (p := salt_problem(obj.get("salt"))) is not None:
        problems.append(p)
    item = obj.get("item")
    if not isinstance(item, dict) or not is_safe_id(item.get("id")):
        problems.append("item must be an object with a safe id")
        item = None
    return item, problems


def render_sums(entries: list[tuple[str, str]]) -> bytes:
    """BSD-tag lines `SHA256 (path) = hex`, LF endings with a final LF, in the order given."""
    return "".join(f"SHA256 ({path}) = {digest}\n" for path, digest in entries).encode("ascii")


def sums_entries(manifest: bytes, items: dict[str, bytes]) -> list[tuple[str, str]]:
    """The manifest first, then the item files sorted by path."""
    return [(MANIFEST, sha256_hex(manifest))] + [(p, sha256_hex(items[p])) for p in sorted(items)]


def parse_sums(data: bytes) -> tuple[list[tuple[str, str]], list[str]]:
    """Parse and check the form of a SHA256SUMS file; returns the entries and the problems."""
    problems = []
    if b"\r" in data:
        problems.append("contains CR characters (CRLF line endings?); the signed file uses LF only: "
                        "check that .gitattributes marks commitment files -text")
    if data and not data.endswith(b"\n"):
        problems.append("does not end with a newline")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        return [], problems + ["is not ASCII"]
    entries = []
    for number, line in enumerate(text.replace("\r", "").split("\n")[:-1], start=1):
        m = _SUMS_LINE.fullmatch(line)
        if not m:
            problems.append(f"line {number} is not `SHA256 (path) = <64 hex>`")
            continue
        entries.append((m.group(1), m.group(2)))
    paths = [p for p, _ in entries]
    if not paths or paths[0] != MANIFEST:
        problems.append(f"the first line must be {MANIFEST}")
    items = paths[1:]
    if any(p == MANIFEST for p in items):
        problems.append(f"{MANIFEST} is listed more than once")
    if items != sorted(items):
        problems.append("item lines are not sorted by path")
    if len(set(items)) != len(items):
        problems.append("an item path is listed more than once")
    bad = [p for p in items if p != MANIFEST and not _is_item_path(p)]
    problems += [f"{p!r} is not an item path ({ITEM_PATH} with a safe id)" for p in bad]
    # A listed path is only ever used as a path once it matches the pattern.
    return [(p, d) for i, (p, d) in enumerate(entries) if (i == 0 and p == MANIFEST) or _is_item_path(p)], problems


def _is_item_path(path: str) -> bool:
    prefix, suffix = ITEMS + "/", ".json"
    return path.startswith(prefix) and path.endswith(suffix) and is_safe_id(path[len(prefix):-len(suffix)])


def opaque_id_of(path: str) -> str:
    return path[len(ITEMS) + 1:-len(".json")]
