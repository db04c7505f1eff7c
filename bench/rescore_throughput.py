"""Rescore throughput on a scaled-up corpus, next to the floor measured in the same run.

The scaled corpus copies the committed example runs under new run ids until it holds at least
--responses records (default 200,000). The floor reads the same files and parses every line with
orjson, doing nothing else. Target: rescoring within 10x of the floor.

    python bench/rescore_throughput.py [--responses 200000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.errors import ErrorLog  # noqa: E402
from generator.rescore import rescore, write_outputs  # noqa: E402

SUITE = "extracting"


def build_scaled(target: Path, responses: int) -> tuple[int, int]:
    shutil.copytree(ROOT / "content", target / "content")
    sources = sorted((ROOT / "results" / SUITE).iterdir())
    out = target / "results" / SUITE
    total = copies = 0
    while total < responses:
        for src in sources:
            run_id = f"{src.name}-x{copies:04d}"
            dst = out / run_id
            dst.mkdir(parents=True)
            meta = json.loads((src / "run.json").read_text())
            meta["run_id"] = run_id
            (dst / "run.json").write_text(json.dumps(meta))
            shutil.copyfile(src / "responses.jsonl", dst / "responses.jsonl")
            total += sum(1 for line in (src / "responses.jsonl").open("rb") if line.strip())
        copies += 1
    return total, copies * len(sources)


def floor(root: Path) -> tuple[float, int]:
    start = time.perf_counter()
    n = 0
    for path in sorted((root / "results" / SUITE).glob("*/responses.jsonl")):
        for line in path.read_bytes().split(b"\n"):
            if line:
                orjson.loads(line)
                n += 1
    return time.perf_counter() - start, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--responses", type=int, default=200_000)
    ap.add_argument("--keep", type=Path, help="build the scaled corpus here and keep it")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tally-bench-")) if args.keep is None else args.keep
    try:
        n, runs = build_scaled(tmp, args.responses)
        size = sum(p.stat().st_size for p in (tmp / "results").rglob("responses.jsonl"))
        print(f"scaled corpus: {n} responses in {runs} runs, {size / 1e6:.0f} MB")
        floor(tmp)  # warm the page cache so both measurements read from memory
        t_floor, n_floor = floor(tmp)
        log = ErrorLog(tmp)
        start = time.perf_counter()
        results = rescore(tmp, [SUITE], log)
        t_score = time.perf_counter() - start
        assert not log.errors, log.errors[:3]
        start = time.perf_counter()
        write_outputs(tmp / "build" / "rescore", results)
        t_write = time.perf_counter() - start
        verdicts = sum(len(r.verdicts) for res in results for r in res.runs)
        print(f"floor (read + orjson.loads every line): {t_floor:.2f} s, {n_floor / t_floor:,.0f} responses/s")
        print(f"rescore (parse, score, figures, metrics): {t_score:.2f} s, {n / t_score:,.0f} responses/s, "
              f"{verdicts:,} verdicts")
        print(f"writing outputs: {t_write:.2f} s")
        print(f"ratio rescore / floor: {t_score / t_floor:.1f}x (with writing: {(t_score + t_write) / t_floor:.1f}x); "
              "target <= 10x")
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
