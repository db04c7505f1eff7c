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

The run is closed by one table (issue 37, goal 5): per size, wall-clock and CPU time (the build's process
and its children: scorer B, page workers) and peak memory (the larger of the build's process and its
largest child), with the growth exponent of each: the log-log slope against the size before, so that
the next change that breaks linear growth shows at once (the pairs of a comparison family grow with
exponent 2 in the run groups; time and memory should not).

    python bench/scale.py [--sizes 40x6000,80x6000,160x6000,400x6000] [--resamples 200] [--jobs N]
    python bench/scale.py --sizes 20x750,20x1500,20x3000,20x6000
    python bench/scale.py --sizes 40x600,80x600,160x600,400x600

Measured (issue 37; 600 items, 200 resamples, 2 jobs, load average 7.4 on 2 cores, shared), before each
comparison family's pairs had a part of their own: 40 / 80 / 160 run groups: 69.4 / 170.1 / 328.9 s wall,
23.5 / 52.2 / 139.1 s CPU, peak 245 / 320 / 577 MB (2.35x at 160). After (family parts, stratum pages made
one at a time; 150 items, 200 resamples, 2 jobs, load average 7.5 on 2 cores, shared; times unreliable,
memory reliable):

    groups  items   pairs  responses    time s    CPU s  peak MB   time x   CPU x  peak x  exp time  exp CPU exp peak exp pairs
        40    150     780      4,816      51.7     12.9      219     1.00    1.00    1.00
       160    150  12,720     19,092     416.9    108.9      324     8.07    8.41    1.48      1.51     1.54     0.28      2.01

Measured again on 2026-12-04 in one run (150 items, 200 resamples, 2 jobs, load average 2.9; times
approximate, memory reliable):

    groups  items   pairs  responses    time s    CPU s  peak MB   time x   CPU x  peak x  exp time  exp CPU exp peak exp pairs
        40    150     780      4,472      10.0      9.5      215     1.00    1.00    1.00
       160    150  12,720     17,716      61.3     56.6      283     6.12    5.94    1.31      1.31     1.29     0.20      2.01
       400    150  79,800     44,548     372.5    328.5      587    37.18   34.50    2.73      1.97     1.92     0.80      2.00

160 run groups: 1.31x (the goal: 1.3x). 400 run groups complete; time grows as the pairs do, the peak
does not stay bounded (2.73x).

After the fix of the generated leaderboard (public-half runs had been copied with no response), all four
sizes in one run on 2026-12-04 (150 items, 200 resamples, 2 jobs, load average 2 to 6 on 2 shared cores:
wall-clock unreliable, CPU and memory reliable):

    groups  items   pairs  responses    time s    CPU s  peak MB   time x   CPU x  peak x  exp time  exp CPU exp peak exp pairs
        40    150     780      5,150      21.6     10.6      232     1.00    1.00    1.00
        80    150   3,160     10,366     111.0     22.0      273     5.13    2.08    1.18      2.36     1.06     0.24      2.02
       160    150  12,720     20,566     111.5     54.9      333     5.16    5.19    1.44      0.01     1.32     0.29      2.01
       400    150  79,800     51,598     425.5    286.2      667    19.68   27.10    2.87      1.46     1.80     0.76      2.00

After each page is let go of once written and the downloads are filtered a block at a time, one run on a
quieter machine (load average 1.5 at the start):

    groups  items   pairs  responses    time s    CPU s  peak MB   time x   CPU x  peak x  exp time  exp CPU exp peak exp pairs
        40    150     780      5,150       8.7      9.6      213     1.00    1.00    1.00
        80    150   3,160     10,366      16.7     17.9      239     1.93    1.85    1.12      0.95     0.89     0.17      2.02
       160    150  12,720     20,566      50.9     52.9      280     5.88    5.48    1.31      1.61     1.57     0.23      2.01
       400    150  79,800     51,598     256.2    259.9      504    29.57   26.93    2.37      1.76     1.74     0.64      2.00

With the item pages' sections bundled by the number of runs (render/sections.py bundle_size), 2026-12-05,
one run, load average 0.6, nothing else running:

    groups  items   pairs  responses    time s    CPU s  peak MB   time x   CPU x  peak x  exp time  exp CPU exp peak exp pairs
        40    150     780      5,150       5.3      6.4      122     1.00    1.00    1.00
        80    150   3,160     10,366      10.1     12.0      130     1.91    1.87    1.06      0.93     0.90     0.09      2.02
       160    150  12,720     20,566      22.7     26.5      148     4.29    4.12    1.21      1.17     1.14     0.19      2.01
       400    150  79,800     51,598     117.3    133.7      355    22.22   20.80    2.91      1.79     1.77     0.96      2.00

At 6,000 items, after each run's artifact header held its offsets compactly (pipeline/spans.py) and its
sums were read when asked for (RunScore.sums), 2026-12-05, one run, load average about 1.3 (the build's
process 322 and 390 MB, its largest child 493 and 550 MB; before these changes 445/451 and 770/912 MB,
2.02x):

    groups  items   pairs  responses    time s    CPU s  peak MB   time x   CPU x  peak x  exp time  exp CPU exp peak exp pairs
        40   6000     780    214,447      55.9     89.9      493     1.00    1.00    1.00
       160   6000  12,720    856,505     204.7    318.4      550     3.66    3.54    1.11      0.94     0.91     0.08      2.01

and 40 x 6000, 400 x 6000 in another run (the build's process 342 and 746 MB; before, 1,853 and 2,013 MB at 400):

        40   6000     780    214,447      59.8     87.3      484     1.00    1.00    1.00
       400   6000  79,800  2,149,005     632.1    954.9    1,122    10.56   10.94    2.32      1.02     1.04     0.37      2.01
"""

from __future__ import annotations

import argparse
import json
import math
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
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start, cpu = time.perf_counter(), time.process_time()
        report = build_site(tmp, tmp / "site", resamples=resamples, jobs=jobs)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # scorer B and the page workers
        cpu += (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return {"runs": runs, "responses": responses, "bytes": sum(sizes), "largest": max(sizes),
                "seconds": seconds, "cpu": cpu, "pages": report.pages,
                "stages": report.seconds, "stage_peaks": report.peak_mb,
                "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "child": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="40x6000,80x6000,160x6000,400x6000",
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
    sizes = [tuple(int(x) for x in size.split("x")) for size in args.sizes.split(",")]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.resamples} resamples, "
          f"{args.jobs} jobs", flush=True)
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
        print("      peak so far, by stage (the build's process): " + ", ".join(
            f"{k} {v:,.0f} MB" for k, v in row.get("stage_peaks", {}).items()), flush=True)
    print(growth_table(rows, sizes))


def growth_table(rows: list[dict], sizes: list[tuple[int, int]]) -> str:
    """One table: per size, time and peak memory, each as a ratio to the first size's, and the growth
    exponent of each against the size before (the log-log slope in run groups, or in items when the run
    groups stay the same); the pairs of each comparison family grow with exponent about 2 in run groups,
    the stored responses with 1."""
    lines = [f"{'groups':>6} {'items':>6} {'pairs':>7} {'responses':>10}  {'time s':>8} {'CPU s':>8} {'peak MB':>8}  "
             f"{'time x':>7} {'CPU x':>7} {'peak x':>7}  {'exp time':>8} {'exp CPU':>8} {'exp peak':>8} {'exp pairs':>9}"]
    first = rows[0] if rows else {}
    for k, (row, (runs, items)) in enumerate(zip(rows, sizes)):
        pairs = runs * (runs - 1) // 2
        peak = max(row["peak"], row["child"])
        ratios = [row["seconds"] / first["seconds"], row.get("cpu", 0.0) / max(1e-9, first.get("cpu", 0.0)),
                  peak / max(first["peak"], first["child"])]
        cells = ["", "", "", ""]
        if k:
            prev, (p_runs, p_items) = rows[k - 1], sizes[k - 1]
            x = math.log(runs / p_runs) if runs != p_runs else math.log(items / p_items)
            if x:
                cells = [f"{math.log(row['seconds'] / prev['seconds']) / x:.2f}",
                         f"{math.log(row.get('cpu', 0.0) / max(1e-9, prev.get('cpu', 0.0))) / x:.2f}"
                         if row.get("cpu") and prev.get("cpu") else "",
                         f"{math.log(peak / max(prev['peak'], prev['child'])) / x:.2f}",
                         f"{math.log(pairs / (p_runs * (p_runs - 1) // 2)) / x:.2f}" if runs != p_runs else ""]
        lines.append(f"{runs:6d} {items:6d} {pairs:7,d} {row['responses']:10,d}  {row['seconds']:8.1f} "
                     f"{row.get('cpu', 0.0):8.1f} {peak:8,.0f}  {ratios[0]:7.2f} {ratios[1]:7.2f} {ratios[2]:7.2f}  "
                     f"{cells[0]:>8} {cells[1]:>8} {cells[2]:>8} {cells[3]:>9}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
