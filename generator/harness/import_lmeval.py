"""`tally import --from lm-eval`: lm-evaluation-harness `--log_samples` output.

lm-evaluation-harness writes, per task, `samples_<task>_<date>.jsonl`: one JSON object a line with
`doc_id` (the document's position in the task's dataset), `doc` (the document), `target`,
`arguments` (`{"gen_args_0": {"arg_0": <prompt>, "arg_1": <generation settings>}}`), `resps` (per
request, the list of the model's raw outputs: one per repeat), `filtered_resps`, `filter`, `metrics`
and the hashes `doc_hash`, `prompt_hash`, `target_hash`. A task with several filters repeats each
document once per filter, with the same `resps`. The item id is read from the document
(`doc[<--id-field>]`, default `id`); output k of `resps[0]` is repeat k, stored as written (the raw
output, not the filtered one). Only generated text is read (a `generate_until` task): a
log-likelihood task's `resps` hold numbers and are refused. The `results_<date>.json` written beside
the samples may be given too: its `lm_eval_version` and `git_hash` go into the run's provenance and
its `model_name` must be the `--model` given.
"""

from __future__ import annotations

import json
from pathlib import Path

from .import_common import Output, cut, files_provenance, read_input, sha256, store, utc_time
from .importer import BatchImportError, ImportOutcome
from .runner import RunSpec

WHAT = "a sample of lm-evaluation-harness's --log_samples output"
SHAPE = ("not lm-evaluation-harness --log_samples output: each line must be a JSON object with doc_id, doc, "
         "arguments and resps (a list per request of the model's outputs), as samples_<task>_<date>.jsonl holds")


def _shape_problem(line: object, id_field: str) -> str | None:
    if not isinstance(line, dict) or type(line.get("doc_id")) is not int or not isinstance(line.get("doc"), dict) \
            or not isinstance(line.get("resps"), list) or not isinstance(line.get("arguments"), (dict, list)):
        return SHAPE
    resps = line["resps"]
    if not resps or not isinstance(resps[0], list) or not resps[0]:
        return f"{SHAPE}; resps is empty"
    if len(resps) != 1 or not all(isinstance(r, str) for r in resps[0]):
        return ("resps does not hold generated text (one request, a list of strings): a log-likelihood or "
                "multiple-choice task has no model output to score")
    item = line["doc"].get(id_field)
    if not isinstance(item, (str, int)) or isinstance(item, bool):
        return f"the document has no {id_field!r} to name its item (choose the field with --id-field)"
    return None


def read_samples(path: Path, data: bytes, id_field: str, digest: str) -> list[Output]:
    """The outputs of one samples file; BatchImportError with ONE error (the file and its first bad line)."""
    out: list[Output] = []
    seen: dict[int, tuple[int, list]] = {}  # doc_id -> (first line, resps): a second filter's line repeats it
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise BatchImportError([f"{path}:{number}: {SHAPE} (not valid JSON: {cut(str(exc))})"]) from None
        if (problem := _shape_problem(line, id_field)) is not None:
            raise BatchImportError([f"{path}:{number}: {problem}"])
        doc_id, resps = line["doc_id"], line["resps"]
        if doc_id in seen:
            if seen[doc_id][1] != resps:
                raise BatchImportError([f"{path}:{number}: doc_id {doc_id} again with other outputs than at line "
                                        f"{seen[doc_id][0]}"])
            continue
        seen[doc_id] = (number, resps)
        item = str(line["doc"][id_field])
        for repeat, text in enumerate(resps[0]):
            out.append(Output(item, repeat, text, f"{path}:{number}",
                              {"file": path.name, "sha256": digest, "line": number, "doc_id": doc_id,
                               "doc_hash": line.get("doc_hash"), "prompt_hash": line.get("prompt_hash")}))
    if not out:
        raise BatchImportError([f"{path}: empty: {SHAPE}"])
    return out


def _results_file(path: Path, data: bytes, model: str) -> dict:
    """Provenance from lm-evaluation-harness's results_<date>.json; one error naming it when it is not one."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        value = None
    if not isinstance(value, dict) or not isinstance(value.get("results"), dict):
        raise BatchImportError([f"{path}: not lm-evaluation-harness's results_<date>.json (a JSON object with "
                                "results, configs, versions, ...)"])
    named = value.get("model_name")
    if isinstance(named, str) and named and named != model and not named.endswith("/" + model):
        raise BatchImportError([f"{path}: the results are of model {cut(named)!r}, not {model!r}"])
    return {"harness_version": value.get("lm_eval_version") if isinstance(value.get("lm_eval_version"), str) else None,
            "git_hash": value.get("git_hash") if isinstance(value.get("git_hash"), str) else None,
            "model_name": named if isinstance(named, str) else None,
            "tasks": sorted(str(k) for k in value["results"]), "started": utc_time(value.get("date"))}


def import_lmeval(spec: RunSpec, paths: list[Path], id_field: str = "id") -> ImportOutcome:
    """Store the outputs of lm-evaluation-harness samples files (and read a results file's provenance)."""
    errors: list[str] = []
    outputs: list[Output] = []
    hashed: list[tuple[Path, bytes]] = []
    facts: dict = {"harness_version": None}
    for path in paths:
        try:
            data = read_input(path)
            if path.suffix == ".json":
                facts.update(_results_file(path, data, spec.model))
            else:
                outputs += read_samples(path, data, id_field, sha256(data))
            hashed.append((path, data))
        except BatchImportError as exc:
            errors += exc.errors
    provenance = {"from": "lm-evaluation-harness --log_samples output", "harness": "lm-evaluation-harness",
                  **facts, "id_field": id_field, "files": files_provenance(hashed)}
    description = (f"{spec.model}: outputs recorded by lm-evaluation-harness (--log_samples), imported by tally "
                   "import. That harness made the model calls with its own prompt; Tally sent no request and knows "
                   "no latency; each record keeps its file's name, SHA-256, line and lm-evaluation-harness's hashes.")
    return store(spec, outputs, errors, provenance, WHAT, description, {"started": facts.get("started")})
