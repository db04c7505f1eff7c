"""What every importer of another harness's output shares: honest records and provenance.

Tally sent no request for an imported output, so none is stored (`request` is null) and no latency is
known; the one attempt has status 200 with a `note` saying it stands for a file holding the model's
output (a failure the other harness recorded is a failed call instead). Each record keeps `source`:
the file it came from, its SHA-256 and, for a file of several outputs, the line or sample. `run.json`
says which harness wrote the files, its version where the files say it, what read them, and the
SHA-256 of every input file (`imported`), and has no `prompt_sha256` or `sampling`: Tally's prompt was
not the one sent. A file in the wrong shape is ONE error naming the file (and the first bad line),
never one per line; every error is collected before anything is written.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..inputs.ids import id_problem
from ..sealing import private_file
from .importer import BatchImportError, ImportOutcome
from .plan import SuitePlan, load_plan
from .runner import RunSpec, harness_version, run_meta
from .store import RunStore

MAX_IMPORT_BYTES = 256 * 1024 * 1024  # one input file at most (an eval log holds every sample's transcript)
SHOWN = 80


@dataclass
class Output:
    """One model output found in another harness's files, for (item, repeat)."""

    item: str
    repeat: int
    content: str | None  # the model's text; None for a failure the harness recorded
    where: str  # file[:line] (or file, sample ...) for errors
    source: dict  # {"file", "sha256", ...} stored with the record
    error: str | None = None
    start: str | None = None
    finish_reason: str = "stop"
    usage: dict | None = None


def read_input(path: Path, limit: int = MAX_IMPORT_BYTES) -> bytes:
    """The bytes of an input file (a regular file of at most `limit` bytes); BatchImportError naming it."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise BatchImportError([f"{path}: not a regular file"])
        if st.st_size > limit:
            raise BatchImportError([f"{path}: {st.st_size:,} bytes, more than the {limit:,} an imported file may hold"])
        with open(path, "rb") as fh:
            return fh.read(limit + 1)[:limit]
    except OSError as exc:
        raise BatchImportError([f"{path}: cannot be read: {exc.strerror or exc}"]) from None


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cut(value: object) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def record(out: Output, model: str, what: str) -> dict:
    """The response record of an imported output (see the module docstring)."""
    note = f"not an HTTP call: {what} (status 200 stands for a file that holds the model's output)"
    attempt: dict = {"start": out.start, "status": 200, "error": None, "latency_ms": None, "note": note}
    response: dict | None = None
    if out.content is None:
        attempt["error"] = (out.error or "the other harness recorded no output")[:300]
    else:
        response = {"object": "tally.imported", "model": model,
                    "choices": [{"index": 0, "finish_reason": out.finish_reason,
                                 "message": {"role": "assistant", "content": out.content}}]}
        if out.usage is not None:
            response["usage"] = out.usage
    return {"item": out.item, "repeat": out.repeat, "request": None, "attempts": [attempt], "response": response,
            "usage": out.usage if response is not None else None, "latency_ms": None, "source": out.source}


def keyed(outputs: list[Output], plan: SuitePlan, errors: list[str]) -> dict[tuple[str, int], Output]:
    """Outputs by (item, repeat): an item not in the run's half of the suite, or a second output for
    the same (item, repeat), is an error naming where it was found."""
    known = {i["id"] for i in plan.items}
    out: dict[tuple[str, int], Output] = {}
    for o in outputs:
        if (p := id_problem(o.item, "item id")) is not None:
            errors.append(f"{o.where}: {p}")
        elif o.item not in known:
            errors.append(f"{o.where}: no item {cut(o.item)!r} in this run's half of suite {plan.suite.name!r}")
        elif (o.item, o.repeat) in out:
            errors.append(f"{o.where}: a second output for item {o.item!r} repeat {o.repeat} "
                          f"(first in {out[(o.item, o.repeat)].where})")
        else:
            out[(o.item, o.repeat)] = o
    return out


def utc_time(value: object) -> str | None:
    """An ISO 8601 time (or seconds since 1970) as run.json writes times (UTC, Z), or None."""
    try:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            when = dt.datetime.fromtimestamp(value, dt.timezone.utc)
        elif isinstance(value, str):
            when = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
            when = when if when.tzinfo is not None else when.replace(tzinfo=dt.timezone.utc)
        else:
            return None
    except (ValueError, OverflowError, OSError):
        return None
    if not dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc) <= when <= dt.datetime.now(dt.timezone.utc):
        return None  # not when a language model ran: the run is dated when it is imported
    return when.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def store(spec: RunSpec, outputs: list[Output], errors: list[str], provenance: dict, what: str,
          description: str, times: dict[str, str | None] | None = None) -> ImportOutcome:
    """Check the outputs against the suite and store them as a run (nothing when there is any error).
    `times`: `started` and `finished` of the other harness's run when its files say them (else the
    run is dated when it is imported)."""
    if (problem := id_problem(spec.id, "run id")) is not None:
        errors.insert(0, problem + " (choose one with --run-id)")
    plan = load_plan(spec.root, spec.suite, spec.half)
    found = keyed(outputs, plan, errors)
    if not found and not errors:
        errors.append("no model output found in the files given")
    if errors:
        raise BatchImportError(errors)
    if spec.description is None:
        spec.description = description
    private_items = frozenset(i["id"] for i in plan.items if i.get("half") == "private")
    run_store = RunStore(Path(spec.root) / "results" / spec.suite / spec.id,
                         private_file(Path(spec.root), spec.suite, spec.id) if private_items else None, private_items)
    meta = run_meta(spec, plan.template.sha256(), plan.suite.version, plan.anchors)
    for key in ("prompt_sha256", "sampling"):  # Tally's prompt and settings were not the ones sent
        meta.pop(key, None)
    meta["imported"] = {**provenance, "by": f"tally import {harness_version()}"}
    known = {k: v for k, v in (times or {}).items() if v is not None}
    if "started" in known:  # when the other harness ran, not when its files were imported
        meta.update(known)
        meta["imported"]["at"] = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    done = run_store.open(meta)
    fresh = [record(o, spec.model, what) for key, o in sorted(found.items()) if key not in done]
    try:
        for rec in fresh:
            run_store.append(rec)
        run_store.finish(known.get("finished") if "started" in known else None)
    finally:
        run_store.close()
    failed = sum(1 for r in fresh if r["response"] is None)
    return ImportOutcome(spec.id, run_store.dir, len(found), len(fresh), len(found) - len(fresh), failed)


def files_provenance(hashed: list[tuple[Path, bytes]]) -> list[dict]:
    """{"file", "sha256", "bytes"} of each input file, by name, in the order given."""
    return [{"file": p.name, "sha256": sha256(data), "bytes": len(data)} for p, data in hashed]
