"""Test helpers for sealed records: opening a record's box with its item, and editing what it holds
(as someone holding the item could, to test that the edit is caught)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path


def item_lines(root: Path, suite: str) -> dict[str, bytes]:
    """Every item's line in the suite's items files, by id (what closes a sealed record's box)."""
    out = {}
    for path in sorted((root / "content" / "suites" / suite / "items").glob("*.jsonl")):
        for line in path.read_bytes().splitlines():
            if line.strip():
                out[json.loads(line)["id"]] = line
    return out


def opened_record(record: dict, root: Path, suite: str) -> dict:
    """A sealed record with its box's fields in place (format v3), or as stored (earlier formats)."""
    from generator.sealed_record import opened

    view, problem = opened(record, item_lines(root, suite)[record["item"]])
    assert view is not None, problem
    return view


def edited(record: dict, root: Path, suite: str, change: Callable[[dict], None]) -> dict:
    """The sealed record with `change` made to its opened fields, its box closed again."""
    from generator.sealed_record import boxed

    view = opened_record(record, root, suite)
    change(view)
    return boxed(view, item_lines(root, suite)[record["item"]])
