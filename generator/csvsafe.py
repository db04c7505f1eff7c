"""CSV cells a spreadsheet will not run: text that starts like a formula gets a leading apostrophe
(the OWASP rule for CSV injection). Numbers, including negative ones, are left as they are."""

from __future__ import annotations

import re

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def csv_safe(value: object) -> object:
    if isinstance(value, str) and value.startswith(TRIGGERS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_row(row) -> list:
    return [csv_safe(v) for v in row]
