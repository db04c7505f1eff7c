"""The private half at publication: sealed records checked against their full records.

A run's private records are published as sealed records (generator/sealed_record.py): the verdicts,
figures and call figures that a reader without private storage scores from. When the full records
are here (private storage, or the round's revealed responses), both scorers rescore them: scorer A
alongside scorer B, through the agreement gate like every public record. Then every sealed record in
`results/` must be exactly the one `tally results seal` makes of its full record today (its item
commitment hash aside, which depends on the round's salted files): the blinded verdict rows, the
figures, the answer classes, the outcome and the call's figures. They are made from scorer A's rows,
and the gate holds scorer B's rows equal to scorer A's on the same records, so a sealed record that
passes holds what both scorers give. A sealed record that differs (edited in `results/`, or sealed
under earlier rules and not sealed again) is an input error naming its file, line, run and item.

When the full records are not here, the sealed records are scored from their stored verdicts and no
scorer re-derives them: `unchecked` counts them, and the site says so (generator/render/gather.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import orjson

from . import sealed_record, sealing
from .errors import ErrorLog
from .inputs.jsonl import jsonl_lines

LISTED = 5  # differing sealed records named per run; the rest are counted


def check_runs(plugin, items: dict, runs: Sequence, log: ErrorLog) -> int:
    """Check the sealed records of every run (RunScore) whose full records were scored; return how
    many were checked (`items`: the suite's items by id). Each difference is added to `log` as an error."""
    return sum(check_run(plugin, items, r, log) for r in runs)


def check_run(plugin, items: dict, run_score, log: ErrorLog) -> int:
    """The sealed records of one scored run compared with what sealing its full records gives."""
    responses: Path = run_score.run.responses
    revealed = sealing.revealed_file_of(responses)
    if run_score.sealed or not (sealing.private_file_of(responses).is_file() or (revealed is not None and revealed.is_file())):
        return 0  # scored from the stored verdicts, or no private record at all: nothing to check, nothing read
    public = responses.read_bytes()
    sealed = [(n, line) for n, line in enumerate(public.split(b"\n"), start=1) if sealing.sealed_info(line) is not None]
    if not sealed:
        return 0
    data = sealing.read_run(responses, ErrorLog(log.root), public).data
    parsed = [(line.raw, line.value) for line in jsonl_lines(data) if line.error is None]  # others: reported by loading
    expected = sealed_record.stubs_of(plugin, items, sealed_record.rows_by_record(run_score), parsed, {})
    run_id = run_score.run.id
    differing = 0
    for number, line in sealed:
        stored = orjson.loads(line)
        want = expected.get(str(stored["sealed"].get("record_sha256")))
        item = items.get(stored.get("item"))
        problem = "its full record is not a private item's" if want is None or item is None else _difference(
            _comparable(_upgraded(stored, plugin, run_id, item.line), item.line), _comparable(want, item.line))
        if problem is None:
            continue
        differing += 1
        if differing <= LISTED:
            log.add(responses, number, f"run {run_id}, item {stored.get('item')!r} repeat {stored.get('repeat')!r}: "
                                       f"the sealed record is not what the scorers give its full record ({problem}); "
                                       "a sealed record is made by `tally results seal` (run it again after a rule "
                                       "change), never edited")
    if differing > LISTED:
        log.add(responses, None, f"run {run_id}: {differing - LISTED} more sealed record(s) differ from what the "
                                 "scorers give their full records")
    return len(sealed)


def _upgraded(stored: dict, plugin, run_id: str, item_line: bytes) -> dict:
    """A sealed record of an earlier format as `tally results seal` would upgrade it (when it can)."""
    if stored.get("sealed", {}).get("format") != sealed_record.SEALED_FORMAT and sealed_record.stub_problem(stored) is None:
        return sealed_record.upgrade_stub(stored, plugin, run_id, item_line)
    return stored


def _comparable(stub: dict, item_line: bytes) -> dict:
    """The record as JSON reads it back, its box opened (one that does not open stays closed, and then
    differs), without its item commitment hash."""
    out = orjson.loads(orjson.dumps(sealed_record.opened(stub, item_line)[0] or stub))
    if isinstance(out.get("sealed"), dict):
        out["sealed"].pop("item_commitment", None)
    return out


def _difference(stored: dict, want: dict) -> str | None:
    """What differs, named (the first verdict row that differs, shown blinded as published), or None."""
    if stored == want:
        return None
    if stored.get("verdicts") != want.get("verdicts"):
        a, b = stored.get("verdicts"), want.get("verdicts") or []
        if not isinstance(a, list) or len(a) != len(b):
            return f"{len(a) if isinstance(a, list) else 'no'} verdict rows stored, {len(b)} rescored"
        k = next(k for k in range(len(b)) if a[k] != b[k])
        return f"verdict row {k}: stored {_row(a[k])}, rescored {_row(b[k])}"
    fields = sorted(k for k in set(stored) | set(want) if stored.get(k) != want.get(k))
    return "its " + ", ".join(fields) + " differ" if len(fields) > 1 else f"its {fields[0]} differs"


def _row(row: object) -> str:
    if isinstance(row, list) and len(row) == 5:
        return f"{row[0]} {row[2]} ({row[3]} points)"
    return repr(row)[:80]
