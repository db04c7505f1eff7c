"""The second labeller's worksheet: the requested fields with the documents, no answers (a CSV written
outside the project: it may hold private items), and reading it back as the second labeller's files.

An answer is written as JSON ("text", "12.50", 3, null when the document does not show the field);
a blank answer is not yet labelled and is skipped.
"""

from __future__ import annotations

import io
from pathlib import Path

from ..csvsafe import csv_row
from ..csvsafe import writer as csv_writer
from ..inputs.untrusted_files import csv_rows, cut, parse_json, shown
from ..private_workspace import write_private
from .checks import MAX_ANSWER_CHARS
from .files import LabelConfig, LabelError, Merged, merge_labels

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
    return write_private({NAME: to_csv(sample, documents)}, out, root, "the worksheet", LabelError)[0]


def parse_answer(cell: str, where: str, line: int) -> object:
    """An answer cell: JSON (at most MAX_ANSWER_CHARS characters, nested at most a few levels)."""
    if len(cell) > MAX_ANSWER_CHARS:
        raise LabelError(f"{where}:{line}: the answer is {len(cell):,} characters, more than {MAX_ANSWER_CHARS:,}")
    try:
        return parse_json(cell, where, LabelError, line)
    except LabelError as exc:
        raise LabelError(f"{exc}: write the answer as JSON (\"text\", \"12.50\", 3, null)") from None


def read_worksheet(text: str, sample: dict, where: str = NAME) -> dict[tuple[str, str], tuple[tuple[str, str], object]]:
    """(item, field) -> ((dataset, half), answer) for each filled-in row; only requested fields, each
    once. The first problem is raised (LabelError naming the file and line): nothing is recorded."""
    asked = {(r["item"], r["field"]): r for r in sample["requests"]}
    out: dict[tuple[str, str], tuple[tuple[str, str], object]] = {}
    lines: dict[tuple[str, str], int] = {}
    for n, row in csv_rows(text, where, LabelError, ("item", "field", "answer")):
        answer = row["answer"].strip()
        if not answer:
            continue
        key = (row["item"], row["field"])
        r = asked.get(key)
        if r is None:
            raise LabelError(f"{where}:{n}: {cut(key[0])} {cut(key[1])} was not requested (labels/sample.json): "
                             "nothing was recorded")
        if key in lines:
            raise LabelError(f"{where}:{n}: {cut(key[0])} {cut(key[1])} is answered twice (lines {lines[key]} and {n}): "
                             "nothing was recorded")
        lines[key] = n
        out[key] = ((r["dataset"], r["half"]), parse_answer(answer, where, n))
    return out


def record_worksheet(config: LabelConfig, text: str, sample: dict, where: str = NAME) -> Merged:
    """Merge the filled-in answers into the second labeller's files (see files.merge_labels)."""
    if sample.get("second") != config.second:
        raise LabelError(f"{config.folder / 'sample.json'} was drawn for {shown(sample.get('second'))}, but "
                         f"labels.toml names {config.second}: run `tally labels sample` again")
    return merge_labels(config.folder, config.second, read_worksheet(text, sample, where))
