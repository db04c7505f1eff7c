"""A run killed at any moment resumes: skips what is stored, repairs a torn last line, never duplicates."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from test_harness_support import LiveServer, harness_project, records  # noqa: F401

from generator.errors import ErrorLog
from generator.harness.commands import run
from generator.harness.plan import jobs, load_plan
from generator.harness.store import RunStore, StoreError
from generator.inputs.results import iter_records, load_run

RUN = "from generator.harness.commands import run; run()"


def _args(root, url, limit=300):
    return ["extracting", "--model", "clean-1", "--provider", "testprov", "--root", str(root), "--half", "public",
            "--limit", str(limit), "--repeats", "2", "--repeat-sample", "every:3", "--concurrency", "4",
            "--base-url", url, "-q"]


def _expected(root, limit=300):  # the public half: private records go to private storage (test_harness_private)
    plan = load_plan(root, "extracting", "public")
    return {(i["id"], r) for i, r in jobs(plan, 2, "every:3", limit=limit)}


def _assert_complete_and_valid(root, run_dir, expected):
    got = records(run_dir)
    keys = [(r["item"], r["repeat"]) for r in got]
    assert len(keys) == len(set(keys)) and set(keys) == expected
    log = ErrorLog(root)
    loaded = load_run(run_dir, "extracting", log)
    halves = {i["id"]: i["half"] for i in load_plan(root, "extracting", "both").items}
    assert sum(1 for _ in iter_records(loaded, halves, log)) == len(expected) and not log.errors


@pytest.mark.slow
def test_kill_then_torn_line_then_rerun_completes_each_call_once(harness_project):
    root = harness_project
    run_dir = root / "results" / "extracting" / "clean-1-testprov"
    responses = run_dir / "responses.jsonl"
    with LiveServer(root, scale=10.0) as server:  # about 50 ms a call, 4 at a time
        proc = subprocess.Popen([sys.executable, "-c", RUN, *_args(root, server.url())],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not responses.exists() or responses.read_bytes().count(b"\n") < 40):
            time.sleep(0.02)
        proc.kill()  # SIGKILL: no cleanup at all
        proc.wait(30)  # generous: on a saturated machine stopping took more than 10 s once
        stored = responses.read_bytes()
        assert stored.count(b"\n") >= 40 and "finished" not in json.loads((run_dir / "run.json").read_text())
        # a record cut off mid-write, as a kill during the write would leave it
        whole = stored[: stored.rfind(b"\n") + 1]
        torn = whole.split(b"\n")[0][:137]
        responses.write_bytes(whole + torn)
        result = CliRunner().invoke(run, _args(root, server.url()), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"repaired a torn last line ({len(torn)} bytes kept in responses.jsonl.torn)" in result.stderr
    assert (run_dir / "responses.jsonl.torn").read_bytes() == torn + b"\n"
    assert "finished" in json.loads((run_dir / "run.json").read_text())
    _assert_complete_and_valid(root, run_dir, _expected(root))
    assert responses.read_bytes().startswith(whole)  # append-only: nothing stored was rewritten


def test_a_partial_run_is_resumed_without_duplicates(harness_project):
    root = harness_project
    run_dir = root / "results" / "extracting" / "clean-1-testprov"
    with LiveServer(root, scale=0.0) as server:
        assert CliRunner().invoke(run, _args(root, server.url(), 30)).exit_code == 0
        lines = (run_dir / "responses.jsonl").read_bytes().splitlines(keepends=True)
        kept = lines[::2]  # every other call lost
        (run_dir / "responses.jsonl").write_bytes(b"".join(kept))
        result = CliRunner().invoke(run, _args(root, server.url(), 30), catch_exceptions=False)
    assert f"{len(lines) - len(kept)} call(s) stored, {len(kept)} already stored" in result.output
    _assert_complete_and_valid(root, run_dir, _expected(root, 30))


@pytest.mark.parametrize("damage, message", [
    (lambda lines: lines[:3] + [b"{not json\n"] + lines[3:], ":4: not a stored response record"),
    (lambda lines: lines + lines[1:2], "second record for item"),
])
def test_damage_inside_the_file_stops_the_run_untouched(harness_project, damage, message):
    root = harness_project
    run_dir = root / "results" / "extracting" / "clean-1-testprov"
    with LiveServer(root, scale=0.0) as server:
        assert CliRunner().invoke(run, _args(root, server.url(), 10)).exit_code == 0
        path = run_dir / "responses.jsonl"
        path.write_bytes(b"".join(damage(path.read_bytes().splitlines(keepends=True))))
        before, meta = path.read_bytes(), (run_dir / "run.json").read_bytes()
        result = CliRunner().invoke(run, _args(root, server.url(), 12))
    assert result.exit_code == 2 and message in result.stderr
    assert path.read_bytes() == before and (run_dir / "run.json").read_bytes() == meta


def test_one_writer_per_run(tmp_path):
    meta = {"format": 1, "run_id": "x"}
    first, second = RunStore(tmp_path / "x"), RunStore(tmp_path / "x")
    first.open(meta)
    try:
        with pytest.raises(StoreError, match="another process"):
            second.open(meta)
    finally:
        first.close()
    assert second.open(meta) == set()
    second.append({"item": "a", "repeat": 0})
    with pytest.raises(StoreError, match="already stored"):
        second.append({"item": "a", "repeat": 0})
    second.close()
    assert not os.path.exists(tmp_path / "x" / "responses.jsonl.torn")
