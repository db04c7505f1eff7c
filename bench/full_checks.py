"""The full check before publishing: the tests marked `slow`, which the README's test command leaves out.

    python bench/full_checks.py [--workers auto] [PYTEST_ARGS ...]

They are the checks that take minutes rather than seconds: the browser, accessibility and HTML-validity
checks of the built sites (Chromium, axe-core, vnu), the fuzz of every suite through both scorers, the
sweeps of every Unicode code point through both scorers, regenerating the example's corpus, labels,
OCR answers and results and comparing them with the committed ones, the page cache against a clean
build, the harness driven through a real local server, and the like (`grep -rn "mark.slow" tests/`
lists them). The README's test command runs everything else; run both before publishing a site or
merging a change to scoring, the example or the site's pages.

Prints pytest's own report (with the reasons for any skip) and the wall and CPU time of the whole run
(this process's children: pytest, its workers and what they start). Exits with pytest's status.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", default="auto", help="pytest-xdist workers (-n); 0 runs in this process's child alone")
    args, rest = ap.parse_known_args()
    cmd = [sys.executable, "-m", "pytest", "-n", args.workers, "-rs", "-m", "slow", *rest]
    print(" ".join(cmd), file=sys.stderr, flush=True)
    start = time.perf_counter()
    status = subprocess.run(cmd, cwd=ROOT).returncode  # `python -m` puts the project first on sys.path
    wall = time.perf_counter() - start
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"full checks: exit {status}, {wall:.0f} s wall, {used.ru_utime + used.ru_stime:.0f} CPU-s "
          f"(user {used.ru_utime:.0f}, sys {used.ru_stime:.0f})", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
