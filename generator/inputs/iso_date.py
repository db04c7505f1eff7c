"""Dates in Tally's own files (suite.toml's `frozen`, an item's `published`, price dates in run.json
and providers.toml, a ledger's dates), checked one way: exactly YYYY-MM-DD, a day that exists.
`date.fromisoformat` alone also takes 20260703 and, in ten characters, 2026-W27-5."""

from __future__ import annotations

import datetime as dt
import re

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def is_iso_date(value: object) -> bool:
    """Whether `value` is a string YYYY-MM-DD naming a day of the calendar."""
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        return False
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True
