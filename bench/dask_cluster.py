"""Rescoring on a Dask cluster against rescoring locally, on the same machine and corpus.

The corpus is bench/rescore_throughput.py's (example runs regenerated under new seeds, --responses
records). Measured in one run: local scoring (scorer A and scorer B, one and two processes for A),
the same on a LocalCluster of --workers worker processes (one thread each) through `--scheduler`,
the per-task overhead of the cluster (empty tasks, a round trip each), and the bytes moved per run
(stored bytes sent, each run's artifact sent back). On one machine the cluster shares its cores with the
client and scorer B, so the figure that carries over to a real cluster is the overhead per task
against the scoring time per run.

`--part site` (or all): the site of bench/site_build.py's leaderboard (--items x --runs), built
without the build cache locally (--jobs 1 and 2) and on the same LocalCluster through `--scheduler`
(scoring, the statistics' strata and the item pages as tasks): time by stage as ratios to the local
builds of the same run, and whether the two sites are byte-identical.

    python bench/dask_cluster.py [--responses 50000] [--workers 2] [--part rescore|site|all]
                                 [--items 1000] [--runs 12] [--resamples 1000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.rescore_throughput import SUITE, build_scaled  # noqa: E402
from generator.pipeline.stages import load_and_score  # noqa: E402


def _nothing(x: int) -> int:
    return x


def timed(root: Path, jobs: int, scheduler: str | None = None):
    start = time.perf_counter()
    scored = load_and_score(root, [SUITE], jobs, True, scheduler=scheduler, warn=lambda _w: None)
    return time.perf_counter() - start, scored


def site_part(args) -> None:
    """The same site built locally and on a LocalCluster: time by stage, ratios, byte-identical."""
    import hashlib

    from distributed import LocalCluster

    from bench.site_build import generate
    from generator.pipeline.orchestrate import SCORING
    from generator.render.build import build_site

    def digests(folder: Path) -> dict[str, str]:
        return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(folder.rglob("*")) if p.is_file()}

    def stages(report) -> dict[str, float]:
        seconds = report.seconds
        return {"scoring": seconds.get(f"gather: {SCORING}", seconds.get(SCORING, 0.0)),
                "statistics": seconds.get("gather: statistics", 0.0),
                "item pages": seconds.get("pages: public items", 0.0)}

    tmp = Path(tempfile.mkdtemp(prefix="tally-dask-site-bench-"))
    try:
        n_items, n_responses = generate(tmp, args.items, args.runs)
        print(f"site: {n_items:,} items, {args.runs} run groups, {n_responses:,} stored responses, "
              f"{args.resamples:,} resamples, no build cache")
        os.environ.setdefault("SOURCE_DATE_EPOCH", "1793491200")  # the same build date for both sites
        small = tmp / "warm-up"  # a small site built first, here and on the cluster: imports, workers' start
        generate(small, 100, 2)
        build_site(small, small / "site", resamples=100, cache=False)
        rows = {}
        for jobs in (1, 2):
            start = time.perf_counter()
            report = build_site(tmp, tmp / f"site-local-{jobs}", resamples=args.resamples, jobs=jobs, cache=False)
            rows[f"local, --jobs {jobs}"] = (time.perf_counter() - start, stages(report))
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          host="127.0.0.1") as cluster:
            build_site(small, small / "site-cluster", resamples=100, cache=False, scheduler=cluster.scheduler_address)
            start = time.perf_counter()
            report = build_site(tmp, tmp / "site-cluster", resamples=args.resamples, cache=False,
                                scheduler=cluster.scheduler_address)
            rows[f"LocalCluster, {args.workers} workers"] = (time.perf_counter() - start, stages(report))
        same = digests(tmp / "site-local-1") == digests(tmp / "site-cluster")
        base = rows["local, --jobs 1"]
        print(f"  {'build':28} {'total':>16} " + " ".join(f"{k:>18}" for k in base[1]))
        for name, (total, by) in rows.items():
            cells = " ".join(f"{v:7.1f} s ({v / base[1][k]:4.2f}x)" if base[1][k] else f"{v:7.1f} s" for k, v in by.items())
            print(f"  {name:28} {total:7.1f} s ({total / base[0]:4.2f}x) {cells}")
        moved = [w for w in report.warnings if "Dask" in w]
        print(f"  (ratios to the local build on one process; the cluster's site byte-identical to it: {same}"
              f"{'' if not moved else '; ' + '; '.join(moved)})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--responses", type=int, default=50_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--part", choices=("rescore", "site", "all"), default="all")
    ap.add_argument("--items", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=12)
    ap.add_argument("--resamples", type=int, default=1000)
    args = ap.parse_args()
    if args.part in ("rescore", "all"):
        rescore_part(args)
    if args.part in ("site", "all"):
        site_part(args)


def rescore_part(args) -> None:
    from distributed import Client, LocalCluster

    tmp = Path(tempfile.mkdtemp(prefix="tally-dask-bench-"))
    try:
        n, runs = build_scaled(tmp, args.responses)
        size = sum(p.stat().st_size for p in (tmp / "results").rglob("responses.jsonl"))
        print(f"corpus: {n:,} responses in {runs} runs, {size / 1e6:.0f} MB")
        local = {}
        for jobs in (1, 2):
            t, scored = timed(tmp, jobs)
            local[jobs] = t
            print(f"local, A on {jobs} process(es) and B alongside: {t:.2f} s, {n / t:,.0f} responses/s "
                  f"({scored[0].agreement['status']})")
        results_bytes = sum(r.path.stat().st_size for r in scored[0].runs)  # each run's artifact, sent back
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          host="127.0.0.1") as cluster:
            address = cluster.scheduler_address
            timed(tmp, 1, address)  # workers import Tally and start Node once before the measurement
            t, scored_c = timed(tmp, 1, address)
            same = all(a.digest == b.digest for a, b in zip(scored[0].runs, scored_c[0].runs))
            print(f"LocalCluster, {args.workers} workers (A and B on each): {t:.2f} s, {n / t:,.0f} responses/s "
                  f"= {local[1] / t:.2f}x local on one process, {local[2] / t:.2f}x local on two "
                  f"({scored_c[0].agreement['status']}; digests equal to local: {same})")
            with Client(address) as client:
                client.gather(client.map(_nothing, range(50), pure=False))
                start = time.perf_counter()
                count = 500
                client.gather(client.map(_nothing, range(count), pure=False))
                batch = (time.perf_counter() - start) / count
                start = time.perf_counter()
                for k in range(50):
                    client.submit(_nothing, k, pure=False).result()
                one = (time.perf_counter() - start) / 50
        per_run = t / runs
        print(f"per-task overhead: {1000 * one:.1f} ms for one round trip, {1000 * batch:.2f} ms per task in a "
              f"batch of {count}; scoring time per run on the cluster {1000 * per_run:.0f} ms "
              f"(overhead {100 * one / per_run:.1f}% of a run)")
        print(f"bytes moved per run: {size / runs / 1e6:.2f} MB of stored responses out, "
              f"{results_bytes / runs / 1e6:.2f} MB of results back (the run's artifact)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
