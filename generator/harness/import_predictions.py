"""`tally import --from predictions`: a folder of per-item prediction files, one file per item.

The item comes from the file's name, by a pattern: `{item}` stands for the item id, `{repeat}` for
an optional repeat number (0 when absent), `*` for any text; the rest must match as written. With
LongListBench's layout, `<doc>_ocr_<system>_predicted.json`, the pattern for one system is
`{item}_ocr_gpt-5.5_predicted.json`. `--item-id` maps the captured text to the suite's id (default
`{item}`, e.g. `llb-{item}`). Each matching file's text (UTF-8) is the model's output as the
message content, unchanged; files in the folder that do not match are left alone and counted.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path

from .import_common import MAX_IMPORT_BYTES, Output, cut, files_provenance, read_input, sha256, store
from .importer import BatchImportError, ImportOutcome
from .runner import RunSpec

WHAT = "a prediction file of another harness"


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """The file-name pattern as a regular expression with groups `item` and `repeat`."""
    if pattern.count("{item}") != 1 or pattern.count("{repeat}") > 1 or "/" in pattern:
        raise BatchImportError([f"--name-pattern {cut(pattern)!r}: it must hold {{item}} once (and {{repeat}} at "
                                "most once), and name files, not folders"])
    out = []
    for token in re.split(r"(\{item\}|\{repeat\}|\*)", pattern):
        out.append({"{item}": "(?P<item>.+?)", "{repeat}": "(?P<repeat>[0-9]{1,3})", "*": ".*?"}.get(token)
                   or re.escape(token))
    return re.compile("".join(out), re.DOTALL)


def _candidates(paths: list[Path], errors: list[str]) -> list[Path]:
    """The files given, and the files of each folder given (not its subfolders); links refused by name."""
    out = []
    for path in paths:
        try:
            mode = path.lstat().st_mode
        except OSError as exc:
            errors.append(f"{path}: cannot be read: {exc.strerror or exc}")
            continue
        if stat.S_ISLNK(mode):
            errors.append(f"{path}: is a symbolic link: prediction files are read from real files only")
        elif stat.S_ISDIR(mode):
            for entry in sorted(path.iterdir()):
                if entry.is_symlink():
                    errors.append(f"{entry}: is a symbolic link: prediction files are read from real files only")
                elif entry.is_file():
                    out.append(entry)
        else:
            out.append(path)
    return out


def import_predictions(spec: RunSpec, paths: list[Path], pattern: str, item_id: str = "{item}",
                       harness: str | None = None, version: str | None = None) -> ImportOutcome:
    """Store each prediction file whose name matches `pattern` as the output for its item; `harness`
    and `version`: the harness that wrote the files, as the operator names it (the files do not say)."""
    if "{item}" not in item_id:
        raise BatchImportError([f"--item-id {cut(item_id)!r}: it must hold {{item}}"])
    regex = pattern_regex(pattern)
    errors: list[str] = []
    outputs: list[Output] = []
    hashed: list[tuple[Path, bytes]] = []
    skipped = 0
    for path in _candidates(paths, errors):
        m = regex.fullmatch(path.name)
        if m is None:
            skipped += 1
            continue
        try:
            data = read_input(path, MAX_IMPORT_BYTES)
        except BatchImportError as exc:
            errors += exc.errors
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[:exc.start].count(b"\n") + 1
            errors.append(f"{path}:{line}: not UTF-8 text (byte {exc.start:,} cannot be decoded): a prediction "
                          "file holds the model's output as text")
            continue
        hashed.append((path, data))
        repeat = int(m.group("repeat")) if m.groupdict().get("repeat") else 0
        item = item_id.replace("{item}", m.group("item"))
        outputs.append(Output(item, repeat, text, str(path), {"file": path.name, "sha256": sha256(data)}))
    if not outputs and not errors:
        errors.append(f"no file matches --name-pattern {cut(pattern)!r} ({skipped} file(s) looked at)")
    provenance = {"from": "per-item prediction files", "harness": harness, "harness_version": version,
                  "name_pattern": pattern, "item_id": item_id, "files": files_provenance(hashed)}
    description = (f"{spec.model}: per-item prediction files written by another harness ({len(outputs)} files "
                   f"named like {pattern!r}), imported by tally import. That harness made the model calls; Tally "
                   "sent no request and knows no latency; each record keeps its file's name and SHA-256.")
    return store(spec, outputs, errors, provenance, WHAT, description)
