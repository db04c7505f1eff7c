"""`tally results seal`: the split of existing results into sealed records and private storage.

Every private-item record of a run moves to private storage (generator/sealing.py) and leaves its
sealed record (generator/sealed_record.py) in `results/`; the turns of private tool-calling episodes
move too. Idempotent: a run sealed already changes nothing, and records sealed in an earlier format are
upgraded in place, without their private records.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import orjson

from .commit import REVEAL
from .commit.layout import read_manifest, round_dir
from .commit.responses import item_commitments
from .errors import ErrorLog
from .inputs.ids import is_safe_id
from .inputs.stored_files import deflate_for, read_stored
from .pipeline.stages import load, score
from .sealed_record import opened, rows_by_record, stub_problem, stubs_of, upgrade_stub
from .sealing import _lines, line_sha256, private_file, read_run, sealed_info


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


def _upgrade_run(responses: Path, plugin, run_id: str, commitments: dict[str, str], items: dict) -> None:
    """Sealed records of an earlier format upgraded (their box closed with their item), and their item
    commitment hashes set from the round's salted item files when these are here (a round committed
    again has new salts)."""
    before = read_stored(responses)
    out = []
    for line in before.split(b"\n"):
        if sealed_info(line) is not None:
            stub = orjson.loads(line)
            item = items.get(stub.get("item"))
            view = opened(stub, item.line)[0] if item is not None else None
            if item is not None and view is not None and stub_problem(view) is None:
                new = dict(upgrade_stub(stub, plugin, run_id, item.line))
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
    revealed: str = ""  # the revealed round the run belongs to: its sealed records are left as committed


def revealed_round(root: Path, suite: str, meta: dict) -> str:
    """The round named in a run's run.json when that round is one of the suite's and is revealed (its
    items are public and its signed reveal names the responses commitment), else ""."""
    name = meta.get("round")
    if not isinstance(name, str) or not is_safe_id(name) or not (round_dir(root, name) / REVEAL).is_file():
        return ""
    manifest = read_manifest(root, name)
    return name if isinstance(manifest, dict) and manifest.get("benchmark") == suite else ""


def seal_suite(root: Path, suite_name: str) -> list[SealReport]:
    """Split every run of a suite (see the module docstring); running it again changes nothing. A run
    that is sealed while its private storage is not here is upgraded in place; a run of a revealed round
    is left as it is (its sealed records are committed, and its items are public)."""
    loaded = load(root, [suite_name])
    scored = score(loaded, root, gate=False, check_sealed=False)  # the sealed records are made again here
    reports = []
    for ls, ss in zip(loaded, scored, strict=True):
        items = {i.id: i for i in ls.items}
        half = {i.id: i.half for i in ls.items}
        by_run = {r.run.id: r for r in ss.runs}
        for run in ls.runs:
            rs = by_run[run.id]
            if revealed := revealed_round(root, suite_name, run.meta):
                reports.append(SealReport(run.id, rs.responses - rs.sealed, rs.sealed, 0, False, revealed=revealed))
                continue
            if rs.sealed:  # private storage not here: nothing to move; earlier sealed formats are upgraded
                _upgrade_run(run.responses, ls.plugin, run.id, item_commitments(root, str(run.meta.get("round", ""))),
                             items)
                reports.append(SealReport(run.id, rs.responses - rs.sealed, rs.sealed, 0, False))
                continue
            parsed = [(line, json.loads(line)) for line in _lines(read_run(run.responses, ErrorLog(root)).data)]
            commitments = item_commitments(root, str(run.meta.get("round", "")))
            stubs = stubs_of(ls.plugin, items, rows_by_record(rs), parsed, commitments)
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
