"""Private results stay private: sealed records in results/, full records in private storage.

A run's private-item records (request and response) live in private storage, outside the repository:
`ROOT/private/results/<suite>/<run>/responses.jsonl` (mode 0600; `private/` is where `tally commit`
keeps salted item files too). `results/<suite>/<run>/responses.jsonl` keeps what may be published:
public-item records in full and, for each private record, a *sealed record* in its place (its format:
generator/sealed_record.py; the command that makes them: generator/seal_command.py).

Reading a run (`read_run`): when its private file is here (or its round's revealed responses,
generator/commit/responses.py), every sealed record is replaced by the
full line whose SHA-256 it names (the bytes before sealing, exactly) and private lines with no sealed
record yet (written by `tally run`) follow: scorer A and scorer B rescore everything. When it is not
here, the sealed records are scored from their stored verdicts (`stub_score`), scorer B checks the
public records only, and every output says so. A sealed record whose full line is missing or changed
is an error, never a silent fallback.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import orjson

from .errors import ErrorLog
from .inputs.stored_files import StoredFileError, inflate, read_stored

PRIVATE_RESULTS = ("private", "results")
_MARK = b'"sealed":{'


def private_file(root: Path, suite: str, run_id: str) -> Path:
    return root.joinpath(*PRIVATE_RESULTS, suite, run_id, "responses.jsonl")


def private_file_of(responses: Path) -> Path:
    """The private file of the run whose public file is ROOT/results/<suite>/<run>/responses.jsonl."""
    run_dir = responses.parent
    return private_file(run_dir.parents[2], run_dir.parent.name, run_dir.name)


def line_sha256(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def sealed_info(line: bytes) -> dict | None:
    """The `sealed` object of a sealed record line, else None (a cheap test first)."""
    if _MARK not in line:
        return None
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    info = record.get("sealed") if isinstance(record, dict) else None
    return info if isinstance(info, dict) else None


def may_hold_sealed(data: bytes) -> bool:
    """Whether any line of `data` may be a sealed record (`sealed_info` is None for every line when not)."""
    return _MARK in data


def is_sealed(record: dict) -> bool:
    return isinstance(record.get("sealed"), dict)


@dataclass
class RunBytes:
    data: bytes
    sealed: int  # sealed records left in `data` (the private file is not here)
    private_here: bool


def _lines(data: bytes) -> list[bytes]:
    return [line for line in data.split(b"\n") if line.strip()]


def merge(public: bytes, private: bytes | None, where: Path, log: ErrorLog) -> RunBytes:
    """The run's bytes to score: see the module docstring."""
    if private is None:
        sealed = sum(1 for line in _lines(public) if sealed_info(line) is not None)
        return RunBytes(public, sealed, False)
    full = {line_sha256(line): line for line in _lines(private)}
    used: set[str] = set()
    out = []
    parts = public.split(b"\n")
    tail = parts.pop() if parts else b""  # bytes after the last newline (a torn line: reported later)
    for number, line in enumerate(parts, start=1):
        info = sealed_info(line)
        if info is None:
            out.append(line)
            continue
        digest = info.get("record_sha256")
        if digest not in full:
            log.add(where, number, "sealed record whose full record is not in private storage (missing or "
                                   f"changed): no private line has SHA-256 {str(digest)[:16]}...")
            out.append(line)
            continue
        used.add(str(digest))
        out.append(full[digest])
    rest = [line for digest, line in full.items() if digest not in used]
    if rest:  # private records not sealed yet (written by `tally run`), unless results/ has that record
        keys = {_key(line) for line in out}
        stale = [line for line in rest if _key(line) in keys]
        if stale:
            log.warn(where, None, f"private storage holds {len(stale)} other record(s) for (item, repeat) pairs "
                                  "that results/ holds in full: the ones in results/ are used (`tally results "
                                  "seal` replaces the old ones)")
        out += [line for line in rest if _key(line) not in keys]
    data = b"".join(line + b"\n" for line in out) + tail
    return RunBytes(data, 0, True)


def revealed_file_of(responses: Path) -> Path | None:
    """The run's private records as revealed with its round (content/commitments/<round>/responses/),
    when its run.json names a round."""
    from .commit import RESPONSES_DIR
    from .commit.layout import round_dir
    from .inputs.ids import is_safe_id

    try:
        round_name = json.loads((responses.parent / "run.json").read_bytes()).get("round")
    except (OSError, ValueError, AttributeError):
        return None
    if not is_safe_id(round_name):
        return None
    return round_dir(responses.parents[3], round_name) / RESPONSES_DIR / f"{responses.parent.name}.jsonl"


def _key(line: bytes) -> tuple[object, object] | None:
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return (record.get("item"), record.get("repeat")) if isinstance(record, dict) else None


def read_run(responses: Path, log: ErrorLog, public: bytes | None = None) -> RunBytes:
    """A run's bytes: the public file merged with its private file, from private storage or, once its
    round's responses are revealed, from the round's folder; the public file alone when neither is here.
    `public`: the public file's bytes as stored (compressed for a .gz file) when the caller has read them
    already (the build cache keys on them)."""
    try:
        public = read_stored(responses) if public is None else inflate(responses, public)
    except StoredFileError as exc:  # a .gz file that cannot be inflated: one error naming it
        log.add(responses, None, str(exc).removeprefix(f"{responses}: "))
        return RunBytes(b"", 0, False)
    if _MARK not in public and not private_file_of(responses).is_file():
        return RunBytes(public, 0, False)
    private = None
    for path in (private_file_of(responses), revealed_file_of(responses)):
        if path is not None and path.is_file():
            private = path.read_bytes()
            break
    return merge(public, private, responses, log)


def as_sealed_like(fresh: bytes, sealed: bytes) -> bytes:
    """`fresh` (full records, e.g. regenerated) with each line replaced by the sealed record at the same
    place in `sealed` when that names the fresh line's SHA-256: equal to `sealed` exactly when the
    fresh records are byte for byte the ones that were sealed (checked without private storage)."""
    fresh_lines, sealed_lines = fresh.split(b"\n"), sealed.split(b"\n")
    out = []
    for k, line in enumerate(fresh_lines):
        info = sealed_info(sealed_lines[k]) if k < len(sealed_lines) else None
        out.append(sealed_lines[k] if info is not None and info.get("record_sha256") == line_sha256(line) else line)
    return b"\n".join(out)
