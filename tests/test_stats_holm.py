"""Holm's step-down calls on studentized paired differences, pairs whose difference never varies, and
the compact letter display."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import t as student_t

from generator.stats.estimates import ratio_draws
from generator.stats.pairwise import BETTER, TIE, WORSE, holm, max_t, pair_index
from generator.stats.ranks import compact_letters, rank_ranges

NAMES = ("printed_n", "printed_correct")
ACCURACY = {"accuracy": ("printed_correct", "printed_n")}


def accuracy(correct: list[list[int]], fields: int = 1, resamples: int = 2000, seed: int = 3):
    """(point, draws) of accuracy for runs given their per-item correct counts out of `fields`."""
    right = np.asarray(correct, dtype=np.float64)
    figs = np.stack([np.full(right.shape, float(fields)), right], axis=2)
    d = ratio_draws(figs, np.ones(right.shape, int), NAMES, ACCURACY, seed, resamples)
    return d.point["accuracy"], d.draws["accuracy"]


def calls(pairs):
    return {(p["a"], p["b"]): p["call"] for p in pairs}


def test_holm_matches_its_definition_on_a_plain_mean():
    rng = np.random.default_rng(7)
    n = 200
    runs = [rng.binomial(1, p, n) for p in (0.9, 0.8, 0.78, 0.6)]
    point, draws = accuracy(runs, resamples=4000)
    c, pairs = holm(point, draws, n - 1)
    ii, jj = pair_index(4)
    m = len(ii)
    assert c == pytest.approx(student_t.isf(0.05 / (2 * m), n - 1), rel=1e-12)
    right = np.asarray(runs, dtype=np.float64)
    figs = np.stack([np.ones(right.shape), right], axis=2)
    raw = ratio_draws(figs, np.ones(right.shape, int), NAMES, ACCURACY, 3, 4000, correct=False).draws["accuracy"]
    for p in pairs:
        diff = draws[:, p["a"]] - draws[:, p["b"]]
        assert p["se"] == pytest.approx(diff.std(ddof=1), rel=1e-12)
        # the draws carry the small-sample correction: the plain bootstrap's spread times sqrt(n / (n - 1))
        before = raw[:, p["a"]] - raw[:, p["b"]]
        assert p["se"] == pytest.approx(before.std(ddof=1) * math.sqrt(n / (n - 1)), rel=1e-9)
        assert p["t"] == pytest.approx(abs(p["diff"]) / p["se"], rel=1e-12)
        # the interval excludes 0 exactly when the pair is called
        assert (p["low"] > 0 or p["high"] < 0) == (p["call"] != TIE)
        # for a mean over items the standard error is the paired t-test's, up to resampling noise
        delta = runs[p["a"]] - runs[p["b"]]
        assert p["se"] == pytest.approx(delta.std(ddof=1) / math.sqrt(n), rel=0.05)
    # step-down: sorted by t, each called pair passed its step, and the first failure stops the calls
    ranked = sorted(pairs, key=lambda p: -p["t"])
    crit = student_t.isf(0.05 / (2 * (m - np.arange(m))), n - 1)
    stopped = False
    for step, p in enumerate(ranked):
        stopped = stopped or not p["t"] > crit[step]
        assert (p["call"] == TIE) == stopped
    assert calls(pairs)[(0, 3)] == BETTER and calls(pairs)[(1, 2)] == TIE


def test_holm_is_at_least_as_strict_as_one_unadjusted_test_and_lower_is_better_flips():
    rng = np.random.default_rng(8)
    point, draws = accuracy([rng.binomial(1, 0.7, 300) for _ in range(3)])
    c, pairs = holm(point, draws, 299)
    assert c > 1.96 and all(p["call"] == TIE for p in pairs if p["t"] < c)
    point, draws = accuracy([[1] * 60 + [0] * 40, [1] * 30 + [0] * 70])
    assert holm(point, draws, 99, higher_is_better=True)[1][0]["call"] == BETTER
    assert holm(point, draws, 99, higher_is_better=False)[1][0]["call"] == WORSE


def test_all_right_against_all_wrong_is_called_though_no_resample_varies():
    point, draws = accuracy([[1] * 40, [0] * 40, [1] * 40])
    c, pairs = holm(point, draws, 39)
    by = {(p["a"], p["b"]): p for p in pairs}
    assert by[(0, 1)]["call"] == BETTER and by[(0, 1)]["se"] == 0 and by[(0, 1)]["t"] == math.inf
    assert by[(0, 1)]["low"] == by[(0, 1)]["high"] == 1.0
    assert by[(1, 2)]["call"] == WORSE
    # identical runs: the same difference (0) in every resample, never called
    assert by[(0, 2)]["call"] == TIE and by[(0, 2)]["se"] == 0 and by[(0, 2)]["t"] == 0
    assert by[(0, 2)]["low"] == by[(0, 2)]["high"] == 0.0
    # the earlier max-T could not call the first pair at all
    assert calls(max_t(point, draws)[1])[(0, 1)] == TIE


def test_a_constant_nonzero_difference_is_called_even_between_imperfect_runs():
    # every item: run 0 reads 3 of 4 fields, run 1 reads 1 of 4 (the 75-point gap of the issue)
    point, draws = accuracy([[3] * 12, [1] * 12], fields=4)
    _, pairs = holm(point, draws, 11)
    assert pairs[0]["call"] == BETTER and pairs[0]["diff"] == 0.5


def test_one_item():
    point, draws = accuracy([[1], [0], [1]], resamples=500)
    c, pairs = holm(point, draws, 0)
    assert calls(pairs) == {(0, 1): BETTER, (0, 2): TIE, (1, 2): WORSE}
    assert c is None or math.isinf(c)


def test_undefined_resamples_are_left_out():
    est = np.array([0.8, 0.2])
    rng = np.random.default_rng(0)
    draws = est + 0.01 * rng.normal(size=(1000, 2))
    draws[::3] = np.nan
    c, pairs = holm(est, draws, 99)
    assert c is not None and pairs[0]["call"] == BETTER
    c, pairs = holm(est, draws[:1], 99)  # one usable resample: nothing to go on
    assert c is None and pairs[0]["call"] == TIE


def test_letters_share_exactly_when_not_called_different():
    rng = np.random.default_rng(0)
    for trial in range(400):
        n = int(rng.integers(1, 10))
        ii, jj = pair_index(n)
        est = np.sort(rng.normal(size=n))[::-1]
        pairs = [{"a": a, "b": b, "call": BETTER if (est[a] - est[b] > rng.uniform(0.2, 1.5) if trial % 2
                                                      else rng.random() < 0.5) else TIE}
                 for a, b in zip(ii.tolist(), jj.tolist())]
        letters = compact_letters(list(range(n)), pairs, n)
        assert all(letters) and (n == 0 or letters[0].startswith("a"))
        for p in pairs:
            assert bool(set(letters[p["a"]]) & set(letters[p["b"]])) == (p["call"] == TIE)


def test_letters_in_rank_order():
    # 0 beats 2 and 3; 1 beats 3: the letters read best first
    pairs = [{"a": a, "b": b, "call": BETTER if (a, b) in {(0, 2), (0, 3), (1, 3)} else TIE}
             for a, b in zip(*pair_index(4))]
    assert compact_letters([0, 1, 2, 3], pairs, 4) == ["a", "ab", "bc", "c"]
    assert compact_letters([0, 1, 2, 3], [dict(p, call=TIE) for p in pairs], 4) == ["a"] * 4
    # the order decides which letter is "a": here run 3 is listed first
    assert compact_letters([3, 2, 1, 0], [dict(p, call=TIE) for p in pairs], 4) == ["a"] * 4
    everything = [dict(p, call=BETTER) for p in pairs]
    assert compact_letters([2, 0, 1, 3], everything, 4) == ["b", "c", "a", "d"]
    assert rank_ranges(everything, 4) == [(1, 1), (2, 2), (3, 3), (4, 4)]
