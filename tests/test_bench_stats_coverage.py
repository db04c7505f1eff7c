"""The calls bench (bench/stats_coverage.py) adds up runs: a leaderboard's result depends only on its
number, a run into an --out file that already holds some leaderboards simulates only the others, and a
file measured with fewer rules is refused."""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("stats_coverage", ROOT / "bench" / "stats_coverage.py")
assert _spec and _spec.loader
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

RUNS, ITEMS, RESAMPLES = 4, 60, 200


class InlinePool:
    """Runs the tasks in this process and remembers which leaderboards it was given."""

    def __init__(self) -> None:
        self.sims: list[int] = []

    def imap(self, fn, tasks, chunksize=1):
        for task in tasks:
            self.sims.append(task[0])
            yield fn(task)


def _args(out: Path, first: int, sims: int, methods=bench.METHODS) -> argparse.Namespace:
    return argparse.Namespace(first_sim=first, sims=sims, runs=RUNS, items=ITEMS, resamples=RESAMPLES,
                              methods=list(methods), out=out)


def test_runs_add_up_and_resume(tmp_path):
    out = tmp_path / "calls.jsonl"
    pool = InlinePool()
    first = bench.calls(_args(out, 0, 2), pool)
    assert pool.sims == [0, 1] and [r["sim"] for r in first] == [0, 1]
    pool = InlinePool()
    both = bench.calls(_args(out, 0, 4), pool)
    assert pool.sims == [2, 3]  # 0 and 1 were read from the file
    assert [r["sim"] for r in both] == [0, 1, 2, 3] and both[:2] == first
    stored = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["sim"] for r in stored) == [0, 1, 2, 3]
    # a leaderboard's result depends only on its number: measured alone, it is the same
    alone = bench.one_leaderboard((3, RUNS, ITEMS, RESAMPLES, tuple(bench.METHODS)))
    assert alone == both[3]
    assert set(alone) >= {f"null_{metric}_{m}" for metric in ("index", "accuracy") for m in bench.METHODS}


def test_fewer_rules_in_the_file_refused(tmp_path):
    out = tmp_path / "calls.jsonl"
    bench.calls(_args(out, 0, 1, methods=("holm-t", "max-t")), InlinePool())
    with pytest.raises(SystemExit, match="without holm-t-before, holm-normal, studentized-max-t"):
        bench.calls(_args(out, 0, 2), InlinePool())
    # another setting in the same file is not mixed in
    other = bench.calls(argparse.Namespace(first_sim=0, sims=1, runs=RUNS, items=ITEMS + 6, resamples=RESAMPLES,
                                           methods=list(bench.METHODS), out=out), InlinePool())
    assert other[0]["items"] == ITEMS + 6


def test_report_merges_the_records_of_a_leaderboard(tmp_path, capsys):
    out = tmp_path / "calls.jsonl"
    some = bench.calls(_args(out, 0, 3, methods=("holm-t", "max-t")), InlinePool())
    added = bench.calls(_args(tmp_path / "more.jsonl", 1, 1, methods=("studentized-max-t",)), InlinePool())
    whole = bench.one_leaderboard((1, RUNS, ITEMS, RESAMPLES, tuple(bench.METHODS)))
    merged = {r["sim"]: r for r in bench.merge(some + added)}
    assert sorted(merged) == [0, 1, 2]
    measured = ("holm-t", "max-t", "studentized-max-t")  # the overlap rule and the others were not asked for
    assert merged[1] == {k: v for k, v in whole.items()
                         if not k.startswith(("null_", "power", "partial_")) or k.endswith(measured)}
    capsys.readouterr()
    bench.report(some + added + some)  # a file given twice counts once
    text = capsys.readouterr().out
    assert f"{RUNS} runs ({RUNS * (RUNS - 1) // 2} pairs), {ITEMS} items, 3 simulated leaderboards" in text
    assert f"{bench.LABELS['studentized-max-t']:56s} [1 leaderboards, numbers 1-1]" in text
    assert "Holm-Bonferroni" not in text
    changed = dict(added[0], **{"null_index_studentized-max-t": not added[0]["null_index_studentized-max-t"]})
    with pytest.raises(SystemExit, match="null_index_studentized-max-t is"):
        bench.merge(added + [changed])
