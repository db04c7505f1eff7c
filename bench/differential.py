"""Differential run of both scorers on adversarial cases (default 1,000,000), through one Node process.

    python bench/differential.py [--cases 1000000] [--seed 1] [--batch 5000]

Prints the number of cases, the disagreements found (each with its case), and the time taken.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.pipeline.crosscheck import ScorerBProcess
from generator.suites.extracting import SUITE as EXTRACTING  # noqa: E402
from tests.differential import differences  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=5000)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    found: list[dict] = []
    start = time.perf_counter()
    with ScorerBProcess([EXTRACTING]) as process:
        done = 0
        while done < args.cases:
            n = min(args.batch, args.cases - done)
            found += differences(process, rnd, n, start=done)
            done += n
            print(f"\r{done:,} cases, {len(found)} disagreements", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    elapsed = time.perf_counter() - start
    print(f"{args.cases:,} cases (seed {args.seed}) in {elapsed:.0f} s: {len(found)} disagreements")
    for d in found[:20]:
        print(json.dumps(d, ensure_ascii=True)[:2000])


if __name__ == "__main__":
    main()
