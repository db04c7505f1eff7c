"""Coverage of the engine's 95% intervals on synthetic suites with known truth, and its family-wise
error under the global null.

Each simulated data set is a suite of 6 datasets x 60 items (the size of one half of the example). An
item has a number of printed fields (1 + Binomial(11, 0.6) plus a per-dataset shift, at least 1) and of missing
fields (Binomial(4, 0.4)); its ease is Normal(0, 0.8), shared by every model; a model reads a printed
field right with probability logistic(skill + dataset offset + ease) and returns null for a missing
field with probability logistic(honesty + ease / 2). The truth of accuracy, null honesty and the macro
index is the population value, computed by Gauss-Hermite quadrature.

1. Coverage: the share of simulated data sets whose 95% interval covers the truth, for accuracy (a ratio
   over all items, plain bootstrap) and for the macro index (resampled within each dataset), for three
   models of different skill. Target 94-96%.
2. Global null: 10 models with the same skill (correlated through the shared item ease); the share of
   simulated data sets in which max-T calls any pair "better", for the index and for accuracy. Target at
   most 5% within Monte Carlo error. The same share for unadjusted 95% percentile intervals on each
   difference is shown for contrast.

    python bench/stats_coverage.py [--sims 1000] [--resamples 2000] [--jobs 2] [--part both|coverage|null]
                                   [--first-sim 0]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.stats.estimates import macro_draws, ratio_draws  # noqa: E402
from generator.stats.pairwise import BETTER, WORSE, max_t, pair_index  # noqa: E402
from generator.stats.quantiles import interval  # noqa: E402
from generator.stats.resample import derive_seed  # noqa: E402
from generator.suites.extracting import SUITE  # noqa: E402

DATASETS, PER_DATASET = 6, 60
DS_OFFSET = np.array([0.4, 0.0, -0.3, 0.2, -0.6, 0.1])
DS_FIELDS = np.array([0, 2, 1, -1, 3, -2])  # shifts the number of printed fields per dataset
EASE_SD = 0.8
NAMES = ("printed_n", "printed_correct", "missing_n", "null_ok")
RATIOS = {"accuracy": ("printed_correct", "printed_n"), "null_honesty": ("null_ok", "missing_n")}
SKILLS = ((0.5, 0.0), (1.5, 1.0), (2.5, 2.0))  # (skill, honesty) of the coverage models
NULL_MODELS = 10
INDEX_WEIGHTS = dict(next(m for m in SUITE.metrics if m.name == "index").weights)


def _logistic(x):
    return 1 / (1 + np.exp(-x))


def _expected_logistic(shift: float, sd: float) -> float:
    x, w = np.polynomial.hermite_e.hermegauss(200)
    return float(np.sum(w * _logistic(shift + sd * x)) / math.sqrt(2 * math.pi))


def truth(skill: float, honesty: float) -> dict[str, float]:
    k = np.arange(12)
    pmf = np.array([math.comb(11, j) * 0.6**j * 0.4 ** (11 - j) for j in k])
    mean_fields = np.array([np.sum(pmf * np.maximum(1 + k + shift, 1)) for shift in DS_FIELDS])
    acc_ds = np.array([_expected_logistic(skill + o, EASE_SD) for o in DS_OFFSET])
    nh = _expected_logistic(honesty, EASE_SD / 2)
    index = float(np.mean(100 * (0.75 * acc_ds + 0.25 * nh)))
    return {"accuracy": float(np.sum(mean_fields * acc_ds) / np.sum(mean_fields)), "index": index}


def simulate(rng: np.random.Generator, models: list[tuple[float, float]]) -> np.ndarray:
    """Figures (models x items x 4), items grouped by dataset."""
    n = DATASETS * PER_DATASET
    ds = np.repeat(np.arange(DATASETS), PER_DATASET)
    printed = np.maximum(1 + rng.binomial(11, 0.6, n) + DS_FIELDS[ds], 1)
    missing = rng.binomial(4, 0.4, n)
    ease = rng.normal(0, EASE_SD, n)
    figs = np.zeros((len(models), n, 4))
    for m, (skill, honesty) in enumerate(models):
        correct = rng.binomial(printed, _logistic(skill + DS_OFFSET[ds] + ease))
        nulls = rng.binomial(missing, _logistic(honesty + ease / 2))
        figs[m] = np.column_stack([printed, correct, missing, nulls])
    return figs


def _draws(figs: np.ndarray, sim: int, resamples: int):
    ones = np.ones(figs.shape[:2], dtype=np.int64)
    groups = [np.arange(k * PER_DATASET, (k + 1) * PER_DATASET) for k in range(DATASETS)]
    ratio = ratio_draws(figs, ones, NAMES, RATIOS, derive_seed("sim", str(sim), "ratios"), resamples)
    index = macro_draws(figs, ones, NAMES, RATIOS, INDEX_WEIGHTS, 100, groups, "index",
                        derive_seed("sim", str(sim), "index"), resamples)
    return {"accuracy": (ratio.point["accuracy"], ratio.draws["accuracy"]),
            "index": (index.point["index"], index.draws["index"])}


def one_simulation(args: tuple[int, int, str]) -> dict:
    sim, resamples, part = args
    rng = np.random.default_rng([20261020, sim])
    out = {}
    coverage_data = simulate(rng, list(SKILLS))
    if part != "null":
        for metric, (point, draws) in _draws(coverage_data, sim, resamples).items():
            out[f"ci_{metric}"] = interval(draws)  # 2 x models
    if part == "coverage":
        return out
    null = _draws(simulate(rng, [(1.5, 1.0)] * NULL_MODELS), 10**6 + sim, resamples)
    ii, jj = pair_index(NULL_MODELS)
    for metric, (point, draws) in null.items():
        c, pairs = max_t(point, draws)
        out[f"maxt_{metric}"] = any(p["call"] in (BETTER, WORSE) for p in pairs)
        unadj = interval(draws[:, ii] - draws[:, jj])
        out[f"unadj_{metric}"] = bool(np.any((unadj[0] > 0) | (unadj[1] < 0)))
        out[f"c_{metric}"] = c
    return out


def _mc(share: float, sims: int) -> float:
    return math.sqrt(share * (1 - share) / sims)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--resamples", type=int, default=2000, help="per simulated data set (the engine's default is 10000)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--part", choices=("both", "coverage", "null"), default="both")
    ap.add_argument("--first-sim", type=int, default=0, help="simulation numbers (seeds) start here")
    args = ap.parse_args()
    start = time.perf_counter()
    work = [(s, args.resamples, args.part) for s in range(args.first_sim, args.first_sim + args.sims)]
    with mp.get_context("fork").Pool(args.jobs) as pool:
        results = pool.map(one_simulation, work, chunksize=10)
    seconds = time.perf_counter() - start
    print(f"{args.sims} simulated data sets, {args.resamples} resamples each, {args.jobs} processes, {seconds:.0f} s")
    print(f"suite: {DATASETS} datasets x {PER_DATASET} items; 95% percentile intervals")
    for metric in ("accuracy", "index") if args.part != "null" else ():
        for m, (skill, honesty) in enumerate(SKILLS):
            t = truth(skill, honesty)[metric]
            hits = [r[f"ci_{metric}"][0, m] <= t <= r[f"ci_{metric}"][1, m] for r in results]
            low_miss = sum(r[f"ci_{metric}"][0, m] > t for r in results)
            share = float(np.mean(hits))
            print(f"  coverage {metric:8s} model {m + 1} (truth {t:8.4f}): {100 * share:5.1f}% "
                  f"+/- {100 * _mc(share, args.sims):.1f} (misses: {low_miss} above the truth, "
                  f"{args.sims - sum(hits) - low_miss} below)")
    if args.part == "coverage":
        return
    print(f"global null: {NULL_MODELS} equal models, {NULL_MODELS * (NULL_MODELS - 1) // 2} pairs")
    for metric in ("accuracy", "index"):
        share = float(np.mean([r[f"maxt_{metric}"] for r in results]))
        unadj = float(np.mean([r[f"unadj_{metric}"] for r in results]))
        cs = [r[f"c_{metric}"] for r in results]
        print(f"  {metric:8s}: any call with max-T {100 * share:4.1f}% +/- {100 * _mc(share, args.sims):.1f} "
              f"(median c {np.median(cs):.2f}); with unadjusted intervals {100 * unadj:4.1f}%")


if __name__ == "__main__":
    main()
