"""Coverage of the engine's 95% intervals on synthetic suites with known truth, and the family-wise error
and power of its pairwise calls.

Each simulated data set is a suite of 6 datasets (--items split evenly over them; 360 by default, the
size of one half of the example). An item has a number of printed fields (1 + Binomial(11, 0.6) plus a per-dataset
shift, at least 1) and of missing fields (Binomial(4, 0.4)); its ease is Normal(0, 0.8), shared by every
model; a model reads a printed field right with probability logistic(skill + dataset offset + ease) and
returns null for a missing field with probability logistic(honesty + ease / 2). The truth of accuracy,
null honesty and the macro index is the population value, computed by Gauss-Hermite quadrature.

--part coverage: the share of simulated data sets whose 95% interval covers the truth, for accuracy (a
   ratio over all items, plain bootstrap) and for the macro index (resampled within each dataset), for
   three models of different skill, with the engine's intervals (small-sample correction, expanded
   percentile interval) and with the rule before them (uncorrected percentile interval). Target 94-96%.
--part calls: leaderboards of --runs models on --items items (split over the 6 datasets), two scenarios
   per simulated leaderboard:
   - global null: every model has the same skill (correlated through the shared item ease); the
     family-wise error is the share of leaderboards with any "better" call, for the index and accuracy;
   - power: model 1's skill is raised so that its true index is 2 (and, separately, 5) points higher;
     power is the share of its pairs with the other (equal) models called in its favour, on the index;
     the share of leaderboards with any call among the equal models is shown too;
   and the median minimum detectable effect (80% power) of the engine's rule on the null leaderboards.
   Each for six rules: Holm's step-down on studentized differences (the engine's rule: corrected draws,
   t with N - G degrees of freedom), the same rule before the small-sample correction (uncorrected
   draws, se times sqrt(N / (N - 1)), t with N - 1), Holm-Bonferroni
   with normal p-values, the studentized max-|t| (bootstrap-t: each resample's difference divided by
   that resample's own standard error, from the weighted sums over items of the per-item influence
   values of the difference and of their squares, recentred within each resampled group), and the
   earlier single-step max-T (a suite's `comparison = "max-t"`), and the overlap rule (`"overlap"`: a run
   better only when its expanded 95% interval lies wholly beyond the other's). The rules a suite can
   choose make no call in a family with fewer than MIN_CALL_DF degrees of freedom, as the engine.
   Shares have their simulation error (binomial standard error) and, for the
   family-wise error, the upper end of a 95% Wilson interval.

    python bench/stats_coverage.py --part coverage [--items 24] [--sims 1000] [--resamples 2000] [--jobs 2]
    python bench/stats_coverage.py --part table --sims 1000 --few-runs-sims 4000 --resamples 1000 --out table.jsonl
        (the small-suite table of the statistics page: coverage, and the family-wise error of every rule a
        suite can choose against the rule before, at 24, 60, 120 and 360 items and 3 and 10 runs;
        --table-items, --table-runs to choose; the 3-run settings also over 4,000 leaderboards)
    python bench/stats_coverage.py --part calls --runs 40 --items 2000 --sims 1500 --first-sim 0 \\
        --out bench/out/calls-40-2000-a.jsonl
    python bench/stats_coverage.py --report bench/out/calls-40-2000-*.jsonl   (several runs, one table)
    Each leaderboard's result depends only on its number (the seed), so runs of consecutive numbers add up;
    with --out, each leaderboard is appended as soon as it is measured and those already in the file are
    not simulated again (run the same command again to take up a run that was stopped).
    --methods holm-t holm-normal max-t leaves out the studentized max-|t| (about 60% of the time at 40 runs);
    a table of several files merges the records of each leaderboard (so one file may add a rule to the
    leaderboards of another) and shows each rule over the leaderboards that measured it, with their
    numbers when that is not all of them.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing as mp
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import norm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.stats.estimates import macro_draws, per_run, ratio_draws  # noqa: E402
from generator.stats.pairwise import BETTER, MIN_CALL_DF, TIE, holm, max_t, min_detectable, overlap_calls, pair_index  # noqa: E402
from generator.stats.quantiles import interval, linear  # noqa: E402
from generator.stats.resample import CountMatrix, derive_seed  # noqa: E402
from generator.stats.wilson import wilson  # noqa: E402
from generator.suite.api import DatasetMean  # noqa: E402
from generator.suites.extracting import SUITE  # noqa: E402

_INDEX = next(m for m in SUITE.metrics if m.name == "index")
assert isinstance(_INDEX, DatasetMean)
INDEX_WEIGHTS = dict(_INDEX.weights)

DATASETS, PER_DATASET = 6, 60
DS_OFFSET = np.array([0.4, 0.0, -0.3, 0.2, -0.6, 0.1])
DS_FIELDS = np.array([0, 2, 1, -1, 3, -2])  # shifts the number of printed fields per dataset
EASE_SD = 0.8
NAMES = ("printed_n", "printed_correct", "missing_n", "null_ok")
RATIOS = {"accuracy": ("printed_correct", "printed_n"), "null_honesty": ("null_ok", "missing_n")}
SKILLS = ((0.5, 0.0), (1.5, 1.0), (2.5, 2.0))  # (skill, honesty) of the coverage models
BASE = (1.5, 1.0)  # every model of the call simulations, but model 1 in the power scenario
POWER_SHIFT = 0.18362470220812996  # skill added to model 1: truth(1.5 + shift, 1)["index"] - truth(1.5, 1) = 2
POWER5_SHIFT = 0.4968565098871072  # the same for a true index 5 points higher
METHODS = ("holm-t", "holm-t-before", "holm-normal", "studentized-max-t", "max-t", "overlap")
ENGINE_RULES = ("holm-t", "max-t", "overlap")  # the rules a suite can choose (comparison = holm, max-t, overlap)
LABELS = {"holm-t": "Holm, studentized, t(N-G), corrected (the engine's rule)",
          "holm-t-before": "Holm, studentized, t(N-1), uncorrected (before)",
          "holm-normal": "Holm-Bonferroni, normal p-values",
          "studentized-max-t": "studentized max-|t| (bootstrap-t)", "max-t": "single-step max-T (the earlier rule)",
          "overlap": "non-overlapping 95% intervals (the overlap rule)"}
TABLE_ITEMS, TABLE_RUNS = (24, 60, 120, 360), (3, 10)


def _logistic(x):
    return 1 / (1 + np.exp(-x))


def _expected_logistic(shift: float, sd: float) -> float:
    x, w = np.polynomial.hermite_e.hermegauss(200)
    return float(np.sum(w * _logistic(shift + sd * x)) / math.sqrt(2 * math.pi))


@functools.lru_cache(maxsize=None)
def truth(skill: float, honesty: float) -> dict[str, float]:
    k = np.arange(12)
    pmf = np.array([math.comb(11, j) * 0.6**j * 0.4 ** (11 - j) for j in k])
    mean_fields = np.array([np.sum(pmf * np.maximum(1 + k + shift, 1)) for shift in DS_FIELDS])
    acc_ds = np.array([_expected_logistic(skill + o, EASE_SD) for o in DS_OFFSET])
    nh = _expected_logistic(honesty, EASE_SD / 2)
    index = float(np.mean(100 * (0.75 * acc_ds + 0.25 * nh)))
    return {"accuracy": float(np.sum(mean_fields * acc_ds) / np.sum(mean_fields)), "index": index}


def dataset_sizes(items: int) -> list[int]:
    return [items // DATASETS + (k < items % DATASETS) for k in range(DATASETS)]


def simulate(rng: np.random.Generator, models: list[tuple[float, float]],
             sizes: tuple[int, ...] | list[int] = (PER_DATASET,) * DATASETS) -> np.ndarray:
    """Figures (models x items x 4), items grouped by dataset."""
    n = sum(sizes)
    ds = np.repeat(np.arange(DATASETS), sizes)
    printed = np.maximum(1 + rng.binomial(11, 0.6, n) + DS_FIELDS[ds], 1)
    missing = rng.binomial(4, 0.4, n)
    ease = rng.normal(0, EASE_SD, n)
    figs = np.zeros((len(models), n, 4))
    for m, (skill, honesty) in enumerate(models):
        correct = rng.binomial(printed, _logistic(skill + DS_OFFSET[ds] + ease))
        nulls = rng.binomial(missing, _logistic(honesty + ease / 2))
        figs[m] = np.column_stack([printed, correct, missing, nulls])
    return figs


def _groups(sizes: list[int]) -> list[np.ndarray]:
    edges = np.cumsum([0, *sizes])
    return [np.arange(edges[k], edges[k + 1]) for k in range(len(sizes))]


def _draws(figs: np.ndarray, tag: str, resamples: int, sizes: list[int], metrics=("accuracy", "index"),
           before: bool = False) -> dict:
    """metric -> (point, draws, seed, df, draws without the small-sample correction or None) with the engine's
    estimators; W is drawn again from the seed. `before`: also the uncorrected draws (the rule before)."""
    ones = np.ones(figs.shape[:2], dtype=np.int64)
    out = {}
    if "accuracy" in metrics:
        seed = derive_seed("sim", tag, "ratios")
        ratio = ratio_draws(figs, ones, NAMES, RATIOS, seed, resamples)
        raw = ratio_draws(figs, ones, NAMES, RATIOS, seed, resamples, correct=False).draws["accuracy"] if before \
            else None
        out["accuracy"] = (ratio.point["accuracy"], ratio.draws["accuracy"], seed, ratio.df, raw)
    if "index" in metrics:
        seed = derive_seed("sim", tag, "index")
        index = macro_draws(figs, ones, NAMES, RATIOS, INDEX_WEIGHTS, 100, _groups(sizes), "index",
                            seed, resamples)
        raw = macro_draws(figs, ones, NAMES, RATIOS, INDEX_WEIGHTS, 100, _groups(sizes), "index", seed, resamples,
                          correct=False).draws["index"] if before else None
        out["index"] = (index.point["index"], index.draws["index"], seed, index.df, raw)
    return out


def influence(figs: np.ndarray, metric: str, sizes: list[int]) -> np.ndarray:
    """Per-item influence values (items x runs) of the metric at the full-data estimates: the metric moves
    by about the sum over items of (count - 1) x influence, and they sum to 0 within each resampled group."""
    def ratio_part(num: int, den: int, rows: np.ndarray) -> np.ndarray:
        n, d = figs[:, rows, num].T, figs[:, rows, den].T
        return (n - d * (n.sum(axis=0) / d.sum(axis=0))) / d.sum(axis=0)

    if metric == "accuracy":
        return ratio_part(1, 0, np.arange(sum(sizes)))
    weights = INDEX_WEIGHTS
    total = sum(weights.values())
    parts = [100 / DATASETS * (weights["accuracy"] * ratio_part(1, 0, g) + weights["null_honesty"] * ratio_part(3, 2, g))
             / total for g in _groups(sizes)]
    return np.vstack(parts)


def studentized_max_t(point, draws, w: np.ndarray, u: np.ndarray, groups: list[np.ndarray]) -> np.ndarray:
    """Calls (bool per pair) of the bootstrap-t max-|t|: t_b = |D_b - d| / se_b, c its 95% quantile of the max."""
    ii, jj = pair_index(len(point))
    d = point[ii] - point[jj]
    delta = u[:, ii] - u[:, jj]
    var = w @ (delta * delta)
    for g in groups:
        lin = w[:, g] @ u[g]
        var -= (lin[:, ii] - lin[:, jj]) ** 2 / len(g)
    t = np.abs(draws[:, ii] - draws[:, jj] - d) / np.sqrt(var)
    c = float(linear(t.max(axis=1), 0.95)[0])
    return np.abs(d) / np.sqrt((delta * delta).sum(axis=0)) > c


def holm_normal(point, draws, alpha: float = 0.05) -> np.ndarray:
    ii, jj = pair_index(len(point))
    diff = draws[:, ii] - draws[:, jj]
    p = 2 * norm.sf(np.abs(point[ii] - point[jj]) / diff.std(axis=0, ddof=1))
    called = np.zeros(len(p), dtype=bool)
    for step, k in enumerate(np.argsort(p, kind="stable")):
        if p[k] > alpha / (len(p) - step):
            break
        called[k] = True
    return called


def holm_before(point, raw, n_items: int) -> list[dict]:
    """The rule before the small-sample correction: uncorrected draws, se times sqrt(N / (N - 1)), t(N - 1)."""
    return holm(point, point + (raw - point) * math.sqrt(n_items / (n_items - 1)), n_items - 1)[1]


def _signs(pairs: list[dict]) -> np.ndarray:
    return np.array([0 if p["call"] == TIE else (1 if p["call"] == BETTER else -1) for p in pairs])


def all_calls(point, draws, n_items: int, w, u, groups, methods=METHODS, df: int | None = None,
              raw: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Per rule, the signed calls of every pair: +1 the first run better, -1 worse, 0 can't tell apart.
    df: the engine's degrees of freedom (N - G); raw: the uncorrected draws, for the rule before."""
    sign = np.sign(point[pair_index(len(point))[0]] - point[pair_index(len(point))[1]])
    out = {}
    if "holm-t" in methods:
        out["holm-t"] = _signs(holm(point, draws, n_items - len(groups) if df is None else df)[1])
    if "holm-t-before" in methods and raw is not None:
        out["holm-t-before"] = _signs(holm_before(point, raw, n_items))
    if "max-t" in methods:
        out["max-t"] = np.array([0 if p["call"] == TIE else (1 if p["call"] == BETTER else -1)
                                 for p in max_t(point, draws)[1]])
    if "holm-normal" in methods:
        out["holm-normal"] = sign * holm_normal(point, draws)
    if "studentized-max-t" in methods:
        out["studentized-max-t"] = sign * studentized_max_t(point, draws, w, u, groups)
    if "overlap" in methods:  # each run's expanded percentile interval, as the engine writes it
        _, lows, highs = per_run(point, draws, n_items, n_items - len(groups) if df is None else df)
        out["overlap"] = _signs(overlap_calls(point, lows, highs, np.full(len(point), n_items)))
    if (n_items - len(groups) if df is None else df) < MIN_CALL_DF:  # the engine's "too small to call"
        out.update({m: np.zeros_like(c) for m, c in out.items() if m in ENGINE_RULES})
    return out


def one_leaderboard(args: tuple) -> dict:
    sim, runs, items, resamples, *rest = args
    methods = rest[0] if rest else METHODS
    sizes = dataset_sizes(items)
    rng = np.random.default_rng([20261107, runs, items, sim])
    out: dict = {"sim": sim, "runs": runs, "items": items, "resamples": resamples}
    ii, _ = pair_index(runs)
    first = ii == 0
    scenarios = (("null", [BASE] * runs), ("power", [(BASE[0] + POWER_SHIFT, BASE[1])] + [BASE] * (runs - 1)),
                 ("power5", [(BASE[0] + POWER5_SHIFT, BASE[1])] + [BASE] * (runs - 1)))
    for scenario, models in scenarios:
        figs = simulate(rng, models, sizes)
        metrics = ("accuracy", "index") if scenario == "null" else ("index",)
        tag = f"{scenario}-{runs}-{items}-{sim}"
        for metric, (point, draws, seed, df, raw) in _draws(figs, tag, resamples, sizes, metrics,
                                                              "holm-t-before" in methods).items():
            groups = [np.arange(sum(sizes))] if metric == "accuracy" else _groups(sizes)
            w: np.ndarray | None = None
            u: np.ndarray | None = None
            if "studentized-max-t" in methods:
                w = CountMatrix(seed, [sum(sizes)] if metric == "accuracy" else sizes, resamples).full().astype(np.float64)
                u = influence(figs, metric, sizes)
            calls = all_calls(point, draws, items, w, u, groups, methods, df, raw)
            if scenario == "null" and "holm-t" in methods:  # the smallest difference called at 80% power
                c1, pairs = holm(point, draws, df)
                out[f"mde_{metric}"] = min_detectable(c1, np.array([p["se"] for p in pairs]), df)
            for method, c in calls.items():
                if scenario == "null":
                    out[f"null_{metric}_{method}"] = bool(np.any(c != 0))
                else:
                    out[f"{scenario}_{method}"] = int(np.sum(c[first] == 1))
                    if scenario == "power":
                        out[f"partial_{method}"] = bool(np.any(c[~first] != 0))
    return out


def merge(results: list[dict]) -> list[dict]:
    """One record per leaderboard (runs, items, resamples, number): records of the same leaderboard measured
    with different rules are merged, and a figure measured twice must be the same."""
    merged: dict[tuple, dict] = {}
    for r in results:
        record = merged.setdefault((r["runs"], r["items"], r["resamples"], r["sim"]), {})
        for key, value in r.items():
            if record.get(key, value) != value:
                raise SystemExit(f"leaderboard {r['sim']} ({r['runs']} runs x {r['items']} items): {key} is "
                                 f"{record[key]} in one record and {value} in another")
            record[key] = value
    return list(merged.values())


def report(results: list[dict]) -> None:
    """Per setting, each rule over the leaderboards that measured it."""
    keyed: dict[tuple[int, int, int], list[dict]] = {}
    for r in merge(results):
        keyed.setdefault((r["runs"], r["items"], r["resamples"]), []).append(r)
    for (runs, items, resamples), setting in sorted(keyed.items()):
        print(f"{runs} runs ({runs * (runs - 1) // 2} pairs), {items} items, {len(setting)} simulated leaderboards, "
              f"{resamples} resamples each")
        for method in METHODS:
            rs = [r for r in setting if f"power_{method}" in r]
            n = len(rs)
            if not n:
                continue
            lo, hi = min(r["sim"] for r in rs), max(r["sim"] for r in rs)
            sims = "" if n == len(setting) else \
                f" [{n} leaderboards, numbers {lo}-{hi}{'' if hi - lo + 1 == n else ', not all'}]"
            cells = []
            for metric in ("index", "accuracy"):
                k = sum(r[f"null_{metric}_{method}"] for r in rs)
                cells.append(f"{metric} {100 * k / n:4.2f}% +/- {100 * _mc(k / n, n):.2f} "
                             f"(upper {100 * _upper(k, n):.2f}%)")
            powers = []
            for key, label in (("power", "+2"), ("power5", "+5")):
                if all(f"{key}_{method}" in r for r in rs):
                    pw = np.array([r[f"{key}_{method}"] for r in rs]) / (runs - 1)
                    sd = pw.std(ddof=1) if n > 1 else math.nan
                    powers.append(f"{label} points {100 * pw.mean():5.1f}% +/- {100 * sd / math.sqrt(n):.1f}")
            partial = np.mean([r[f"partial_{method}"] for r in rs])
            print(f"  {LABELS[method]:56s}{sims} FWER {'; '.join(cells)}; power (index) {'; '.join(powers)}; "
                  f"any call among the equal runs {100 * partial:.2f}%")
        mdes = [r["mde_index"] for r in setting if r.get("mde_index") is not None]
        if mdes:
            print(f"  minimum detectable effect at 80% power (the engine's rule, median over leaderboards): index "
                  f"{np.median(mdes):.2f} points, accuracy "
                  f"{100 * np.median([r['mde_accuracy'] for r in setting if r.get('mde_accuracy') is not None]):.2f}"
                  " points")


def one_simulation(args: tuple) -> dict:
    """The 95% intervals (2 x models) of one simulated data set, with the correction and without it (before).
    At 360 items the data sets are those of the earlier bench (its seeds)."""
    sim, resamples, *rest = args
    items = rest[0] if rest else DATASETS * PER_DATASET
    sizes = dataset_sizes(items)
    rng = np.random.default_rng([20261020, sim] if items == DATASETS * PER_DATASET else [20261020, items, sim])
    draws = _draws(simulate(rng, list(SKILLS), sizes), str(sim) if items == DATASETS * PER_DATASET else f"{items}-{sim}",
                   resamples, sizes, before=True)
    out = {}
    for metric, (point, d, _, df, raw) in draws.items():
        out[f"ci_{metric}"] = interval(d, df)
        out[f"ci_{metric}_before"] = interval(raw)
    return out


def _upper(k: int, n: int) -> float:
    """The upper end of the 95% Wilson interval of k in n (n > 0)."""
    bounds = wilson(k, n)
    if bounds is None:
        raise ValueError("no leaderboards")
    return bounds[1]


def _mc(share: float, sims: int) -> float:
    return math.sqrt(share * (1 - share) / sims)


def coverage_shares(results: list[dict], suffix: str = "") -> dict[str, list[float]]:
    """metric -> the share of intervals that cover the truth, per coverage model."""
    out = {}
    for metric in ("accuracy", "index"):
        out[metric] = [float(np.mean([r[f"ci_{metric}{suffix}"][0, m] <= truth(*sk)[metric] <= r[f"ci_{metric}{suffix}"][1, m]
                                      for r in results])) for m, sk in enumerate(SKILLS)]
    return out


def coverage(results: list[dict], sims: int) -> None:
    for suffix, label in (("", "corrected (the engine)"), ("_before", "uncorrected (before)")):
        print(f" {label}")
        for metric in ("accuracy", "index"):
            for m, (skill, honesty) in enumerate(SKILLS):
                t = truth(skill, honesty)[metric]
                ci = [r[f"ci_{metric}{suffix}"] for r in results]
                hits = [c[0, m] <= t <= c[1, m] for c in ci]
                low_miss = sum(c[0, m] > t for c in ci)
                share = float(np.mean(hits))
                print(f"  coverage {metric:8s} model {m + 1} (truth {t:8.4f}): {100 * share:5.1f}% "
                      f"+/- {100 * _mc(share, sims):.1f} (misses: {low_miss} above the truth, "
                      f"{sims - sum(hits) - low_miss} below)")


def _done(out: Path | None, runs: int, items: int, resamples: int, methods: list[str]) -> dict[int, dict]:
    """The leaderboards of this setting already in the --out file (a run stopped part way is taken up again)."""
    if out is None or not out.exists():
        return {}
    done = {}
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            r = json.loads(line) if line.strip() else None
        except json.JSONDecodeError:
            raise SystemExit(f"{out}: a line is not JSON (cut off?): {line[:80]!r}") from None
        if r and (r["runs"], r["items"], r["resamples"]) == (runs, items, resamples):
            missing = [m for m in methods if f"power_{m}" not in r]
            if missing:
                raise SystemExit(f"{out}: leaderboard {r['sim']} was measured without {', '.join(missing)}; "
                                 "write to another file")
            done[r["sim"]] = r
    return done


def calls(args: argparse.Namespace, pool) -> list[dict]:
    """The leaderboards of --first-sim .. + --sims; with --out, those already in the file are read, not
    simulated again, and each new one is appended as soon as it is measured."""
    sims = range(args.first_sim, args.first_sim + args.sims)
    done = _done(args.out, args.runs, args.items, args.resamples, args.methods)
    todo = [(s, args.runs, args.items, args.resamples, tuple(args.methods)) for s in sims if s not in done]
    if len(todo) < len(sims):
        print(f"{len(sims) - len(todo)} of these leaderboards already in {args.out}: not simulated again")
    results = [done[s] for s in sims if s in done]
    f = None
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        f = args.out.open("a", encoding="utf-8")
    try:
        for r in pool.imap(one_leaderboard, todo, chunksize=1):
            results.append(r)
            if f:
                f.write(json.dumps(r) + "\n")
                f.flush()
    finally:
        if f:
            f.close()
    return sorted(results, key=lambda r: r["sim"])


def _share(k: int, n: int) -> str:
    return f"{100 * k / n:.2f}% +/- {100 * _mc(k / n, n):.2f} ({100 * _upper(k, n):.2f}%)"


def _short(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}% ({100 * _upper(k, n):.1f}%)"


TABLE_METHODS = ["holm-t", "holm-t-before", "max-t", "overlap"]


def table_row(items: int, runs: int, rs: list[dict], cov: str) -> str:
    """One row of the table: the leaderboards rs of one setting, beside the coverage cells cov."""
    n = len(rs)

    def k(metric: str, method: str) -> int:
        return sum(r[f"null_{metric}_{method}"] for r in rs)

    def power(key: str, method: str = "holm-t") -> str:
        v = np.array([r[f"{key}_{method}"] for r in rs]) / (runs - 1)
        return f"{100 * v.mean():.1f}% +/- {100 * v.std(ddof=1) / math.sqrt(n):.1f}"

    both = {m: f"{_short(k('index', m), n)} / {_short(k('accuracy', m), n)}" for m in TABLE_METHODS[1:]}
    mde = np.median([r["mde_index"] for r in rs if r.get("mde_index") is not None])
    return (f"| {items} ({items // DATASETS}) | {runs} | {n:,} | {cov} | {_share(k('index', 'holm-t'), n)} | "
            f"{_share(k('accuracy', 'holm-t'), n)} | {both['holm-t-before']} | {both['max-t']} | {both['overlap']} | "
            f"{power('power')} | {power('power5')} | {power('power5', 'overlap')} | {mde:.1f} |")


def table(args: argparse.Namespace, pool) -> list[str]:
    """The issue's table, one row per (items, runs): coverage of both metrics (with the correction, and without
    it: before), the family-wise error on the index and accuracy (upper 95% bound in brackets) of the engine's
    rule (Holm), of the rule before, and of the two other rules a suite can choose (max-T, overlap), the
    power of Holm's rule at +2 and +5 index points (and of the overlap rule at +5) and Holm's minimum
    detectable effect at 80% power. --sims leaderboards (and coverage data sets) per setting; settings of 3
    runs or fewer are also shown over --few-runs-sims leaderboards (the first --sims of them included), where
    3 pairs bring a rule that is exact pair by pair to about 4.5%, within the simulation error of 5%."""
    rows = ["| items (per dataset) | runs | leaderboards | coverage, accuracy (before) | coverage, index (before) | "
            "FWER index, Holm (upper bound) | FWER accuracy, Holm (upper bound) | FWER index / accuracy, before | "
            "FWER index / accuracy, max-T | FWER index / accuracy, overlap | power +2, Holm | power +5, Holm | "
            "power +5, overlap | MDE index (80%) |", "|" + "---|" * 14]
    for items in args.table_items:
        cov = pool.map(one_simulation, [(s, args.resamples, items) for s in
                                        range(args.first_sim, args.first_sim + args.sims)], chunksize=10)
        now, before = coverage_shares(cov), coverage_shares(cov, "_before")

        def span(xs: list[float]) -> str:
            return f"{100 * min(xs):.1f}-{100 * max(xs):.1f}%"

        cells = f"{span(now['accuracy'])} ({span(before['accuracy'])}) | {span(now['index'])} ({span(before['index'])})"
        for runs in args.table_runs:
            sizes = [args.sims] + ([args.few_runs_sims] if runs <= 3 and args.few_runs_sims > args.sims else [])
            setting = argparse.Namespace(first_sim=args.first_sim, sims=max(sizes), runs=runs, items=items,
                                         resamples=args.resamples, methods=TABLE_METHODS, out=args.out)
            rs = calls(setting, pool)
            for count in sizes:
                rows.append(table_row(items, runs, rs[:count], cells))
                print(rows[-1], flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=("coverage", "calls", "table"), default="coverage")
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--resamples", type=int, default=2000, help="per simulated data set (the engine's default is 10000)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--first-sim", type=int, default=0, help="simulation numbers (seeds) start here")
    ap.add_argument("--runs", type=int, default=10, help="calls: models per leaderboard")
    ap.add_argument("--items", type=int, default=360, help="items per data set (split evenly over the 6 datasets)")
    ap.add_argument("--table-items", type=int, nargs="+", default=list(TABLE_ITEMS), help="table: the sizes")
    ap.add_argument("--table-runs", type=int, nargs="+", default=list(TABLE_RUNS), help="table: runs per leaderboard")
    ap.add_argument("--few-runs-sims", type=int, default=0,
                    help="table: settings of 3 runs or fewer also over this many leaderboards")
    ap.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS),
                    help="calls: the rules to measure (the studentized max-|t| takes most of the time)")
    ap.add_argument("--out", type=Path, help="calls: append each leaderboard's results here as it is measured "
                    "(JSON lines); leaderboards already in it are not simulated again")
    ap.add_argument("--report", type=Path, nargs="+", help="only print the table of these --out files")
    args = ap.parse_args()
    if args.report:
        report([json.loads(line) for f in args.report for line in f.read_text().splitlines() if line])
        return
    start = time.perf_counter()
    with mp.get_context("fork").Pool(args.jobs) as pool:
        if args.part == "coverage":
            sims = range(args.first_sim, args.first_sim + args.sims)
            results = pool.map(one_simulation, [(s, args.resamples, args.items) for s in sims], chunksize=10)
        elif args.part == "table":
            print("\n".join(table(args, pool)))
            print(f"{time.perf_counter() - start:.0f} s")
            return
        else:
            results = calls(args, pool)
    seconds = time.perf_counter() - start
    print(f"{args.sims} simulations from number {args.first_sim}, {args.resamples} resamples each, "
          f"{args.jobs} processes, {seconds:.0f} s")
    if args.part == "coverage":
        print(f"suite: {DATASETS} datasets, {args.items} items ({dataset_sizes(args.items)}); "
              "95% percentile intervals")
        coverage(results, args.sims)
        return
    report(results)


if __name__ == "__main__":
    main()
