"""The chat messages sent to a model for one item of the extracting suite, and the answer format
they ask for (`to_json` writes an answer object in it).

The prompt is two templates, kept in the suite's content folder
(`content/suites/extracting/prompt.toml`): a system message with the task and the output rules,
and a user message with the requested fields and the document. `prompt_sha256()` hashes the
template text (not any item's content, not the file's comments), so every run that used the same
wording records the same hash in its run.json.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

from ..inputs.prompts import Template
from ..inputs.prompts import load_template as _load_template
from ..suites.extracting.prompt import extracting_messages

PROMPT_TEMPLATE_VERSION = "1"
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")
DEFAULT_SUITE_DIR = Path(__file__).resolve().parents[2] / "content" / "suites" / "extracting"


def load_template(suite_dir: Path = DEFAULT_SUITE_DIR) -> Template:
    """The prompt template of the suite in `suite_dir` (its prompt.toml)."""
    return _load_template(suite_dir)


_DEFAULT = load_template()
SYSTEM_TEMPLATE = _DEFAULT.system
USER_TEMPLATE = _DEFAULT.user


def prompt_sha256(template: Template | None = None) -> str:
    """Sha256 hex digest of the template text (both templates, in order)."""
    return (template or _DEFAULT).sha256()


def build_messages(item: dict, suite_reference_date: str, template: Template | None = None) -> list[dict]:
    """The messages of the chat request for `item` (system, then user)."""
    return extracting_messages(item, suite_reference_date, template or _DEFAULT)


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
