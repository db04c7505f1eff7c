"""Answer trees: a reply's JSON read with every number's text kept, and written back with the
hostile forms plain JSON cannot hold (a repeated key, a raw token such as NaN or a huge exponent).

A tree is made of dict, list, str, bool, None and the three classes below. Writing a tree never
changes a number's text, so a near-miss built as `Num("50.99")` reaches both scorers as written.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

__all__ = ["Dup", "Num", "Raw", "dump", "find_answer"]


class Num(str):
    """A JSON number, kept as its literal text."""

    __slots__ = ()


class Raw(str):
    """Text written verbatim where a value goes (not JSON by itself, or deliberately hostile)."""

    __slots__ = ()


@dataclass(frozen=True)
class Dup:
    """A key written twice in its object: first `first`, then `last` (a repeated key keeps its last)."""

    first: object
    last: object


_DECODER = json.JSONDecoder(parse_float=Num, parse_int=Num, parse_constant=Raw)
OPENERS = "{["
MAX_TRIES = 20  # openers tried when looking for the answer in a content
MAX_SEED_DEPTH = 50  # a deeper seed answer is kept as text (trees are copied recursively)


def _shallow(value: object) -> bool:
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_SEED_DEPTH:
            return False
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return True


def find_answer(content: str) -> tuple[str, object, str] | None:
    """(text before, the first complete JSON object or array, text after) of a content, or None."""
    tries = 0
    for at, ch in enumerate(content):
        if ch not in OPENERS:
            continue
        tries += 1
        if tries > MAX_TRIES:
            return None
        try:
            value, end = _DECODER.raw_decode(content, at)
        except (ValueError, RecursionError):
            continue
        return (content[:at], value, content[end:]) if _shallow(value) else None
    return None


def _string(s: str, ascii_only: bool) -> str:
    try:
        return json.dumps(s, ensure_ascii=ascii_only)
    except UnicodeEncodeError:  # pragma: no cover - json.dumps escapes lone surrogates itself
        return json.dumps(s, ensure_ascii=True)


def dump(value: object, rnd: random.Random | None = None) -> str:
    """The JSON text of a tree. With `rnd`, spacing and escaping vary (every form is still JSON)."""
    ascii_only = bool(rnd and rnd.random() < 0.3)
    style = rnd.randrange(3) if rnd else 0
    colon, comma = ((":", ","), (": ", ", "), (" :\t", " ,\n"))[style]
    out: list[str] = []
    stack: list[object] = [value]
    while stack:  # iterative: a tree may be nested far deeper than Python's recursion allows
        v = stack.pop()
        if isinstance(v, _Text):
            out.append(v.text)
        elif isinstance(v, (Num, Raw)):
            out.append(str(v))
        elif isinstance(v, str):
            out.append(_string(v, ascii_only))
        elif v is None or isinstance(v, bool):
            out.append(json.dumps(v))
        elif isinstance(v, (int, float)):
            out.append(repr(v) if isinstance(v, float) else str(v))
        elif isinstance(v, list):
            parts: list[object] = [_Text("[")]
            for k, x in enumerate(v):
                parts += [_Text(comma)] if k else []
                parts.append(x)
            parts.append(_Text("]"))
            stack.extend(reversed(parts))
        elif isinstance(v, dict):
            parts = [_Text("{")]
            first = True
            for key, x in v.items():
                pairs = [(key, x.first), (key, x.last)] if isinstance(x, Dup) else [(key, x)]
                for k2, x2 in pairs:
                    parts += [] if first else [_Text(comma)]
                    first = False
                    parts += [_Text(_string(str(k2), ascii_only) + colon), x2]
            parts.append(_Text("}"))
            stack.extend(reversed(parts))
        elif isinstance(v, Dup):  # a repeated key inside a repeated key: its last value
            stack.append(v.last)
        else:
            raise TypeError(f"not an answer tree value: {type(v).__name__}")
    return "".join(out)


@dataclass(frozen=True)
class _Text:
    text: str
