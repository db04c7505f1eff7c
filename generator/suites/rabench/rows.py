"""RA-Bench's scorer A: the verdict rows of one response (content/pages/scoring-ra-bench.md, section 3).

What depends only on the item (its covered fields, normalised merchant, labelled line items, units)
is read once per label into a `Plan`; a plan also remembers what each text answer of a field and each
list of extracted lines scored to for its item, so that scoring a response is mostly lookups. Every
comparison is still the one of rule 2 (rules.py): a remembered answer is a pure function of the item
and that answer.
"""

from __future__ import annotations

from decimal import Decimal

from ...parse.response import ANSWER, FAILED, Outcome
from ...parse.text import WHITESPACE
from ...score.verdicts import POINTS, Verdict
from .rules import (
    AMOUNTS,
    FIELDS,
    SHORT,
    alike,
    alnum,
    amount,
    canonical,
    has_proof,
    line_counts,
    max_matching,
    normalise,
    points_at,
    read_reason,
    within_cent,
)

# What the plans remember is bounded as a whole: each remembered answer costs 1 plus 1 per 256 characters
# of its text, texts longer than SHORT characters (and line lists longer than _LONG) are not remembered,
# a plan itself costs 4, and every plan is dropped when the costs reach _BUDGET: at most about 300 MB;
# measured, 56 MB for the bench's 150,000 responses on 10,000 receipts (a cost of 211,020: nothing dropped).
_BUDGET = 1 << 19
_LONG = 64
_used = 0
_HALF = Decimal("0.5")
_MERCHANT, _EXACT, _AMOUNT, _ALNUM = range(4)
_KINDS = {"merchant": _MERCHANT, "date": _EXACT, "currency": _EXACT, "receipt_number": _ALNUM,
          **dict.fromkeys(AMOUNTS, _AMOUNT)}
_NO_COUNTS = ((),)  # the rows carry no counts (the line items' counts are in their `order`)
_new = tuple.__new__  # Verdict(...) without the generated __new__'s call: the same tuple


_Field = tuple[str, str, "str | None", int, str, dict]


class Plan:
    """What scoring a response needs from one item's label."""

    __slots__ = ("label", "transform", "fields", "lines", "lines_raw", "lines_none", "lines_memo", "labelled",
                 "pairs_memo", "check_failed", "check_passed", "fake", "edited", "dup_unit", "dup")

    def __init__(self, label: dict) -> None:
        self.label = label
        self.transform = label["lineage"] is not None
        # (name, unit, label value, kind, the label's comparison form, memo: text or null answer -> row)
        self.fields: tuple[_Field, ...] = tuple(
            (name, f"field:{name}", want, _KINDS[name], _compared(name, want), {})
            for name in FIELDS if name in label["fields"] for want in (label["fields"][name],))
        lines = label.get("line_items")
        self.lines = None if lines is None else len(lines)
        self.lines_raw = lines
        self.lines_none = None if lines is None else f"0 0 {len(lines)}"
        self.lines_memo: dict[tuple, tuple[int, int, int]] = {}
        # the labelled lines as (normalised description, total)
        self.labelled = () if lines is None else tuple((normalise(x["description"]), x["total"]) for x in lines)
        self.pairs_memo: dict[tuple[str, str], list[int]] = {}
        positive = not label["adds_up"]  # rule 3.3: a document whose amounts don't add up
        self.check_failed = _tail("check:totals_add_up", "check", "found" if positive else "false_flag")
        self.check_passed = _tail("check:totals_add_up", "check", "missed" if positive else "cleared")
        self.fake = label["fake"]
        self.edited = label["edited_field"] if label["fake"] else None
        self.dup_unit = None if label["fake"] else (
            "duplicate:hard_negative" if label["hard_negative"] else "duplicate:genuine")
        # rule 3.7's row when not seen before, and when seen
        self.dup = None if self.dup_unit is None else (
            _tail(self.dup_unit, "duplicate", "no_match"), _tail(self.dup_unit, "duplicate", "false_match"))


def _compared(name: str, want: str | None) -> str:
    """The label value in the form a text answer is compared in (normalised name, letters and digits)."""
    if want is None:
        return ""  # not compared: the label is null
    return normalise(want) if name == "merchant" else alnum(want) if name == "receipt_number" else want


_plans: dict[int, Plan] = {}


def plan_of(label: dict) -> Plan:
    plan = _plans.get(id(label))
    if plan is None or plan.label is not label:
        _spend(4)
        plan = _plans[id(label)] = Plan(label)
    return plan


def _spend(cost: int) -> None:
    """Count what is about to be remembered; past the budget, every plan (and all it remembers) is dropped."""
    global _used
    _used += cost
    if _used > _BUDGET:
        _plans.clear()
        _used = cost


def _text_matches(kind: int, got: str, want: str, compared: str) -> bool:
    """field_matches (rules.py) for a text answer, given the label's comparison form."""
    if got == want:  # equal texts match under every rule (similarity 1, same amount, same letters)
        return True
    if kind == _MERCHANT:
        return alike(normalise(got), compared, 9, 10)
    if kind == _AMOUNT:
        value = amount(got)
        return value is not None and within_cent(value, want)
    if kind == _ALNUM:
        return alnum(got) == compared
    return False  # date, currency: exact equality only


def _matches(kind: int, got: object, want: str, compared: str) -> bool:
    if isinstance(got, str):
        return _text_matches(kind, got, want, compared)
    if kind == _AMOUNT and isinstance(got, Decimal):  # a JSON number
        return within_cent(got, want)
    return False  # not a string: no name, date, currency or receipt number; not an amount


def field_correct(plan: Plan, name: str, got: object) -> bool:
    """Whether a non-null answer matches the label's field `name` (not null), as `score` decides it
    (and remembers it)."""
    unit = f"field:{name}"
    return any(t[0] == unit and t[2] == "correct" for t in _field_tails(plan, {name: got}))


def total_order(got: object) -> str:
    """The `field:total` row's order: the canonical decimal of an amount, else ''."""
    value = amount(got)
    return "" if value is None else canonical(value)


def lines_of(plan: Plan, extracted: object) -> tuple[int, int, int]:
    """line_counts (rules.py), remembered per item for lines of text descriptions and text totals."""
    key: list | None = []
    size = 0
    if isinstance(extracted, list) and len(extracted) <= _LONG:
        for e in extracted:
            if e.__class__ is dict:
                d, t = e.get("description"), e.get("total")
                if d.__class__ is str and t.__class__ is str and len(d) + len(t) <= SHORT:
                    key.append((d, t))  # type: ignore[union-attr]
                    size += len(d) + len(t)  # type: ignore[arg-type]
                    continue
            key = None
            break
    else:
        key = None if isinstance(extracted, list) else []
    if key is None:
        return line_counts(plan.lines_raw, extracted)  # type: ignore[arg-type]
    memo = plan.lines_memo
    k = tuple(key)
    hit = memo.get(k)
    if hit is None:
        tp = max_matching([_pairs_with(plan, d, t) for d, t in k], plan.lines)  # type: ignore[arg-type]
        _spend(1 + size // 256)
        hit = memo[k] = (tp, len(k) - tp, plan.lines - tp)  # type: ignore[operator]
    return hit


def _pairs_with(plan: Plan, description: str, total: str) -> list[int]:
    """The labelled lines an extracted line (text description and total) may pair with (rule 3.2),
    remembered per item. A maximum matching from the extracted side has the size of one from the
    labelled side."""
    memo = plan.pairs_memo
    hit = memo.get((description, total))
    if hit is None:
        _spend(1 + (len(description) + len(total)) // 256)
        value = amount(total)
        got = normalise(description)
        hit = memo[(description, total)] = [] if value is None else [
            i for i, (want, label_total) in enumerate(plan.labelled)
            if within_cent(value, label_total) and alike(want, got, 4, 5)]
    return hit


def _risk(answer: dict) -> tuple[bool, str] | None:
    """(flagged, canonical text) of the answer's risk, None without a risk (rule 2)."""
    r = answer.get("risk")
    if not isinstance(r, Decimal) or not 0 <= r <= 1:
        return None
    return r >= _HALF, canonical(r)


def score(item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
    plan = plan_of(item.spec)
    item_id = item.id
    if outcome.status == ANSWER and outcome.answer is not None:
        return _answer_rows(plan, outcome.answer, run, item_id, repeat)
    bad = FAILED if outcome.status == FAILED else "unparseable"
    return _bad_rows(plan, bad, outcome.reason, run, item_id, repeat)


def _bad_rows(plan: Plan, bad: str, reason: str, run: str, item_id: str, repeat: int) -> list[Verdict]:
    """The rows of a failed call or an unparseable response: every task failed, no risk, no reasons."""
    if plan.transform:
        return [_new(Verdict, (run, item_id, repeat, "duplicate:transform", "duplicate", "missed", 0, reason, "", ()))]
    points = POINTS.get(bad, 0)
    rows = [_new(Verdict, (run, item_id, repeat, unit, "field", bad, points, reason, "", ()))
            for _name, unit, *_rest in plan.fields]
    if plan.lines is not None:
        rows.append(_new(Verdict, (run, item_id, repeat, "line_items", "line_items", bad, points, reason,
                                   plan.lines_none, ())))
    rows.append(_new(Verdict, (run, item_id, repeat, "check:totals_add_up", "check", bad, points, reason, "", ())))
    rows.append(_new(Verdict, (run, item_id, repeat, "decision", "decision", "missed" if plan.fake else "cleared",
                               0, reason, "", ())))
    if plan.edited is not None:
        rows.append(_new(Verdict, (run, item_id, repeat, "edited_field", "evidence", "not_flagged", 0, reason, "", ())))
    rows.append(_new(Verdict, (run, item_id, repeat, "proof", "evidence", "no_proof", 0, reason, "", ())))
    if plan.dup_unit is not None:
        rows.append(_new(Verdict, (run, item_id, repeat, plan.dup_unit, "duplicate", "no_match", 0, reason, "", ())))
    return rows


def _tail(unit: str, kind: str, verdict: str, order: str = "") -> tuple:
    """A row after its head (run, item, repeat): unit, kind, verdict, points, reason, order."""
    return unit, kind, verdict, POINTS.get(verdict, 0), "", order


_NOT_RUN = _tail("check:totals_add_up", "check", "not_run")
_EDITED = {v: _tail("edited_field", "evidence", v) for v in ("not_flagged", "named", "not_named")}
_PROOF_ROW, _NO_PROOF_ROW = _tail("proof", "evidence", "proof"), _tail("proof", "evidence", "no_proof")


def _field_tail(name: str, unit: str, want: str | None, kind: int, compared: str, got: object) -> tuple:
    """Rule 3.1: the row of one covered field."""
    null = got is None or (isinstance(got, str) and got.strip(WHITESPACE) == "")
    if want is None:
        verdict = "null_ok" if null else "invented"
    elif null:
        verdict = "false_null"
    else:
        verdict = "correct" if _matches(kind, got, want, compared) else "wrong"
    return _tail(unit, "field", verdict, "" if name != "total" or null else total_order(got))


def _field_tails(plan: Plan, fields: dict) -> list[tuple]:
    """The rows of the covered fields, each remembered per item for a text or absent/null answer (a
    pure function of the label and that answer)."""
    tails = []
    for name, unit, want, kind, compared, memo in plan.fields:
        got = fields.get(name)
        if got is None or (got.__class__ is str and len(got) <= SHORT):
            tail = memo.get(got)
            if tail is None:
                _spend(1)
                tail = memo[got] = _field_tail(name, unit, want, kind, compared, got)
        else:
            tail = _field_tail(name, unit, want, kind, compared, got)
        tails.append(tail)
    return tails


def _answer_rows(plan: Plan, answer: dict, run: str, item_id: str, repeat: int) -> list[Verdict]:
    head = (run, item_id, repeat)
    dup = answer.get("duplicate")
    seen = isinstance(dup, dict) and dup.get("seen_before") is True
    if plan.transform:
        verdict = ("exact_match" if dup.get("match") == "exact" else "match") if seen else "missed"  # type: ignore[union-attr]
        return [_new(Verdict, (*head, "duplicate:transform", "duplicate", verdict, 0, "", "", ()))]
    tails = _field_tails(plan, answer["fields"])
    if plan.lines is not None:
        tp, fp, fn = lines_of(plan, answer.get("line_items"))
        tails.append(("line_items", "line_items", "counted", 0, "", f"{tp} {fp} {fn}"))
    checks = answer.get("checks")
    c = checks.get("totals_add_up") if isinstance(checks, dict) else None
    tails.append(plan.check_failed if c == "failed" else plan.check_passed if c == "passed" else _NOT_RUN)
    risk = _risk(answer)
    flagged = risk is not None and risk[0]
    verdict = ("caught" if flagged else "missed") if plan.fake else ("false_flag" if flagged else "cleared")
    tails.append(("decision", "decision", verdict, 0, "", "" if risk is None else risk[1]))
    raw = answer.get("reasons")
    reasons = raw if isinstance(raw, list) else []
    if plan.edited is not None:
        if not flagged:
            verdict = "not_flagged"
        else:
            named = any(points_at(read_reason(r), plan.edited) for r in reasons[:3])
            verdict = "named" if named else "not_named"
        tails.append(_EDITED[verdict])
    tails.append(_PROOF_ROW if has_proof(reasons) else _NO_PROOF_ROW)
    if plan.dup is not None:
        tails.append(plan.dup[seen])
    return [_new(Verdict, head + tail + _NO_COUNTS) for tail in tails]
