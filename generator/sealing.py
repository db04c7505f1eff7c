"""Private results stay private: sealed records in results/, full records in private storage.

A run's private-item records (request and response) live in private storage, outside the repository:
`ROOT/private/results/<suite>/<run>/responses.jsonl` (mode 0600; `private/` is where `tally commit`
keeps salted item files too). `results/<suite>/<run>/responses.jsonl` keeps what may be published:
public-item records in full and, for each private record, a *sealed record* in its place:

    {"item", "repeat", "attempts", "latency_ms", "usage"  (the call's figures, as stored),
     "sealed": {"format", "record_sha256" (of the full line), "item_commitment" (SHA-256 of the
                item's salted commitment file, or null when the round's private storage is not here)},
     "outcome", "finish_reason", "refusal", "verdicts": [[unit, kind, verdict, points, order], ...],
     "figures": [the suite's per-item figures of this response],
     "answers": [per unit, which of the item's repeats answered alike: "=0", "=1", ...]}

No request, no response text, no rejected response body, no verdict reason, and nothing of the answer
key: a unit naming something of the item and an `order` quoting the key are blinded (`blind_rows`);
the private scores are recomputed from the stored figures. Records sealed in format v1 (full units and
`order`s) are upgraded in place by `seal` without their private records.

Reading a run (`read_run`): when its private file is here (or its round's revealed responses,
generator/commit/responses.py), every sealed record is replaced by the
full line whose SHA-256 it names (the bytes before sealing, exactly) and private lines with no sealed
record yet (written by `tally run`) follow: scorer A and scorer B rescore everything. When it is not
here, the sealed records are scored from their stored verdicts (`stub_score`), scorer B checks the
public records only, and every output says so. A sealed record whose full line is missing or changed
is an error, never a silent fallback.

`seal` (the `tally results seal` command) makes the split for existing results; it is idempotent.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from .errors import ErrorLog
from .stored_files import StoredFileError, deflate_for, inflate, read_stored

if TYPE_CHECKING:
    from .suite_api import Suite

PRIVATE_RESULTS = ("private", "results")
SEALED_FORMAT = "tally-sealed-record-v2"
SEALED_FORMATS = ("tally-sealed-record-v1", SEALED_FORMAT)
_MARK = b'"sealed":{'
# Attempt fields a sealed record keeps: the call's figures; never a rejected response's body.
ATTEMPT_FIELDS = ("error", "latency_ms", "start", "status")
_ID_UNIT = re.compile(r"([^:]*[0-9][^:]*):(.+)")  # "<something of the item>:<what>", e.g. "T09:outside_period"


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
    from .commit.responses import revealed_file
    from .ids import is_safe_id

    try:
        round_name = json.loads((responses.parent / "run.json").read_bytes()).get("round")
    except (OSError, ValueError, AttributeError):
        return None
    if not is_safe_id(round_name):
        return None
    return revealed_file(responses.parents[3], round_name, responses.parent.name)


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


def blind_rows(plugin: Suite, rows: list) -> list[list]:
    """A response's verdict rows as a sealed record shows them: nothing from which the answer key can
    be read. A unit that names something of the item ("T09:outside_period": a transaction and its
    fault) shows only its position and what it is ("#4:outside_period"); `order` is kept only where the
    suite's `sealed_order_kept` says it is the model's own figure or a comparison; a suite that does not
    say shows positions only ("#4") and no `order`. The kind, verdict and points stay: the private
    scores are recomputed from them and from the stored figures."""
    out = []
    for k, v in enumerate(rows):
        keep = plugin.sealed_order_kept(v.unit)
        if keep is None:
            out.append([f"#{k}", v.kind, v.verdict, v.points, ""])
            continue
        m = _ID_UNIT.fullmatch(v.unit)
        out.append([f"#{k}:{m.group(2)}" if m else v.unit, v.kind, v.verdict, v.points, v.order if keep else ""])
    return out


def sealed_attempts(attempts: object) -> list:
    """A record's attempts with the call's figures only (a rejected response's body is dropped)."""
    if not isinstance(attempts, list):
        return []
    return [{k: a[k] for k in ATTEMPT_FIELDS if k in a} if isinstance(a, dict) else a for a in attempts]


def stub_figures(record: dict) -> tuple | None:
    """The per-item figures a sealed record stores (format v2), or None (v1: from its rows)."""
    figures = record.get("figures")
    return tuple(figures) if isinstance(figures, list) else None


def stub_rows(record: dict, run_id: str):
    """Verdict rows of a sealed record, as stored (the reason is not stored)."""
    from .score.verdicts import Verdict

    return [Verdict(run_id, record["item"], record["repeat"], str(u), str(k), str(v), int(p), "", str(o))
            for u, k, v, p, o in record["verdicts"]]


def stub_problem(record: dict) -> str | None:
    """Why a sealed record cannot be scored from its stored verdicts, or None."""
    verdicts, answers = record.get("verdicts"), record.get("answers")
    if not isinstance(verdicts, list) or not all(
            isinstance(v, list) and len(v) == 5 and type(v[3]) is int for v in verdicts):
        return "a sealed record's verdicts must be [unit, kind, verdict, points, order] rows"
    if not isinstance(answers, list) or len(answers) != len(verdicts):
        return "a sealed record needs one answer class per verdict row"
    if not isinstance(record.get("outcome"), str):
        return "a sealed record needs its outcome"
    figures = record.get("figures")
    if figures is not None and not (isinstance(figures, list) and all(
            type(f) in (int, float) for f in figures)):
        return "a sealed record's figures must be a list of numbers"
    if record["sealed"].get("format") not in SEALED_FORMATS:
        return f"a sealed record's format must be one of {', '.join(SEALED_FORMATS)}"
    return None


def stub_call_record(record: dict) -> dict:
    """The sealed record with a minimal response, so that the call row is the one of the full record."""
    message = {"refusal": "(sealed)" if record.get("refusal") else None}
    choice = {"finish_reason": record.get("finish_reason") or None, "message": message}
    return {**record, "response": {"choices": [choice]}}


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


# ------------------------------------------------------------------ sealing existing results


def _answer_classes(answers_by_repeat: dict[int, tuple[str, ...]]) -> dict[int, list[str]]:
    """Per repeat, per unit position: the index of the value among the distinct values at that
    position over the item's repeats (equality is all the consistency figures use)."""
    seen: dict[int, list[str]] = {}
    out = {}
    for repeat in sorted(answers_by_repeat):
        classes = []
        for j, value in enumerate(answers_by_repeat[repeat]):
            values = seen.setdefault(j, [])
            if value not in values:
                values.append(value)
            classes.append(f"={values.index(value)}")
        out[repeat] = classes
    return out


def stub_of(record: dict, full_line: bytes, rows: list, answers: list[str], commitment: str | None,
            outcome, plugin) -> dict:
    from .calls import call_row

    row = call_row("", record, outcome)
    stub = {k: record[k] for k in ("item", "repeat", "attempts", "latency_ms", "usage") if k in record}
    stub["attempts"] = sealed_attempts(stub.get("attempts"))
    stub["sealed"] = {"format": SEALED_FORMAT, "record_sha256": line_sha256(full_line),
                      "item_commitment": commitment}
    stub["outcome"] = outcome.status
    stub["finish_reason"] = row[11]
    stub["refusal"] = bool(row[12])
    stub["verdicts"] = blind_rows(plugin, rows)
    stub["figures"] = list(plugin.item_figures(rows))
    stub["answers"] = answers
    return stub


def rows_by_record(run_score) -> dict[tuple[str, int], list]:
    """A scored run's verdict rows (scorer A's) by (item, repeat)."""
    rows: dict[tuple[str, int], list] = {}
    for v in run_score.verdicts().rows():
        rows.setdefault((v.item, v.repeat), []).append(v)
    return rows


def stubs_of(plugin, half: dict[str, str], rows: dict[tuple[str, int], list], parsed: list[tuple[bytes, dict]],
             commitments: dict[str, str]) -> dict[str, dict]:
    """The sealed record `seal` makes of each private record of a run, by the SHA-256 of its full line:
    `parsed` is every (full line, record) of the run, `rows` its verdict rows by (item, repeat), and an
    item's answer classes are taken over its private records' repeats."""
    from .parse.response import read_outcome
    from .rescore import _answers

    answers: dict[str, dict[int, tuple[str, ...]]] = {}
    outcomes = {}
    for _line, record in parsed:
        if half.get(record["item"]) == "private":
            key = (record["item"], record["repeat"])
            outcomes[key] = read_outcome(record, plugin.extract_answer, plugin.answer_what)
            answers.setdefault(key[0], {})[key[1]] = _answers(plugin, outcomes[key], rows.get(key, []))
    classes = {item: _answer_classes(a) for item, a in answers.items()}
    out = {}
    for line, record in parsed:
        if half.get(record["item"]) == "private":
            key = (record["item"], record["repeat"])
            out[line_sha256(line)] = stub_of(record, line, rows.get(key, []), classes[key[0]][key[1]],
                                             commitments.get(key[0]), outcomes[key], plugin)
    return out


def upgrade_stub(stub: dict, plugin, run_id: str) -> dict:
    """A sealed record of an earlier format as `stub_of` makes it now, from what it stores (its private
    record need not be here): figures from its rows, then the rows blinded and the attempts trimmed."""
    if stub["sealed"].get("format") == SEALED_FORMAT:
        return stub
    rows = stub_rows(stub, run_id)
    out = dict(stub, attempts=sealed_attempts(stub.get("attempts")), verdicts=blind_rows(plugin, rows),
               figures=list(plugin.item_figures(rows)))
    out["sealed"] = dict(stub["sealed"], format=SEALED_FORMAT)
    return out


def write_private(path: Path, data: bytes) -> None:
    """Owner-only file (0600) in owner-only folders (0700), replaced atomically."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def _replace(path: Path, data: bytes) -> None:
    """Store the records `data` at `path` in the file's own form (plain, or gzip for a .gz file)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(deflate_for(path, data))
    os.replace(tmp, path)


def _seal_turns(run_dir: Path, private_dir: Path, half: dict) -> int:
    """Move the turns of private items' tool-calling episodes (turns.jsonl) to private storage, after
    the ones already there; return how many moved. The episode's record is sealed like any other."""
    path = run_dir / "turns.jsonl"
    if not path.is_file():
        return 0
    keep: list[bytes] = []
    move: list[bytes] = []
    for line in _lines(path.read_bytes()):
        item = orjson.loads(line).get("item")
        (move if half.get(item) == "private" else keep).append(line)
    if move:
        target = private_dir / "turns.jsonl"
        old = target.read_bytes() if target.is_file() else b""
        write_private(target, old + b"".join(x + b"\n" for x in move))
        _replace(path, b"".join(x + b"\n" for x in keep))
    return len(move)


def _upgrade_run(responses: Path, plugin, run_id: str, commitments: dict[str, str]) -> None:
    """Sealed records of an earlier format upgraded, and their item commitment hashes set from the
    round's salted item files when these are here (a round committed again has new salts)."""
    before = read_stored(responses)
    out = []
    for line in before.split(b"\n"):
        if sealed_info(line) is not None:
            stub = orjson.loads(line)
            if stub_problem(stub) is None:
                new = dict(upgrade_stub(stub, plugin, run_id))
                if commitments.get(stub["item"]):
                    new["sealed"] = dict(new["sealed"], item_commitment=commitments[stub["item"]])
                if new != stub:
                    line = orjson.dumps(new, option=orjson.OPT_SORT_KEYS)
        out.append(line)
    after = b"\n".join(out)
    if after != before:
        _replace(responses, after)


@dataclass
class SealReport:
    run: str
    public: int
    private: int
    sealed_now: int  # private records newly moved to private storage
    commitments: bool  # an item commitment hash for every private record
    turns_moved: int = 0  # turns of private tool-calling episodes newly moved to private storage


def seal_suite(root: Path, suite_name: str) -> list[SealReport]:
    """Split every run of a suite (see the module docstring); running it again changes nothing. A run
    that is sealed while its private storage is not here is left as it is."""
    from .commit.responses import item_commitments
    from .pipeline import load, score

    loaded = load(root, [suite_name])
    scored = score(loaded, root, gate=False, check_sealed=False)  # the sealed records are made again here
    reports = []
    for ls, ss in zip(loaded, scored, strict=True):
        half = {i.id: i.half for i in ls.items}
        by_run = {r.run.id: r for r in ss.runs}
        for run in ls.runs:
            rs = by_run[run.id]
            if rs.sealed:  # private storage not here: nothing to move; earlier sealed formats are upgraded
                _upgrade_run(run.responses, ls.plugin, run.id, item_commitments(root, str(run.meta.get("round", ""))))
                reports.append(SealReport(run.id, rs.responses - rs.sealed, rs.sealed, 0, False))
                continue
            parsed = [(line, json.loads(line)) for line in _lines(read_run(run.responses, ErrorLog(root)).data)]
            commitments = item_commitments(root, str(run.meta.get("round", "")))
            stubs = stubs_of(ls.plugin, half, rows_by_record(rs), parsed, commitments)
            public_out, private_out = [], []
            for line, record in parsed:
                if half.get(record["item"]) != "private":
                    public_out.append(line)
                    continue
                public_out.append(orjson.dumps(stubs[line_sha256(line)], option=orjson.OPT_SORT_KEYS))
                private_out.append(line)
            before = read_stored(run.responses)
            moved = sum(1 for line in _lines(before) if sealed_info(line) is None) - (len(public_out) - len(private_out))
            if private_out:
                write_private(private_file(root, suite_name, run.id), b"".join(x + b"\n" for x in private_out))
            public_bytes = b"".join(line + b"\n" for line in public_out)
            if public_bytes != before:
                _replace(run.responses, public_bytes)
            turns = _seal_turns(run.responses.parent, private_file(root, suite_name, run.id).parent, half)
            named = all(commitments.get(json.loads(x)["item"]) for x in private_out)
            reports.append(SealReport(run.id, len(public_out) - len(private_out), len(private_out), moved, named, turns))
    return reports
