"""Salts must be 32 random-looking bytes, one per item: checked by `tally commit` before anything is
written and by `tally verify` on revealed items.

A salt that is short, repeats one byte (all zeros), has few distinct bytes, or is shared by two items
lets anyone test a guessed item against its commitment, or shows which items are equal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

SALT_BYTES = 32
MIN_DISTINCT = 16  # 32 random bytes have about 30 distinct values; fewer than 16 happens ~never by chance
_HEX = re.compile(r"(?:[0-9a-f]{2})+")


def salt_problem(salt: object) -> str | None:
    """Why `salt` is not 32 random-looking bytes written as 64 lowercase hex digits, or None."""
    if not isinstance(salt, str) or not _HEX.fullmatch(salt):
        return "salt must be lowercase hex digits"
    raw = bytes.fromhex(salt)
    if len(raw) != SALT_BYTES:
        return f"salt is {len(raw)} bytes; it must be {SALT_BYTES} random bytes"
    if len(set(raw)) == 1:
        return f"salt repeats one byte ({raw[:1].hex()}) {SALT_BYTES} times: not random"
    if len(set(raw)) < MIN_DISTINCT:
        return f"salt has only {len(set(raw))} distinct byte values: not random"
    return None


def salt_problems(salts: Mapping[str, object]) -> list[str]:
    """Problems with the salts of a round's items, keyed by item path: each salt's own, and repeats."""
    own = [f"{path}: {p}" for path, salt in sorted(salts.items()) if (p := salt_problem(salt))]
    return own + repeated_salts(salts)


def repeated_salts(salts: Mapping[str, object]) -> list[str]:
    """Items that share a salt with an earlier one (by path)."""
    problems = []
    seen: dict[object, str] = {}
    for path, salt in sorted(salts.items()):
        if isinstance(salt, str) and salt in seen:
            problems.append(f"{path}: the same salt as {seen[salt]}")
        elif isinstance(salt, str):
            seen[salt] = path
    return problems
