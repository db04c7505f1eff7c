"""Incremental builds: a rebuild after adding one run, and one with nothing changed, against a full build.

The leaderboard is bench/site_build.py's (the example scaled to --items items and --runs run groups).
One run is held out; the site is built from scratch (the build cache empty: the full build); then
rebuilt with nothing changed; then the held-out run is put back and the site rebuilt. The same three
steps are timed for `tally rescore` alone (load, scorer A and scorer B, outputs written). Every time
is a ratio to the full build measured in the same run, in wall-clock time and in CPU time (this
process and its children: on a machine shared with other work, the steadier of the two). Targets:
adding one run <= 10% of the full build, nothing changed <= 3%.

    python bench/incremental.py [--items 6000] [--runs 40] [--resamples 1000] [--keep DIR]

Measured on 2026-12-04 with --items 1500 --runs 40 --resamples 200, the code before the item pages'
sections (and the cached compressed public lines, and the faster public verdicts) and after, one after
the other on 2 shared cores: one run added 81.6% of the full build (CPU 71.5%) before, 50.3% (CPU 43.7%)
after; the item pages 9.0 -> 3.5 s, the downloads 5.3 -> 3.2 s; nothing changed 0.7% both times.

Measured on 2026-12-04 on a quiet machine after the next changes (stats.json's pairs written as text, each
group's operations figures cached, the strata on two processes, the public verdicts as per-run pieces,
the charts as plain data, the content pages cached, ...): with the defaults (6,000 items, 40 run groups,
1,000 resamples) the full build 59.4 s (75.3 s before, on a shared machine), one run added 24.6 s = 41.5%
(CPU 33.3%; 49.7% and 37.7% before), nothing changed 0.4%; with --items 1500 --runs 40 --resamples 200
the full build 20.0 s, one run added 7.5 s = 37.6% (CPU 31.4%).

Measured on 2026-12-04 after cached runs were no longer read for their keys nor their artifacts read whole
again, kappa computed without scikit-learn, and the banner no longer counting runs: with the defaults the
full build 55.8 s, one run added 19.8 s = 35.4% (CPU 28.6%), nothing changed 0.4%.

Measured on 2026-12-05 on a quiet machine after the side parts of the statistics were computed beside the
strata, the sealed hashes, each run's rows of the item_stats and calls files and the page images' checks
came from the build cache, and the suites' own tables were made by a forked process: with the defaults
the full build 56.6 s, one run added 17.1 s = 30.3% (CPU 28.7%), nothing changed 0.7% (CPU 0.4%).
Then, with the item analysis computed for all items at once: full 50.6 s, one run added 14.4 s = 28.5%
(CPU 26.3%), nothing changed 0.4%.

Measured on 2026-12-05 after the item pages were put together from cached shells and the statistics' side
parts drew only the headline's metric group (load average 0.7 at the start): full 54.7 s, one run added
13.0 s = 23.7% (CPU 21.2%), nothing changed 0.4%; rescore alone: one run added 11.7%, nothing changed 11.7%.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.site_build import SUITE, generate  # noqa: E402
from generator.pipeline.cache import Cache  # noqa: E402
from generator.pipeline.outputs import write_outputs  # noqa: E402
from generator.pipeline.stages import load_and_score  # noqa: E402
from generator.render.build import build_site  # noqa: E402


def cpu() -> float:
    """CPU seconds so far of this process and of its children that ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


CPU: dict[str, float] = {}  # label -> CPU seconds of the last step so labelled


def rescore(root: Path, jobs: int, label: str) -> tuple[float, Cache]:
    start, used = time.perf_counter(), cpu()
    cache = Cache(root / "build" / "cache")
    write_outputs(root / "build" / "rescore", load_and_score(root, None, jobs, True, cache=cache, warn=lambda _w: None),
                  cache=cache)  # as `tally rescore` writes them (orchestrate.run)
    CPU[label] = cpu() - used
    return time.perf_counter() - start, cache


def site(root: Path, resamples: int, jobs: int, label: str):
    start, used = time.perf_counter(), cpu()
    report = build_site(root, root / "site", resamples=resamples, jobs=jobs)
    CPU[label] = cpu() - used
    return time.perf_counter() - start, report


def cpu_line(kind: str) -> str:
    full, same, added = CPU[f"{kind} full"], CPU[f"{kind} same"], CPU[f"{kind} added"]
    return (f"  CPU time: full {full:.1f} s; nothing changed {same:.1f} s = {100 * same / full:.1f}%; "
            f"one run added {added:.1f} s = {100 * added / full:.1f}%")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=6000)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep", type=Path, help="generate the leaderboard here and keep it")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tally-incremental-")) if args.keep is None else args.keep
    try:
        n_items, n_responses = generate(tmp, args.items, args.runs)
        runs = tmp / "results" / SUITE
        held = sorted(runs.iterdir())[-1]
        aside = tmp / "held-out"
        print(f"generated: {n_items:,} items, {args.runs} run groups, {n_responses:,} stored responses; "
              f"held out: {held.name}")
        held.rename(aside)

        print("rescore (A and B, outputs written):")
        full, _ = rescore(tmp, args.jobs, "rescore full")
        same, c_same = rescore(tmp, args.jobs, "rescore same")
        aside.rename(held)
        added, c_added = rescore(tmp, args.jobs, "rescore added")
        print(f"  full {full:.2f} s; nothing changed {same:.2f} s = {100 * same / full:.1f}% "
              f"({c_same.counts.hits} runs from the cache); one run added {added:.2f} s = {100 * added / full:.1f}% "
              f"({c_added.counts.misses} run scored)")
        print(cpu_line("rescore"))

        held.rename(aside)
        shutil.rmtree(tmp / "build", ignore_errors=True)
        shutil.rmtree(tmp / "site", ignore_errors=True)
        print("site build:")
        full, r_full = site(tmp, args.resamples, args.jobs, "site full")
        same, r_same = site(tmp, args.resamples, args.jobs, "site same")
        aside.rename(held)
        added, r_added = site(tmp, args.resamples, args.jobs, "site added")
        kept = ("up to date: nothing rendered, nothing written" if r_same.up_to_date
                else f"{r_same.unchanged:,} files kept, {r_same.reused:,} item pages from the build cache")
        print(f"  full {full:.1f} s ({r_full.files:,} files); nothing changed {same:.1f} s = {100 * same / full:.1f}% "
              f"(target <= 3%; {kept}); one run added {added:.1f} s = {100 * added / full:.1f}% "
              f"(target <= 10%; {r_added.files - r_added.unchanged:,} files changed, {r_added.reused:,} item pages "
              "from the build cache)")
        print(cpu_line("site"))
        for label, report in (("full", r_full), ("nothing changed", r_same), ("one run added", r_added)):
            print(f"  {label}: " + ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items()))
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
