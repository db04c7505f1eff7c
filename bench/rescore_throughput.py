"""Rescore throughput on a scaled-up corpus, next to the floor measured in the same run.

The scaled corpus regenerates the example runs under new seeds (so the answers differ from run to
run, as they would between real models) until it holds at least --responses records (default
200,000). The floor reads the same files and parses every line with
orjson, doing nothing else; it is measured again before each measurement, and the ratios are to the
median of those readings (on a shared machine one reading can be 50% off). Targets: scorer A alone on
one process within 5x of the floor; the rescore with the agreement gate within 1.5x scorer A alone on
as many processes, in wall time.
Last measured (2 cores shared with other jobs, load average 4 to 7): scorer A 12.7x the floor on one
process; the gate 1.67x scorer A alone on one process, 1.51x on two; scorer B alone 0.79x scorer A.

    python bench/rescore_throughput.py [--responses 200000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tomllib  # noqa: E402

from generator.example.build import load_generated_items  # noqa: E402
from generator.example.runs import write_example_results  # noqa: E402
from generator.pipeline.crosscheck import _Node, node_version  # noqa: E402
from generator.pipeline.outputs import write_outputs  # noqa: E402
from generator.pipeline.stages import load, score  # noqa: E402

SUITE = "extracting"


def build_scaled(target: Path, responses: int) -> tuple[int, int]:
    """Example runs regenerated under new seeds (fresh answers, not copies) until `responses` records."""
    shutil.copytree(ROOT / "content", target / "content")
    suite_dir = target / "content" / "suites" / SUITE
    items = load_generated_items(suite_dir / "items")
    reference_date = tomllib.loads((suite_dir / "suite.toml").read_text())["reference_date"]
    out = target / "results" / SUITE
    out.mkdir(parents=True)
    total = runs = 0
    seed = 1
    while total < responses:
        scratch = target / f"scratch-{seed}"
        write_example_results(scratch, items, reference_date, seed=seed)
        for src in sorted((scratch / SUITE).iterdir()):
            run_id = f"{src.name}-s{seed:03d}"
            meta = json.loads((src / "run.json").read_text())
            meta["run_id"] = run_id
            (src / "run.json").write_text(json.dumps(meta))
            src.rename(out / run_id)
            total += sum(1 for line in (out / run_id / "responses.jsonl").open("rb") if line.strip())
            runs += 1
        shutil.rmtree(scratch)
        seed += 1
    return total, runs


def floor(root: Path) -> tuple[float, int]:
    start = time.perf_counter()
    n = 0
    for path in sorted((root / "results" / SUITE).glob("*/responses.jsonl")):
        for line in path.read_bytes().split(b"\n"):
            if line:
                orjson.loads(line)
                n += 1
    return time.perf_counter() - start, n


def scorer_b_alone(loaded) -> float:
    """Scorer B over every stored response, its digests read and nothing compared: Node reading,
    parsing, scoring."""
    path, _version = node_version()
    start = time.perf_counter()
    node = _Node(path, loaded.plugin, [i.line for i in loaded.items])
    for run in loaded.runs:
        node.send(run.id, run.responses.read_bytes())
    node.finish(loaded.suite.name)
    return time.perf_counter() - start


def timed_score(root: Path, jobs: int, gate: bool):
    (loaded,) = load(root, [SUITE])
    start = time.perf_counter()
    results = score([loaded], root, jobs, gate)
    return results, time.perf_counter() - start, loaded


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--responses", type=int, default=200_000)
    ap.add_argument("--keep", type=Path, help="build the scaled corpus here and keep it (a corpus kept there "
                                                "before is measured again, not rebuilt)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tally-bench-")) if args.keep is None else args.keep
    try:
        if args.keep is not None and (tmp / "results" / SUITE).is_dir():
            print(f"the scaled corpus kept in {tmp} (not rebuilt)")
            files = sorted((tmp / "results" / SUITE).glob("*/responses.jsonl"))
            n, runs = sum(1 for p in files for line in p.open("rb") if line.strip()), len(files)
        else:
            n, runs = build_scaled(tmp, args.responses)
        size = sum(p.stat().st_size for p in (tmp / "results").rglob("responses.jsonl"))
        print(f"scaled corpus: {n} responses in {runs} runs, {size / 1e6:.0f} MB")
        floor(tmp)  # warm the page cache so both measurements read from memory
        floors: list[float] = []
        cpus = os.cpu_count() or 1
        alone = {}  # jobs -> (seconds scoring, seconds writing outputs, verdicts)
        for jobs in sorted({1, cpus}):
            floors.append(floor(tmp)[0])
            results, t_score, loaded = timed_score(tmp, jobs, gate=False)
            start = time.perf_counter()
            write_outputs(tmp / "build" / "rescore", results)
            alone[jobs] = (t_score, time.perf_counter() - start, sum(r.row_count for res in results for r in res.runs))
            del results  # so that the next measurement starts from the same heap
        floors.append(floor(tmp)[0])
        t_b = scorer_b_alone(loaded)
        gated = {}  # jobs -> (seconds, agreement)
        for jobs in sorted({1, cpus}):
            floors.append(floor(tmp)[0])
            results, t_gate, _ = timed_score(tmp, jobs, gate=True)
            gated[jobs] = (t_gate, results[0].agreement)
            del results
        t_floor = statistics.median(floors)
        print(f"floor (read + orjson.loads every line, one process): median {t_floor:.2f} s of {len(floors)} readings "
              f"({min(floors):.2f}-{max(floors):.2f} s), {n / t_floor:,.0f} responses/s")
        for jobs, (t_score, t_write, verdicts) in alone.items():
            print(f"scorer A alone, {jobs} process(es): {t_score:.2f} s scoring ({n / t_score:,.0f} responses/s, "
                  f"{verdicts:,} verdicts) + {t_write:.2f} s writing outputs")
            print(f"  ratio to the floor: {t_score / t_floor:.1f}x scoring, {(t_score + t_write) / t_floor:.1f}x "
                  "with writing (target on one process <= 5x scoring)")
        t_a = alone[1][0]
        print(f"scorer B alone (one Node process): {t_b:.2f} s; scorer A alone (one process): {t_a:.2f} s; "
              f"B/A time ratio {t_b / t_a:.2f} (target <= 1)")
        for jobs, (t_gate, agreement) in gated.items():
            print(f"rescore with the agreement gate (A and B side by side, each file read once), {jobs} process(es) "
                  f"for A: {t_gate:.2f} s = {t_gate / alone[jobs][0]:.2f}x scorer A alone on {jobs} process(es) "
                  f"(target <= 1.5x), {t_gate / t_a:.2f}x scorer A alone on one process, "
                  f"{t_gate / t_floor:.1f}x the floor; {agreement['compared']:,} verdicts compared, "
                  f"{agreement['differing']} differ")
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
