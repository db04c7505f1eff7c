"""Fuzz every suite through both scorers (default 1,000,000 cases per suite): 0 differences and 0 crashes
expected.

    python bench/fuzz_suites.py [--per-suite 1000000] [--suite NAME ...] [--seed 1] [--batch 2000] [--show 10]

Each suite's cases come from generator/fuzz: its shared cases' answers, mutated (near-misses, changes of
shape, hostile JSON), and the boundary answers of the suite's `fuzzcases` module. Every suite the
project finds is fuzzed (the built-in ones and the plugins of tally.toml). Prints per suite the cases,
the differences, the crashes of each scorer, the replies scorer A took over 10 s on, and the time, then
the first failures of each (the case's reply and both scorers' rows). Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.fuzz import FuzzReport, fuzz_suite  # noqa: E402
from generator.plugins import load_registry  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-suite", type=int, default=1_000_000)
    ap.add_argument("--suite", action="append", default=[], help="a suite's name (repeatable; default: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=2000)
    ap.add_argument("--show", type=int, default=10, help="failures listed per suite")
    args = ap.parse_args()
    registry = load_registry(ROOT)
    names = args.suite or sorted(registry.suites)
    reports: list[FuzzReport] = []
    for name in names:
        suite = registry.get(name)

        def progress(r: FuzzReport) -> None:
            rate = r.cases / r.seconds if r.seconds else 0
            print(f"\r{r.suite}: {r.cases:,} cases, {r.failures} failures, {rate:,.0f} cases/s", end="",
                  file=sys.stderr, flush=True)

        reports.append(fuzz_suite(suite, args.per_suite, seed=args.seed, batch=args.batch, keep=args.show,
                                  progress=progress))
        print(file=sys.stderr)
    print(f"{'suite':<16}{'cases':>12}{'differences':>13}{'crashes A':>11}{'crashes B':>11}{'slow A':>8}{'time':>10}")
    for r in reports:
        print(f"{r.suite:<16}{r.cases:>12,}{r.differences:>13,}{r.crash_a:>11,}{r.crash_b:>11,}{r.slow_a:>8,}"
              f"{time.strftime('%H:%M:%S', time.gmtime(r.seconds)):>10}")
    for r in reports:
        for f in r.findings:
            print(f"{r.suite}: {f.describe()}")
    sys.exit(1 if any(not r.ok for r in reports) else 0)


if __name__ == "__main__":
    main()
