"""The prompt section of a suite page: the suite's prompt template (prompt.toml) as readable text, with
its SHA-256 and which runs recorded sending that wording (run.json's prompt_sha256)."""

from __future__ import annotations

import re

from ...inputs.prompts import TEMPLATE_FILE, load_template
from ..gather import SuiteView

_FIELD = re.compile(r"(?<!\{)\{([a-z_][a-z0-9_]*)\}(?!\})")


def prompt_view(sd: SuiteView) -> dict | None:
    """The suite's system and user templates as shown to a reader (doubled braces read as single
    ones), the placeholders filled in per item, the template's SHA-256, and the runs whose run.json
    records that SHA-256 (`same`) or another one (`other`) or none (`unrecorded`, e.g. imported runs).
    None when the suite has no prompt.toml (a suite whose plugin writes its own messages)."""
    if not (sd.suite.root / TEMPLATE_FILE).is_file():
        return None
    template = load_template(sd.suite.root)
    digest = template.sha256()
    same: list[str] = []
    other: list[str] = []
    unrecorded: list[str] = []
    for run_id, run in sorted(sd.runs.items()):
        recorded = run.meta.get("prompt_sha256")
        (unrecorded if not recorded else same if recorded == digest else other).append(run_id)
    fields = sorted({m.group(1) for text in (template.system, template.user) for m in _FIELD.finditer(text)})
    return {"system": _shown(template.system), "user": _shown(template.user), "sha256": digest, "fields": fields,
            "same": same, "other": other, "unrecorded": unrecorded}


def _shown(text: str) -> str:
    """A template as the model reads it, placeholders left in place: literal braces undoubled."""
    return text.strip("\n").replace("{{", "{").replace("}}", "}")
