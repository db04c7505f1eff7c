"""`tally import --from predictions | inspect | lm-eval`: other harnesses' outputs stored as runs with
honest provenance (no request Tally did not send; the harness, its version and each file's SHA-256 in
run.json), and ONE error naming the file and line for a file in the wrong shape. The fixtures are
written here by hand from each harness's documented format."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil

import pytest
from click.testing import CliRunner
from test_harness_support import harness_project, records  # noqa: F401

from generator.cli import main
from generator.example.prompt import encode_value, to_json
from generator.harness.commands import import_cmd
from generator.harness.plan import load_plan
from tests.site_support import missing_node

RUN = "clean-1-testprov"


def _answer(item: dict) -> str:
    return to_json({f["name"]: encode_value(f, f["answer"]) for f in item["fields"]})


def _args(root, *files, kind, extra=()):
    return [*map(str, files), "--from", kind, "--suite", "extracting", "--model", "clean-1", "--provider",
            "testprov", "--root", str(root), *extra]


def _import(root, *files, kind, extra=()):
    return CliRunner().invoke(import_cmd, _args(root, *files, kind=kind, extra=extra), catch_exceptions=False)


def _meta(root) -> dict:
    return json.loads((root / "results" / "extracting" / RUN / "run.json").read_text())


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _honest(record: dict, what: str) -> None:
    """No request Tally did not send, no latency it did not measure, a note saying what the attempt is."""
    assert record["request"] is None and record["latency_ms"] is None
    [attempt] = record["attempts"]
    assert attempt["latency_ms"] is None and what in attempt["note"] and "not an HTTP call" in attempt["note"]


# ------------------------------------------------------------------ a folder of per-item prediction files


def test_a_folder_of_prediction_files_becomes_a_run(harness_project):
    root = harness_project
    items = load_plan(root, "extracting", "public").items[:3]
    folder = root / "predictions"
    folder.mkdir()
    for item in items:  # LongListBench's layout: <doc>_ocr_<system>_predicted.json
        (folder / f"{item['id']}_ocr_sys-a_predicted.json").write_text(_answer(item), encoding="utf-8")
    (folder / f"{items[0]['id']}_ocr_sys-b_predicted.json").write_text("{}", encoding="utf-8")  # another system
    (folder / "evaluation_report.json").write_text("{}", encoding="utf-8")
    result = _import(root, folder, kind="predictions", extra=("--name-pattern", "{item}_ocr_sys-a_predicted.json",
                                                              "--harness", "LongListBench", "--harness-version", "2.2.1"))
    assert result.exit_code == 0, result.output
    assert "3 record(s) stored from 3 line(s)" in result.output
    stored = {r["item"]: r for r in records(root / "results" / "extracting" / RUN)}
    assert sorted(stored) == sorted(i["id"] for i in items)
    first = stored[items[0]["id"]]
    _honest(first, "prediction file")
    assert first["response"]["choices"][0]["message"]["content"] == _answer(items[0])
    path = folder / f"{items[0]['id']}_ocr_sys-a_predicted.json"
    assert first["source"] == {"file": path.name, "sha256": _sha(path)}
    meta = _meta(root)
    imported = meta["imported"]
    assert imported["from"] == "per-item prediction files" and imported["harness"] == "LongListBench"
    assert imported["harness_version"] == "2.2.1" and imported["by"].startswith("tally import ")
    assert {f["file"]: f["sha256"] for f in imported["files"]}[path.name] == _sha(path)
    assert "prompt_sha256" not in meta and "sampling" not in meta  # Tally's prompt was not sent
    rescored = CliRunner().invoke(main, ["rescore", "--root", str(root), "-q", "--skip-scorer-b",
                                         "--out", str(root / "out")])
    assert rescored.exit_code == 0, rescored.output
    verdicts = (root / "out" / "extracting" / "verdicts.csv").read_text()
    assert f"{RUN},{items[0]['id']},0," in verdicts and ",correct," in verdicts


def test_prediction_file_names_map_to_item_ids_and_repeats(harness_project):
    root = harness_project
    item = load_plan(root, "extracting", "public").items[0]
    prefix, _, rest = item["id"].partition("-")
    folder = root / "p"
    folder.mkdir()
    for k in range(2):
        (folder / f"{rest}.run{k}.txt").write_text(_answer(item), encoding="utf-8")
    result = _import(root, folder, kind="predictions",
                     extra=("--name-pattern", "{item}.run{repeat}.txt", "--item-id", prefix + "-{item}"))
    assert result.exit_code == 0, result.output
    assert sorted((r["item"], r["repeat"]) for r in records(root / "results" / "extracting" / RUN)) == \
        [(item["id"], 0), (item["id"], 1)]


def test_a_prediction_file_in_the_wrong_shape_is_one_error_and_nothing_is_written(harness_project):
    root = harness_project
    items = load_plan(root, "extracting", "public").items
    folder = root / "p"
    folder.mkdir()
    (folder / f"{items[0]['id']}.json").write_text(_answer(items[0]), encoding="utf-8")
    (folder / f"{items[1]['id']}.json").write_bytes(b'{"total": "12\xff\xfe"}\n' * 50)
    (folder / "no-such-item.json").write_text("{}", encoding="utf-8")
    result = _import(root, folder, kind="predictions", extra=("--name-pattern", "{item}.json"))
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert errors == [f"error: {folder / (items[1]['id'] + '.json')}:1: not UTF-8 text (byte 13 cannot be decoded): "
                      "a prediction file holds the model's output as text",
                      f"error: {folder / 'no-such-item.json'}: no item 'no-such-item' in this run's half of suite "
                      "'extracting'"]
    assert "nothing was written" in result.output
    assert not (root / "results" / "extracting" / RUN).exists()


# ------------------------------------------------------------------ lm-evaluation-harness --log_samples


def _sample(doc_id: int, item: dict, outputs: list[str], filt: str = "none") -> dict:
    """One line of samples_<task>_<date>.jsonl as lm-evaluation-harness writes it for generate_until."""
    prompt = f"Extract the fields of this receipt.\n{item['document']['text'][:40]}"
    return {"doc_id": doc_id, "doc": {"id": item["id"], "text": item["document"]["text"][:40]},
            "target": "", "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": {"until": ["\n\n"], "do_sample": False}}},
            "resps": [outputs], "filtered_resps": [outputs[0].strip()], "filter": filt, "metrics": ["exact_match"],
            "doc_hash": hashlib.sha256(item["id"].encode()).hexdigest(),
            "prompt_hash": hashlib.sha256(prompt.encode()).hexdigest(),
            "target_hash": hashlib.sha256(b"").hexdigest(), "exact_match": 0.0}


def test_lm_eval_samples_become_a_run(harness_project):
    root = harness_project
    items = load_plan(root, "extracting", "public").items[:3]
    lines = [_sample(0, items[0], [_answer(items[0]), "{}"]), _sample(1, items[1], [_answer(items[1])]),
             _sample(2, items[2], ["I cannot read this receipt."]),
             _sample(1, items[1], [_answer(items[1])], filt="strict-match")]  # a second filter: the same outputs
    samples = root / "samples_receipts_2026-11-20T10-15-00.123456.jsonl"
    samples.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    results = root / "results_2026-11-20T10-15-00.123456.json"
    results.write_text(json.dumps({"results": {"receipts": {"alias": "receipts", "exact_match,none": 0.0}},
                                   "configs": {}, "versions": {"receipts": 1}, "model_name": "openai/clean-1",
                                   "lm_eval_version": "0.4.9", "git_hash": "a1b2c3d", "date": 1795169700.25}),
                       encoding="utf-8")
    result = _import(root, samples, results, kind="lm-eval")
    assert result.exit_code == 0, result.output
    stored = {(r["item"], r["repeat"]): r for r in records(root / "results" / "extracting" / RUN)}
    assert sorted(stored) == [(items[0]["id"], 0), (items[0]["id"], 1), (items[1]["id"], 0), (items[2]["id"], 0)]
    one = stored[(items[0]["id"], 1)]
    _honest(one, "lm-evaluation-harness")
    assert one["response"]["choices"][0]["message"]["content"] == "{}"
    assert one["source"]["line"] == 1 and one["source"]["sha256"] == _sha(samples)
    assert one["source"]["prompt_hash"] == lines[0]["prompt_hash"]
    meta = _meta(root)
    imported = meta["imported"]
    assert imported["harness"] == "lm-evaluation-harness" and imported["harness_version"] == "0.4.9"
    assert meta["started"] == "2026-11-20T10:15:00Z" and imported["at"] >= meta["started"]  # when it ran
    assert [f["sha256"] for f in imported["files"]] == [_sha(samples), _sha(results)]


@pytest.mark.parametrize("bad, message", [
    ("{not json", "not lm-evaluation-harness --log_samples output"),
    (json.dumps({"custom_id": "x", "response": {}}), "not lm-evaluation-harness --log_samples output"),
    (json.dumps({"doc_id": 3, "doc": {"id": "x"}, "arguments": {}, "resps": [[[-1.2, True]], [[-3.4, False]]]}),
     "resps does not hold generated text"),
    (json.dumps({"doc_id": 3, "doc": {"text": "x"}, "arguments": {}, "resps": [["a"]]}),
     "the document has no 'id' to name its item"),
])
def test_an_lm_eval_file_in_the_wrong_shape_is_one_error_naming_file_and_line(harness_project, bad, message):
    root = harness_project
    items = load_plan(root, "extracting", "public").items
    samples = root / "samples_receipts_2026.jsonl"
    good = [json.dumps(_sample(k, items[k], [_answer(items[k])])) for k in range(2)]
    samples.write_text("\n".join([good[0], bad, *[bad] * 20, good[1]]) + "\n", encoding="utf-8")
    result = _import(root, samples, kind="lm-eval")
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and errors[0].startswith(f"error: {samples}:2: ") and message in errors[0], errors
    assert not (root / "results" / "extracting" / RUN).exists()


# ------------------------------------------------------------------ inspect_ai eval logs


def _eval_log(items: list[dict], model: str = "openai/clean-1") -> dict:
    """An inspect_ai eval log in its JSON form (log format version 2), as `inspect eval --log-format json` writes."""
    samples = []
    for k, item in enumerate(items):
        for epoch in (1, 2):
            text = _answer(item) if epoch == 1 else "{}"
            samples.append({
                "id": item["id"], "epoch": epoch, "input": "Extract the fields.", "target": "",
                "messages": [{"role": "user", "content": "Extract the fields."},
                             {"role": "assistant", "content": text, "source": "generate"}],
                "output": {"model": "clean-1", "choices": [{"message": {"role": "assistant", "content": text,
                                                                        "source": "generate"}, "stop_reason": "stop"}],
                           "usage": {"input_tokens": 120 + k, "output_tokens": 9, "total_tokens": 129 + k}},
                "scores": {}, "metadata": {"doc": item["id"]}})
    samples[-1].update(output={"model": "clean-1", "choices": []},
                       error={"message": "RateLimitError: too many requests", "traceback": "", "traceback_ansi": ""})
    return {"version": 2, "status": "success",
            "eval": {"eval_id": "Fq3xY7cJ2sNwBq", "run_id": "kP4wQ9mVt8LbZr", "created": "2026-11-20T10:15:00+00:00",
                     "task": "receipts_extract", "task_id": "Tk2nR8sW", "task_version": 0,
                     "dataset": {"name": "receipts", "samples": len(items)}, "model": model, "config": {},
                     "packages": {"inspect_ai": "0.3.140"}},
            "plan": {"name": "plan", "steps": [{"solver": "generate", "params": {}}], "config": {}},
            "results": {"total_samples": len(samples), "completed_samples": len(samples), "scores": []},
            "stats": {"started_at": "2026-11-20T10:15:00+00:00", "completed_at": "2026-11-20T10:16:00+00:00",
                      "model_usage": {}},
            "samples": samples}


def _inspect_missing() -> str | None:
    try:
        import inspect_ai  # noqa: F401
    except ImportError:
        return "inspect_ai is not installed (pip install -e '.[import]' or '.[test]')"
    return None


@pytest.mark.skipif(_inspect_missing() is not None, reason=_inspect_missing() or "")
def test_an_inspect_ai_eval_log_becomes_a_run(harness_project):
    root = harness_project
    items = load_plan(root, "extracting", "public").items[:2]
    log = root / "2026-11-20T10-15-00_receipts-extract_Fq3xY7cJ2sNwBq.json"
    log.write_text(json.dumps(_eval_log(items)), encoding="utf-8")
    result = _import(root, log, kind="inspect")
    assert result.exit_code == 0, result.output
    assert "4 record(s) stored from 4 line(s), 0 already stored, 1 failed" in result.output
    stored = {(r["item"], r["repeat"]): r for r in records(root / "results" / "extracting" / RUN)}
    first = stored[(items[0]["id"], 0)]
    _honest(first, "inspect_ai eval log")
    assert first["response"]["choices"][0]["message"]["content"] == _answer(items[0])
    assert first["usage"] == {"prompt_tokens": 120, "completion_tokens": 9}
    assert first["source"] == {"file": log.name, "sha256": _sha(log), "sample": items[0]["id"], "epoch": 1, "uuid": None}
    failed = stored[(items[1]["id"], 1)]
    assert failed["response"] is None and "RateLimitError" in failed["attempts"][0]["error"]
    meta = _meta(root)
    imported = meta["imported"]
    assert (meta["started"], meta["finished"]) == ("2026-11-20T10:15:00Z", "2026-11-20T10:16:00Z")  # when it ran
    assert imported["harness"] == "inspect_ai" and imported["harness_version"] == "0.3.140"
    assert imported["reader"].startswith("inspect_ai.log.read_eval_log")
    assert imported["files"] == [{"file": log.name, "sha256": _sha(log), "bytes": log.stat().st_size}]
    # the same log in inspect_ai's binary .eval format (written by inspect_ai itself) reads the same
    from inspect_ai.log import read_eval_log, write_eval_log

    binary = root / "2026-11-20T10-15-00_receipts-extract_Fq3xY7cJ2sNwBq.eval"
    write_eval_log(read_eval_log(str(log)), str(binary))
    again = _import(root, binary, kind="inspect", extra=("--run-id", "clean-1-eval"))
    assert again.exit_code == 0, again.output
    other = {(r["item"], r["repeat"]): r for r in records(root / "results" / "extracting" / "clean-1-eval")}
    assert {k: r["response"] for k, r in other.items()} == {k: r["response"] for k, r in stored.items()}


@pytest.mark.skipif(_inspect_missing() is not None, reason=_inspect_missing() or "")
def test_an_inspect_ai_log_of_another_model_or_shape_is_one_error(harness_project):
    root = harness_project
    items = load_plan(root, "extracting", "public").items[:2]
    other = root / "other.json"
    other.write_text(json.dumps(_eval_log(items, model="openai/clean-2")), encoding="utf-8")
    broken = root / "broken.json"
    broken.write_text(json.dumps({"version": 2, "samples": [{"id": 1}] * 30}), encoding="utf-8")
    result = _import(root, other, broken, kind="inspect")
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert errors[0] == f"error: {other}: the log is of model 'openai/clean-2', not 'clean-1'"
    assert len(errors) == 2 and errors[1].startswith(f"error: {broken}: not an inspect_ai eval log")
    assert not (root / "results" / "extracting" / RUN).exists()


# ------------------------------------------------------------------ every import: the result reads as any run


@pytest.mark.slow
@pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")
def test_an_imported_run_gzipped_is_scored_alike_by_both_scorers(harness_project):
    root = harness_project
    items = load_plan(root, "extracting", "public").items[:3]
    samples = root / "samples_receipts_2026.jsonl"
    samples.write_text("".join(json.dumps(_sample(k, items[k], [_answer(items[k])])) + "\n" for k in range(3)))
    assert _import(root, samples, kind="lm-eval").exit_code == 0
    run_dir = root / "results" / "extracting" / RUN
    out = root / "out"
    first = CliRunner().invoke(main, ["rescore", "--root", str(root), "-q", "--out", str(out)])
    assert first.exit_code == 0, first.output
    plain = (out / "extracting" / "verdicts.csv").read_bytes()
    with open(run_dir / "responses.jsonl", "rb") as src, gzip.open(run_dir / "responses.jsonl.gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    (run_dir / "responses.jsonl").unlink()
    again = CliRunner().invoke(main, ["rescore", "--root", str(root), "-q", "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert (out / "extracting" / "verdicts.csv").read_bytes() == plain
    assert json.loads((out / "extracting" / "agreement.json").read_text())["status"] == "agree"


@pytest.mark.skipif(_inspect_missing() is not None, reason=_inspect_missing() or "")
def test_an_eval_log_that_inflates_too_far_is_refused_before_inspect_reads_it(harness_project, monkeypatch):
    import zipfile

    import generator.harness.import_inspect as reader

    root = harness_project
    monkeypatch.setattr(reader, "MAX_INFLATED_BYTES", 100_000)
    bomb = root / "bomb.eval"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", b" " * 200_000)
    result = _import(root, bomb, kind="inspect")
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert errors == [f"error: {bomb}: inflates to 200,000 bytes, more than the 100,000 an imported log may hold "
                      "(a zip bomb?)"]
