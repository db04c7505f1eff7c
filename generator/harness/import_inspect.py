"""`tally import --from inspect`: inspect_ai eval logs, read with inspect_ai's own log reader.

An eval log (`.eval` or `.json`, written by `inspect eval`) is read with
`inspect_ai.log.read_eval_log`, so every log format inspect_ai reads is read as it reads it. The log
names its model (`eval.model`, e.g. `openai/gpt-4o`): it must be `--model`, with or without the
provider prefix. Each sample is an output: its item is the sample's `id` (or
`metadata[<--id-field>]`), its repeat the epoch less one, its content `output.completion` (the text
of the first choice), its usage the sample output's token counts; a sample with an `error` is a
failed call. inspect_ai is an optional dependency: `pip install 'tally[import]'`.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from ..inputs.stored_files import MAX_INFLATED_BYTES
from .import_common import Output, cut, files_provenance, read_input, sha256, store, utc_time
from .importer import BatchImportError, ImportOutcome
from .runner import RunSpec

WHAT = "a sample of an inspect_ai eval log"
SHAPE = "not an inspect_ai eval log that inspect_ai's reader can read (an .eval or .json log written by `inspect eval`)"


def _reader():
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise BatchImportError(["reading inspect_ai eval logs needs the inspect_ai library: "
                                "pip install 'tally[import]' (or pip install inspect_ai)"]) from None
    return read_eval_log


def _version() -> str | None:
    try:
        import inspect_ai
    except ImportError:
        return None
    return str(getattr(inspect_ai, "__version__", "")) or None


def _usage(output) -> dict | None:
    usage = getattr(output, "usage", None)
    inp, outp = getattr(usage, "input_tokens", None), getattr(usage, "output_tokens", None)
    if type(inp) is int and type(outp) is int and inp >= 0 and outp >= 0:
        return {"prompt_tokens": inp, "completion_tokens": outp}
    return None


def _finish(output) -> str:
    choices = getattr(output, "choices", None) or []
    reason = getattr(choices[0], "stop_reason", None) if choices else None
    return {"max_tokens": "length", "model_length": "length"}.get(str(reason), str(reason or "stop"))


def _zip_bounds(path: Path, data: bytes) -> None:
    """A binary log (.eval, a zip file) whose members would inflate past the cap of stored files (a zip
    bomb) is refused before inspect_ai's reader opens it (a zip's reader stops at each member's size)."""
    if not data.startswith(b"PK"):
        return
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            size = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise BatchImportError([f"{path}: {SHAPE} (not a readable zip file: {cut(str(exc))})"]) from None
    if size > MAX_INFLATED_BYTES:
        raise BatchImportError([f"{path}: inflates to {size:,} bytes, more than the {MAX_INFLATED_BYTES:,} an "
                                "imported log may hold (a zip bomb?)"])


def read_log(path: Path, data: bytes, model: str, id_field: str | None) -> tuple[list[Output], dict]:
    """The outputs of one eval log and its facts; BatchImportError with ONE error naming the file."""
    read_eval_log = _reader()
    _zip_bounds(path, data)
    try:
        log = read_eval_log(str(path))
    except Exception as exc:  # the reader's own errors (JSON, zip, validation): the file is not a log
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise BatchImportError([f"{path}: {SHAPE} ({cut(first)})"]) from None
    named = str(getattr(log.eval, "model", "") or "")
    if named != model and not named.endswith("/" + model):
        raise BatchImportError([f"{path}: the log is of model {cut(named)!r}, not {model!r}"])
    if not log.samples:
        raise BatchImportError([f"{path}: the log holds no samples (was it written without samples?)"])
    digest = sha256(data)
    out = []
    for sample in log.samples:
        where = f"{path}, sample {cut(sample.id)} epoch {sample.epoch}"
        metadata = sample.metadata or {}
        item = sample.id if id_field is None else metadata.get(id_field)
        if not isinstance(item, (str, int)) or isinstance(item, bool):
            raise BatchImportError([f"{where}: the sample's metadata has no {id_field!r} to name its item"])
        error = getattr(sample, "error", None)
        output = sample.output
        content = None if error is not None else output.completion
        started = getattr(sample, "started_at", None)
        out.append(Output(str(item), int(sample.epoch) - 1, content, where,
                          {"file": path.name, "sha256": digest, "sample": sample.id, "epoch": sample.epoch,
                           "uuid": getattr(sample, "uuid", None)},
                          error=f"inspect_ai: {cut(getattr(error, 'message', error))}" if error is not None else None,
                          start=started if isinstance(started, str) else None,
                          finish_reason=_finish(output), usage=_usage(output)))
    packages = getattr(log.eval, "packages", None) or {}
    facts = {"harness_version": packages.get("inspect_ai"), "log_format": getattr(log, "version", None),
             "status": getattr(log, "status", None), "task": getattr(log.eval, "task", None),
             "eval_id": getattr(log.eval, "eval_id", None), "model_name": named,
             "started": utc_time(getattr(getattr(log, "stats", None), "started_at", None) or log.eval.created),
             "finished": utc_time(getattr(getattr(log, "stats", None), "completed_at", None))}
    return out, facts


def import_inspect(spec: RunSpec, paths: list[Path], id_field: str | None = None) -> ImportOutcome:
    """Store the samples of inspect_ai eval logs as a run."""
    errors: list[str] = []
    outputs: list[Output] = []
    hashed: list[tuple[Path, bytes]] = []
    logs: list[dict] = []
    for path in paths:
        try:
            data = read_input(path)
            found, facts = read_log(path, data, spec.model, id_field)
        except BatchImportError as exc:
            errors += exc.errors
            continue
        outputs += found
        hashed.append((path, data))
        logs.append({"file": path.name, **facts})
    versions = sorted({str(x["harness_version"]) for x in logs if x.get("harness_version")})
    provenance = {"from": "inspect_ai eval logs", "harness": "inspect_ai",
                  "harness_version": versions[0] if len(versions) == 1 else (versions or None),
                  "reader": f"inspect_ai.log.read_eval_log (inspect_ai {_version()})", "id_field": id_field,
                  "logs": logs, "files": files_provenance(hashed)}
    description = (f"{spec.model}: samples of inspect_ai eval logs, read with inspect_ai's own log reader and imported "
                   "by tally import. inspect_ai made the model calls with its own prompt; Tally sent no request and "
                   "knows no latency; each record keeps its log's name and SHA-256, the sample and the epoch.")
    starts = sorted(x["started"] for x in logs if x.get("started"))
    ends = sorted(x["finished"] for x in logs if x.get("finished"))
    times = {"started": starts[0] if starts else None, "finished": ends[-1] if starts and ends else None}
    return store(spec, outputs, errors, provenance, WHAT, description, times)
