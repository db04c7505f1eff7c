"""The blind adjudication sheet and recording its decisions.

`sheet(...)` lists every disagreement not yet settled with the two answers in a seeded random order
(answer 1 and answer 2, never who gave which) and the document, as a CSV to fill in and a self-contained
HTML page to read (no script, opens from file://). It may hold private items: it is written outside the
project. `record(...)` reads the filled CSV (decision: 1, 2, or an answer of one's own as JSON in
`other`) and stores the adjudicated answers in the adjudicator's label files.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
from pathlib import Path

from ..csvsafe import csv_row
from ..csvsafe import writer as csv_writer
from ..inputs.untrusted_files import csv_rows, cut, parse_json
from ..private_workspace import private_home, write_private
from .agreement import UNSETTLED, canon
from .checks import MAX_ANSWER_CHARS
from .files import LabelConfig, LabelError, Labels, Merged, merge_labels

COLUMNS = ["case", "item", "dataset", "field", "type", "answer_1", "answer_2", "decision", "other", "note", "document"]


def default_workspace(suite: str) -> Path:
    """Private storage in the user's home, outside any project."""
    return private_home("labels", suite)


def _second_first(seed: int, item: str, field: str) -> bool:
    """The seeded order of one case: True puts the second labeller's answer first."""
    return hashlib.sha256(f"{seed}:{item}:{field}".encode()).digest()[0] & 1 == 1


def cases(rows: list[dict], seed: int, documents: dict[str, str]) -> list[dict]:
    """The unsettled disagreements, blind: two answers in a seeded order, no labeller names."""
    out: list[dict] = []
    for r in rows:
        if r["outcome"] != UNSETTLED:
            continue
        pair = [r["first"], r["second"]]
        if _second_first(seed, r["item"], r["field"]):
            pair.reverse()
        out.append({"case": f"c{len(out) + 1:04d}", "item": r["item"], "dataset": r["dataset"], "field": r["field"],
                    "type": r["type"], "answer_1": json.dumps(pair[0], ensure_ascii=False),
                    "answer_2": json.dumps(pair[1], ensure_ascii=False), "document": documents.get(r["item"], "")})
    return out


def to_csv(rows: list[dict]) -> str:
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(COLUMNS)
    for c in rows:
        w.writerow(csv_row([c["case"], c["item"], c["dataset"], c["field"], c["type"], c["answer_1"], c["answer_2"],
                            "", "", "", c["document"]]))
    return buf.getvalue()


def to_html(suite: str, rows: list[dict]) -> str:
    """A page to read the cases from (decisions go in the CSV)."""
    e = html.escape
    parts = ["<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
             f"<title>Adjudication: {e(suite)}</title><style>body{{font:16px/1.4 sans-serif;max-width:60rem;margin:auto}}"
             "pre{white-space:pre-wrap;background:#f4f4f4;padding:.5rem;max-height:30rem;overflow:auto}"
             "section{border-top:2px solid #444;margin-top:1.5rem}</style></head><body>",
             f"<h1>Adjudication sheet: {e(suite)}</h1><p>{len(rows)} cases. Two people labelled each field; "
             "their answers are shown in a random order, without names. For each case, read the document and "
             "write in the CSV's <code>decision</code> column 1 or 2, or <code>other</code> with the right answer "
             "as JSON (null when the document does not show it).</p>"]
    for c in rows:
        parts.append(f"<section><h2>{e(c['case'])}: {e(c['field'])} ({e(c['type'])}) of {e(c['item'])}</h2>"
                     f"<p>Answer 1: <code>{e(c['answer_1'])}</code></p><p>Answer 2: <code>{e(c['answer_2'])}</code></p>"
                     f"<details><summary>Document</summary><pre>{e(c['document'])}</pre></details></section>")
    parts.append("</body></html>\n")
    return "".join(parts)


def write_sheet(suite: str, rows: list[dict], out: Path, root: Path) -> list[Path]:
    texts = {"adjudication.csv": to_csv(rows), "adjudication.html": to_html(suite, rows)}
    return write_private(texts, out, root, "the adjudication sheet", LabelError)



def _cell(text: str, where: str, n: int) -> tuple[object, str | None]:
    """A cell holding an answer as JSON: (value, None) or (None, why not)."""
    if len(text) > MAX_ANSWER_CHARS:
        return None, f"{len(text):,} characters, more than {MAX_ANSWER_CHARS:,}"
    try:
        return parse_json(text, where, LabelError, n), None
    except LabelError as exc:
        return None, str(exc).split(": ", 1)[-1]


def decisions(text: str, rows: list[dict], where: str = "adjudication.csv") -> tuple[dict[tuple[str, str], object], list[str]]:
    """The filled CSV checked against today's unsettled disagreements: ((item, field) -> answer, problems).
    A file that is not a readable sheet is one LabelError naming it and the line."""
    open_cases = {(r["item"], r["field"]): r for r in rows if r["outcome"] == UNSETTLED}
    out: dict[tuple[str, str], object] = {}
    problems = []
    seen: dict[tuple[str, str], int] = {}
    for n, line in csv_rows(text, where, LabelError, ("item", "field", "answer_1", "answer_2", "decision", "other")):
        decision, other = line["decision"].strip(), line["other"].strip()
        if not decision and not other:
            continue
        key = (line["item"], line["field"])
        r = open_cases.get(key)
        if r is None:
            problems.append(f"line {n}: {cut(key[0])} {cut(key[1])} is not an unsettled disagreement")
            continue
        if key in seen:
            problems.append(f"line {n}: {cut(key[0])} {cut(key[1])} is decided twice (lines {seen[key]} and {n})")
            continue
        seen[key] = n
        (a1, p1), (a2, p2) = _cell(line["answer_1"], where, n), _cell(line["answer_2"], where, n)
        if p1 or p2:
            problems.append(f"line {n}: answer_1 and answer_2 must stay as written (JSON): {p1 or p2}")
            continue
        answers = [a1, a2]
        if sorted(canon(a, r["type"]) for a in answers) != sorted(canon(a, r["type"]) for a in (r["first"], r["second"])):
            problems.append(f"line {n}: the answers of {key[0]} {key[1]} changed since the sheet was written")
            continue
        if decision in ("1", "2") and not other:
            out[key] = answers[int(decision) - 1]
        elif other and decision in ("", "other"):
            value, p = _cell(other, where, n)
            if p:
                problems.append(f"line {n}: `other` must be an answer written as JSON (\"text\", 12.5, null): {p}")
            else:
                out[key] = value
        else:
            problems.append(f"line {n}: decision must be 1, 2, or other (with the answer in `other`)")
    return out, problems


def record(config: LabelConfig, adjudicator: Labels, first: Labels, chosen: dict[tuple[str, str], object]) -> Merged:
    """Add the decisions to the adjudicator's label files (earlier decisions and lines kept)."""
    new = {(item, f): (adjudicator.items.get(item) or first.items[item], answer) for (item, f), answer in chosen.items()}
    return merge_labels(config.folder, config.adjudicator, new)
