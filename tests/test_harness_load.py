"""A smaller load test (the full one, 10,080 calls, is bench/harness_load.py): 1,000 calls at
concurrency 64 with faults injected on every attempt, then every (item, repeat) stored exactly
once, every line a valid record, and every request the server read recorded as an attempt."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

from test_harness_support import LiveServer, harness_project, records  # noqa: F401

from generator.errors import ErrorLog
from generator.example.simmodels import Faults
from generator.harness.plan import jobs, load_plan
from generator.harness.providers import get_provider
from generator.harness.runner import RunSpec, execute
from generator.inputs.results import iter_records, load_run
from generator.sealing import read_run

FAULTS = Faults(rate_limit=0.04, server_error=0.04, request_timeout=0.02, timeout=0.01, disconnect=0.02,
                malformed=0.01, wrong_model=0.01, slow=0.02)


def test_1000_calls_at_concurrency_64_with_faults(harness_project):
    root = harness_project
    plan = load_plan(root, "extracting", "both")
    expected = {(i["id"], r) for i, r in jobs(plan, 2, "all", limit=500)}
    assert len(expected) == 1000
    with LiveServer(root, faults=FAULTS, scale=1.0, hang_s=10) as server:  # clean-1 sleeps about 5 ms
        spec = RunSpec(root, "extracting", "clean-1", get_provider(root, "testprov"), half="both", repeats=2,
                       repeat_sample="all", limit=500, concurrency=64, timeout_s=1.0, base_url=server.url(),
                       time_scale=1.0)
        outcome = asyncio.run(execute(spec))
        seen = list(server.server.models.seen)
    stored = records(outcome.run_dir)
    keys = Counter((r["item"], r["repeat"]) for r in stored)
    assert set(keys) == expected and max(keys.values()) == 1 and outcome.stored == 1000
    log = ErrorLog(root)
    halves = {i["id"]: i["half"] for i in plan.items}
    data = read_run(outcome.run_dir / "responses.jsonl", log).data  # private records are in private storage
    assert sum(1 for _ in iter_records(load_run(outcome.run_dir, "extracting", log), halves, log, data)) == 1000
    assert not log.errors
    # nothing lost: every request the server read is a recorded attempt, and an attempt it never
    # read is a transport failure (a timeout or network error before the request arrived)
    attempts = {(r["item"], r["repeat"], n): a for r in stored for n, a in enumerate(r["attempts"])}
    served = Counter((item, repeat, n) for _p, _m, item, repeat, n in seen)
    assert served.keys() <= attempts.keys() and max(served.values()) == 1
    assert all(attempts[k]["error"] is not None for k in attempts.keys() - served.keys())
    kinds = Counter(a["error"] or a["status"] for r in stored for a in r["attempts"])
    assert {429, 500, 408, "timeout", "malformed body", 200} <= set(kinds)
    assert any(str(k).startswith("network") for k in kinds) and any(str(k).startswith("wrong model") for k in kinds)
    assert json.loads((outcome.run_dir / "run.json").read_text())["finished"]
