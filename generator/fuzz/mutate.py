"""Mutations of an answer tree and of a reply's text: near-misses of every value (at the boundaries
a suite names), changes of shape, and hostile JSON.

Everything draws from one `random.Random`, so a seed gives the same cases on every machine.
"""

from __future__ import annotations

import random
from decimal import Decimal, InvalidOperation

from .tree import Dup, Num, Raw

# Letters that Unicode 14 (scorer A's pinned version) does not assign, from Unicode 15, 16 and 17,
# and characters whose case or composition changed after 14.
NEW_LETTERS = ("\U00011f04", "\U0001e4d0", "\U0001e030", "\ua7cb", "\ua7cc", "\ua7cd", "\u1c89", "\u1c8a",
               "\U00010d4a", "\U00016d43", "\U00016d68", "\ua7ce", "\ua7cf", "\U00010940", "\U0001e5d0")
ODD_TEXT = ("\u00e9", "e\u0301", "\u00df", "\u1e9e", "\u0130", "\u0131", "\ufb01", "\u03a3", "\u03c2", "\U0001f600",
            "\u200b", "\u200d", "\ufeff", "\u00a0", "\u3000", "\u2028", "\u0085", "\t", "\n", "\x00", "\x1f", "&",
            "\ud800", "\udfff", "\ud83d", "\u0660", "\uff10", "\u0966", "\u01c5", "\u212b", "\u00c5")
WHITESPACE = (" ", "\t", "\n", "\r", "\u00a0", "\u3000", "\u0085", "\u2028", "\u202f", "\u205f", "\u1680", "\u2000",
              "\u200a", "\x0b", "\x0c", "\u200b", "\ufeff", "\u180e")
HUGE_NUMBERS = ("1e99999999999999999999", "1.1e99999999999999999999", "0e1000000000000000000", "1e1000000",
                "1e1000001", "1e-1000000", "1e-1000001", "-0E-1000001", "0e1000001", "1E+1000000", "1e309",
                "1e-400", "9" * 400, "1" + "0" * 30 + "e-30", "12.00e0", "1e-0000000000000000000000000002",
                "-0", "-0.0", "0.0000000000000000000000001", "123456789012345678901234567890.5", "9" * 5000)
TOKENS = ("NaN", "Infinity", "-Infinity", "nan", "inf", "undefined", "True", "None", "'x'", "0x10", "01", ".5",
          "1.", "+1", "1e", "--1", "1_000")
DEPTHS = (98, 99, 100, 101, 102) * 4 + (999, 1000, 1001, 3000, 100000)  # mostly at the 100-level limit
FENCES = (("```json\n", "\n```"), ("```\n", "\n```"), ("```JSON\n", "\n```"), ("```json", "```"),
          ("``` json\n", "\n```"), ("```javascript\n", "\n```"), ("```json\n", ""), ("\n```json\n", "\n```\n"))
PROSE = ("Here is the answer:\n", "Answer: ", "Sure! ", "{note} ", "[draft] ", "<think>{\"x\": 1}</think>")
TRAILING = ("\nHope this helps.", " Let me know.", "\n{}", "\n[]", "}", "]", ",", "\n```", "\u0000", " // done",
            "\n\n{\"other\": 1}")
DEFAULT_DELTAS = ("0.01", "0.001", "0.005", "0.0049", "0.0051", "0.5", "1", "0.1")


def _dec(text: str) -> Decimal | None:
    try:
        d = Decimal(text.replace(",", "").replace("$", "").strip())
    except (InvalidOperation, ValueError):
        return None
    return d if d.is_finite() and abs(d.adjusted()) < 40 else None


def number_near(rnd: random.Random, value: Decimal, deltas: tuple[str, ...], relative: tuple[str, ...]) -> Decimal:
    """`value` moved by a boundary step: an absolute delta, or a relative one (of |value|), up or down,
    often exactly at the step and a hair either side of it."""
    if relative and rnd.random() < 0.4:
        step = abs(value) * Decimal(rnd.choice(relative))
    else:
        step = Decimal(rnd.choice(deltas or DEFAULT_DELTAS))
    hair = rnd.choice((Decimal(0), Decimal(0), Decimal("0.01"), Decimal("-0.01"), Decimal("0.001"),
                       Decimal("-0.001"), Decimal("0.000001")))
    return value + (step + hair) * rnd.choice((1, -1))


def number_text(rnd: random.Random, value: Decimal) -> str:
    """One of the JSON spellings of a decimal: plain, trailing zeros, exponent forms."""
    roll = rnd.random()
    if roll < 0.5:
        return format(value, "f")
    if roll < 0.65:
        return format(value, "f") + ("0" if "." in format(value, "f") else ".00")
    if roll < 0.8:
        sign, digits, exp = value.as_tuple()
        mant = "".join(map(str, digits)) or "0"
        return ("-" if sign else "") + mant + "e" + str(exp)
    if roll < 0.9:
        return format(value, "E")
    return format(value.normalize(), "f") if value == value.to_integral_value() else format(value, "f")


def near_number(rnd: random.Random, literal: str, hints) -> object:
    """A near-miss of a JSON number: moved at a boundary, respelled, out of range, a string, a token."""
    d = _dec(literal)
    roll = rnd.random()
    if d is not None and roll < 0.55:
        moved = d if rnd.random() < 0.25 else number_near(rnd, d, hints.deltas, hints.relative)
        return Num(number_text(rnd, moved))
    if roll < 0.75:
        return Num(rnd.choice(HUGE_NUMBERS + hints.numbers))
    if roll < 0.85:
        return Raw(rnd.choice(TOKENS))
    if d is not None and roll < 0.95:
        return rnd.choice(("", "$", " ", "\u00a0")) + number_text(rnd, d) + rnd.choice(("", " ", " MXN", "%"))
    return rnd.choice((None, True, "", [], {}))


def near_text(rnd: random.Random, s: str, hints) -> object:
    """A near-miss of a string: case, whitespace, a one-character edit (fuzzy cut-offs), new letters."""
    d = _dec(s) if len(s) < 60 else None
    roll = rnd.random()
    if d is not None and roll < 0.4:
        moved = d if rnd.random() < 0.3 else number_near(rnd, d, hints.deltas, hints.relative)
        text = number_text(rnd, moved)
        return rnd.choice(("", "$", "\u20ac", " ", "\u00a0", "+")) + (f"{moved:,}" if rnd.random() < 0.2 else text) \
            + rnd.choice(("", "", " ", " USD", "\u3000"))
    if roll < 0.5:
        return rnd.choice((s.upper(), s.lower(), s.title(), s.swapcase(), s.casefold()))
    if roll < 0.6:
        return rnd.choice(WHITESPACE) + s + rnd.choice(("",) + WHITESPACE)
    if roll < 0.78:
        return edit(rnd, s, rnd.choice((1, 1, 1, 2, 3)))
    if roll < 0.86:
        at = rnd.randint(0, len(s))
        return s[:at] + rnd.choice(NEW_LETTERS + ODD_TEXT) + s[at:]
    if roll < 0.88:
        return s * rnd.choice((50, 2000)) + rnd.choice(NEW_LETTERS)
    if roll < 0.92 and hints.words:
        return rnd.choice(hints.words)
    return rnd.choice(("", " ", None, Num("0"), True, [s], {"value": s}, s + s))


def edit(rnd: random.Random, s: str, count: int) -> str:
    """`count` single-character edits (insert, delete, substitute) of `s`."""
    chars = list(s)
    for _ in range(count):
        op = rnd.randrange(3)
        at = rnd.randint(0, len(chars))
        new = rnd.choice("abcxyz019 -.&" + "".join(NEW_LETTERS[:4]) + "\u00e9")
        if op == 0 or not chars:
            chars.insert(at, new)
        elif op == 1:
            del chars[min(at, len(chars) - 1)]
        else:
            chars[min(at, len(chars) - 1)] = new
    return "".join(chars)


def deep(rnd: random.Random, depth: int) -> Raw:
    """A value nested `depth` levels (arrays or objects)."""
    if rnd.random() < 0.5:
        return Raw("[" * depth + "]" * depth)
    return Raw('{"a":' * (depth - 1) + "{}" + "}" * (depth - 1))


def mutate_leaf(rnd: random.Random, v: object, hints) -> object:
    if isinstance(v, Num):
        return near_number(rnd, v, hints)
    if isinstance(v, Raw):
        return rnd.choice((None, Num("0"), ""))
    if isinstance(v, str):
        return near_text(rnd, v, hints)
    if isinstance(v, bool) or v is None:
        return rnd.choice((not v if isinstance(v, bool) else True, None, "true", Num("1"), Num("0"), "null", "yes"))
    return v


def _paths(tree: object, limit: int = 400) -> list[tuple[object, object]]:
    """(container, key) of every position in the tree, breadth first, at most `limit`."""
    out: list[tuple[object, object]] = []
    queue = [tree]
    while queue and len(out) < limit:
        node = queue.pop(0)
        if isinstance(node, dict):
            for k, v in node.items():
                out.append((node, k))
                queue.append(v)
        elif isinstance(node, list):
            for k, v in enumerate(node):
                out.append((node, k))
                queue.append(v)
    return out


def mutate_tree(rnd: random.Random, tree: object, hints, vocabulary) -> object:
    """One change somewhere in the tree (in place where possible; returns the new root)."""
    paths = _paths(tree)
    if not paths or rnd.random() < 0.05:
        return rnd.choice(([], {}, [tree], {"answer": tree}, deep(rnd, rnd.choice(DEPTHS)), Raw("null"), "x"))
    node, key = rnd.choice(paths)
    value = node[key]  # type: ignore[index]
    roll = rnd.random()
    if roll < 0.55 and not isinstance(value, (dict, list)):
        node[key] = mutate_leaf(rnd, value, hints)  # type: ignore[index]
    elif roll < 0.62:
        node[key] = deep(rnd, rnd.choice(DEPTHS))  # type: ignore[index]
    elif roll < 0.7 and isinstance(node, dict):
        form = rnd.randrange(3)
        other = mutate_leaf(rnd, value, hints) if not isinstance(value, (dict, list)) else None
        if form == 2:  # a repeated key whose first value nests past a limit: the limit is on the text
            node[key] = Dup(deep(rnd, rnd.choice(DEPTHS)), value)
        else:
            node[key] = Dup(other, value) if form == 0 else Dup(value, other)
    elif roll < 0.78:
        del node[key]  # type: ignore[attr-defined]
    elif roll < 0.86 and isinstance(node, list):
        copies = rnd.choice((1, 1, 2, hints.list_limit - len(node), hints.list_limit + 1 - len(node)))
        if len(repr(value)) > 2000:  # a long or deep value is not repeated hundreds of times
            copies = min(copies, 2)
        node[key:key] = [value] * max(copies, 1)  # type: ignore[index]
    elif roll < 0.92 and vocabulary.keys and isinstance(node, dict):
        node[rnd.choice(vocabulary.keys)] = vocabulary.value(rnd)
    elif roll < 0.96:
        node[key] = vocabulary.value(rnd)  # type: ignore[index]
    else:
        node[key] = rnd.choice((None, True, Num("0"), "", [], {}, Raw("NaN")))  # type: ignore[index]
    return tree


def hostile_text(rnd: random.Random, text: str) -> str:
    """The reply's text made hostile around the JSON: BOM, code fences, prose, whitespace, truncation."""
    roll = rnd.random()
    if roll < 0.15:
        return "\ufeff" + text
    if roll < 0.4:
        a, b = rnd.choice(FENCES)
        return rnd.choice(("", "", " ", "\n", "\u00a0")) + a + text + b + rnd.choice(("", "", "\n", "\u3000"))
    if roll < 0.55:
        return rnd.choice(PROSE) + text
    if roll < 0.7:
        return text + rnd.choice(TRAILING)
    if roll < 0.8:
        return rnd.choice(WHITESPACE) + text + rnd.choice(WHITESPACE)
    if roll < 0.88:
        return text[:rnd.randint(0, len(text))]
    if roll < 0.94:
        return text + rnd.choice(("", "\n", " ")) + text
    at = rnd.randint(0, len(text))
    return text[:at] + rnd.choice(ODD_TEXT + NEW_LETTERS) + text[at:]
