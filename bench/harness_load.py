"""Harness load test: 10,080 calls at concurrency 64 against the local simulation server with
injected faults, then a check that every (item, repeat) is stored exactly once and nothing is lost.

The server runs in a child process on a free loopback port and answers as the simulated
"acme-lynx-1" of the fictional "budgetapi" provider (its own 429s, 503s, failed calls and
timeouts) with further faults injected on every attempt: 429 with Retry-After, 500, 408, hangs,
dropped connections, malformed bodies, a wrong model name and slow answers. Durations are scaled
down (the server sleeps 1/100 of each simulated latency; the harness times out after 1 s and
backs off 1/20 as long) so the test measures the harness, not the sleeping.

    python bench/harness_load.py [--items 720] [--repeats 14] [--concurrency 64] [--keep DIR]

Checks: the stored keys are exactly the planned ones, each once; every line is a valid record
(the results loader reads them all without an error); nothing is lost: every request the server
read is an attempt in the records, and every recorded attempt the server never read is a
transport failure (a timeout or network error before the request arrived). Reports calls and
attempts per second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.errors import ErrorLog  # noqa: E402
from generator.example.simmodels import Faults  # noqa: E402
from generator.harness.localserver import ServerConfig, ServerProcess  # noqa: E402
from generator.harness.plan import jobs, load_plan  # noqa: E402
from generator.harness.progress import Progress  # noqa: E402
from generator.harness.providers import get_provider  # noqa: E402
from generator.harness.runner import RunSpec, execute  # noqa: E402
from generator.inputs.results import iter_records, load_run  # noqa: E402

FAULTS = Faults(rate_limit=0.03, server_error=0.03, request_timeout=0.01, timeout=0.003, disconnect=0.01,
                malformed=0.005, wrong_model=0.005, slow=0.01)


def lost_calls(records: list[dict], seen: list) -> dict:
    """Requests the server read with no recorded attempt, and recorded attempts it never read."""
    attempts = {(r["item"], r["repeat"], n): a for r in records for n, a in enumerate(r["attempts"])}
    served = Counter((item, repeat, attempt) for _provider, _model, item, repeat, attempt in seen)
    unread = [attempts[k] for k in attempts.keys() - served.keys()]
    return {"served_not_recorded": len(served.keys() - attempts.keys()),
            "served_twice": sum(n > 1 for n in served.values()),
            "recorded_not_served": len(unread),
            "recorded_not_served_but_answered": sum(a["error"] is None for a in unread)}


def check(root: Path, run_dir: Path, expected: set[tuple[str, int]]) -> dict:
    records = [json.loads(line) for line in (run_dir / "responses.jsonl").read_bytes().splitlines()]
    keys = Counter((r["item"], r["repeat"]) for r in records)
    duplicates = sum(n - 1 for n in keys.values() if n > 1)
    missing = len(expected - set(keys))
    extra = len(set(keys) - expected)
    log = ErrorLog(root)
    run = load_run(run_dir, "extracting", log)
    halves = {i["id"]: i["half"] for i in load_plan(root, "extracting", "both").items}
    valid = sum(1 for _ in iter_records(run, halves, log)) if run else 0
    outcomes = Counter("failed" if r["response"] is None else "answered" for r in records)
    errors = Counter((a["error"] or str(a["status"])).split(":")[0] for r in records for a in r["attempts"]
                     if a["error"] or a["status"] != 200)
    return {"records": len(records), "duplicates": duplicates, "missing": missing, "unexpected": extra,
            "loader_errors": len(log.errors), "valid": valid, "attempts": sum(len(r["attempts"]) for r in records),
            "retried": sum(len(r["attempts"]) > 1 for r in records), "outcomes": dict(outcomes),
            "attempt_faults": dict(errors.most_common())}


def load_test(root: Path, items: int, repeats: int, concurrency: int) -> dict:
    with (root / "content" / "providers.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[providers.loadtest]\nbase_url = "http://127.0.0.1:9/budgetapi/v1"\nhosting = "self-hosted"\n'
                 'simulation_server = true\nconcurrency = 64\n\n[providers.loadtest.models.acme-lynx-1]\n'
                 'simulated = true\n')
    plan = load_plan(root, "extracting", "both")
    expected = {(i["id"], r) for i, r in jobs(plan, repeats, "all", limit=items)}
    with ServerProcess(ServerConfig(root, "extracting", scale=0.01, faults=FAULTS, hang_s=30)) as port:
        spec = RunSpec(root, "extracting", "acme-lynx-1", get_provider(root, "loadtest"), run_id="load",
                       half="both", repeats=repeats, repeat_sample="all", limit=items, concurrency=concurrency,
                       timeout_s=20.0, base_url=f"http://127.0.0.1:{port}/budgetapi/v1", time_scale=0.05)
        bar = Progress(0, "load ")
        start = time.perf_counter()
        outcome = asyncio.run(execute(spec, bar))
        seconds = time.perf_counter() - start
        bar.close()
        stats = httpx.get(f"http://127.0.0.1:{port}/stats", timeout=60).json()
    report = check(root, outcome.run_dir, expected)
    records = [json.loads(line) for line in (outcome.run_dir / "responses.jsonl").read_bytes().splitlines()]
    report.update(lost_calls(records, stats["seen"]))
    report.update(planned=len(expected), seconds=round(seconds, 1), server_requests=stats["requests"],
                  calls_per_s=round(len(expected) / seconds, 1), attempts_per_s=round(report["attempts"] / seconds, 1))
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=720)
    ap.add_argument("--repeats", type=int, default=14)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--keep", type=Path, help="build the project here and keep it")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="tally-load-")) if args.keep is None else args.keep
    try:
        shutil.copytree(ROOT / "content", root / "content", ignore=shutil.ignore_patterns("pages"))
        report = load_test(root, args.items, args.repeats, args.concurrency)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(report, indent=2))
    ok = (report["records"] == report["valid"] == report["planned"] and not report["duplicates"]
          and not report["missing"] and not report["loader_errors"] and not report["served_not_recorded"]
          and not report["served_twice"] and not report["recorded_not_served_but_answered"])
    print("OK: every (item, repeat) stored exactly once, nothing lost" if ok else "FAILED", file=sys.stderr)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
