"""RA-Bench's scorer A: reading and comparing values (content/pages/scoring-ra-bench.md, section 2) and
reasons (rules 3.5, 3.6); rows.py writes the verdict rows."""

from __future__ import annotations

import functools
import re
from decimal import Context, Decimal, InvalidOperation, localcontext

from rapidfuzz.distance import Levenshtein

from ...parse.text import WHITESPACE, is_letter_or_number14, is_nonspacing_mark14, lower14, nfkd14

FIELDS = ("merchant", "date", "subtotal", "tax_total", "total", "currency", "receipt_number")
AMOUNTS = ("subtotal", "tax_total", "total")
EDITABLE = ("merchant", "date", "subtotal", "tax_total", "total", "line_items")
CENT = Decimal("0.01")
PROOF_KINDS = ("ai_generator_tag", "ai_source_type", "generator_tag", "pdf_modified", "thumbnail_mismatch",
               "capture_before_purchase", "totals_add_up", "duplicate_match")
_PROOF = frozenset(PROOF_KINDS)
CHECK_KINDS = {"totals_add_up": ("total", "subtotal"), "tax_rate": ("tax_total",), "receipt_age": ("date",),
               "currency": ()}
KEYWORDS = {"total": ("total", "amount due"), "subtotal": ("subtotal",), "tax_total": ("tax", "vat", "gst"),
            "date": ("date",), "merchant": ("merchant", "store", "vendor", "logo", "name"),
            "line_items": ("item", "line", "quantity", "price")}
_AMOUNT = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_AMOUNT_DROP = dict.fromkeys(map(ord, ",$€£" + WHITESPACE))


# ---------------------------------------------------------------- reading values (rule 2)

def amount(value: object) -> Decimal | None:
    if isinstance(value, Decimal):
        return value
    if isinstance(value, str):
        text = value.translate(_AMOUNT_DROP)
        if _AMOUNT.fullmatch(text):
            return Decimal(text)
    return None


def within_cent(value: Decimal, label: str) -> bool:
    """|value - label| <= 0.01, exactly: the bounds are the label's, computed without rounding (a
    label has a few digits), and comparing two decimals never rounds."""
    low, high = _cent_bounds(label)
    return low <= value <= high


@functools.lru_cache(maxsize=1 << 16)
def _cent_bounds(label: str) -> tuple[Decimal, Decimal]:
    want = Decimal(label)
    with localcontext(Context(prec=len(want.as_tuple().digits) + 10, Emin=-999_999, Emax=999_999)):
        return want - CENT, want + CENT


def canonical(value: Decimal) -> str:
    if value == 0:
        return "0"
    text = f"{value:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def normalise(text: str) -> str:
    """Rule 2's name normalisation; short texts (names, descriptions) are remembered."""
    return _normalise_short(text) if len(text) <= SHORT else _normalise(text)


SHORT = 200


@functools.lru_cache(maxsize=1 << 16)
def _normalise_short(text: str) -> str:
    return _normalise(text)


def _normalise(text: str) -> str:
    """Rule 2's name normalisation, every step of Unicode 14.0.0 (the core's pinned version)."""
    text = "".join(c for c in nfkd14(text) if not is_nonspacing_mark14(c))
    text = lower14(text).replace("&", " and ")
    text = "".join(c for c in text if c in WHITESPACE or is_letter_or_number14(c))
    return " ".join(t for t in re.split("[" + re.escape(WHITESPACE) + "]+", text) if t)


def alike(a: str, b: str, num: int, den: int) -> bool:
    """similarity(a, b) >= num/den, exactly: den x (m - d) >= num x m."""
    m = max(len(a), len(b))
    return m == 0 or den * (m - Levenshtein.distance(a, b)) >= num * m


def alnum(text: str) -> str:
    return lower14("".join(c for c in text if is_letter_or_number14(c)))


def field_matches(name: str, got: object, want: str) -> bool:
    if name == "merchant":
        return isinstance(got, str) and alike(normalise(got), normalise(want), 9, 10)
    if name in ("date", "currency"):
        return isinstance(got, str) and got == want
    if name in AMOUNTS:
        value = amount(got)
        return value is not None and within_cent(value, want)
    return isinstance(got, str) and alnum(got) == alnum(want)


# ---------------------------------------------------------------- line items (rule 3.2)

def max_matching(edges: list[list[int]], n_right: int) -> int:
    """Size of a maximum bipartite matching (augmenting paths); edges[i] = right nodes of left node i."""
    match_right = [-1] * n_right

    def augment(i: int, seen: list[bool]) -> bool:
        for j in edges[i]:
            if not seen[j]:
                seen[j] = True
                if match_right[j] == -1 or augment(match_right[j], seen):
                    match_right[j] = i
                    return True
        return False

    return sum(augment(i, [False] * n_right) for i in range(len(edges)))


def line_counts(labelled: list[dict], extracted: object) -> tuple[int, int, int]:
    got = extracted if isinstance(extracted, list) else []
    usable: list[tuple[str, Decimal] | None] = []
    for e in got:
        total = amount(e.get("total")) if isinstance(e, dict) else None
        ok = isinstance(e, dict) and isinstance(e.get("description"), str) and total is not None
        usable.append((normalise(e["description"]), total) if ok and total is not None else None)
    tp = matched_lines(tuple((lab["description"], lab["total"]) for lab in labelled), tuple(usable))
    return tp, len(got) - tp, len(labelled) - tp


@functools.lru_cache(maxsize=1 << 14)
def matched_lines(labelled: tuple[tuple[str, str], ...], usable: tuple[tuple[str, Decimal] | None, ...]) -> int:
    """How many labelled lines (description, total) pair one to one with usable extracted lines
    (normalised description, amount) at description similarity >= 0.8 and totals within 0.01.
    Remembered: the same lines are often extracted again (an amount is compared by its value only)."""
    edges = [[j for j, u in enumerate(usable)
              if u is not None and within_cent(u[1], total)
              and alike(want, u[0], 4, 5)] for description, total in labelled for want in (normalise(description),)]
    return max_matching(edges, len(usable))


# ---------------------------------------------------------------- reasons (rules 3.5, 3.6)

def read_reason(r: object) -> tuple[str, str | None, str] | None:
    """One element of `reasons` as (text, kind or None, detail); None for an element that is neither a
    string nor an object."""
    if isinstance(r, str):
        return r, None, ""
    if isinstance(r, dict):
        text, kind, detail = r.get("text"), r.get("kind"), r.get("detail")
        return (text if isinstance(text, str) else "", kind if isinstance(kind, str) else None,
                detail if isinstance(detail, str) else "")
    return None


def _whole_word(text: str, word: str) -> bool:
    start = text.find(word)
    while start != -1:
        end = start + len(word)
        before = text[start - 1] if start else ""
        after = text[end] if end < len(text) else ""
        if not any(c and is_letter_or_number14(c) for c in (before, after)):
            return True
        start = text.find(word, start + 1)
    return False


def points_at(reason: tuple[str, str | None, str] | None, field: str) -> bool:
    if reason is None:
        return False
    text, kind, _detail = reason
    tag = "@" + field
    start = text.find(tag)
    while start != -1:
        end = start + len(tag)
        if end == len(text) or not (text[end] == "_" or is_letter_or_number14(text[end])):
            return True
        start = text.find(tag, start + 1)
    if kind is not None:
        return field in CHECK_KINDS.get(kind, ())
    low = lower14(text)
    return any(_whole_word(low, w) for w in KEYWORDS[field])


def has_proof(reasons: list) -> bool:
    """Rule 3.6: some reason has a proof kind and a detail that is not blank (for `totals_add_up`, with
    an ASCII digit). Only an object has a kind."""
    for r in reasons:
        if isinstance(r, dict):
            kind = r.get("kind")
            if isinstance(kind, str) and kind in _PROOF:
                detail = r.get("detail")
                detail = detail.strip(WHITESPACE) if isinstance(detail, str) else ""
                if detail and (kind != "totals_add_up" or any("0" <= c <= "9" for c in detail)):
                    return True
    return False


def parse_decimal(text: object) -> Decimal | None:
    try:
        return Decimal(text) if isinstance(text, str) else None  # type: ignore[arg-type]
    except InvalidOperation:
        return None
