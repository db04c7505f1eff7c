"""Identifiers that are safe as file names and URL parts; anything else is rejected, never sanitised."""

from __future__ import annotations

import re

_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,199}")


def id_problem(value: object, what: str = "id") -> str | None:
    """Return why `value` is not a safe identifier, or None when it is one."""
    if not isinstance(value, str):
        return f"{what} must be a string, got {type(value).__name__}"
    if not _ID.fullmatch(value) or ".." in value:
        shown = value if len(value) <= 60 else value[:57] + "..."
        return f"{what} {shown!r} is not a safe identifier (letters, digits, '.', '_', '-', not starting with '.' or '-'; no '..')"
    return None


def is_safe_id(value: object) -> bool:
    return id_problem(value) is None
