"""`tally import`: OpenAI Batch API output files into a stored run; bad lines name file and line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_harness_support import harness_project, records  # noqa: F401

from generator.cli import main
from generator.example.prompt import encode_value, to_json
from generator.harness.commands import import_cmd
from generator.harness.plan import load_plan


def _body(item: dict, model: str = "clean-1") -> dict:
    answer = to_json({f["name"]: encode_value(f, f["answer"]) for f in item["fields"]})
    return {"id": "chatcmpl-abc", "object": "chat.completion", "created": 1793600000, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 500, "completion_tokens": 60, "total_tokens": 560}}


def _line(custom_id: str, body=None, status: int = 200, error=None) -> str:
    response = None if error else {"status_code": status, "request_id": "req_1", "body": body}
    return json.dumps({"id": "batch_req_1", "custom_id": custom_id, "response": response, "error": error})


def _args(root, *files, extra=()):
    return [*map(str, files), "--suite", "extracting", "--model", "clean-1", "--provider", "testprov",
            "--root", str(root), *extra]


@pytest.mark.slow
def test_a_batch_file_becomes_a_run(harness_project):
    root = harness_project
    items = load_plan(root, "extracting", "public").items
    lines = [_line(i["id"], _body(i)) for i in items[:6]]
    lines += [_line(items[0]["id"] + ":1", _body(items[0])),
              _line(items[6]["id"], error={"code": "batch_expired", "message": "This request expired."}),
              _line(items[7]["id"], {"error": {"message": "server error"}}, status=500),
              _line(items[8]["id"], _body(items[8], "clean-2")),
              _line(items[9]["id"], _body(items[9], "clean-1-2026-11-01"))]  # a served_as name: accepted
    batch = root / "batch_output.jsonl"
    batch.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(import_cmd, _args(root, batch), catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert "11 record(s) stored from 11 line(s), 0 already stored, 3 failed" in result.output
    run_dir = root / "results" / "extracting" / "clean-1-testprov"
    stored = {(r["item"], r["repeat"]): r for r in records(run_dir)}
    ok = stored[(items[0]["id"], 0)]
    assert ok["response"]["model"] == "clean-1" and ok["usage"] == {"prompt_tokens": 500, "completion_tokens": 60}
    assert ok["latency_ms"] is None and ok["attempts"] == [{"start": "2026-11-02T06:13:20.000Z", "status": 200,
                                                            "error": None, "latency_ms": None}]
    assert ok["request"]["messages"] == load_plan(root, "extracting", "public").messages(items[0])
    assert (items[0]["id"], 1) in stored
    assert stored[(items[6]["id"], 0)]["attempts"][0]["error"] == "batch error: batch_expired: This request expired."
    assert stored[(items[7]["id"], 0)]["attempts"][0]["status"] == 500
    wrong = stored[(items[8]["id"], 0)]
    assert wrong["response"] is None and wrong["attempts"][0]["error"] == "wrong model: 'clean-2'"
    assert stored[(items[9]["id"], 0)]["response"]["model"] == "clean-1-2026-11-01"
    meta = json.loads((run_dir / "run.json").read_text())
    assert "imported by tally import" in meta["description"] and meta["half"] == "public"
    again = CliRunner().invoke(import_cmd, _args(root, batch), catch_exceptions=False)
    assert "0 record(s) stored from 11 line(s), 11 already stored" in again.output
    rescored = CliRunner().invoke(main, ["rescore", "--root", str(root), "-q", "--out", str(root / "out")])
    assert rescored.exit_code == 0, rescored.output


def test_bad_lines_are_reported_with_file_and_line_and_nothing_is_written(harness_project):
    root = harness_project
    items = load_plan(root, "extracting", "public").items
    lines = [_line(items[0]["id"], _body(items[0])),
             "{not json",
             json.dumps({"custom_id": items[1]["id"]}),
             _line("no-such-item", _body(items[2])),
             _line(items[3]["id"] + ":x", _body(items[3])),
             _line(items[0]["id"], _body(items[0])),
             json.dumps({"custom_id": items[4]["id"], "response": {"status_code": "200", "body": {}}}),
             "[1, 2]",
             _line(load_plan(root, "extracting", "private").items[0]["id"], _body(items[0]))]
    batch = root / "out.jsonl"
    batch.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(import_cmd, _args(root, batch))
    assert result.exit_code == 2
    err = result.stderr
    for number, text in [(2, "not valid JSON"), (3, "needs an error object"), (4, "no item 'no-such-item'"),
                         (5, "the repeat after ':' must be an integer"), (6, "second line for custom_id"),
                         (7, "integer status_code"), (8, "a line must be a JSON object"),
                         (9, "in this run's half")]:
        assert f"{batch}:{number}: " in err and text in err.split(f"{batch}:{number}: ")[1].splitlines()[0], number
    assert "8 error(s); nothing was written." in err
    assert not (root / "results").exists()


def test_requests_file_must_hold_the_suite_prompt(harness_project):
    root = harness_project
    plan = load_plan(root, "extracting", "public")
    items = plan.items
    requests = root / "requests.jsonl"
    good = {"custom_id": items[0]["id"], "method": "POST", "url": "/v1/chat/completions",
            "body": {"model": "clean-1", "messages": plan.messages(items[0]), "temperature": 0, "max_tokens": 2048}}
    edited = {**good, "custom_id": items[1]["id"],
              "body": {**good["body"], "messages": [{"role": "user", "content": "Be brief."}]}}
    requests.write_text(json.dumps(good) + "\n" + json.dumps(edited) + "\n")
    batch = root / "out.jsonl"
    batch.write_text(_line(items[0]["id"], _body(items[0])) + "\n")
    result = CliRunner().invoke(import_cmd, _args(root, batch, extra=["--requests", str(requests)]))
    assert result.exit_code == 2 and f"{requests}:2: the messages are not the suite's prompt" in result.stderr
    requests.write_text(json.dumps(good) + "\n")
    result = CliRunner().invoke(import_cmd, _args(root, batch, extra=["--requests", str(requests)]))
    assert result.exit_code == 0, result.stderr
    (record,) = records(root / "results" / "extracting" / "clean-1-testprov")
    assert record["request"] == good["body"]


def test_imported_private_records_go_to_private_storage(harness_project):
    root = harness_project
    items = load_plan(root, "extracting", "both").items
    chosen = [next(i for i in items if i["half"] == h) for h in ("private", "public")]
    batch = root / "batch_output.jsonl"
    batch.write_text("".join(_line(i["id"], _body(i)) + "\n" for i in chosen))
    result = CliRunner().invoke(import_cmd, _args(root, batch, extra=("--half", "both")), catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    public = (root / "results/extracting/clean-1-testprov/responses.jsonl").read_text()
    private = (root / "private/results/extracting/clean-1-testprov/responses.jsonl").read_text()
    assert chosen[1]["id"] in public and chosen[0]["id"] not in public
    assert chosen[0]["id"] in private and chosen[1]["id"] not in private
