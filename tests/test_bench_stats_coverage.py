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
    with pytest.raises(SystemExit, match="without holm-normal, studentized-max-t"):
        bench.calls(_args(out, 0, 2), InlinePool())
    # another setting in the same file is not mixed in
    other = bench.calls(argparse.Namespace(first_sim=0, sims=1, runs=RUNS, items=ITEMS + 6, resamples=RESAMPLES,
                                           methods=list(bench.METHODS), out=out), InlinePool())
    assert other[0]["items"] == ITEMS + 6
