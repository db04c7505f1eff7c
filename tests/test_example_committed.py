"""The committed example corpus and results: reproducible from the seed, and scored as documented."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _tree(base: Path) -> dict[str, bytes]:
    return {p.relative_to(base).as_posix(): p.read_bytes() for p in sorted(base.rglob("*")) if p.is_file()}


def test_example_generate_reproduces_the_committed_files(tmp_path):
    suite = tmp_path / "content" / "suites" / "extracting"
    suite.mkdir(parents=True)
    shutil.copy(ROOT / "content/suites/extracting/suite.toml", suite / "suite.toml")
    result = CliRunner().invoke(main, ["example", "generate", "--root", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert _tree(suite / "items") == _tree(ROOT / "content/suites/extracting/items")
    assert (suite / "balance.json").read_bytes() == (ROOT / "content/suites/extracting/balance.json").read_bytes()
    assert _tree(tmp_path / "results") == _tree(ROOT / "results")


@pytest.fixture(scope="module")
def rescored(tmp_path_factory):
    out = tmp_path_factory.mktemp("rescore")
    result = CliRunner().invoke(main, ["rescore", "--root", str(ROOT), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "extracting" / "summary.json").read_text())
    with (out / "extracting" / "verdicts.csv").open(encoding="utf-8") as fh:
        verdicts = list(csv.DictReader(fh))
    return result.output, summary, verdicts


def test_every_run_and_response_is_scored(rescored):
    _output, summary, verdicts = rescored
    runs = sorted(p.name for p in (ROOT / "results/extracting").iterdir())
    assert sorted(summary) == runs
    for run in runs:
        n = sum(1 for line in (ROOT / "results/extracting" / run / "responses.jsonl").open() if line.strip())
        assert summary[run]["responses"] == n and summary[run]["missing_responses"] == 0
    assert {(v["run"], v["item"], v["repeat"]) for v in verdicts} >= {(r, "emails-prv-0001", "0") for r in runs}


def test_wrong_verdicts_carry_reasons_and_points_follow_verdicts(rescored):
    _output, _summary, verdicts = rescored
    for v in verdicts:
        assert v["points"] == ("1" if v["verdict"] in ("correct", "null_ok") else "0")
        if v["verdict"] not in ("correct", "null_ok"):
            assert v["reason"], v
        assert (v["order"] != "") == (v["verdict"] == "correct" and v["unit"] == "line_items"), v


def test_all_null_baseline_has_index_25(rescored):
    _output, summary, _verdicts = rescored
    m = summary["baseline-null"]["all"]["metrics"]
    assert m["accuracy"] == 0 and m["null_honesty"] == 1 and m["false_null_rate"] == 1
    assert m["index"] == pytest.approx(25.0, abs=1e-12)


def test_simulated_runs_are_marked_in_metadata_and_report(rescored):
    output, summary, _verdicts = rescored
    for run, s in summary.items():
        meta = json.loads((ROOT / "results/extracting" / run / "run.json").read_text())
        assert s["simulated"] is meta["simulated"]
        if meta["simulated"]:
            assert meta["description"].startswith("Simulated model")
            assert f"{run}" in output and "(simulated)" in next(l for l in output.splitlines() if l.startswith(run))
    assert sum(s["simulated"] for s in summary.values()) >= 5


def test_every_verdict_kind_occurs_in_the_example(rescored):
    _output, _summary, verdicts = rescored
    assert {v["verdict"] for v in verdicts} == {
        "correct", "wrong", "invented", "false_null", "null_ok", "unparseable", "failed_call"}


def test_help_lists_every_command():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for command in ("rescore", "example"):
        assert command in result.output
    sub = CliRunner().invoke(main, ["example", "--help"])
    assert "generate" in sub.output
