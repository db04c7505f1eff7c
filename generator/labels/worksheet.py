"""The second labeller's worksheet: the requested fields with the documents, no answers (a CSV written
outside the project: it may hold private items), and reading it back as the second labeller's files.

An answer is written as JSON ("text", "12.50", 3, null when the document does not show the field);
a blank answer is not yet labelled and is skipped.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from pathlib import Path

from ..csvsafe import csv_row
from ..csvsafe import writer as csv_writer
from .files import LabelConfig, LabelError, write_labels
from .sheet import write_private

COLUMNS = ["item", "dataset", "half", "field", "type", "answer", "document"]
NAME = "second-labeller.csv"


def to_csv(sample: dict, documents: dict[str, str]) -> str:
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(COLUMNS)
    for r in sample["requests"]:
        w.writerow(csv_row([r["item"], r["dataset"], r["half"], r["field"], r["type"], "", documents.get(r["item"], "")]))
    return buf.getvalue()


def write_worksheet(sample: dict, documents: dict[str, str], out: Path, root: Path) -> Path:
    return write_private({NAME: to_csv(sample, documents)}, out, root)[0]


def read_worksheet(text: str, sample: dict) -> tuple[dict[tuple[str, str], dict[str, dict]], list[str]]:
    """((dataset, half) -> item -> {field: answer}, problems): only requested fields, answers as JSON."""
    asked = {(r["item"], r["field"]): r for r in sample["requests"]}
    rows: dict[tuple[str, str], dict[str, dict]] = defaultdict(lambda: defaultdict(dict))
    problems = []
    for n, line in enumerate(csv.DictReader(io.StringIO(text)), 2):
        answer = (line.get("answer") or "").strip()
        if not answer:
            continue
        r = asked.get((line.get("item") or "", line.get("field") or ""))
        if r is None:
            problems.append(f"line {n}: {line.get('item')} {line.get('field')} was not requested")
            continue
        try:
            value = json.loads(answer)
        except ValueError:
            problems.append(f"line {n}: the answer must be JSON (\"text\", \"12.50\", 3, null), not {answer!r}")
            continue
        rows[(r["dataset"], r["half"])][r["item"]][r["field"]] = value
    return {k: dict(v) for k, v in rows.items()}, problems


def record_worksheet(config: LabelConfig, text: str, sample: dict) -> list[Path]:
    rows, problems = read_worksheet(text, sample)
    if problems:
        raise LabelError("nothing recorded:\n  " + "\n  ".join(problems))
    return write_labels(config.folder, config.second, rows)
