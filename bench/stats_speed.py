"""Speed and memory of the statistics engine, next to scipy.stats.bootstrap measured in the same run.

Workload (issue 3): N = 2,000 items, 40 run groups, 10,000 resamples, two ratio metrics (accuracy and
null honesty), each run's 95% percentile interval and all 780 paired differences with the engine's
pairwise rule (Holm's step-down on studentized differences; `--rule max-t` for the earlier single-step
max-T), for both metrics. Targets: at most 1.0 s and 300 MB, and at least 40x faster than
scipy.stats.bootstrap called per model for the same intervals. Each measurement runs in a fresh process so that its peak memory
(maximum resident set size) is its own; the figure reported is that process's peak, interpreter and
libraries included, and the increase over the process before the measured work. Each engine measurement
reports wall-clock and CPU time (the process's own CPU time, which other work on a shared machine does
not inflate) and splits them into stages: resampling (count matrix and resampled values), intervals,
and the pairwise rule; in the same process the earlier single-step max-T is timed on the same draws as
a reference for the pairwise stage.

First, the engine is timed against its plain computation (bench/stats_plain.py: the engine as it
computed before its fast paths, issue 37 goal 4) at 40 and 80 run groups (--compare), in alternating
fresh processes: CPU and wall-clock medians, their ratios (the reference measured in the same run) and
whether every interval, critical value, pair and the hash of W are bit-identical (the pairs by the
SHA-256 of their repr, taken after the clocks stop). Targets: at most 0.6 s at 40 run groups (780
pairs) and 1.0 s at 80 (3,160 pairs). --breakdown shows where the CPU time goes, in one process.

Measured on 2026-12-04 on the 2-core machine shared with other work (load average 2.4 to 4.5; CPU
time is the process's own, but a busy neighbour still slows it, and the wall clock more), two runs of
--only-compare --repeats 5: at 40 run groups 0.307 and 0.407 s of CPU (0.430 and 0.621 s wall), 0.27x
and 0.45x the plain computation's CPU time in the same run; at 80, 0.509 and 0.687 s (0.690 and 0.982
s wall), 0.29x and 0.52x; bit-identical. On an idle machine (load 0.2) the code before this round took
0.294 s of CPU (0.371 s wall) at 40 run groups and 0.459 s (0.491 s) at 80. Against that code
(alternating processes, CPU minima), the intervals (np.partition, quantiles.py) take 0.55x to 0.6x
and Holm 0.85x at 80 run groups (the constant-difference test only on pairs that may be constant);
the engine about 0.9x at 80 run groups, within the noise at 40, where drawing, counting and hashing W
and the float32 products take most of the time (--breakdown). The draw of W could not be made faster
bit for bit: numpy's integers(0, n) takes about 6 ms per 1,000 x 2,000 chunk, and the same stream as
raw 64-bit words with Lemire's multiply and rejection test redone in numpy about 5 ms, but taking the
indices out of those 64-bit products for counting costs what that saves: the loop of draw, count, hash
and product took 184 to 405 ms that way against 179 to 247 ms (alternating). That, the correction
applied to each piece of the sums, and two smaller changes measured within the noise and were dropped.

scipy is timed on --scipy-models models (default 4, so 8 calls) and scaled linearly to 40 models; it
computes only the per-model intervals (no pairwise differences), which favours scipy. Its intervals
are checked to equal, bit for bit, the engine's plain percentile intervals without the small-sample
correction (computed after the first engine measurement; the engine's own intervals are wider).

    python bench/stats_speed.py [--scipy-models 4] [--no-scaling] [--rule holm|max-t] [--compare 40,80]
    python bench/stats_speed.py --only-compare --repeats 5
    python bench/stats_speed.py --breakdown --repeats 7 [--compare 40,80]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.stats import pairwise  # noqa: E402
from generator.stats.estimates import per_run, ratio_draws  # noqa: E402
from generator.stats.pairwise import max_t  # noqa: E402
from generator.stats.ratios import build_block, integer_scale, used_figures  # noqa: E402
from generator.stats.resample import PIECE, CountMatrix, derive_seed, resample_sums  # noqa: E402

NAMES = ("printed_n", "printed_correct", "missing_n", "null_ok")
RATIOS = {"accuracy": ("printed_correct", "printed_n"), "null_honesty": ("null_ok", "missing_n")}
SEED = derive_seed("bench", "all", "ratios")


def synthetic(runs: int, n: int, seed: int = 1) -> np.ndarray:
    """Per-item figures: fields per item vary, items differ in difficulty, runs in skill."""
    rng = np.random.default_rng(seed)
    pn, mn = rng.integers(1, 15, n), rng.integers(0, 5, n)
    ease = rng.normal(0, 1, n)
    figs = np.zeros((runs, n, 4))
    for r in range(runs):
        p = 1 / (1 + np.exp(-(1.5 + 0.02 * r + ease)))
        figs[r] = np.column_stack([pn, rng.binomial(pn, p), mn, rng.binomial(mn, p)])
    return figs


def _clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def engine(figs: np.ndarray, resamples: int, rule: str = "holm", stages: dict | None = None) -> dict:
    """Everything the workload asks for; returns the intervals for the cross-check. With `stages`, adds
    (wall, cpu) seconds per stage to it."""
    clocks = [_clocks()]
    d = ratio_draws(figs, np.ones(figs.shape[:2], dtype=np.int64), NAMES, RATIOS, SEED, resamples)
    clocks.append(_clocks())
    out, calls = {}, {}
    for metric in RATIOS:
        _rows, lows, highs = per_run(d.point[metric], d.draws[metric], figs.shape[1])
        out[metric] = {"low": lows.tolist(), "high": highs.tolist()}
    clocks.append(_clocks())
    for metric in RATIOS:
        if rule == "max-t":
            calls[metric] = max_t(d.point[metric], d.draws[metric])
        else:
            calls[metric] = pairwise.holm(d.point[metric], d.draws[metric], d.df)  # as patched by plain()
    clocks.append(_clocks())
    for metric, (c, pairs) in calls.items():
        out[metric] |= {"c": c, "pairs": pairs, "record": d.record}  # hashed after the clocks stop: digested()
    if stages is not None:
        for k, name in enumerate(("resampling", "intervals", "pairwise")):
            stages[name] = (clocks[k + 1][0] - clocks[k][0], clocks[k + 1][1] - clocks[k][1])
        for metric in RATIOS:  # the reference for the pairwise stage, on the same draws (not in the total)
            max_t(d.point[metric], d.draws[metric])
        done = _clocks()
        stages["reference max-T"] = (done[0] - clocks[-1][0], done[1] - clocks[-1][1])
    return out


def digested(result: dict) -> dict:
    """The engine's result with each metric's pairs as their number and the SHA-256 of their repr: every
    pair's figures and call, bit for bit. Outside the timed work: it checks the engine, it is not part of it."""
    return {metric: part | ({"pairs": len(part["pairs"]),
                             "pairs_sha256": hashlib.sha256(repr(part["pairs"]).encode()).hexdigest()}
                            if "pairs" in part else {})
            for metric, part in result.items()}


def _ratio(num, den, axis=-1):
    return np.sum(num, axis=axis) / np.sum(den, axis=axis)


def scipy_intervals(figs: np.ndarray, models: int, resamples: int) -> dict:
    import scipy.stats

    out = {m: {"low": [], "high": []} for m in RATIOS}
    for r in range(models):
        for metric, (num, den) in RATIOS.items():
            res = scipy.stats.bootstrap((figs[r, :, NAMES.index(num)], figs[r, :, NAMES.index(den)]), _ratio,
                                        paired=True, vectorized=True, n_resamples=resamples, method="percentile",
                                        rng=np.random.default_rng(SEED))
            out[metric]["low"].append(float(res.confidence_interval.low))
            out[metric]["high"].append(float(res.confidence_interval.high))
    return out


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def child(kind: str, n: int, runs: int, resamples: int, models: int, rule: str) -> None:
    figs = synthetic(runs, n)
    context = contextlib.nullcontext
    if kind == "plain":  # the engine as it computed before its fast paths: the reference
        from bench.stats_plain import plain

        context = plain
    if kind != "scipy":
        with context():
            engine(synthetic(3, 50), 200, rule)  # warm-up: imports and first-call costs
    before = _rss_mb()
    stages: dict = {}
    start, cpu = _clocks()
    if kind == "scipy":
        result = scipy_intervals(figs, models, resamples)
    else:
        with context():
            result = engine(figs, resamples, rule, stages)
    end, cpu_end = _clocks()
    if stages:  # the reference ran after the measured work: leave it out of the totals
        end, cpu_end = end - stages["reference max-T"][0], cpu_end - stages["reference max-T"][1]
    peak = _rss_mb()
    result = digested(result)
    if kind == "engine" and models:  # for scipy's check, after the measurement: see uncorrected()
        result["uncorrected"] = uncorrected(figs, resamples)
    print(json.dumps({"seconds": end - start, "cpu": cpu_end - cpu, "stages": stages, "peak_mb": peak,
                      "before_mb": before, "result": result}))


def uncorrected(figs: np.ndarray, resamples: int) -> dict:
    """Each run's plain percentile interval without the small-sample correction: what
    scipy.stats.bootstrap computes from the same seed (the engine's corrected intervals are wider)."""
    d = ratio_draws(figs, np.ones(figs.shape[:2], dtype=np.int64), NAMES, RATIOS, SEED, resamples, correct=False)
    out = {}
    for metric in RATIOS:
        _rows, lows, highs = per_run(d.point[metric], d.draws[metric], figs.shape[1])
        out[metric] = {"low": lows.tolist(), "high": highs.tolist()}
    return out


def measure(kind: str, n: int, runs: int, resamples: int = 10_000, models: int = 0, rule: str = "holm") -> dict:
    cmd = [sys.executable, __file__, "--child", kind, "--n", str(n), "--runs", str(runs),
           "--resamples", str(resamples), "--scipy-models", str(models), "--rule", rule]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


TARGETS = {40: 0.6, 80: 1.0}  # issue 37, goal 4: seconds at N=2,000 and 10,000 resamples


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def compare(groups: list[int], n: int, resamples: int, rule: str, repeats: int) -> None:
    """The engine against its plain computation (bench/stats_plain.py), in alternating fresh processes so
    that both see the same load; CPU time (the process's own) beside wall-clock time."""
    print(f"engine against its plain computation (before the fast paths), N={n}, {resamples} resamples, {rule}, "
          f"{repeats} processes each, alternating; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  {'groups':>6} {'pairs':>6}  {'engine wall':>11} {'CPU':>6}  {'plain wall':>10} {'CPU':>6}  "
          f"{'CPU ratio':>9} {'wall ratio':>10}  {'target':>6}  bit-identical")
    for count in groups:
        fast: list[dict] = []
        slow: list[dict] = []
        for _ in range(repeats):
            fast.append(measure("engine", n, count, resamples, rule=rule))
            slow.append(measure("plain", n, count, resamples, rule=rule))
        same = all(f["result"] == p["result"] for f in fast for p in slow[:1]) and \
            all(p["result"] == slow[0]["result"] for p in slow)
        fw, fc = _median([f["seconds"] for f in fast]), _median([f["cpu"] for f in fast])
        pw, pc = _median([p["seconds"] for p in slow]), _median([p["cpu"] for p in slow])
        target = TARGETS.get(count)
        print(f"  {count:6d} {count * (count - 1) // 2:6d}  {fw:9.3f} s {fc:6.3f}  {pw:8.3f} s {pc:6.3f}  "
              f"{fc / pc:9.2f} {fw / pw:10.2f}  {f'{target:.1f} s' if target else '':>6}  {same}", flush=True)
        split = {stage: (_median([f["stages"][stage][1] for f in fast]), _median([p["stages"][stage][1] for p in slow]))
                 for stage in ("resampling", "intervals", "pairwise")}
        print("         CPU by stage, engine / plain: " +
              ", ".join(f"{stage} {e:.3f} / {p:.3f} s" for stage, (e, p) in split.items()), flush=True)
    print(f"  load average afterwards {os.getloadavg()[0]:.1f}")


def breakdown(groups: list[int], n: int, resamples: int, repeats: int) -> None:
    """Where the engine's CPU time goes, in this one process: each step is a real call that does one more
    part of the work than the step before (drawing W; then counting and hashing it; then the products;
    then the whole ratio_draws), and a part's time is the difference of the steps' minima over `repeats`."""
    print(f"where the CPU time goes, N={n}, {resamples} resamples, minimum of {repeats} in one process "
          f"(load average {os.getloadavg()[0]:.1f}):")
    for count in groups:
        figs = synthetic(count, n)
        reps = np.ones(figs.shape[:2], dtype=np.int64)
        block, _ = integer_scale(build_block(figs, NAMES, list(used_figures(RATIOS))), reps)
        d = ratio_draws(figs, reps, NAMES, RATIOS, SEED, resamples)
        steps = {
            "drawing W (the seeded item indices)": lambda: [None for _ in CountMatrix(SEED, [n], resamples)._drawn()],
            "counting W and its hash": lambda: [None for _ in CountMatrix(SEED, [n], resamples).pieces([PIECE])],
            "the products W x figures": lambda: resample_sums(CountMatrix(SEED, [n], resamples), [block]),
            "correction, ratios, estimates": lambda: ratio_draws(figs, reps, NAMES, RATIOS, SEED, resamples),
            "intervals (2 metrics)": lambda: [per_run(d.point[m], d.draws[m], n) for m in RATIOS],
            "Holm (2 metrics)": lambda: [pairwise.holm(d.point[m], d.draws[m], d.df) for m in RATIOS],
        }
        best = {}
        for name, step in steps.items():
            step()
            times = []
            for _ in range(repeats):
                cpu = time.process_time()
                step()
                times.append(time.process_time() - cpu)
            best[name] = min(times)
        names = list(steps)
        parts = {name: best[name] - (best[names[k - 1]] if 0 < k < 4 else 0.0) for k, name in enumerate(names)}
        total = sum(parts.values())
        print(f"  {count} run groups ({count * (count - 1) // 2} pairs), {total:.3f} s in all:")
        for name, sec in parts.items():
            print(f"    {name:38s} {sec * 1000:6.1f} ms  {sec / total:4.0%}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--child", choices=("engine", "plain", "scipy"))
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--scipy-models", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3, help="engine measurements (the median is reported)")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--rule", choices=("holm", "max-t"), default="holm")
    ap.add_argument("--compare", default="40,80",
                    help="run-group counts at which the engine is timed against its plain computation ('' for none)")
    ap.add_argument("--only-compare", action="store_true", help="only the comparison with the plain computation")
    ap.add_argument("--breakdown", action="store_true", help="only where the CPU time goes, at the --compare counts")
    args = ap.parse_args()
    if args.child:
        child(args.child, args.n, args.runs, args.resamples, args.scipy_models, args.rule)
        return
    if args.breakdown:
        breakdown([int(x) for x in args.compare.split(",")], args.n, args.resamples, max(args.repeats, 5))
        return
    n, runs, b, rule = args.n, args.runs, args.resamples, args.rule
    if args.compare:
        compare([int(x) for x in args.compare.split(",")], n, b, rule, args.repeats)
    if args.only_compare:
        return
    print(f"workload: N={n} items, {runs} run groups, {b} resamples, 2 ratio metrics, "
          f"{runs * (runs - 1) // 2} pairs per metric with {rule} (numpy {np.__version__}); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    eng = [measure("engine", n, runs, b, args.scipy_models if k == 0 else 0, rule) for k in range(args.repeats)]
    times = sorted(e["seconds"] for e in eng)
    peak = max(e["peak_mb"] for e in eng)
    added = max(e["peak_mb"] - e["before_mb"] for e in eng)
    cpus = sorted(e["cpu"] for e in eng)
    print(f"engine: median {times[len(times) // 2]:.3f} s (min {times[0]:.3f}, max {times[-1]:.3f}) over "
          f"{len(times)} processes; CPU time median {cpus[len(cpus) // 2]:.3f} s (target 1.0 s); "
          f"peak memory {peak:.0f} MB for the whole process, +{added:.0f} MB for the work")
    for stage in eng[0]["stages"]:
        wall = sorted(e["stages"][stage][0] for e in eng)[len(eng) // 2]
        cpu = sorted(e["stages"][stage][1] for e in eng)[len(eng) // 2]
        print(f"  {stage:16s} median {wall:.3f} s wall, {cpu:.3f} s CPU")
    ratio = sorted(e["stages"]["pairwise"][1] / e["stages"]["reference max-T"][1] for e in eng)[len(eng) // 2]
    print(f"  pairwise stage ({rule}) / single-step max-T on the same draws (CPU, same process): {ratio:.2f}")
    print("  critical values (Holm: the first step's): " +
          ", ".join(f"{m} c={eng[0]['result'][m]['c']:.3f}" for m in RATIOS))
    k = args.scipy_models
    sp = measure("scipy", n, runs, b, k)
    scaled = sp["seconds"] * runs / k
    print(f"scipy.stats.bootstrap per model: {sp['seconds']:.2f} s for {k} models x 2 metrics, "
          f"scaled to {runs} models: {scaled:.1f} s; peak memory {sp['peak_mb']:.0f} MB")
    plain_ci = eng[0]["result"]["uncorrected"]
    same = all(sp["result"][m][side] == plain_ci[m][side][:k] for m in RATIOS for side in ("low", "high"))
    print(f"  intervals equal to the engine's without the small-sample correction, bit for bit: {same}")
    print(f"speedup: {scaled / times[len(times) // 2]:.0f}x wall-clock (scipy without the pairwise work)")
    if args.no_scaling:
        return
    print("time as N grows (40 run groups):")
    for size in (500, 1000, 2000, 4000, 8000):
        print(f"  N={size:5d}: {min(measure('engine', size, runs, b, rule=rule)['seconds'] for _ in range(2)):.3f} s")
    print("time as the number of run groups grows (N=2000; pairs grow with the square):")
    for count in (10, 20, 40, 80):
        m = measure("engine", n, count, b, rule=rule)
        print(f"  {count:3d} run groups ({count * (count - 1) // 2:4d} pairs): {m['seconds']:.3f} s, "
              f"peak {m['peak_mb']:.0f} MB")


if __name__ == "__main__":
    main()
