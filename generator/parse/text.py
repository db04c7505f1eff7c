"""Text and identifier normalisation (rules 3.3 and 3.4 of the scoring page)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# The Unicode White_Space property, listed so that both scorers use exactly the same set.
WHITESPACE = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_RUNS = re.compile(f"[{WHITESPACE}]+")


@lru_cache(maxsize=65536)
def normalise_text(value: str) -> str:
    """NFC, lower case, whitespace runs to one space, trimmed."""
    return _RUNS.sub(" ", unicodedata.normalize("NFC", value).lower()).strip(" ")


def is_blank(value: str) -> bool:
    return value.strip(WHITESPACE) == ""
