"""Swap a freshly written folder in for an old one, so a failed write leaves the old one whole."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .folders import refuse_links


def swap_in(fresh: Path, target: Path) -> None:
    """Replace `target` by `fresh` (both on one file system) with renames only. A `target` that is a
    symbolic link, or holds one, is refused (generator/folders.py): the old one is deleted."""
    refuse_links(target, "output folder")
    if not target.exists():
        os.replace(fresh, target)
        return
    old = target.with_name(f".{target.name}-old")
    shutil.rmtree(old, ignore_errors=True)
    os.replace(target, old)
    os.replace(fresh, target)
    shutil.rmtree(old)
