"""The extracting suite: fields of documents (content/pages/scoring-extracting.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...ids import id_problem
from ...parse.dates import read_iso_date
from ...parse.response import ANSWER, Outcome
from ...parse.text import is_blank
from ...score.fields import SCALAR_TYPES, TYPES, checked_value, compare
from ...score.verdicts import (
    CORRECT,
    FAILED_CALL,
    FALSE_NULL,
    INVENTED,
    NULL_OK,
    UNPARSEABLE,
    WRONG,
    Verdict,
    verdict_row,
)

KINDS = ("printed", "computed", "missing")
LOCALES = ("en-US", "en-GB", "es-MX", "ja-JP", "de-DE", "fr-FR")  # rule 3.1's table; rule 5: no other
_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_CURRENCY = re.compile(r"[A-Z]{3}")


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    type: str
    kind: str
    answer: object  # as written in the item file
    checked: object  # comparable form; None for a missing field
    places: int | None = None
    item_fields: dict | None = None


@dataclass(frozen=True)
class Spec:
    locale: str
    fields: tuple[Field, ...]


# ---------------------------------------------------------------- item validation

def _answer_problem(answer: object, ftype: str) -> str | None:
    if ftype in ("money", "number"):
        ok = isinstance(answer, str) and _DECIMAL.fullmatch(answer) is not None
        return None if ok else "must be a decimal string like \"1234.50\""
    if ftype == "count":
        return None if type(answer) is int else "must be a JSON integer"
    if ftype == "date":
        ok = isinstance(answer, str) and answer == answer.strip() and read_iso_date(answer) is not None
        return None if ok else "must be a date YYYY-MM-DD"
    if ftype == "currency":
        return None if isinstance(answer, str) and _CURRENCY.fullmatch(answer) else "must be an ISO 4217 code"
    if ftype in ("text", "identifier"):
        return None if isinstance(answer, str) and not is_blank(answer) else "must be a non-blank string"
    return f"unknown type {ftype!r}"


def _field_problems(f: object, i: int) -> list[str]:
    if not isinstance(f, dict):
        return [f"fields[{i}] must be an object"]
    where = f"field {f.get('name')!r}" if isinstance(f.get("name"), str) else f"fields[{i}]"
    problems = []
    if (p := id_problem(f.get("name"), "field name")) is not None:
        problems.append(p)
    ftype, kind, answer = f.get("type"), f.get("kind"), f.get("answer")
    if ftype not in TYPES:
        return problems + [f"{where}: type must be one of {', '.join(TYPES)}"]
    if kind not in KINDS:
        problems.append(f"{where}: kind must be one of {', '.join(KINDS)}")
    if (kind == "missing") != (answer is None):
        problems.append(f"{where}: the answer is null exactly when the kind is missing")
    if ftype == "number" and not (type(f.get("places")) is int and 0 <= f["places"] <= 10):
        problems.append(f"{where}: a number needs places (an integer from 0 to 10)")
    if ftype == "list":
        sub = f.get("item_fields")
        if not (isinstance(sub, dict) and sub and all(t in SCALAR_TYPES and t != "number" for t in sub.values())):
            return problems + [f"{where}: a list needs item_fields, an object of sub-field types"]
        if answer is not None:
            if not isinstance(answer, list) or not all(isinstance(e, dict) and set(e) == set(sub) for e in answer):
                problems.append(f"{where}: answer must be an array of objects with keys {sorted(sub)}")
            else:
                problems += [f"{where}[{j}].{k}: {p}" for j, e in enumerate(answer) for k, t in sorted(sub.items())
                             if (p := _answer_problem(e[k], t)) is not None]
    elif answer is not None and (p := _answer_problem(answer, ftype)) is not None:
        problems.append(f"{where}: answer {p}")
    return problems


def parse_spec(raw: dict) -> tuple[Spec | None, list[str]]:
    locale = raw["document"].get("locale")
    if not isinstance(locale, str):
        return None, ["document.locale is required (the locale numbers and dates are read in)"]
    problems = []
    if locale not in LOCALES:
        problems.append(f"unknown locale {locale!r}: one of {', '.join(LOCALES)}")
    fields = raw.get("fields")
    if not isinstance(fields, list) or not fields:
        return None, problems + ["fields must be a non-empty array"]
    for i, f in enumerate(fields):
        problems += _field_problems(f, i)
    names = [f.get("name") for f in fields if isinstance(f, dict) and isinstance(f.get("name"), str)]
    if len(set(names)) != len(names):
        problems.append("field names repeat")
    if problems:
        return None, problems
    return Spec(locale, tuple(
        Field(f["name"], f["type"], f["kind"], f.get("answer"),
              None if f.get("answer") is None else checked_value(f["answer"], f["type"], f.get("places"), f.get("item_fields")),
              f.get("places"), f.get("item_fields"))
        for f in fields)), []


# ---------------------------------------------------------------- scoring

def _is_null(value: object) -> bool:
    return value is None or (isinstance(value, str) and is_blank(value))


# (verdict, points, reason, order) for the outcomes that need no comparison
_NULL_OK = (NULL_OK, 1, "", "")
_INVENTED = (INVENTED, 0, "value for a field the document does not show", "")
_FALSE_NULL = (FALSE_NULL, 0, "null for a field the document shows", "")


def score_field(f: Field, value: object, locale: str) -> tuple[str, int, str, str]:
    """(verdict, points, reason, order) for one field whose answer object was read."""
    if f.kind == "missing":
        return _NULL_OK if _is_null(value) else _INVENTED
    if _is_null(value):
        return _FALSE_NULL
    reason, order = compare(value, f.checked, f.type, locale, f.places, f.item_fields)
    return (CORRECT, 1, "", order) if reason is None else (WRONG, 0, reason, "")


def score(item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
    spec: Spec = item.spec
    head = (run, item.id, repeat)
    if outcome.status != ANSWER:
        verdict = FAILED_CALL if outcome.status == FAILED_CALL else UNPARSEABLE
        return [verdict_row(run, item.id, repeat, f.name, f.kind, verdict, outcome.reason) for f in spec.fields]
    assert outcome.answer is not None  # the status is ANSWER
    get, locale, new = outcome.answer.get, spec.locale, tuple.__new__
    return [new(Verdict, head + (f.name, f.kind) + score_field(f, get(f.name), locale) + _NO_COUNTS) for f in spec.fields]


_NO_COUNTS = ((),)  # the rows carry no counts


# ---------------------------------------------------------------- per-item figures and metrics

FIGURES = ("printed_n", "printed_correct", "computed_n", "computed_correct", "missing_n", "null_ok",
           "invented", "present_n", "false_null", "failed", "unparseable")


def figures(verdicts: Sequence[Verdict]) -> tuple[int, ...]:
    pn = pc = cn = cc = mn = nok = inv = fnull = 0
    for v in verdicts:
        if v.kind == "printed":
            pn += 1
            pc += v.verdict == CORRECT
        elif v.kind == "computed":
            cn += 1
            cc += v.verdict == CORRECT
        else:
            mn += 1
            nok += v.verdict == NULL_OK
            inv += v.verdict == INVENTED
        fnull += v.verdict == FALSE_NULL
    first = verdicts[0].verdict if verdicts else ""
    return (pn, pc, cn, cc, mn, nok, inv, pn + cn, fnull, int(first == FAILED_CALL), int(first == UNPARSEABLE))


# ---------------------------------------------------------------- checked answers, for item pages

ANSWER_CAPTION = "Fields requested and their checked answers (null: the document does not show it)"
ANSWER_COLUMNS = ("Field", "Type", "Kind", "Checked answer")


def answer_rows(raw: dict) -> list[tuple[str, ...]]:
    """One row a field; a field's `provenance` (where its checked answer comes from: a labeller rule, a
    published label, an adjudication), when the item gives one, is shown after its kind; a generated
    document's fields (stratum source = generated) show `generated`."""
    generated = raw.get("strata", {}).get("source") == "generated"
    return [(f["name"], f["type"], f["kind"] + (f" ({f['provenance']})" if isinstance(f.get("provenance"), str)
                                                 else " (generated)" if generated else ""),
             json.dumps(f.get("answer"), ensure_ascii=False)) for f in raw["fields"]]
