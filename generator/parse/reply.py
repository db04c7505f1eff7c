"""Reading a reply: the one JSON reading every suite shares ("Reading a reply" in
content/pages/methodology.md). A suite decides only *where* its JSON text is (the whole content,
a fenced block, the first complete object, an `<answer>` block); how that text is read is decided
here, once, and scorer B's core (scorer-js/core.js) implements the same page:

- strict JSON (RFC 8259); numbers exact (`JsonInt`, `Decimal`), a written exponent beyond
  +-1,000,000 an `OutOfRange` number with no value; NaN and Infinity are not JSON;
- arrays and objects nest at most MAX_DEPTH levels, decided by counting brackets outside strings
  before anything is decoded, so no depth reaches the interpreter's recursion limit;
- a repeated key keeps its last value; a `\\u` escape of a lone surrogate reads as that code point;
- a byte order mark (U+FEFF) is not JSON whitespace.

No suite module builds a JSON decoder of its own (tests/test_reading_vectors.py checks it).
"""

from __future__ import annotations

from .jsonfind import MAX_DEPTH, JsonInt, OutOfRange, exact_decoder, first_object, too_deep
from .text import WHITESPACE

__all__ = ["MAX_DEPTH", "NOT_JSON", "JsonInt", "OutOfRange", "first_object", "read_json", "strip_fence",
           "too_deep"]

_DECODER = exact_decoder()


class _NotJson:
    """What `read_json` returns for a text that is not exactly one JSON text within the limits."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_JSON"


NOT_JSON = _NotJson()


def read_json(text: str) -> object:
    """The value of `text` when it is exactly one strict JSON text (JSON whitespace around it allowed)
    nesting at most MAX_DEPTH levels; NOT_JSON otherwise."""
    if too_deep(text):
        return NOT_JSON
    try:
        return _DECODER.decode(text)
    except (ValueError, RecursionError):  # RecursionError: unreachable within MAX_DEPTH levels
        return NOT_JSON


def strip_fence(text: str) -> str:
    """A reply's body without surrounding whitespace (White_Space) and without one Markdown code fence
    around it: three backticks at both ends of a body of at least six characters, then `json` (lower
    case) when the rest starts with it. Nothing else of a fence line is removed."""
    body = text.strip(WHITESPACE)
    if len(body) >= 6 and body.startswith("```") and body.endswith("```"):
        body = body[3:-3]
        if body.startswith("json"):
            body = body[4:]
    return body
