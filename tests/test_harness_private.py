"""`tally run` keeps the private half out of results/: private-item records go to private storage."""

from __future__ import annotations

import json
import shutil
import stat

from click.testing import CliRunner
from test_harness_support import LiveServer, harness_project  # noqa: F401

from generator.harness.commands import run
from tests.test_sealing import _invoke, _rescore


def invoke(command, args: list[str]):
    return CliRunner().invoke(command, args, catch_exceptions=False)


def test_tally_run_writes_private_records_straight_to_private_storage(harness_project, tmp_path):
    root = harness_project
    for path in (root / "content" / "suites" / "extracting" / "items").glob("*.jsonl"):  # 3 items a file
        path.write_text("".join(path.read_text().splitlines(keepends=True)[:3]))
    (root / "content" / "suites" / "extracting" / "anchors.toml").unlink()
    args = ["extracting", "--model", "clean-1", "--provider", "testprov", "--root", str(root), "--half", "both",
            "--repeats", "2", "--repeat-sample", "every:3", "-q"]
    with LiveServer(root, scale=0.0) as server:
        assert invoke(run, [*args, "--base-url", server.url()]).exit_code == 0
        again = invoke(run, [*args, "--base-url", server.url()])
    assert "0 call(s) stored" in again.output  # resuming counts the private records too
    halves = {}
    for path in (root / "content" / "suites" / "extracting" / "items").glob("*.jsonl"):
        halves |= {i["id"]: i["half"] for i in map(json.loads, path.read_text().splitlines())}
    public = root / "results" / "extracting" / "clean-1-testprov" / "responses.jsonl"
    private = root / "private" / "results" / "extracting" / "clean-1-testprov" / "responses.jsonl"
    in_public = [json.loads(line) for line in public.read_text().splitlines()]
    in_private = [json.loads(line) for line in private.read_text().splitlines()]
    assert in_private and all(halves[r["item"]] == "private" for r in in_private)
    assert in_public and all(halves[r["item"]] == "public" for r in in_public)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    _, full = _rescore(root, tmp_path / "a")
    assert _invoke("results", "seal", "--all", "--root", str(root)).exit_code == 0
    stubs = [json.loads(line) for line in public.read_text().splitlines() if '"sealed"' in line]
    assert len(stubs) == len(in_private)
    shutil.move(root / "private", tmp_path / "away")
    _, public_only = _rescore(root, tmp_path / "b")
    assert public_only["clean-1-testprov"].pop("sealed_records") == len(in_private)
    assert public_only == full


def test_a_torn_private_record_is_kept_aside_and_the_run_resumes(tmp_path):
    from generator.harness.store import RunStore

    private = tmp_path / "private" / "responses.jsonl"
    store = RunStore(tmp_path / "run", private, frozenset({"p-1", "p-2"}))
    store.open({"format": 1, "run_id": "run"})
    store.append({"item": "p-1", "repeat": 0})
    store.append({"item": "q-1", "repeat": 0})
    store.close()
    assert b'"p-1"' in private.read_bytes() and b'"p-1"' not in (tmp_path / "run" / "responses.jsonl").read_bytes()
    private.write_bytes(private.read_bytes() + b'{"item":"p-2","rep')  # killed mid-write
    again = RunStore(tmp_path / "run", private, frozenset({"p-1", "p-2"}))
    assert again.open({"format": 1, "run_id": "run"}) == {("p-1", 0), ("q-1", 0)}
    assert again.torn_bytes == len(b'{"item":"p-2","rep')
    assert private.with_name("responses.jsonl.torn").read_bytes() == b'{"item":"p-2","rep\n'
    again.append({"item": "p-2", "repeat": 0})
    again.close()
    assert [json.loads(line)["item"] for line in private.read_text().splitlines()] == ["p-1", "p-2"]


def test_tally_run_never_writes_through_a_linked_results_or_private_folder(harness_project, tmp_path):
    """A cloned repository can commit `results/extracting -> /elsewhere` or `private -> /elsewhere`:
    `tally run` refuses before it writes anything there."""
    from generator.cli import main
    from generator.errors import EXIT_INPUT

    root = harness_project
    args = ["run", "extracting", "--model", "clean-1", "--provider", "testprov", "--root", str(root), "--half", "both",
            "--limit", "1", "-q", "--base-url", "http://127.0.0.1:9"]
    for linked in (root / "private", root / "results" / "extracting"):
        victim = tmp_path / f"victim-{linked.name}"
        victim.mkdir()
        if linked.exists():
            shutil.move(linked, tmp_path / f"moved-{linked.name}")
        linked.parent.mkdir(parents=True, exist_ok=True)
        linked.symlink_to(victim)
        res = CliRunner().invoke(main, args)
        assert res.exit_code == EXIT_INPUT, res.output
        assert "symbolic link" in res.output
        assert list(victim.iterdir()) == []
        linked.unlink()
        if (tmp_path / f"moved-{linked.name}").exists():
            shutil.move(tmp_path / f"moved-{linked.name}", linked)
