"""Where rounds live; reading manifests without trusting them."""

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
    """Every folder in content/commitments/: each must be a round (verify fails one that is not)."""
    base = commitments_dir(root)
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if p.is_dir())


def manifest_of(folder: Path) -> dict | None:
    """The manifest as JSON, or None when it is missing or unreadable (verify reports why)."""
    try:
        data = json.loads((folder / MANIFEST).read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def read_manifest(root: Path, round_name: str) -> dict | None:
    return manifest_of(round_dir(root, round_name))
