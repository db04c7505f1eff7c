"""What each kind of label file must hold, checked before anything is used or written: labels.toml's
settings, a label line, a flagged line, sample.json. Each check returns the first problem (None: the
value is good); the readers in files.py raise it as a LabelError with the file and line. Every name
that becomes part of a path (labeller, dataset, item) must be a safe identifier (generator/inputs/ids.py)."""

from __future__ import annotations

import json

from ..inputs.ids import id_problem
from ..inputs.untrusted_files import shown

HALVES = ("public", "private")
WHYS = ("sample", "missing", "computed")
MAX_ANSWER_CHARS = 100_000  # one answer written as JSON
MAX_NAME_CHARS = 200  # a field name or a field type
MAX_TEXT_CHARS = 10_000  # a flagged document's origin, reason or attribution; labels.toml's note


def answer_problem(value: object, what: str) -> str | None:
    """An answer is any JSON value of bounded size (the depth is bounded when it is parsed)."""
    size = len(json.dumps(value, ensure_ascii=False))
    if size > MAX_ANSWER_CHARS:
        return f"{what} is {size:,} characters written as JSON, more than {MAX_ANSWER_CHARS:,}"
    return None


def name_problem(value: object, what: str) -> str | None:
    """A field name or type: a non-empty string of bounded length."""
    if not isinstance(value, str) or not value.strip():
        return f"{what} must be a non-empty string, not {shown(value)}"
    if len(value) > MAX_NAME_CHARS:
        return f"{what} is longer than {MAX_NAME_CHARS} characters"
    return None


def text_problem(value: object, what: str) -> str | None:
    if not isinstance(value, str):
        return f"{what} must be a string, not {type(value).__name__}"
    if len(value) > MAX_TEXT_CHARS:
        return f"{what} is {len(value):,} characters, more than {MAX_TEXT_CHARS:,}"
    return None


def config_problem(doc: dict) -> str | None:
    """labels.toml: three different labeller names, share in (0, 1], an integer seed, simulated names, note."""
    names = []
    for role in ("first", "second", "adjudicator"):
        if (p := id_problem(doc.get(role), f"`{role}` (a labeller's name, a folder)")) is not None:
            return p
        names.append(doc[role])
    if len(set(names)) != 3:
        return "first, second and adjudicator must be three different labellers"
    share = doc.get("share", 0.3)
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share <= 1:
        return f"`share` must be a number in (0, 1], not {shown(share)}"
    seed = doc.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        return f"`seed` must be an integer, not {shown(seed)}"
    simulated = doc.get("simulated", [])
    if not isinstance(simulated, list) or not all(isinstance(s, str) and len(s) <= MAX_NAME_CHARS for s in simulated):
        return "`simulated` must be a list of labeller names"
    return text_problem(doc.get("note", ""), "`note`")


def label_line_problem(row: object) -> str | None:
    """A label line: {"item": ID, "fields": {NAME: ANSWER}} and nothing else."""
    if not isinstance(row, dict) or set(row) != {"item", "fields"} or not isinstance(row["fields"], dict):
        return 'a label line is {"item": ID, "fields": {NAME: ANSWER}} and nothing else'
    if (p := id_problem(row["item"], "item")) is not None:
        return p
    for name, answer in row["fields"].items():
        if (p := name_problem(name, "a field name") or answer_problem(answer, f"the answer of {shown(name)}")):
            return p
    return None


def flagged_problem(row: object) -> str | None:
    """A flagged line: {"dataset", "origin", "reasons": [text], "attribution"?}."""
    if not isinstance(row, dict) or not {"dataset", "origin", "reasons"} <= set(row) <= {
            "dataset", "origin", "reasons", "attribution"}:
        return 'a flagged line is {"dataset", "origin", "reasons", and optionally "attribution"}'
    if (p := id_problem(row["dataset"], "dataset")) is not None:
        return p
    if not isinstance(row["reasons"], list):
        return "`reasons` must be a list of texts"
    for value, what in [(row["origin"], "`origin`"), *((r, "a reason") for r in row["reasons"]),
                        (row.get("attribution", ""), "`attribution`")]:
        if (p := text_problem(value, what)) is not None:
            return p
    return None


def request_problem(r: object) -> str | None:
    """One request of sample.json: item, dataset, half, field, type, why."""
    keys = {"item", "dataset", "half", "field", "type", "why"}
    if not isinstance(r, dict) or set(r) != keys:
        return f"a request is an object with exactly {', '.join(sorted(keys))}"
    if (p := id_problem(r["item"], "item") or id_problem(r["dataset"], "dataset")) is not None:
        return p
    if r["half"] not in HALVES:
        return f"half must be public or private, not {shown(r['half'])}"
    if r["why"] not in WHYS:
        return f"why must be one of {', '.join(WHYS)}, not {shown(r['why'])}"
    return name_problem(r["field"], "field") or name_problem(r["type"], "type")


def sample_problem(doc: object) -> str | None:
    """sample.json as `tally labels sample` writes it (the format is checked by the reader)."""
    assert isinstance(doc, dict)
    for key in ("first", "second"):
        if (p := id_problem(doc.get(key), f"`{key}`")) is not None:
            return p
    documents = doc.get("documents")
    if not isinstance(documents, dict):
        return "`documents` must be an object: dataset -> [item]"
    for dataset, items in documents.items():
        if (p := id_problem(dataset, "dataset")) is not None:
            return f"`documents`: {p}"
        if not isinstance(items, list) or any(id_problem(i) for i in items):
            return f"`documents` of {dataset}: a list of item ids"
    requests = doc.get("requests")
    if not isinstance(requests, list):
        return "`requests` must be a list"
    seen = set()
    for n, r in enumerate(requests, 1):
        if (p := request_problem(r)) is not None:
            return f"request {n}: {p}"
        if (r["item"], r["field"]) in seen:
            return f"request {n}: {r['item']} {shown(r['field'])} is requested twice"
        seen.add((r["item"], r["field"]))
    return None
