"""How site build time and memory grow with the data: the same leaderboard at growing sizes.

The leaderboard is bench/site_build.py's (the example scaled to a number of items and of run
groups). The site is built, each size in a fresh process, at every size in --sizes (RUNSxITEMS:
run groups x items), and the bench reports, per size: stored responses, build time by stage, peak
memory (the build's process and its largest child), and the growth against the first size: time per
stored response, peak memory per the largest single run's bytes, and how many MB the peak grows per
MB of stored responses added. Linear or better time means a flat (or falling) time-per-response
ratio; memory bounded by a constant times the largest run means a flat memory-per-largest-run ratio
and a growth near 0 MB per MB.

Two ladders: more items at a fixed number of run groups (every run grows: the data grows as the
largest run does), and more run groups at a fixed number of items (the largest run stays the same
size: the ladder the 400-run target names; the statistics' pairwise comparisons grow with the
square of the run groups).

    python bench/scale.py [--sizes 20x750,20x1500,20x3000,20x6000] [--resamples 200] [--jobs N]
    python bench/scale.py --sizes 40x300,100x300,200x300,400x300
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def one(runs: int, items: int, resamples: int, jobs: int) -> dict:
    """Generate and build one size in this process; its figures."""
    from bench.site_build import generate
    from generator.render.build import build_site

    tmp = Path(tempfile.mkdtemp(prefix="tally-scale-bench-"))
    try:
        _items, responses = generate(tmp, items, runs)
        sizes = [p.stat().st_size for p in (tmp / "results").rglob("responses.jsonl")]
        start = time.perf_counter()
        report = build_site(tmp, tmp / "site", resamples=resamples, jobs=jobs)
        seconds = time.perf_counter() - start
        return {"runs": runs, "responses": responses, "bytes": sum(sizes), "largest": max(sizes),
                "seconds": seconds, "pages": report.pages, "stages": report.seconds,
                "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "child": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="20x750,20x1500,20x3000,20x6000",
                    help="RUNSxITEMS sizes (run groups x items), comma-separated, smallest first")
    ap.add_argument("--resamples", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--one", help=argparse.SUPPRESS)  # internal: build one size, print JSON
    args = ap.parse_args()
    if args.one is not None:
        runs, items = (int(x) for x in args.one.split("x"))
        print(json.dumps(one(runs, items, args.resamples, args.jobs)))
        return
    rows = []
    for size in args.sizes.split(","):
        runs, items = (int(x) for x in size.split("x"))
        out = subprocess.run([sys.executable, __file__, "--resamples", str(args.resamples), "--jobs", str(args.jobs),
                              "--one", f"{runs}x{items}"], check=True, capture_output=True, text=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        base = rows[0]
        t_ratio = (row["seconds"] / row["responses"]) / (base["seconds"] / base["responses"])
        m_ratio = (row["peak"] / row["largest"]) / (base["peak"] / base["largest"])
        slope = (row["peak"] - base["peak"]) / max(1e-9, (row["bytes"] - base["bytes"]) / 1e6) if row is not base else 0.0
        print(f"{runs:4} run groups x {items:5} items, {row['responses']:>9,} responses ({row['bytes'] / 1e6:6,.0f} MB, largest run "
              f"{row['largest'] / 1e6:5.1f} MB): {row['seconds']:7.1f} s, peak {row['peak']:6,.0f} MB "
              f"(largest child {row['child']:5,.0f} MB); against the first size: time per response "
              f"x{t_ratio:.2f}, peak per largest run x{m_ratio:.2f}, peak grows {slope:.2f} MB per MB of "
              "stored responses added", flush=True)
        print("      " + ", ".join(f"{k} {v:.1f} s" for k, v in row["stages"].items()), flush=True)


if __name__ == "__main__":
    main()
