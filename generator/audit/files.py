"""The audit's files, read and checked before anything is used: a judgments file (the JSON the audit
page saves, or the workspace's CSV filled in), the workspace's sample.json, and a stored audit
(content/audits/<suite>/*.json). Each malformed file is one AuditError naming the file (and the line,
the judgment or the key), exit status 2.

A note is at most MAX_NOTE_CHARS characters: `tally audit record` refuses a longer one, and a stored
note longer than that (written by hand) is cut with a marker where the site shows it (`shown_note`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..inputs.ids import id_problem
from ..inputs.untrusted_files import csv_rows, cut, parse_json, read_text, shown
from .sample import JUDGMENTS, JUDGMENTS_FORMAT, SAMPLE_FORMAT, AuditError

STORED_FORMAT = "tally-audit-v1"
MAX_NOTE_CHARS = 2_000
MAX_NAME_CHARS = 200  # run, item, unit, verdict names; the auditor; dates
MAX_MODELS = 10_000  # models (and runs of one model) a sample names
CSV_COLUMNS = ("run", "item", "repeat", "unit", "verdict", "judgment", "right_verdict", "note")


def _name(value: object, what: str, optional: bool = False) -> str | None:
    """Why `value` is not a short string (None when it is one, or is None and may be)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        return f"{what} must be a string, not {shown(value)}"
    if len(value) > MAX_NAME_CHARS:
        return f"{what} is {len(value):,} characters, more than {MAX_NAME_CHARS}"
    return None


def _int(value: object, what: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{what} must be an integer, not {shown(value)}"
    return None


def note_problem(note: object) -> str | None:
    if note is None:
        return None
    if not isinstance(note, str):
        return f"note must be a string, not {shown(note)}"
    if len(note) > MAX_NOTE_CHARS:
        return f"the note is {len(note):,} characters; a note holds at most {MAX_NOTE_CHARS:,}"
    return None


def judgment_problem(j: object) -> str | None:
    """One judgment as the audit page saves it."""
    if not isinstance(j, dict):
        return f"a judgment is an object, not {type(j).__name__}"
    for key in ("run", "item", "unit", "verdict"):
        if (p := _name(j.get(key), key)) is not None:
            return p
    if (p := _int(j.get("repeat"), "repeat") or _name(j.get("id"), "id", True)) is not None:
        return p
    if j.get("judgment") not in JUDGMENTS:
        return f"judgment must be one of {', '.join(JUDGMENTS)}, not {shown(j.get('judgment'))}"
    return _name(j.get("right_verdict"), "right_verdict", True) or note_problem(j.get("note"))


def _header_problem(doc: dict) -> str | None:
    """The settings of a judgments file or a stored audit (each may be missing in a judgments file)."""
    if doc.get("suite") is not None and (p := id_problem(doc["suite"], "suite")) is not None:
        return p
    for key in ("suite_version", "auditor", "judged_at"):
        if (p := _name(doc.get(key), key, True)) is not None:
            return p
    return _int(doc.get("seed"), "seed", True) or _int(doc.get("per_model"), "per_model", True) or \
        _runs_problem(doc.get("runs"))


def _runs_problem(runs: object) -> str | None:
    """`runs`, the runs each model's sample was drawn from: {model: [run id]} (optional)."""
    if runs is None:
        return None
    if not isinstance(runs, dict) or len(runs) > MAX_MODELS:
        return "`runs` must be an object: model -> [run id]"
    for model, ids in runs.items():
        if (p := _name(model, "a model of `runs`")) is not None:
            return p
        if not isinstance(ids, list) or len(ids) > MAX_MODELS or any(_name(i, "run") for i in ids):
            return f"`runs` of {cut(model)} must be a list of run ids"
    return None


def _judgments_problem(doc: dict, check: Callable[[object], str | None]) -> str | None:
    judgments = doc.get("judgments")
    if not isinstance(judgments, list):
        return f"`judgments` must be a list, not {shown(judgments)}"
    for n, j in enumerate(judgments, 1):
        if (p := check(j)) is not None:
            label = f" ({cut(j['id'])})" if isinstance(j, dict) and isinstance(j.get("id"), str) else ""
            return f"judgment {n}{label}: {p}"
    return None


def read_judgments(path: Path) -> dict:
    """A judgments file as the audit page saves it (JSON), or the workspace's CSV filled in (then the
    suite, seed and sample size come from the sample.json beside it, or the options of `tally audit record`)."""
    text = read_text(path, AuditError, bom=True)
    if path.suffix.lower() == ".csv":
        return _from_csv(path, text)
    doc = parse_json(text, str(path), AuditError)
    if not isinstance(doc, dict) or doc.get("format") != JUDGMENTS_FORMAT:
        raise AuditError(f"{path}: not a {JUDGMENTS_FORMAT} file (save it from the audit page)")
    if (p := _header_problem(doc) or _judgments_problem(doc, judgment_problem)) is not None:
        raise AuditError(f"{path}: {p}")
    return doc


def _from_csv(path: Path, text: str) -> dict:
    judgments = []
    for n, r in csv_rows(text, str(path), AuditError, CSV_COLUMNS):
        if not r["judgment"].strip():
            continue
        repeat = r["repeat"].strip() or "0"
        if not repeat.isdigit() or len(repeat) > 9:
            raise AuditError(f"{path}:{n}: repeat must be a whole number, not {shown(repeat)}")
        j = {"id": r.get("id") or None, "run": r["run"], "item": r["item"], "repeat": int(repeat), "unit": r["unit"],
             "verdict": r["verdict"], "judgment": r["judgment"].strip(),
             "right_verdict": r["right_verdict"].strip() or None, "note": r["note"]}
        if (p := judgment_problem(j)) is not None:
            raise AuditError(f"{path}:{n}: {p}")
        judgments.append(j)
    doc: dict[str, object] = {"format": JUDGMENTS_FORMAT, "judgments": judgments}
    beside = path.with_name("sample.json")
    if beside.is_file():  # the workspace's sample: the suite, seed and sample size the CSV was written for
        sample = read_sample(beside)
        doc |= {k: sample.get(k) for k in ("suite", "suite_version", "seed", "per_model", "runs")}
    return doc


def read_sample(path: Path) -> dict:
    """The workspace's sample.json: only its settings are used (suite, version, seed, per_model, runs)."""
    doc = parse_json(read_text(path, AuditError), str(path), AuditError)
    if not isinstance(doc, dict) or doc.get("format") != SAMPLE_FORMAT:
        raise AuditError(f"{path}: not a {SAMPLE_FORMAT} file (written by `tally audit sample`)")
    if (p := _header_problem(doc)) is not None:
        raise AuditError(f"{path}: {p}")
    return doc


def stored_judgment_problem(j: object) -> str | None:
    """One judgment of a stored audit (as `tally audit record` writes it)."""
    if not isinstance(j, dict):
        return f"a judgment is an object, not {type(j).__name__}"
    for key in ("run", "model", "item", "unit", "verdict"):
        if (p := _name(j.get(key), key)) is not None:
            return p
    if (p := _int(j.get("repeat"), "repeat")) is not None:
        return p
    if j.get("judgment") not in JUDGMENTS:
        return f"judgment must be one of {', '.join(JUDGMENTS)}, not {shown(j.get('judgment'))}"
    if (p := _name(j.get("right_verdict"), "right_verdict", True) or _name(j.get("half"), "half", True)) is not None:
        return p
    return None if isinstance(j.get("note", ""), str) else f"note must be a string, not {shown(j.get('note'))}"


def read_stored(path: Path) -> dict:
    """A stored audit of content/audits/<suite>/, checked (a clone's file may be anything)."""
    doc = parse_json(read_text(path, AuditError), str(path), AuditError)
    if not isinstance(doc, dict) or doc.get("format") != STORED_FORMAT:
        raise AuditError(f"{path}: not a {STORED_FORMAT} file (written by `tally audit record`)")
    p = _header_problem(doc) or _name(doc.get("auditor"), "auditor")
    if p is None and not isinstance(doc.get("simulated", False), bool):
        p = f"simulated must be true or false, not {shown(doc.get('simulated'))}"
    if (p := p or _judgments_problem(doc, stored_judgment_problem)) is not None:
        raise AuditError(f"{path}: {p}")
    return doc


def shown_note(note: str, where: str) -> str:
    """A stored note as the site shows it: at most MAX_NOTE_CHARS characters, then a marker."""
    if len(note) <= MAX_NOTE_CHARS:
        return note
    return f"{note[:MAX_NOTE_CHARS]} [... cut: the note has {len(note):,} characters; all of it is in {where}]"
