"""Small suites (24 items in 6 datasets of 4): the small-sample correction of the bootstrap, the expanded
percentile interval and Holm's rule with N - G degrees of freedom hold their 95% where the rule before
them did not. A seeded, smaller version of bench/stats_coverage.py's table (see the statistics page)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from generator.stats.estimates import per_run
from generator.stats.pairwise import TIE, holm, max_t
from generator.stats.quantiles import interval

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("stats_coverage", ROOT / "bench" / "stats_coverage.py")
assert _spec and _spec.loader
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

ITEMS, RESAMPLES = 24, 500


def test_index_intervals_cover_at_24_items():
    sims = 300
    hits = {"engine": np.zeros(3), "before": np.zeros(3)}
    truth = np.array([bench.truth(*sk)["index"] for sk in bench.SKILLS])
    sizes = bench.dataset_sizes(ITEMS)
    for sim in range(sims):
        rng = np.random.default_rng([20261020, ITEMS, sim])
        point, draws, _, df, raw = bench._draws(bench.simulate(rng, list(bench.SKILLS), sizes), f"t-{sim}", RESAMPLES,
                                                sizes, ("index",), before=True)["index"]
        assert df == ITEMS - 6
        _, low, high = per_run(point, draws, ITEMS, df)  # what the engine writes
        hits["engine"] += (low <= truth) & (truth <= high)
        old = interval(raw)
        hits["before"] += (old[0] <= truth) & (truth <= old[1])
    share = {k: v / sims for k, v in hits.items()}
    assert (share["before"] < 0.90).all(), share  # the rule before: 86-89% here
    # the engine: 94.0-95.0% here (300 data sets: a simulation error of about 1.3 points; the bench's
    # 1,000 data sets with 1,000 resamples give the figures on the statistics page)
    assert (share["engine"] >= 0.93).all() and (share["engine"] < 0.975).all(), share


def _false_calls(sims: int, runs: int) -> dict[str, int]:
    sizes = bench.dataset_sizes(ITEMS)
    out = {"engine": 0, "before": 0}
    for sim in range(sims):
        rng = np.random.default_rng([20261203, runs, sim])
        figs = bench.simulate(rng, [bench.BASE] * runs, sizes)
        point, draws, _, df, raw = bench._draws(figs, f"fwer-{sim}", RESAMPLES, sizes, ("index",), before=True)["index"]
        out["engine"] += any(p["call"] != TIE for p in holm(point, draws, df)[1])
        out["before"] += any(p["call"] != TIE for p in bench.holm_before(point, raw, ITEMS))
    return out


def test_holm_calls_among_equal_runs_stay_under_five_percent_at_24_items():
    sims = 200
    found = _false_calls(sims, 10)
    assert found["before"] / sims > 0.07  # the rule before: about 9-10% of leaderboards
    assert found["engine"] / sims <= 0.05, found


def test_max_t_is_not_valid_at_24_items_where_holm_is():
    """The statistics page warns that a suite choosing the single-step max-T gets more false calls than
    5% on small suites: among 10 equal runs at 24 items the bench measured 14.0% on accuracy (1,000
    leaderboards) against Holm's 3.5%. A seeded, smaller version of that row."""
    sims = 200
    sizes = bench.dataset_sizes(ITEMS)
    found = {"max-t": 0, "holm": 0}
    for sim in range(sims):
        rng = np.random.default_rng([20261204, sim])
        figs = bench.simulate(rng, [bench.BASE] * 10, sizes)
        point, draws, _, df, _ = bench._draws(figs, f"max-t-{sim}", RESAMPLES, sizes, ("accuracy",))["accuracy"]
        found["max-t"] += any(p["call"] != TIE for p in max_t(point, draws)[1])
        found["holm"] += any(p["call"] != TIE for p in holm(point, draws, df)[1])
    assert found["max-t"] / sims > 0.08, found
    assert found["holm"] / sims <= 0.05, found
