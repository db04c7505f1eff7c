"""Where rounds live and in which order they were chained; reading manifests without trusting them."""

from __future__ import annotations

import json
from pathlib import Path

from . import COMMITMENTS_DIR, MANIFEST, PRIVATE_STORAGE


def commitments_dir(root: Path) -> Path:
    return root.joinpath(*COMMITMENTS_DIR)


def round_dir(root: Path, round_name: str) -> Path:
    return commitments_dir(root) / round_name


def private_round_dir(root: Path, round_name: str) -> Path:
    return root.joinpath(*PRIVATE_STORAGE, round_name)


def round_names(root: Path) -> list[str]:
    base = commitments_dir(root)
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if p.is_dir() and (p / MANIFEST).is_file())


def read_manifest(root: Path, round_name: str) -> dict | None:
    """The manifest as JSON, or None when it is missing or unreadable (verify reports why)."""
    try:
        data = json.loads((round_dir(root, round_name) / MANIFEST).read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def previous_of(manifest: dict | None) -> str | None:
    prev = (manifest or {}).get("previous")
    name = prev.get("round") if isinstance(prev, dict) else None
    return name if isinstance(name, str) else None


def chain_order(root: Path) -> list[str]:
    """Rounds from the first (no previous) along the chain; rounds off the chain follow by name."""
    names = round_names(root)
    prev = {n: previous_of(read_manifest(root, n)) for n in names}
    nxt: dict[str | None, list[str]] = {}
    for n, p in prev.items():
        nxt.setdefault(p, []).append(n)
    order, cur = [], None
    while len(nxt.get(cur, [])) == 1 and nxt[cur][0] not in order:
        cur = nxt[cur][0]
        order.append(cur)
    return order + [n for n in names if n not in order]


def chain_heads(root: Path) -> list[str]:
    """Rounds that no other round names as its previous one."""
    names = round_names(root)
    referenced = {previous_of(read_manifest(root, n)) for n in names}
    return [n for n in names if n not in referenced]
