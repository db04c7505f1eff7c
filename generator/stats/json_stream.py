"""A statistics document written as JSON, one comparison family's pairs at a time, its text never whole.

`json.dump` to a file encodes in pure Python (only `json.dumps` uses the C encoder), which made writing
a large site's statistics most of its downloads' time. `write_json` gives the same bytes as
`json.dump(doc, fh, sort_keys=True, ensure_ascii=False, default=json_default, **options)`:

1. the document is encoded with every family's pairs (a PairTable, or a family part read from the build
   cache) replaced by a placeholder string naming it, so the text holds no pairs: without an indent by
   the C encoder, at once; with one by the encoder json.dumps then uses (pure Python), whose pieces are
   written a batch at a time, so that the text of a large document (stats.json at hundreds of run
   groups: tens of MB as millions of small strings) is never held whole;
2. each placeholder is replaced by that family's pairs, encoded by `json.dumps` on their own (with
   `indent`, moved right to the placeholder's line: JSON text has a line break only between values,
   never inside a string, so each one is followed by the indentation); with an indent, a table's pairs
   are the same text built by the table (PairTable.json_text: json.dumps with an indent encodes in pure
   Python, a call per value). A placeholder is always a piece of its own (the encoder yields each value
   it gets from `default` alone).

One family's pairs are held at a time (as with `json.dump`, which made each family a list to encode it).
"""

from __future__ import annotations

import itertools
import json
import re
import secrets
from collections.abc import Iterable
from typing import IO, Any

from .pair_table import PairTable, json_default, pairs_like

BATCH = 20_000  # pieces of the encoder's text joined and written at a time


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

    encoder = json.JSONEncoder(skipkeys=False, ensure_ascii=False, check_circular=True, allow_nan=allow_nan,
                               indent=indent, separators=separators, default=placeholder, sort_keys=True)
    pieces: Iterable[str] = (encoder.encode(doc),) if indent is None else encoder.iterencode(doc, _one_shot=True)
    mark = re.compile(rf'"\\u0000{nonce}:(\d+)\\u0000"')
    line = ""  # with an indent: the text written since the last line break (a line holds one value)
    seen = 0  # placeholders met
    it = iter(pieces)
    while text := "".join(itertools.islice(it, BATCH)):
        at = 0
        for m in mark.finditer(text):
            if int(m.group(1)) != seen or seen >= len(tables):  # (a string equal to a placeholder)
                raise ValueError("a statistics document's text holds a placeholder of its pairs")
            depth = 0
            if indent is not None:
                before = text.rfind("\n", at, m.start())
                line = line + text[at:m.start()] if before < 0 else text[before + 1:m.start()]
                depth = len(line) - len(line.lstrip(" "))
            fh.write(text[at:m.start()])
            pairs = _pairs_text(tables[seen], depth, options)
            fh.write(pairs)
            tables[seen] = None  # the family's pairs are not kept
            seen += 1
            if indent is not None:
                after = pairs.rfind("\n")
                line = line + pairs if after < 0 else pairs[after + 1:]
            at = m.end()
        fh.write(text[at:])
        if indent is not None:
            last = text.rfind("\n", at)
            line = line + text[at:] if last < 0 else text[last + 1:]
    if seen != len(tables):
        raise ValueError("a statistics document's text holds a placeholder of its pairs")


def _pairs_text(value: Any, depth: int, options: dict[str, Any]) -> str:
    """A family's pairs as JSON text for a placeholder on a line indented by `depth` spaces: with an indent,
    moved right to it (a table's text is built by the table itself: PairTable.json_text)."""
    indent = options["indent"]
    if indent is None:
        return json.dumps(json_default(value), **options)
    table = value.table() if hasattr(value, "table") else value
    if isinstance(table, PairTable) and isinstance(indent, int) and options["sort_keys"]:
        return table.json_text(indent, depth)
    text = json.dumps(json_default(table), **options)
    return text.replace("\n", "\n" + " " * depth) if "\n" in text else text
