"""Label files: content/suites/<suite>/labels/.

- `labels.toml`: who is who (`first`, `second`, `adjudicator`: labeller names, each a folder),
  the sample's `share` and `seed`, and `simulated` (names of labellers that are simulated: example data).
- `<labeller>/<dataset>.<half>.jsonl`: one line per document, `{"item": ID, "fields": {NAME: ANSWER}}`,
  answers written as the items write checked answers (null: the document does not show it).
- `<first>/flagged.jsonl`: documents whose first labels failed a machine check and were left out,
  `{"dataset", "origin", "reasons"}` and optionally the document's `attribution` (they count in the
  label error rate, not in the items).
- `sample.json`: what the second labeller is asked for (written by `tally labels sample`).
"""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputProblem
from ..inputs.ids import id_problem
from ..inputs.untrusted_files import cut, json_lines, parse_json, read_text, shown
from .checks import HALVES, config_problem, flagged_problem, label_line_problem, sample_problem

CONFIG = "labels.toml"
SAMPLE = "sample.json"
FLAGGED = "flagged.jsonl"
SAMPLE_FORMAT = "tally-label-sample-v1"
MAX_SETTINGS_BYTES = 1024 * 1024


class LabelError(InputProblem):
    """Bad or missing label files, or a refused sample or adjudication (exit status 2)."""


@dataclass(frozen=True)
class LabelConfig:
    folder: Path
    first: str
    second: str
    adjudicator: str
    share: float = 0.3
    seed: int = 0
    simulated: tuple[str, ...] = ()
    note: str = ""

    def is_simulated(self, labeller: str) -> bool:
        return labeller in self.simulated


@dataclass
class Labels:
    """One labeller's answers: (item, field) -> answer; items it labelled -> (dataset, half)."""

    name: str
    answers: dict[tuple[str, str], object] = field(default_factory=dict)
    items: dict[str, tuple[str, str]] = field(default_factory=dict)


def labels_dir(suite_root: Path) -> Path:
    return suite_root / "labels"


def load_config(suite_root: Path) -> LabelConfig | None:
    """The suite's labels.toml, or None when the suite has no labels folder."""
    folder = labels_dir(suite_root)
    path = folder / CONFIG
    if not path.is_file():
        return None
    try:
        doc = tomllib.loads(read_text(path, LabelError, MAX_SETTINGS_BYTES))
    except tomllib.TOMLDecodeError as exc:
        raise LabelError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise LabelError(f"{path}: not valid TOML: nested too deep") from None
    if (p := config_problem(doc)) is not None:
        raise LabelError(f"{path}: {p}")
    return LabelConfig(folder, doc["first"], doc["second"], doc["adjudicator"], float(doc.get("share", 0.3)),
                       doc.get("seed", 0), tuple(doc.get("simulated", [])), doc.get("note", ""))


def _rows(path: Path, problem: Callable[[object], str | None]) -> Iterator[tuple[int, dict]]:
    """The checked lines of one JSON Lines label file."""
    for n, row in json_lines(path, LabelError):
        if (p := problem(row)) is not None:
            raise LabelError(f"{path}:{n}: {p}")
        assert isinstance(row, dict)
        yield n, row


def file_name(dataset: str, half: str) -> str:
    """`<dataset>.<half>.jsonl`, the dataset checked like an id (it comes from a file)."""
    if (p := id_problem(dataset, "dataset")) is not None or half not in HALVES:
        raise LabelError(p or f"half must be public or private, not {shown(half)}")
    return f"{dataset}.{half}.jsonl"


def read_labels(folder: Path, name: str) -> Labels:
    """Every `<dataset>.<half>.jsonl` of one labeller (none: an empty set)."""
    out = Labels(name)
    for path in sorted((folder / name).glob("*.jsonl")):
        if path.name == FLAGGED:
            continue
        parts = path.name.split(".")
        if len(parts) != 3 or parts[1] not in HALVES or id_problem(parts[0]) is not None:
            raise LabelError(f"{path}: a label file is named <dataset>.<public|private>.jsonl")
        for n, row in _rows(path, label_line_problem):
            item = row["item"]
            if item in out.items:
                raise LabelError(f"{path}:{n}: item {item} is labelled twice by {name}")
            out.items[item] = (parts[0], parts[1])
            for fname, answer in row["fields"].items():
                out.answers[(item, fname)] = answer
    return out


def read_flagged(folder: Path, name: str) -> list[dict]:
    path = folder / name / FLAGGED
    if not path.is_file():
        return []
    return [row for _, row in _rows(path, flagged_problem)]


@dataclass
class Merged:
    """What recording answers did to one labeller's files."""

    paths: list[Path] = field(default_factory=list)
    added: int = 0
    changed: list[str] = field(default_factory=list)  # "item field: old -> new"
    unchanged: int = 0

    def describe(self, name: str) -> str:
        return (f"{name}: {self.added} answer(s) added, {len(self.changed)} changed, {self.unchanged} the same "
                "as recorded; every other answer kept")


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def merge_labels(folder: Path, name: str, new: dict[tuple[str, str], tuple[tuple[str, str], object]]) -> Merged:
    """Add answers ((item, field) -> ((dataset, half), answer)) to one labeller's files: an answer
    recorded again for the same item and field replaces that answer only; every other line is kept.
    Only the files that change are rewritten (each through a temporary file and a rename)."""
    current = read_labels(folder, name)
    rows: dict[tuple[str, str], dict[str, dict]] = {}
    for item, where in current.items.items():
        rows.setdefault(where, {})[item] = {}
    for (item, fname), answer in current.answers.items():
        rows[current.items[item]][item][fname] = answer
    out, touched = Merged(), set()
    for (item, fname), (where, answer) in sorted(new.items()):
        file_name(*where)
        if item in current.items and current.items[item] != where:
            raise LabelError(f"{folder / name / file_name(*current.items[item])}: {item} is labelled there, not in "
                             f"{file_name(*where)}: nothing was recorded")
        if (item, fname) not in current.answers:
            out.added += 1
        elif _json(current.answers[(item, fname)]) == _json(answer):
            out.unchanged += 1
            continue
        else:
            out.changed.append(f"{item} {cut(fname)}: {cut(_json(current.answers[(item, fname)]))} -> {cut(_json(answer))}")
        rows.setdefault(where, {}).setdefault(item, {})[fname] = answer
        touched.add(where)
    for where in sorted(touched):  # every file checked before the first is written
        refuse_links(folder, folder / name / file_name(*where))
    for where in sorted(touched):
        out.paths.append(_write_file(folder, name, where, rows[where]))
    return out


def refuse_links(folder: Path, path: Path) -> None:
    """A file written under the labels folder is never written through a symbolic link (the labels
    folder, a labeller's folder or the file itself): a cloned project's link could lead anywhere."""
    here = folder
    for part in ("", *path.relative_to(folder).parts):
        here = here / part if part else here
        if here.is_symlink():
            raise LabelError(f"{here}: a symbolic link: label files are not written through it (nothing was written)")


def write_labels(folder: Path, name: str, rows: dict[tuple[str, str], dict[str, dict]]) -> list[Path]:
    """Write one labeller's files whole: (dataset, half) -> item -> {field: answer} (the example's first
    labeller; recording answers goes through merge_labels)."""
    return [_write_file(folder, name, where, items) for where, items in sorted(rows.items())]


def _write_file(folder: Path, name: str, where: tuple[str, str], items: dict[str, dict]) -> Path:
    """One label file, lines sorted by item; never through a symbolic link or out of the labels folder."""
    target = folder / name
    path = target / file_name(*where)
    refuse_links(folder, path)
    target.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"item": i, "fields": items[i]}, ensure_ascii=False, sort_keys=True) for i in sorted(items)]
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="\n", dir=target, prefix=f".{path.name}.",
                                     delete=False) as fh:  # a new file of its own (never an existing link)
        fh.write("".join(line + "\n" for line in lines))
    os.chmod(fh.name, 0o644)
    os.replace(fh.name, path)
    return path


def read_sample(folder: Path) -> dict | None:
    """sample.json, every part checked (its datasets and items become file names when recording)."""
    path = folder / SAMPLE
    if not path.is_file():
        return None
    doc = parse_json(read_text(path, LabelError), str(path), LabelError)
    if not isinstance(doc, dict) or doc.get("format") != SAMPLE_FORMAT:
        raise LabelError(f"{path}: not a {SAMPLE_FORMAT} file (written by `tally labels sample`)")
    if (p := sample_problem(doc)) is not None:
        raise LabelError(f"{path}: {p}")
    return doc
