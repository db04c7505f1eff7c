"""RA-Bench items: the label's shape (content/pages/scoring-ra-bench.md, section 1), checked on load."""

from __future__ import annotations

import re

from ...iso_date import is_iso_date
from .rules import EDITABLE, FIELDS, parse_decimal

PROVENANCE = ("intact", "stripped", "none")
TRANSFORMS = ("re_encoded", "cropped", "re_shot")
_MONEY = re.compile(r"-?[0-9]+\.[0-9]{2}")


def _field_problem(name: str, value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        return f"label.fields.{name} must be a non-empty string or null"
    if name in ("subtotal", "tax_total", "total") and not _MONEY.fullmatch(value):
        return f"label.fields.{name} must be a decimal string with two decimals"
    if name == "date" and not is_iso_date(value):
        return "label.fields.date must be YYYY-MM-DD"
    if name == "currency" and not re.fullmatch("[A-Z]{3}", value):
        return "label.fields.currency must be an ISO 4217 code"
    return None


def label_problems(label: object) -> list[str]:
    if not isinstance(label, dict):
        return ["label must be an object"]
    problems = []
    fields = label.get("fields")
    if not isinstance(fields, dict):
        problems.append("label.fields must be an object")
    else:
        problems += [f"label.fields.{k} is not a known field" for k in fields if k not in FIELDS]
        problems += [p for k, v in fields.items() if k in FIELDS and (p := _field_problem(k, v))]
    lines = label.get("line_items")
    if lines is not None and not (isinstance(lines, list) and all(
            isinstance(x, dict) and isinstance(x.get("description"), str) and isinstance(x.get("total"), str)
            and parse_decimal(x["total"]) is not None for x in lines)):
        problems.append("label.line_items must be an array of {description, total (decimal string)}")
    for key in ("adds_up", "fake", "hard_negative"):
        if not isinstance(label.get(key), bool):
            problems.append(f"label.{key} must be true or false")
    if problems:
        return problems
    fake = label["fake"]
    if fake != isinstance(label.get("fake_class"), str):
        problems.append("label.fake_class must be a string for a fake and null for a genuine receipt")
    edited = label.get("edited_field")
    if edited is not None and (not fake or edited not in EDITABLE):
        problems.append(f"label.edited_field must be null or, for a fake, one of {', '.join(EDITABLE)}")
    if label.get("provenance") not in PROVENANCE:
        problems.append(f"label.provenance must be one of {', '.join(PROVENANCE)}")
    if fake and label["hard_negative"]:
        problems.append("a hard negative is genuine")
    lineage = label.get("lineage")
    if lineage is not None:
        if not (isinstance(lineage, dict) and isinstance(lineage.get("original"), str)
                and lineage.get("transform") in TRANSFORMS):
            problems.append(f"label.lineage must be null or {{original, transform: {' | '.join(TRANSFORMS)}}}")
        elif fake or label["hard_negative"]:
            problems.append("a duplicate transform has fake false and hard_negative false")
    return problems


def parse_label(raw: dict) -> tuple[dict | None, list[str]]:
    problems = label_problems(raw.get("label"))
    return (None, problems) if problems else (raw["label"], [])


def answer_rows(raw: dict) -> list[tuple[str, ...]]:
    label = raw["label"]
    rows: list[tuple[str, ...]] = [(f"field:{k}", "not shown (null)" if v is None else v) for k, v in label["fields"].items()]
    rows += [(f"line item {k + 1}", f"{x['description']}: {x['total']}") for k, x in enumerate(label.get("line_items") or [])]
    rows += [("amounts add up", "yes" if label["adds_up"] else "no"),
             ("authenticity", f"fake ({label['fake_class']})" if label["fake"] else "genuine"),
             ("edited field", label["edited_field"] or "none"), ("provenance", label["provenance"])]
    if label["lineage"]:
        rows.append(("duplicate of", f"{label['lineage']['original']} ({label['lineage']['transform']})"))
    if label["hard_negative"]:
        rows.append(("hard negative", "yes"))
    return rows
