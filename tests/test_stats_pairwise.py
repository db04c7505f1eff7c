"""The earlier single-step max-T, the RA-Bench rule, rank ranges and the public/private gap (Holm's calls and
the letters: test_stats_holm.py)."""

from __future__ import annotations

import numpy as np

from generator.stats.gap import gap
from generator.stats.pairwise import BETTER, TIE, WORSE, max_t, overlap_calls, pair_index, ratio_rule
from generator.stats.quantiles import linear
from generator.stats.ranks import rank_ranges


def correlated_draws(means, sd=1.0, resamples=4000, seed=0):
    rng = np.random.default_rng(seed)
    shared = rng.normal(size=(resamples, 1))
    return np.asarray(means) + sd * (0.6 * shared + 0.8 * rng.normal(size=(resamples, len(means))))


def test_c_is_at_least_every_unadjusted_quantile():
    est = np.zeros(8)
    draws = correlated_draws(est)
    c, pairs = max_t(est, draws)
    ii, jj = pair_index(8)
    diffs = draws[:, ii] - draws[:, jj]
    z = np.abs(diffs - (est[ii] - est[jj])) / diffs.std(axis=0, ddof=1)
    unadjusted = linear(z, 0.95)
    assert c >= unadjusted.max() and c > 1.9
    assert 2.3 < c < 3.5  # between one pair's 1.96 and Bonferroni's z for 28 pairs (3.2), give or take
    assert all(p["call"] == TIE for p in pairs)


def test_clear_difference_is_called_and_identical_runs_are_not():
    est = np.array([0.9, 0.5, 0.5])
    draws = correlated_draws(est, sd=0.02)
    draws[:, 2] = draws[:, 1]  # runs 1 and 2 are the same run
    c, pairs = max_t(est, draws)
    by = {(p["a"], p["b"]): p for p in pairs}
    assert by[(0, 1)]["call"] == BETTER and by[(0, 2)]["call"] == BETTER
    assert by[(1, 2)]["call"] == TIE and by[(1, 2)]["se"] == 0 and by[(1, 2)]["low"] is None
    assert by[(0, 1)]["low"] > 0 and by[(0, 1)]["high"] == by[(0, 1)]["diff"] + c * by[(0, 1)]["se"]


def test_lower_is_better_flips_the_call():
    est = np.array([0.1, 0.4])
    _, pairs = max_t(est, correlated_draws(est, sd=0.01), higher_is_better=False)
    assert pairs[0]["call"] == BETTER
    _, pairs = max_t(est, correlated_draws(est, sd=0.01), higher_is_better=True)
    assert pairs[0]["call"] == WORSE


def test_undefined_resamples_are_left_out():
    est = np.array([0.8, 0.2])
    draws = correlated_draws(est, sd=0.01, resamples=1000)
    draws[::3] = np.nan
    c, pairs = max_t(est, draws)
    assert c is not None and pairs[0]["call"] == BETTER


def test_overlap_rule():
    est, lows, highs = np.array([0.9, 0.8, 0.7]), np.array([0.85, 0.72, 0.6]), np.array([0.95, 0.86, 0.78])
    pairs = overlap_calls(est, lows, highs, np.array([50, 50, 50]))
    calls = {(p["a"], p["b"]): p["call"] for p in pairs}
    assert calls == {(0, 1): TIE, (0, 2): BETTER, (1, 2): TIE}  # 0 vs 1 overlap; 0 vs 2 do not
    assert all(p["call"] == TIE for p in overlap_calls(est, lows, highs, np.array([50, 9, 50])) if 1 in (p["a"], p["b"]))
    lat = ratio_rule(np.array([100.0, 119.0, 121.0]), np.array([20, 20, 20]))
    calls = {(p["a"], p["b"]): p["call"] for p in lat}
    assert calls == {(0, 1): TIE, (0, 2): BETTER, (1, 2): TIE}


def test_rank_ranges():
    # 0 beats 2 and 3; 1 beats 3; everything else can't be told apart
    pairs = [{"a": a, "b": b, "call": BETTER if (a, b) in {(0, 2), (0, 3), (1, 3)} else TIE}
             for a, b in zip(*pair_index(4))]
    assert rank_ranges(pairs, 4) == [(1, 2), (1, 3), (2, 4), (3, 4)]
    assert rank_ranges([dict(p, call=TIE) for p in pairs], 4) == [(1, 4)] * 4


def test_gap_flags_only_a_significantly_better_public_half():
    rng = np.random.default_rng(1)
    pub, prv = rng.normal(90, 1, 2000), rng.normal(80, 1, 2000)
    flagged = gap(90.0, 80.0, pub, prv)
    assert flagged["flagged"] and flagged["low"] > 0 and flagged["estimate"] == 10.0
    assert not gap(80.0, 90.0, prv, pub)["flagged"]  # the private half better: not flagged
    assert not gap(85.0, 84.5, rng.normal(85, 1, 2000), rng.normal(84.5, 1, 2000))["flagged"]
