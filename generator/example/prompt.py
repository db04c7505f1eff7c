"""The chat messages sent to a model for one item of the extracting suite, and the answer format
they ask for (`to_json` writes an answer object in it).

The prompt is two templates: a system message with the task and the output rules, and a user
message with the requested fields and the document. `prompt_sha256()` hashes the template text
(not any item's content), so every run that used the same wording records the same hash in its
run.json.
"""

from __future__ import annotations

import hashlib
import json
import re
from decimal import Decimal

PROMPT_TEMPLATE_VERSION = "1"
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")

SYSTEM_TEMPLATE = """\
You extract fields from a document.

Return exactly one JSON object and nothing else: no prose, no explanation, no Markdown code fence.
The object has one key for every requested field, spelled exactly as requested, and no other keys.

Rules for the values:
- If the document does not show a field, its value is null. Never guess or invent a value.
- Money amounts, counts and other numbers are JSON numbers (for example 1234.56), not strings,
  whatever the number format printed in the document.
- Dates are strings in the form YYYY-MM-DD. A date printed without a year is in the year of the
  reference date, {reference_date}.
- Currency codes are ISO 4217 codes such as "EUR".
- Identifiers are copied exactly as printed, with their hyphens and leading zeros.
- A list of line items is a JSON array of objects {{"description": text, "amount": number}}, one
  object per printed line, in the order printed.
- Computed fields are worked out from what the document shows."""

USER_TEMPLATE = """\
Requested fields (name: type):
{field_list}

Document:
<<<
{document}
>>>"""


def prompt_sha256() -> str:
    """Sha256 hex digest of the template text (both templates, in order)."""
    text = SYSTEM_TEMPLATE + "\n\x1e\n" + USER_TEMPLATE
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _field_line(field: dict) -> str:
    if field["type"] == "list":
        subs = ", ".join(f"{name}: {kind}" for name, kind in field.get("item_fields", {}).items())
        return f"- {field['name']}: list of {{{subs}}}"
    return f"- {field['name']}: {field['type']}"


def build_messages(item: dict, suite_reference_date: str) -> list[dict]:
    """The messages of the chat request for `item` (system, then user)."""
    field_list = "\n".join(_field_line(f) for f in item["fields"])
    system = SYSTEM_TEMPLATE.format(reference_date=suite_reference_date)
    user = USER_TEMPLATE.format(field_list=field_list, document=item["document"]["text"])
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": user},
    ]


# ---------------------------------------------------------------- the answer format


class JsonNumber(str):
    """A JSON number kept as its exact text."""


def json_number(text: str) -> JsonNumber:
    if _JSON_NUMBER.fullmatch(text):
        return JsonNumber(text)
    canonical = format(Decimal(text), "f")  # e.g. "+1.50" or "007" -> "1.50", "7"
    if not _JSON_NUMBER.fullmatch(canonical):
        raise ValueError(f"not a finite number: {text!r}")
    return JsonNumber(canonical)  # e.g. "+1.50" or "007" -> canonical


def to_json(obj, indent: int | None = None, _level: int = 0) -> str:
    """JSON text with `JsonNumber`s written verbatim; `indent=None` writes one line."""
    if obj is None:
        return "null"
    if isinstance(obj, bool):
        return "true" if obj else "false"
    if isinstance(obj, JsonNumber):
        return str(obj)
    if isinstance(obj, str):
        return json.dumps(obj, ensure_ascii=False)
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, Decimal):
        return json_number(format(obj, "f"))
    if isinstance(obj, dict):
        parts = [f"{json.dumps(k, ensure_ascii=False)}: {to_json(v, indent, _level + 1)}"
                 for k, v in obj.items()]
        open_, close = "{", "}"
    elif isinstance(obj, list):
        parts = [to_json(v, None if _level >= 1 else indent, _level + 1) for v in obj]
        open_, close = "[", "]"
    else:
        raise TypeError(f"cannot write {type(obj).__name__} as JSON")
    if not parts:
        return open_ + close
    if indent is None or (_level >= 2):
        return open_ + ", ".join(parts) + close
    pad, inner = " " * (indent * _level), " " * (indent * (_level + 1))
    return open_ + "\n" + ",\n".join(inner + p for p in parts) + "\n" + pad + close


def encode_value(field: dict, value):
    """A value in the item's answer encoding -> the value a model writes in its JSON."""
    if value is None:
        return None
    if isinstance(value, Decimal):
        return json_number(format(value, "f"))
    kind = field["type"]
    if kind in ("money", "number") and isinstance(value, str) and is_decimal(value):
        return json_number(value)
    if kind == "list" and isinstance(value, list):
        subs = field.get("item_fields", {})
        return [{k: encode_value({"type": subs.get(k, "text")}, v) for k, v in el.items()}
                if isinstance(el, dict) else el for el in value]
    return value


def is_decimal(text: str) -> bool:
    return re.fullmatch(r"[+-]?[0-9]+(?:\.[0-9]+)?", text) is not None
