"""RA-Bench rescore at scale: 10,000 receipts x 5 targets x 3 repeats, next to the floor measured in the
same run.

The corpus is RA-Bench's example generator at a larger size (--receipts cases, one in six a duplicate
transform, as in the example); the targets are the example's engine (real code), its three simulated
plain-prompt models and a fourth simulated one (the strong model on a second provider); every case is
run --repeats times by every target, so the stored responses number receipts x 5 x repeats (150,000 by
default). The floor reads the same files and parses every line with orjson, doing nothing else.
Targets (those of the rescore bench, bench/rescore_throughput.py): scorer A within 10x of the floor;
the rescore with the agreement gate within 3x scorer A alone on one process.

    python bench/rabench_rescore.py [--receipts 10000] [--repeats 3] [--jobs 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.example.build import load_generated_items  # noqa: E402
from generator.example.rabench_corpus import generate  # noqa: E402
from generator.example.rabench_runs import SUITE, TARGETS, write_results  # noqa: E402
from generator.pipeline import load, score  # noqa: E402

FIFTH = dataclasses.replace(TARGETS[1], run_id="diy-lumen-2-othercloud", provider="othercloud")


def build(target: Path, receipts: int, repeats: int) -> int:
    """The scaled project (content copied, items and results generated); returns the responses written."""
    if repeats != 3:
        raise SystemExit("the example's runner writes three repeats; --repeats must be 3")
    shutil.copytree(ROOT / "content", target / "content")
    suite_dir = target / "content" / "suites" / SUITE
    shutil.rmtree(suite_dir / "items")
    transforms = receipts // 6
    cases = generate(n_base=receipts - transforms, n_transforms=transforms)
    assert len(cases) == receipts
    items_dir = suite_dir / "items"
    items_dir.mkdir()
    for half in ("public", "private"):
        (items_dir / f"receipts.{half}.jsonl").write_bytes(b"".join(
            orjson.dumps(c, option=orjson.OPT_SORT_KEYS) + b"\n" for c in cases if c["half"] == half))
    for other in (target / "content" / "suites").iterdir():
        if other.name != SUITE:
            shutil.rmtree(other)
    write_results(target / "results", load_generated_items(items_dir), suite_dir, targets=(*TARGETS, FIFTH),
                  repeat_all=True)
    return sum(1 for p in (target / "results" / SUITE).glob("*/responses.jsonl") for line in p.open("rb") if line.strip())


def floor(root: Path) -> tuple[float, int]:
    start = time.perf_counter()
    n = 0
    for path in sorted((root / "results" / SUITE).glob("*/responses.jsonl")):
        for line in path.read_bytes().split(b"\n"):
            if line:
                orjson.loads(line)
                n += 1
    return time.perf_counter() - start, n


def timed(root: Path, jobs: int, gate: bool):
    (loaded,) = load(root, [SUITE])
    start = time.perf_counter()
    results = score([loaded], root, jobs, gate)
    return results, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--receipts", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2, help="processes for scorer A in the second measurement")
    ap.add_argument("--keep", type=Path, help="build the scaled project here and keep it (a project kept there "
                                                "before is measured again, not rebuilt)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tally-bench-rabench-")) if args.keep is None else args.keep
    try:
        start = time.perf_counter()
        if args.keep is not None and (tmp / "results" / SUITE).is_dir():
            print(f"the scaled project kept in {tmp} (not rebuilt)")
            n = sum(1 for p in (tmp / "results" / SUITE).glob("*/responses.jsonl") for line in p.open("rb")
                    if line.strip())
        else:
            n = build(tmp, args.receipts, args.repeats)
        size = sum(p.stat().st_size for p in (tmp / "results").rglob("responses.jsonl"))
        print(f"scaled RA-Bench: {args.receipts:,} receipts x {len(TARGETS) + 1} targets x {args.repeats} repeats = "
              f"{n:,} responses, {size / 1e6:.0f} MB (built in {time.perf_counter() - start:.0f} s)")
        floor(tmp)  # warm the page cache so that every measurement reads from memory
        t_floor, _ = floor(tmp)
        print(f"floor (read + orjson.loads every line, one process): {t_floor:.2f} s, {n / t_floor:,.0f} responses/s")
        t_a = 0.0
        for jobs in sorted({1, args.jobs}):
            results, t = timed(tmp, jobs, gate=False)
            verdicts = sum(len(r.verdicts) for res in results for r in res.runs)
            print(f"scorer A alone, {jobs} process(es): {t:.2f} s ({n / t:,.0f} responses/s, {verdicts:,} verdicts); "
                  f"{t / t_floor:.1f}x the floor (target <= 10x)")
            t_a = t if jobs == 1 else t_a
            del results
        results, t_gate = timed(tmp, 1, gate=True)
        agreement = results[0].agreement
        print(f"rescore with the agreement gate (A on one process, B beside it): {t_gate:.2f} s = "
              f"{t_gate / t_a:.2f}x scorer A alone (target <= 3x), {t_gate / t_floor:.1f}x the floor; "
              f"{agreement['compared']:,} verdicts compared, {agreement['differing']} differ")
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
