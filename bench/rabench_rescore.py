"""RA-Bench rescore at scale: 10,000 receipts x 5 targets x 3 repeats, next to the floor measured in the
same run.

The corpus is RA-Bench's example generator at a larger size (--receipts cases, one in six a duplicate
transform, as in the example); the targets are the example's engine (real code), its three simulated
plain-prompt models and a fourth simulated one (the strong model on a second provider); every case is
run --repeats times by every target, so the stored responses number receipts x 5 x repeats (150,000 by
default). The floor reads the same files and parses every line with orjson, doing nothing else.
Targets (those of the rescore bench, bench/rescore_throughput.py): scorer A alone on one process
within 5x of the floor; the rescore with the agreement gate within 1.5x scorer A alone in wall time,
on one process and on --jobs processes (each against scorer A alone on as many, in the same trial).
Last measured (2 cores shared with other jobs, load average 4 to 7): scorer A 18.3x the floor on one
process; the gate 1.44x scorer A alone on one process, 1.78x on two (the README has the rest).

    python bench/rabench_rescore.py [--receipts 10000] [--repeats 3] [--jobs 2] [--trials 3] [--keep DIR] [--split]

Each measurement is taken --trials times, each time in a new process (so that nothing a suite keeps
from one scoring makes the next faster) and next to a floor measured just before it; the report gives
the median of the trials' ratios and their range (on a shared machine one trial can be 15% off).

--split measures scorer A again as it is and with the suite's own methods answered from tables filled by
a pass before (the digests must be the same): the difference is the time of the suite's own methods.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import statistics
import subprocess
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
from generator.pipeline.stages import load, score  # noqa: E402

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


def measured(root: Path, jobs: int, gate: bool) -> dict:
    """One trial in a new process: the seconds `timed` took, and what was scored."""
    out = subprocess.run([sys.executable, __file__, "--keep", str(root), "--measure", f"{jobs},{int(gate)}"],
                         check=True, capture_output=True, text=True).stdout
    return orjson.loads(out.strip().splitlines()[-1])


def _measure(root: Path, how: str) -> None:
    jobs, gate = (int(x) for x in how.split(","))
    results, t = timed(root, jobs, bool(gate))
    print(orjson.dumps({"seconds": t, "verdicts": sum(r.row_count for res in results for r in res.runs),
                        "compared": results[0].agreement.get("compared", 0),
                        "differing": results[0].agreement.get("differing", 0),
                        "digests": [r.digest for res in results for r in res.runs]}).decode())


def split(root: Path) -> str:
    """Scorer A as it is, then (after a pass that fills tables with what the suite's own methods
    extract_answer, score, item_figures and answer_value return) with those methods answered from the
    tables: what the last pass takes is the generic part (reading, record checks, calls, memo, columns,
    digest) plus the look-ups. Both passes must give the same digests. Wall and CPU time (the CPU time
    of this process is less disturbed by other work on the machine)."""
    (loaded,) = load(root, [SUITE])
    wall, cpu = time.perf_counter(), time.process_time()
    plain = score([loaded], root, 1, False)
    w_plain, c_plain = time.perf_counter() - wall, time.process_time() - cpu
    digests = [r.digest for r in plain[0].runs]
    del plain
    (loaded,) = load(root, [SUITE])
    suite = loaded.plugin
    real = suite.extract_answer, suite.score, suite.item_figures, suite.answer_value
    answers: dict = {}
    rows: dict = {}
    figures: dict = {}
    values: dict = {}

    def extract_answer(content):
        if content not in answers:
            answers[content] = real[0](content)
        return answers[content]

    def score_one(item, outcome, run, repeat):
        key = (item.id, outcome.status, outcome.reason, id(outcome.answer), run, repeat)
        if key not in rows:
            rows[key] = (outcome.answer, real[1](item, outcome, run, repeat))  # the answer kept: its id stays unique
        return rows[key][1]

    def item_figures(verdicts):
        if id(verdicts) not in figures:
            figures[id(verdicts)] = (verdicts, real[2](verdicts))
        return figures[id(verdicts)][1]

    def answer_value(answer, unit):
        key = (id(answer), unit)
        if key not in values:
            values[key] = (answer, real[3](answer, unit))
        return values[key][1]

    suite.extract_answer, suite.score, suite.item_figures, suite.answer_value = (
        extract_answer, score_one, item_figures, answer_value)
    try:
        score([loaded], root, 1, False)
        (loaded,) = load(root, [SUITE])  # the same plugin object: load gives the registered one
        wall, cpu = time.perf_counter(), time.process_time()
        results = score([loaded], root, 1, False)
        w_second, c_second = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        for name in ("extract_answer", "score", "item_figures", "answer_value"):
            delattr(suite, name)
    if digests != [r.digest for r in results[0].runs]:
        raise SystemExit("scorer A's digests differ when the suite's methods are answered from tables")
    return (f"scorer A: {w_plain:.2f} s ({c_plain:.2f} s CPU); with the suite's own methods answered from tables "
            f"(the generic part): {w_second:.2f} s ({c_second:.2f} s CPU); so the suite's own methods take about "
            f"{c_plain - c_second:.2f} s of {c_plain:.2f} s CPU ({(c_plain - c_second) / c_plain:.0%})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--receipts", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2, help="processes for scorer A in the second measurement")
    ap.add_argument("--split", action="store_true", help="also measure scorer A with the suite's own methods "
                                                          "answered from tables (where the time goes)")
    ap.add_argument("--trials", type=int, default=3, help="times each measurement is taken (median reported)")
    ap.add_argument("--measure", help=argparse.SUPPRESS)  # one trial, in a process of its own (`measured`)
    ap.add_argument("--keep", type=Path, help="build the scaled project here and keep it (a project kept there "
                                                "before is measured again, not rebuilt)")
    args = ap.parse_args()
    if args.measure:
        _measure(args.keep, args.measure)
        return
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
        configs = [(jobs, gate) for gate in (False, True) for jobs in sorted({1, args.jobs})]
        trials: dict[tuple[int, bool], list[tuple[float, float, dict]]] = {c: [] for c in configs}
        floors = []
        for _ in range(args.trials):
            for config in configs:
                t_floor, _n = floor(tmp)
                floors.append(t_floor)
                got = measured(tmp, *config)
                trials[config].append((got["seconds"] / t_floor, got["seconds"], got))
        if len({tuple(g["digests"]) for got in trials.values() for _r, _t, g in got}) != 1:
            raise SystemExit("the runs' digests differ between trials or numbers of processes")
        print(f"floor (read + orjson.loads every line, one process): median {statistics.median(floors):.2f} s "
              f"({min(floors):.2f}-{max(floors):.2f} s over {len(floors)} measurements)")
        for (jobs, gate), got in trials.items():
            ratios = [r for r, _t, _g in got]
            seconds = statistics.median(t for _r, t, _g in got)
            last = got[-1][2]
            if not gate:
                print(f"scorer A alone, {jobs} process(es): median {seconds:.2f} s ({n / seconds:,.0f} responses/s, "
                      f"{last['verdicts']:,} verdicts); median {statistics.median(ratios):.1f}x the floor "
                      f"(trials {min(ratios):.1f}x-{max(ratios):.1f}x; target on one process <= 5x)")
        for jobs in sorted({1, args.jobs}):
            a_alone = [t for _r, t, _g in trials[(jobs, False)]]
            gated = trials[(jobs, True)]
            per_trial = [t / a for (_r, t, _g), a in zip(gated, a_alone)]
            last = gated[-1][2]
            print(f"rescore with the agreement gate (A on {jobs} process(es), B beside it): median "
                  f"{statistics.median(t for _r, t, _g in gated):.2f} s = median {statistics.median(per_trial):.2f}x "
                  f"scorer A alone on {jobs} process(es) in the same trial (trials {min(per_trial):.2f}x-"
                  f"{max(per_trial):.2f}x; target <= 1.5x), median {statistics.median(r for r, _t, _g in gated):.1f}x "
                  f"the floor; {last['compared']:,} verdicts compared, {last['differing']} differ")
        if args.split:
            print(split(tmp))
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
