"""Commitments to a round's private responses: which salted item file each private item is, and
(responses_commit.py) the signed Merkle root over the private response records of a round's runs.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..ids import is_safe_id
from . import ITEMS
from .canonical import sha256_hex
from .layout import private_round_dir, round_dir


def item_commitments(root: Path, round_name: str) -> dict[str, str]:
    """Item id -> SHA-256 of its salted commitment file, from the round's private storage or its
    revealed items; empty when neither is here."""
    if not is_safe_id(round_name):
        return {}
    out: dict[str, str] = {}
    for folder in (private_round_dir(root, round_name) / ITEMS, round_dir(root, round_name) / ITEMS):
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            data = path.read_bytes()
            try:
                item = json.loads(data).get("item", {})
            except (ValueError, AttributeError):
                continue
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                out.setdefault(item["id"], sha256_hex(data))
    return out
