"""Text and identifier normalisation (rules 3.3 and 3.4 of the scoring page)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from .unicode14 import CASE_IGNORABLE, CASED, LETTER_NUMBER, NONSPACING_MARK, UNASSIGNED

# The Unicode White_Space property, listed so that both scorers use exactly the same set.
WHITESPACE = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_RUNS = re.compile(f"[{WHITESPACE}]+")

# Rule 3.3: NFC and case mapping are Unicode 14.0.0's, whatever this Python's version. A character
# 14.0.0 does not assign is kept as it is and cuts the text into pieces, each mapped on its own
# (as 14.0.0 maps it: no mapping, no decomposition, combining class 0, neither cased nor
# case-ignorable). Pythons of Unicode 14 or later map assigned characters as 14.0.0 does.
if unicodedata.unidata_version < "14.0.0":  # plain string order is right for 1x.y.z versions
    raise ImportError(f"scorer A needs Unicode 14.0.0 or later, this Python has {unicodedata.unidata_version}")


def _pairs(ranges: str) -> list[tuple[int, int]]:
    return [(int(r.split("-")[0], 16), int(r.split("-")[-1], 16)) for r in ranges.split(",")]


def _class(ranges: str, lo: int = 0, hi: int = 0x10FFFF) -> str:
    """A regex class of the characters in the hex ranges that lie between lo and hi."""
    return "[" + "".join(f"\\U{max(a, lo):08x}-\\U{min(b, hi):08x}" for a, b in _pairs(ranges) if a <= hi and b >= lo) + "]"


# The regex engine matches a class of BMP ranges in constant time, one with astral ranges in time
# linear in its ranges: text beyond the BMP is looked up in a table instead.
_UNASSIGNED_BMP = re.compile(f"({_class(UNASSIGNED, 0, 0xFFFF)}+)")
_FLAGS = np.zeros(0x110000, dtype=np.int8)
for _a, _b in _pairs(UNASSIGNED):
    _FLAGS[_a:_b + 1] = 1
_IGNORABLE = re.compile(_class(CASE_IGNORABLE))
_CASED = re.compile(_class(CASED))


def _split(value: str) -> list[str]:
    """[piece, unassigned run, piece, ..., piece]: the pieces hold assigned characters only."""
    if not value or max(value) <= "\uffff":
        return _UNASSIGNED_BMP.split(value)
    flags = _FLAGS[np.frombuffer(value.encode("utf-32-le", "surrogatepass"), dtype="<u4")]
    edges = np.flatnonzero(np.diff(flags, prepend=0, append=0)).tolist()  # run starts and ends, alternating
    parts, prev = [], 0
    for a, b in zip(edges[0::2], edges[1::2]):
        parts += [value[prev:a], value[a:b]]
        prev = b
    parts.append(value[prev:])
    return parts


def unicode14(value: str, fn: Callable[[str], str]) -> str:
    """`fn` (a str mapping) applied to each piece between characters Unicode 14.0.0 does not assign."""
    if value.isascii():
        return fn(value)
    parts = _split(value)  # piece, unassigned run, piece, ...
    if len(parts) == 1:
        return _piece(value, fn)
    pieces = parts[0::2]
    if not any("\x00" in p for p in pieces):
        # U+0000 stands in for each unassigned run while the pieces are mapped in one call: a starter
        # that composes with nothing, has no case, is not case-ignorable, and maps to itself.
        mapped = _piece("\x00".join(pieces), fn).split("\x00")
        if len(mapped) == len(pieces):
            parts[0::2] = mapped
            return "".join(parts)
    return "".join(_piece(p, fn) if k % 2 == 0 else p for k, p in enumerate(parts))


def _piece(piece: str, fn: Callable[[str], str]) -> str:
    out = fn(piece)
    if out.isascii() or len(_split(out)) == 1:
        return out
    # A newer Python maps some character to one 14.0.0 does not assign: that character is kept.
    return "".join(m if len(_split(m := fn(c))) == 1 else c for c in piece)


def _nfc(piece: str) -> str:
    return unicodedata.normalize("NFC", piece)


def final_sigma(text: str) -> str:
    """Each capital sigma to its lower case under Unicode 14.0.0's Final_Sigma condition: final
    sigma when, past case-ignorable characters, a cased one comes before it and none after it."""
    if "\u03a3" not in text:
        return text
    chars = list(text)
    for i, ch in enumerate(text):
        if ch != "\u03a3":
            continue
        j = i - 1
        while j >= 0 and _IGNORABLE.match(text[j]):
            j -= 1
        k = i + 1
        while k < len(text) and _IGNORABLE.match(text[k]):
            k += 1
        final = j >= 0 and _CASED.match(text[j]) and not (k < len(text) and _CASED.match(text[k]))
        chars[i] = "\u03c2" if final else "\u03c3"
    return "".join(chars)


@lru_cache(maxsize=65536)
def normalise_text(value: str) -> str:
    """NFC, lower case (both of Unicode 14.0.0), whitespace runs to one space, trimmed."""
    return _RUNS.sub(" ", unicode14(final_sigma(unicode14(value, _nfc)), str.lower)).strip(" ")


def upper14(value: str) -> str:
    """Upper case of Unicode 14.0.0 (currency codes, rule 3.6)."""
    return unicode14(value, str.upper)


def is_blank(value: str) -> bool:
    return value.strip(WHITESPACE) == ""


# General categories of Unicode 14.0.0 that suites' text rules name (RA-Bench: letters, numbers,
# nonspacing marks), looked up in a table of every code point: this Python's own categories may be
# of a later version. Bit 1: a letter or number (L*, N*); bit 2: a nonspacing mark (Mn).
_CATEGORY = bytearray(0x110000)
for _a, _b in _pairs(LETTER_NUMBER):
    _CATEGORY[_a:_b + 1] = b"\x01" * (_b + 1 - _a)
for _a, _b in _pairs(NONSPACING_MARK):
    _CATEGORY[_a:_b + 1] = b"\x02" * (_b + 1 - _a)


def is_letter_or_number14(ch: str) -> bool:
    """Whether a character's general category is L* or N* in Unicode 14.0.0."""
    return _CATEGORY[ord(ch)] == 1


def is_nonspacing_mark14(ch: str) -> bool:
    """Whether a character's general category is Mn in Unicode 14.0.0."""
    return _CATEGORY[ord(ch)] == 2


def lower14(value: str) -> str:
    """Lower case of Unicode 14.0.0 (default full case mapping, Final_Sigma included)."""
    return unicode14(final_sigma(value), str.lower)


def _nfkd(piece: str) -> str:
    return unicodedata.normalize("NFKD", piece)


def nfkd14(value: str) -> str:
    """NFKD of Unicode 14.0.0."""
    return unicode14(value, _nfkd)
