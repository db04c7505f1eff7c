"""`tally import`: OpenAI Batch API output files into a stored run.

A batch output line is {"custom_id": ..., "response": {"status_code": N, "body": {...}} | null,
"error": {...} | null}. `custom_id` names the item, "ITEM" (repeat 0) or "ITEM:REPEAT". Each line
becomes one response record with a single attempt (the Batch API reports no latency, so
`latency_ms` is null and `start` is the body's `created` time when there is one). The same rules
as `tally run` apply: a 2xx body that is not a JSON object or that names another model is
recorded as an error, never accepted.

With `--requests` (the batch input file), each stored request is the body that was sent, and its
messages must be the suite's prompt for the item; without it, the request is rebuilt from the
suite's prompt. Every bad line is reported with its file and line, and then nothing is written.
Importing a file again skips the records already stored. `run.json` records what was imported
(`imported`: the files' names, SHA-256 and sizes, and whether the requests are as sent or rebuilt).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from generator.inputs.ids import id_problem

from ..sealing import private_file
from .client import BODY_KEEP_CHARS, parse_body, pinning_error
from .plan import SuitePlan, load_plan
from .runner import RunSpec, harness_version, run_meta, usage_of
from .store import RunStore


class BatchImportError(ValueError):
    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__(f"{len(errors)} bad line(s); first: {errors[0]}")


@dataclass
class ImportOutcome:
    run_id: str
    run_dir: Path
    lines: int
    stored: int
    skipped: int
    failed: int


def _key(custom_id: object, plan_ids: set[str]) -> tuple[str, int] | str:
    """(item, repeat) or why `custom_id` can't be one."""
    if not isinstance(custom_id, str) or not custom_id:
        return "custom_id must be a non-empty string"
    item, sep, repeat = custom_id.partition(":")
    if sep and not (repeat.isdigit() and int(repeat) < 1000 and str(int(repeat)) == repeat):
        return f"custom_id {custom_id[:80]!r}: the repeat after ':' must be an integer from 0 to 999"
    if item not in plan_ids:
        return f"custom_id {custom_id[:80]!r}: no item {item[:80]!r} in this run's half of the suite"
    return item, int(repeat) if sep else 0


def _lines(path: Path, errors: list[str]):
    try:
        data = path.read_bytes()
    except OSError as exc:
        errors.append(f"{path}: {exc.strerror or exc}")
        return
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            errors.append(f"{path}:{number}: not valid JSON ({exc})")
            continue
        if not isinstance(value, dict):
            errors.append(f"{path}:{number}: a line must be a JSON object")
            continue
        yield number, value


def _file_facts(path: Path) -> dict:
    """{"file", "sha256", "bytes"} of an input file (read again, in blocks: it was read whole already)."""
    h, size = hashlib.sha256(), 0
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
            size += len(block)
    return {"file": path.name, "sha256": h.hexdigest(), "bytes": size}


def read_requests(path: Path, plan: SuitePlan, model: str, errors: list[str]) -> dict[tuple[str, int], dict]:
    out: dict[tuple[str, int], dict] = {}
    items = {i["id"]: i for i in plan.items}
    for number, line in _lines(path, errors):
        where = f"{path}:{number}"
        key = _key(line.get("custom_id"), set(items))
        body = line.get("body")
        if isinstance(key, str):
            errors.append(f"{where}: {key}")
        elif not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            errors.append(f"{where}: body must be a chat-completions request with messages")
        elif body.get("model") != model:
            errors.append(f"{where}: the request is for model {str(body.get('model'))[:80]!r}, not {model!r}")
        elif body["messages"] != plan.messages(items[key[0]]):
            errors.append(f"{where}: the messages are not the suite's prompt for item {key[0]!r}")
        elif key in out:
            errors.append(f"{where}: second request for custom_id {line['custom_id']!r}")
        else:
            out[key] = body
    return out


def _record(line: dict, key: tuple[str, int], request: dict, accepted: tuple[str, ...]) -> dict | str:
    response, error = line.get("response"), line.get("error")
    attempt: dict = {"start": None, "status": None, "error": None, "latency_ms": None}
    body = None
    if response is None:
        if not isinstance(error, dict):
            return "a line without a response needs an error object"
        attempt["error"] = f"batch error: {str(error.get('code'))[:40]}: {str(error.get('message'))[:120]}"
    elif not isinstance(response, dict) or type(response.get("status_code")) is not int:
        return "response must be an object with an integer status_code"
    else:
        attempt["status"] = response["status_code"]
        raw = response.get("body")
        text = raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False)
        if 200 <= attempt["status"] <= 299:
            body = raw if isinstance(raw, dict) else parse_body(text.encode("utf-8"))
            problem = "malformed body" if body is None else pinning_error(body, accepted)
            if problem is not None:
                attempt["error"], body = problem, None
        if body is None:
            attempt["body"] = text[:BODY_KEEP_CHARS]
        elif type(body.get("created")) is int and 0 < body["created"] < 10**10:
            created = dt.datetime.fromtimestamp(body["created"], dt.timezone.utc)
            attempt["start"] = created.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    return {"item": key[0], "repeat": key[1], "request": request, "attempts": [attempt],
            "response": body, "usage": usage_of(body), "latency_ms": None}


def import_batch(spec: RunSpec, batch_files: list[Path], requests_file: Path | None = None) -> ImportOutcome:
    if (problem := id_problem(spec.id, "run id")) is not None:
        raise BatchImportError([problem + " (choose one with --run-id)"])
    plan = load_plan(spec.root, spec.suite, spec.half)
    items = {i["id"]: i for i in plan.items}
    model = spec.provider.model(spec.model)
    accepted = (spec.model, *model.served_as)
    errors: list[str] = []
    requests = read_requests(requests_file, plan, spec.model, errors) if requests_file else None
    records: dict[tuple[str, int], dict] = {}
    where_of: dict[tuple[str, int], str] = {}
    lines = 0
    for path in batch_files:
        for number, line in _lines(Path(path), errors):
            lines += 1
            where = f"{path}:{number}"
            line = plan.plugin.import_line(line, spec.model)  # a suite may read another harness's shape
            key = _key(line.get("custom_id"), set(items))
            if isinstance(key, str):
                errors.append(f"{where}: {key}")
                continue
            if key in records:
                errors.append(f"{where}: second line for custom_id {line['custom_id']!r} (first at {where_of[key]})")
                continue
            if requests is not None and key not in requests:
                errors.append(f"{where}: custom_id {line['custom_id']!r} is not in the requests file")
                continue
            request = requests[key] if requests is not None else \
                {"model": spec.model, "messages": plan.messages(items[key[0]]), **spec.sampling}
            record = _record(line, key, request, accepted)
            if isinstance(record, str):
                errors.append(f"{where}: {record}")
                continue
            records[key], where_of[key] = record, where
    if not records and not errors:
        errors.append("no batch lines found")
    if errors:
        raise BatchImportError(errors)
    if spec.description is None:
        spec.description = (f"{spec.model} on {spec.provider.title}, imported by tally import from OpenAI "
                            "Batch API output; the Batch API reports no latencies.")
    private_items = frozenset(i["id"] for i in plan.items if i.get("half") == "private")
    store = RunStore(Path(spec.root) / "results" / spec.suite / spec.id,
                     private_file(Path(spec.root), spec.suite, spec.id) if private_items else None, private_items)
    meta = run_meta(spec, plan.template.sha256(), plan.suite.version, plan.anchors)
    meta["imported"] = {"from": "OpenAI Batch API output", "harness": "OpenAI Batch API", "harness_version": None,
                        "requests": "as sent (--requests)" if requests is not None else "rebuilt from the suite's prompt",
                        "files": [_file_facts(Path(p)) for p in [*batch_files, *([requests_file] if requests_file else [])]],
                        "by": f"tally import {harness_version()}"}
    done = store.open(meta)
    try:
        fresh = [r for key, r in sorted(records.items()) if key not in done]
        failed = 0
        for record in fresh:
            too_large = store.append(record)
            failed += too_large or record["response"] is None
        store.finish()
    finally:
        store.close()
    return ImportOutcome(spec.id, store.dir, lines, len(fresh), len(records) - len(fresh), failed)
