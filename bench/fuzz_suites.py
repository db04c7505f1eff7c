"""Fuzz every suite through both scorers (default 1,000,000 cases per suite): 0 differences and 0 crashes
expected.

    python bench/fuzz_suites.py [--per-suite 1000000] [--suite NAME ...] [--seed 1] [--batch 2000] [--show 10]
                                [--record FILE] [--totals FILE]

Each suite's cases come from generator/fuzz: its shared cases' answers, mutated (near-misses, changes of
shape, hostile JSON), and the boundary answers of the suite's `fuzzcases` module. Every suite the
project finds is fuzzed (the built-in ones and the plugins of tally.toml). Prints per suite the cases, the
differences, the crashes of each scorer, the replies scorer A took over 10 s on, the records no stored
line can carry (refused by the reader of results files, as `tally rescore` refuses them: scored by
neither), and the time, then the first failures of each (the case's reply and both scorers' rows).
Exit status 1 when anything failed.

The million cases of a suite may be run in parts on a shared machine: each seed gives its own stream of
cases, so `--seed 1 --per-suite 100000` ... `--seed 10 --per-suite 100000` are 1,000,000 distinct draws.
`--record FILE` appends one JSON line per suite (suite, seed, counts, seconds, the commit and the sha256 of
the scoring code it ran); `--totals FILE` prints, per suite, the sum over distinct seeds of the lines whose
scoring-code hash equals the current tree's (a part run on other rules does not count), and exits.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.fuzz import FuzzReport, fuzz_suite  # noqa: E402
from generator.suite.plugins import load_registry  # noqa: E402

CORE = ("generator/parse", "generator/score", "generator/fuzz", "scorer-js")


def code_hash(suite: object) -> str:
    """sha256 over the files that decide a verdict or a fuzz case of this suite (the shared core's and the
    suite's own folder's .py, .js and .json files, tests aside; paths and bytes, in path order), then its
    shared case file, whose answers the cases mutate."""
    folder = Path(inspect.getfile(type(suite))).resolve().parent
    h = hashlib.sha256()
    vectors = getattr(suite, "vectors", None)
    for top in (*(ROOT / c for c in CORE), folder):
        for path in sorted(top.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".js", ".json") and not {"__pycache__", "node_modules", "test",
                                                                               "tests"} & set(path.relative_to(top).parts):
                h.update(path.relative_to(top.parent).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    if isinstance(vectors, Path) and vectors.is_file():
        h.update(b"vectors\0" + vectors.read_bytes() + b"\0")
    return h.hexdigest()


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def totals(path: Path) -> None:
    """Per suite, the parts recorded with the current scoring code, one per seed (the largest)."""
    registry = load_registry(ROOT)
    current = {name: code_hash(registry.get(name)) for name in registry.suites}
    best: dict[tuple[str, int], dict] = {}
    stale = 0
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row["code"] != current.get(row["suite"]):
            stale += 1
            continue
        key = (row["suite"], row["seed"])
        if key not in best or row["cases"] > best[key]["cases"]:
            best[key] = row
    print(f"{'suite':<16}{'seeds':>6}{'cases':>12}{'differences':>13}{'crashes A':>11}{'crashes B':>11}"
          f"{'slow A':>8}{'refused':>9}{'hours':>8}")
    for suite in sorted({s for s, _ in best}):
        rows = [r for (s, _), r in best.items() if s == suite]
        sums = {k: sum(r.get(k, 0) for r in rows) for k in ("cases", "differences", "crash_a", "crash_b", "slow_a",
                                                             "refused", "seconds")}
        print(f"{suite:<16}{len(rows):>6}{sums['cases']:>12,}{sums['differences']:>13,}{sums['crash_a']:>11,}"
              f"{sums['crash_b']:>11,}{sums['slow_a']:>8,}{sums['refused']:>9,}{sums['seconds'] / 3600:>8.2f}")
    if stale:
        print(f"({stale} recorded part(s) ran other scoring code and are not counted)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-suite", type=int, default=1_000_000)
    ap.add_argument("--suite", action="append", default=[], help="a suite's name (repeatable; default: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=2000)
    ap.add_argument("--show", type=int, default=10, help="failures listed per suite")
    ap.add_argument("--record", type=Path, help="append one JSON line per suite to this file")
    ap.add_argument("--totals", type=Path, help="print the totals recorded in this file and exit")
    args = ap.parse_args()
    if args.totals:
        totals(args.totals)
        return
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
        if args.record:
            r = reports[-1]
            row = {"suite": r.suite, "seed": r.seed, "cases": r.cases, "differences": r.differences,
                   "crash_a": r.crash_a, "crash_b": r.crash_b, "slow_a": r.slow_a, "refused": r.refused,
                   "seconds": round(r.seconds, 1),
                   "commit": commit(), "code": code_hash(suite), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            with args.record.open("a") as f:
                f.write(json.dumps(row) + "\n")
    print(f"{'suite':<16}{'cases':>12}{'differences':>13}{'crashes A':>11}{'crashes B':>11}{'slow A':>8}"
          f"{'refused':>9}{'time':>10}")
    for r in reports:
        print(f"{r.suite:<16}{r.cases:>12,}{r.differences:>13,}{r.crash_a:>11,}{r.crash_b:>11,}{r.slow_a:>8,}"
              f"{r.refused:>9,}"
              f"{time.strftime('%H:%M:%S', time.gmtime(r.seconds)):>10}")
    for r in reports:
        for f in r.findings:
            print(f"{r.suite}: {f.describe()}")
    sys.exit(1 if any(not r.ok for r in reports) else 0)


if __name__ == "__main__":
    main()
