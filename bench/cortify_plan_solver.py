"""CortifyBench: the generator's plan against the reference solver on 1,000 seeds per version (the
tests run 30). Run: python -m bench.cortify_plan_solver [--seeds N]"""

from __future__ import annotations

import argparse
import collections
import time

from generator.example.cortify_files import render
from generator.example.cortify_plant import make_case, plan
from generator.suites.cortify.files import join_files
from generator.suites.cortify.solver import solve


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=1000)
    n = ap.parse_args().seeds
    for version in ("v0", "v1", "v2"):
        t0, diffs, counts, total = time.perf_counter(), [], collections.Counter(), 0
        for seed in range(n):
            case = make_case(seed, version)
            expected = plan(case)
            total += len(expected)
            counts.update(h["patron"] for h in expected)
            if solve(join_files(render(case)), version) != expected:
                diffs.append(seed)
        print(f"{version}: {n} seeds, {len(diffs)} differences {diffs[:10]}, {total / n:.1f} findings per case, "
              f"{len(counts)} patterns, {time.perf_counter() - t0:.1f} s")
    first200 = {h["patron"] for s in range(200) for h in plan(make_case(s, "v0"))}
    print(f"v0 patterns in the first 200 seeds: {len(first200)} of 10")


if __name__ == "__main__":
    main()
