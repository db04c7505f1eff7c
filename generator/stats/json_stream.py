"""A statistics document written as JSON by the C encoder, one comparison family's pairs at a time.

`json.dump` to a file encodes in pure Python (only `json.dumps` uses the C encoder), which made writing
a large site's statistics most of its downloads' time. `write_json` gives the same bytes as
`json.dump(doc, fh, sort_keys=True, ensure_ascii=False, default=json_default, **options)`:

1. the document is encoded by `json.dumps` with every family's pairs (a PairTable, or a family part
   read from the build cache) replaced by a placeholder string naming it, so the text holds no pairs;
2. the text is written piece by piece, each placeholder replaced by that family's pairs, encoded by
   `json.dumps` on their own (with `indent`, moved right to the placeholder's line: JSON text has a
   line break only between values, never inside a string, so each one is followed by the indentation);
   with an indent, a table's pairs are the same text built by the table (PairTable.json_text: json.dumps
   with an indent encodes in pure Python, a call per value).

One family's pairs are held at a time (as with `json.dump`, which made each family a list to encode it).
"""

from __future__ import annotations

import json
import re
import secrets
from typing import IO, Any

from .pair_table import PairTable, json_default, pairs_like


def write_json(doc: Any, fh: IO[str], *, indent: int | None = None,
               separators: tuple[str, str] | None = None, allow_nan: bool = True) -> None:
    options: dict[str, Any] = {"sort_keys": True, "ensure_ascii": False, "indent": indent,
                               "separators": separators, "allow_nan": allow_nan}
    tables: list[Any] = []
    nonce = secrets.token_hex(8)

    def placeholder(value: Any) -> str:
        if not pairs_like(value):
            json_default(value)  # raises the TypeError json.dump would
        tables.append(value)
        return f"\x00{nonce}:{len(tables) - 1}\x00"

    skeleton = json.dumps(doc, default=placeholder, **options)
    marks = list(re.finditer(rf'"\\u0000{nonce}:(\d+)\\u0000"', skeleton))
    if [int(m.group(1)) for m in marks] != list(range(len(tables))):  # (a string equal to a placeholder)
        raise ValueError("a statistics document's text holds a placeholder of its pairs")
    at = 0
    for m in marks:
        fh.write(skeleton[at:m.start()])
        fh.write(_pairs_text(tables[int(m.group(1))], skeleton, m.start(), options))
        tables[int(m.group(1))] = None  # the family's pairs are not kept
        at = m.end()
    fh.write(skeleton[at:])


def _pairs_text(value: Any, skeleton: str, at: int, options: dict[str, Any]) -> str:
    """A family's pairs as JSON text for the placeholder at `at` of `skeleton`: with an indent, moved right to
    the placeholder's line (a table's text is built by the table itself: PairTable.json_text)."""
    indent = options["indent"]
    if indent is None:
        return json.dumps(json_default(value), **options)
    line = skeleton.rfind("\n", 0, at) + 1
    depth = len(skeleton[line:at]) - len(skeleton[line:at].lstrip(" "))
    table = value.table() if hasattr(value, "table") else value
    if isinstance(table, PairTable) and isinstance(indent, int) and options["sort_keys"]:
        return table.json_text(indent, depth)
    text = json.dumps(json_default(table), **options)
    return text.replace("\n", "\n" + " " * depth) if "\n" in text else text
