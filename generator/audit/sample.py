"""`tally audit sample`: a seeded sample of verdicts per model, stratified so every verdict kind appears,
written as an audit workspace in private storage (outside the project by default).

The workspace holds `sample.json` (what was drawn), `audit.html` (a self-contained page that opens
from file://: document, checked answer, raw response and the scorer's verdict, judged by keyboard,
saved as a JSON file through a download link) and `audit.csv` (the same for a spreadsheet).
"""

from __future__ import annotations

import io
import json
import random
from collections import defaultdict
from pathlib import Path

from ..csvsafe import csv_row
from ..csvsafe import writer as csv_writer
from ..errors import TallyError
from ..inputs.jsonl import jsonl_lines
from ..inputs.stored_files import read_stored
from ..pipeline.stages import ScoredSuite
from ..private_workspace import private_home, write_private

SAMPLE_FORMAT = "tally-audit-sample-v1"
JUDGMENTS_FORMAT = "tally-audit-judgments-v1"
JUDGMENTS = ("agree", "disagree", "unsure")
CSV_COLUMNS = ["id", "run", "model", "item", "repeat", "unit", "verdict", "reason", "judgment", "right_verdict",
               "note", "checked_answer", "response", "document"]
COMMON_VERDICTS = ("correct", "wrong", "invented", "false_null", "null_ok", "unparseable", "failed_call")
PAGE = Path(__file__).resolve().parent / "page.html"
DOCUMENT_CHARS = 20_000
RESPONSE_CHARS = 20_000


class AuditError(TallyError):
    """A refused sample or judgment file (exit status 2)."""

    exit_code = 2


def default_workspace(suite: str, seed: int) -> Path:
    """Private storage in the user's home, outside any project."""
    return private_home("audits", f"{suite}-seed{seed}")


def draw(rows: list[tuple[str, str, int, str, str]], per_model: int, rng: random.Random) -> list[int]:
    """Indices of at most `per_model` rows (run, item, repeat, unit, verdict): one of each verdict kind
    first (rarest first, while room remains), then a uniform draw from the rest; sorted."""
    by_verdict: dict[str, list[int]] = defaultdict(list)
    for k, row in enumerate(rows):
        by_verdict[row[4]].append(k)
    chosen: set[int] = set()
    for verdict in sorted(by_verdict, key=lambda v: (len(by_verdict[v]), v)):
        if len(chosen) < per_model:
            chosen.add(rng.choice(by_verdict[verdict]))
    rest = [k for k in range(len(rows)) if k not in chosen]
    chosen.update(rng.sample(rest, min(len(rest), per_model - len(chosen))))
    return sorted(chosen)


def _content(record: dict) -> str:
    response = record.get("response")
    try:
        content = response["choices"][0]["message"]["content"]  # type: ignore[index]
        if isinstance(content, str):
            return content[:RESPONSE_CHARS]
    except (KeyError, IndexError, TypeError):
        pass
    if response is None:
        attempts = record.get("attempts") or [{}]
        last = attempts[-1] if isinstance(attempts[-1], dict) else {}
        return f"(no response: the call failed; last status {last.get('status')}, error {last.get('error')})"
    return json.dumps(response, ensure_ascii=False)[:RESPONSE_CHARS]


def _records(path: Path, wanted: set[tuple[str, int]]) -> dict[tuple[str, int], dict]:
    out = {}
    for _number, _line, record, error in jsonl_lines(read_stored(path)):
        if error is not None or not isinstance(record, dict):
            continue
        key = (record.get("item"), record.get("repeat"))
        if key in wanted:
            out[key] = record
    return out


def drawn(scored: ScoredSuite, per_model: int, seed: int, runs: dict[str, list[str]] | None = None) -> tuple[
        dict[str, list[tuple[str, str, int, str, str]]], list[tuple[str, tuple[str, str, int, str, str]]]]:
    """Every model's verdict rows (run, item, repeat, unit, verdict), and the seeded draw from them:
    (model, row) in the order of the sample. `runs` (model -> run ids) keeps only the runs a sample
    was drawn from (runs added since do not change it). The same seed, runs and scoring give the same
    draw, so `tally audit record` can tell which judgments belong to a sample."""
    if isinstance(per_model, bool) or not isinstance(per_model, int) or per_model < 1:
        raise AuditError("--per-model must be at least 1")
    by_model: dict[str, list[tuple[str, str, int, str, str]]] = defaultdict(list)
    for r in scored.runs:
        if runs is not None and r.run.id not in runs.get(r.run.model, ()):
            continue
        t = r.verdicts()
        by_model[r.run.model] += [(r.run.id, t.item[k], t.repeat[k], t.unit[k], t.verdict[k]) for k in range(len(t))]
    entries = []
    for model in sorted(by_model):
        rows = sorted(by_model[model])
        rng = random.Random(f"{seed}/{scored.suite.name}/{model}")
        for k in draw(rows, per_model, rng):
            entries.append((model, rows[k]))
    return by_model, entries


def sample(scored: ScoredSuite, per_model: int, seed: int) -> dict:
    """The sample document: every drawn verdict with what a person needs to judge it."""
    items = {i.id: i for i in scored.items}
    by_model, entries = drawn(scored, per_model, seed)
    runs = {r.run.id: r for r in scored.runs}
    wanted: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for _, (run, item, repeat, _, _) in entries:
        wanted[run].add((item, repeat))
    records = {run: _records(runs[run].run.responses, keys) for run, keys in wanted.items()}
    out = []
    for n, (model, (run, item_id, repeat, unit, verdict)) in enumerate(entries, start=1):
        row = next(v for v in runs[run].rows_of(item_id) if (v.repeat, v.unit) == (repeat, unit))
        it = items[item_id]
        raw = json.loads(it.line)
        document = it.document.get("text") if isinstance(it.document.get("text"), str) else \
            json.dumps(it.document, ensure_ascii=False, indent=1)
        record = records[run].get((item_id, repeat))
        out.append({"id": f"a{n:04d}", "run": run, "model": model, "item": item_id, "repeat": repeat,
                    "unit": unit, "verdict": verdict, "points": row.points, "reason": row.reason,
                    "half": it.half, "document": str(document)[:DOCUMENT_CHARS],
                    "checked_answer": {"columns": list(scored.plugin.answer_columns),
                                       "rows": [[str(c) for c in row] for row in scored.plugin.answer_rows(raw)]},
                    "response": _content(record) if record else "(no stored response: the item is a failed call)"})
    verdicts = sorted({v for rows in by_model.values() for *_, v in rows} | set(COMMON_VERDICTS))
    return {"format": SAMPLE_FORMAT, "suite": scored.suite.name, "suite_version": scored.suite.version,
            "seed": seed, "per_model": per_model, "verdict_kinds": verdicts,
            "runs": {m: sorted({row[0] for row in rows}) for m, rows in sorted(by_model.items())}, "entries": out}


def to_csv(doc: dict) -> str:
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(CSV_COLUMNS)
    for e in doc["entries"]:
        answer = "; ".join(" | ".join(row) for row in e["checked_answer"]["rows"])
        w.writerow(csv_row([e["id"], e["run"], e["model"], e["item"], e["repeat"], e["unit"], e["verdict"],
                            e["reason"], "", "", "", answer, e["response"], e["document"]]))
    return buf.getvalue()


def to_html(doc: dict) -> str:
    """The audit page: the template with the sample embedded as JSON (no network, no module script)."""
    data = json.dumps(doc, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
    data = data.replace("&", "\\u0026").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return PAGE.read_text(encoding="utf-8").replace("/*SAMPLE*/null", data)


def write_workspace(doc: dict, out: Path, root: Path) -> list[Path]:
    """sample.json, audit.html and audit.csv in the workspace `out`, refused inside the project."""
    texts = {"sample.json": json.dumps(doc, ensure_ascii=False, indent=1) + "\n", "audit.html": to_html(doc),
             "audit.csv": to_csv(doc)}
    return write_private(texts, out, root, "the audit workspace", AuditError)
