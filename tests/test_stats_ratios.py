"""Ratio metrics, the 0/0 rule, the macro index and ECE on the same count matrix."""

from __future__ import annotations

import numpy as np
import pytest

from generator.stats.declared import Declared
from generator.stats.estimates import macro_draws, per_run, ratio_draws
from generator.stats.ratios import (
    calibration_bin,
    combine_weighted,
    ece_figures,
    ece_from_sums,
    integer_scale,
    macro_mean,
    ratio_values,
)
from generator.stats.resample import CountMatrix, resample_sums
from generator.suites.extracting import SUITE

P = np.array([0, .1, .3, .3, .6, .7, .7, .9, 1, 1, .5, .2])
Y = np.array([0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0])


def test_ece_bins_on_edge_values():
    assert calibration_bin(P).tolist() == [0, 1, 3, 3, 6, 7, 7, 9, 9, 9, 5, 2]
    sums = ece_figures(P, Y).sum(axis=0)
    assert ece_from_sums(sums, len(P))[0] == pytest.approx(0.175, abs=1e-15)


def test_ece_rides_on_w():
    figs = ece_figures(P, Y)
    w = CountMatrix(8, [len(P)], 50)
    (sums,) = resample_sums(w, [figs])
    ece_b = ece_from_sums(sums, len(P))
    W = CountMatrix(8, [len(P)], 50).full()
    for b in range(50):  # the same as ECE on the resampled items, with repeated items repeated
        idx = np.repeat(np.arange(len(P)), W[b])
        assert ece_b[b] == pytest.approx(ece_from_sums(ece_figures(P[idx], Y[idx]).sum(axis=0), len(P))[0], abs=1e-12)


def test_zero_denominator_in_a_resample_is_left_out_and_counted():
    # one item has printed fields, two do not: resamples without it have no accuracy
    figs = np.array([[[2.0, 1.0], [0.0, 0.0], [0.0, 0.0]]])  # runs x items x (printed_n, printed_correct)
    d = ratio_draws(figs, np.ones((1, 3), int), ("printed_n", "printed_correct"),
                    {"accuracy": ("printed_correct", "printed_n")}, 5, 2000)
    acc = d.draws["accuracy"][:, 0]
    undefined = np.isnan(acc).sum()
    assert 400 < undefined < 800  # about (2/3)^3 of 2000
    rows, _, _ = per_run(d.point["accuracy"], d.draws["accuracy"], 3)
    assert rows[0]["estimate"] == 0.5 and rows[0]["undefined_resamples"] == undefined
    assert rows[0]["low"] == rows[0]["high"] == 0.5  # every defined resample has accuracy 1/2


def test_zero_denominator_on_the_full_data_gives_no_estimate():
    figs = np.zeros((1, 4, 2))
    d = ratio_draws(figs, np.ones((1, 4), int), ("missing_n", "null_ok"), {"nh": ("null_ok", "missing_n")}, 1, 200)
    rows, _, _ = per_run(d.point["nh"], d.draws["nh"], 4)
    assert rows[0] == {"estimate": None, "low": None, "high": None, "n": 4, "undefined_resamples": 200}


def test_items_denominator_and_integer_scale():
    sums = np.array([[3.0, 6.0]])
    v = ratio_values(sums, 1, ["failed", "printed_n"], {"failed_rate": ("failed", "items")}, 12.0)
    assert v["failed_rate"][0, 0] == 0.25
    block, scale = integer_scale(np.array([[1 / 3, 2 / 3], [1.0, 0.5]]), np.array([[3, 2]]))
    assert scale == 6 and block.tolist() == [[2.0, 4.0], [6.0, 3.0]]
    same, one = integer_scale(np.array([[0.1234]]), np.array([[1]]))
    assert one == 1 and same[0, 0] == 0.1234


def _index_by_hand(f: dict[str, float]) -> list[float]:
    """The Extracting Index of one dataset as the rule page states it, from its figure sums."""
    acc = f["printed_correct"] / f["printed_n"] if f["printed_n"] else None
    nh = f["null_ok"] / f["missing_n"] if f["missing_n"] else None
    if acc is None or nh is None:
        return [100 * (acc if nh is None else nh)]
    return [100 * (0.75 * acc + 0.25 * nh)]


def test_macro_index_matches_the_suite_headline():
    rng = np.random.default_rng(2)
    names = SUITE.figures
    n = 60
    figs = np.zeros((2, n, len(names)))
    col = {k: i for i, k in enumerate(names)}
    for r in range(2):
        figs[r, :, col["printed_n"]] = rng.integers(1, 9, n)
        figs[r, :, col["printed_correct"]] = rng.binomial(figs[r, :, col["printed_n"]].astype(int), 0.8)
        figs[r, :, col["missing_n"]] = rng.integers(0, 3, n) * (np.arange(n) >= 20)  # dataset 0 has none
        figs[r, :, col["null_ok"]] = rng.binomial(figs[r, :, col["missing_n"]].astype(int), 0.7)
    groups = [np.arange(0, 20), np.arange(20, 45), np.arange(45, 60)]
    declared = Declared(SUITE)
    (index,) = declared.dataset_means
    d = macro_draws(figs, np.ones((2, n), int), names, declared.spec, dict(index.weights), index.times, groups,
                    "index", 3, 500)
    for r in range(2):
        per_ds = [_index_by_hand(dict(zip(names, figs[r, g].sum(axis=0))))[0] for g in groups]
        assert d.point["index"][r] == pytest.approx(sum(per_ds) / len(per_ds), rel=1e-13)
    assert not np.isnan(d.draws["index"]).any()


def test_combine_and_macro_mean_skip_missing_parts():
    acc, nh = np.array([[0.8, np.nan]]), np.array([[np.nan, np.nan]])
    v = combine_weighted({"accuracy": acc, "null_honesty": nh}, {"accuracy": 0.75, "null_honesty": 0.25}, 100)
    assert v[0, 0] == pytest.approx(80.0) and np.isnan(v[0, 1])
    assert macro_mean([np.array([1.0, np.nan]), np.array([3.0, np.nan])]).tolist()[0] == 2.0
