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
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputProblem
from ..ids import is_safe_id

CONFIG = "labels.toml"
SAMPLE = "sample.json"
FLAGGED = "flagged.jsonl"
SAMPLE_FORMAT = "tally-label-sample-v1"


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
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LabelError(f"{path}: not valid TOML: {exc}") from None
    names = {}
    for role in ("first", "second", "adjudicator"):
        name = doc.get(role)
        if not isinstance(name, str) or not is_safe_id(name):
            raise LabelError(f"{path}: `{role}` must name a labeller (letters, digits, '-', '_', '.')")
        names[role] = name
    if len(set(names.values())) != 3:
        raise LabelError(f"{path}: first, second and adjudicator must be three different labellers")
    share = doc.get("share", 0.3)
    if not isinstance(share, (int, float)) or not 0 < share <= 1:
        raise LabelError(f"{path}: `share` must be a number in (0, 1]")
    seed = doc.get("seed", 0)
    simulated = doc.get("simulated", [])
    if not isinstance(seed, int) or not isinstance(simulated, list) or not all(isinstance(s, str) for s in simulated):
        raise LabelError(f"{path}: `seed` must be an integer and `simulated` a list of labeller names")
    return LabelConfig(folder, names["first"], names["second"], names["adjudicator"], float(share), seed,
                       tuple(simulated), str(doc.get("note", "")))


def read_labels(folder: Path, name: str) -> Labels:
    """Every `<dataset>.<half>.jsonl` of one labeller (none: an empty set)."""
    out = Labels(name)
    for path in sorted((folder / name).glob("*.jsonl")):
        if path.name == FLAGGED:
            continue
        parts = path.name.split(".")
        if len(parts) != 3 or parts[1] not in ("public", "private"):
            raise LabelError(f"{path}: a label file is named <dataset>.<public|private>.jsonl")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise LabelError(f"{where}: not valid JSON: {exc}") from None
            if not isinstance(row, dict) or not isinstance(row.get("item"), str) or not isinstance(row.get("fields"), dict):
                raise LabelError(f'{where}: a label line is {{"item": ID, "fields": {{NAME: ANSWER}}}}')
            item = row["item"]
            if item in out.items:
                raise LabelError(f"{where}: item {item} is labelled twice by {name}")
            out.items[item] = (parts[0], parts[1])
            for fname, answer in row["fields"].items():
                out.answers[(item, fname)] = answer
    return out


def read_flagged(folder: Path, name: str) -> list[dict]:
    path = folder / name / FLAGGED
    if not path.is_file():
        return []
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise LabelError(f"{path}:{n}: not valid JSON: {exc}") from None
            if not isinstance(row, dict) or not isinstance(row.get("dataset"), str):
                raise LabelError(f'{path}:{n}: a flagged line is {{"dataset", "origin", "reasons"}}')
            rows.append(row)
    return rows


def write_labels(folder: Path, name: str, rows: dict[tuple[str, str], dict[str, dict]]) -> list[Path]:
    """Write one labeller's files: (dataset, half) -> item -> {field: answer}; lines sorted by item."""
    out = []
    (folder / name).mkdir(parents=True, exist_ok=True)
    for (dataset, half), items in sorted(rows.items()):
        path = folder / name / f"{dataset}.{half}.jsonl"
        lines = [json.dumps({"item": i, "fields": items[i]}, ensure_ascii=False, sort_keys=True) for i in sorted(items)]
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8", newline="\n")
        out.append(path)
    return out


def read_sample(folder: Path) -> dict | None:
    path = folder / SAMPLE
    if not path.is_file():
        return None
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("format") != SAMPLE_FORMAT:
        raise LabelError(f"{path}: not a {SAMPLE_FORMAT} file (written by `tally labels sample`)")
    return doc
