"""The chat messages of an extracting request: the requested fields and the document, inside the
suite's prompt template."""

from __future__ import annotations

from ...prompts import Template


def _field_line(field: dict) -> str:
    if field["type"] == "list":
        subs = ", ".join(f"{name}: {kind}" for name, kind in field.get("item_fields", {}).items())
        return f"- {field['name']}: list of {{{subs}}}"
    return f"- {field['name']}: {field['type']}"


def extracting_messages(item: dict, reference_date: str, template: Template) -> list[dict]:
    """The messages of the chat request for `item` (system, then user)."""
    field_list = "\n".join(_field_line(f) for f in item["fields"])
    system = template.system.format(reference_date=reference_date)
    user = template.user.format(field_list=field_list, document=item["document"]["text"])
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
