"""ISO calendar dates (rule 3.5): exactly YYYY-MM-DD, surrounding whitespace allowed."""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache

from .text import WHITESPACE

_ISO = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


@lru_cache(maxsize=65536)
def read_iso_date(text: str) -> dt.date | None:
    m = _ISO.fullmatch(text.strip(WHITESPACE))
    if m is None:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
