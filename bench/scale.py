"""How site build time and memory grow with the data: the same leaderboard at growing sizes.

The leaderboard is bench/site_build.py's (the example scaled to --items items and a number of run
groups). The site is built, each size in a fresh process, at every count of run groups in --runs
(default 40, 100, 200, 400: 10x the data at the end), and the bench reports, per size: stored
responses, build time, peak memory (the build's process and its largest child), and the growth
against the smallest size as ratios: time per response and peak memory per the largest single
run's bytes, and how many MB the peak grows per MB of stored responses added. Linear or better time
means a flat (or falling) time-per-response ratio; memory bounded by a constant times the largest
run means a flat memory-per-largest-run ratio and a growth near 0 MB per MB.

    python bench/scale.py [--items 600] [--runs 40,100,200,400] [--resamples 200] [--jobs N]

Fewer items per run than bench/site_build.py's 6,000 keep the largest size under ~15 minutes on
two cores; say so with the figures.
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


def one(items: int, runs: int, resamples: int, jobs: int) -> dict:
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
    ap.add_argument("--items", type=int, default=600)
    ap.add_argument("--runs", default="40,100,200,400", help="counts of run groups, comma-separated")
    ap.add_argument("--resamples", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # internal: build one size, print JSON
    args = ap.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.items, args.one, args.resamples, args.jobs)))
        return
    rows = []
    for runs in sorted(int(r) for r in args.runs.split(",")):
        out = subprocess.run([sys.executable, __file__, "--items", str(args.items), "--resamples",
                              str(args.resamples), "--jobs", str(args.jobs), "--one", str(runs)],
                             check=True, capture_output=True, text=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        base = rows[0]
        t_ratio = (row["seconds"] / row["responses"]) / (base["seconds"] / base["responses"])
        m_ratio = (row["peak"] / row["largest"]) / (base["peak"] / base["largest"])
        slope = (row["peak"] - base["peak"]) / max(1e-9, (row["bytes"] - base["bytes"]) / 1e6) if row is not base else 0.0
        print(f"{runs:4} run groups, {row['responses']:>9,} responses ({row['bytes'] / 1e6:6,.0f} MB, largest run "
              f"{row['largest'] / 1e6:5.1f} MB): {row['seconds']:7.1f} s, peak {row['peak']:6,.0f} MB "
              f"(largest child {row['child']:5,.0f} MB); against {base['runs']} run groups: time per response "
              f"x{t_ratio:.2f}, peak per largest run x{m_ratio:.2f}, peak grows {slope:.2f} MB per MB of "
              "stored responses added", flush=True)
        print("      " + ", ".join(f"{k} {v:.1f} s" for k, v in row["stages"].items()), flush=True)


if __name__ == "__main__":
    main()
