"""Count matrices: seeded, chunk-independent, independent of the runs present, and the same draws as
scipy.stats.bootstrap (so the engine's percentile interval equals scipy's, bit for bit)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from generator.stats.estimates import ratio_draws
from generator.stats.quantiles import interval
from generator.stats.resample import CountMatrix, derive_seed, resample_sums, row_bincount

NAMES = ("printed_n", "printed_correct", "missing_n", "null_ok")
RATIOS = {"accuracy": ("printed_correct", "printed_n"), "null_honesty": ("null_ok", "missing_n")}


def synthetic(runs: int, n: int, seed: int = 11, repeats: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pn = rng.integers(1, 12, n).astype(float)
    mn = rng.integers(0, 4, n).astype(float)
    figs = np.zeros((runs, n, len(NAMES)))
    for r in range(runs):
        skill = 0.6 + 0.05 * r
        pc = rng.binomial(pn.astype(int) * repeats, skill) / repeats
        nok = rng.binomial(mn.astype(int) * repeats, skill) / repeats
        figs[r] = np.column_stack([pn, pc, mn, nok])
    return figs


def test_seed_is_stable_and_name_dependent():
    a = derive_seed("extracting", "all", "ratios")
    assert a == derive_seed("extracting", "all", "ratios") and 0 <= a < 2**53
    assert len({a, derive_seed("extracting", "all", "index"), derive_seed("extracting", "half=private", "ratios")}) == 3


def test_row_bincount_and_row_sums():
    w = CountMatrix(5, [7], 2500, chunk=1000).full()
    assert w.shape == (2500, 7) and (w.sum(axis=1) == 7).all()
    idx = np.array([[0, 0, 2], [1, 2, 2]])
    assert row_bincount(idx, 3).tolist() == [[2, 0, 1], [0, 1, 2]]


def test_chunks_are_one_stream_and_hash_is_recorded():
    whole, chunked = CountMatrix(9, [50], 3000, chunk=3000), CountMatrix(9, [50], 3000, chunk=700)
    assert np.array_equal(whole.full(), chunked.full())
    direct = row_bincount(np.random.default_rng(9).integers(0, 50, (3000, 50)), 50)
    assert np.array_equal(whole.full(), direct)
    assert whole.sha256 and len(whole.sha256) == 64
    other = CountMatrix(10, [50], 3000)
    other.full()
    assert other.sha256 != whole.sha256
    assert chunked.sha256 == whole.sha256  # one group: the hash of W row by row, whatever the chunk size


def test_w_does_not_depend_on_which_runs_are_present():
    figs = synthetic(5, 80)
    ones = np.ones(figs.shape[:2], dtype=int)
    seed = derive_seed("s", "all", "ratios")
    full = ratio_draws(figs, ones, NAMES, RATIOS, seed, 1000)
    some = ratio_draws(figs[[1, 3]], ones[[1, 3]], NAMES, RATIOS, seed, 1000)
    assert full.record["w_sha256"] == some.record["w_sha256"]
    for m in RATIOS:
        assert np.array_equal(full.draws[m][:, [1, 3]], some.draws[m])


def test_stratified_groups_keep_their_sizes():
    w = CountMatrix(3, [4, 6], 500)
    for a, b in w.chunks():
        assert (a.sum(axis=1) == 4).all() and (b.sum(axis=1) == 6).all()


def test_sums_are_matrix_products():
    block = np.arange(12, dtype=float).reshape(6, 2)
    w = CountMatrix(1, [6], 300)
    (sums,) = resample_sums(w, [block])
    assert np.array_equal(sums, CountMatrix(1, [6], 300).full() @ block)


def _ratio(num, den, axis=-1):
    return np.sum(num, axis=axis) / np.sum(den, axis=axis)


@pytest.mark.parametrize("repeats", [1, 3])
def test_percentile_interval_equals_scipy_bootstrap(repeats):
    figs = synthetic(3, 150, repeats=repeats)
    reps = np.full(figs.shape[:2], repeats)
    seed, resamples = derive_seed("extracting", "all", "ratios"), 2000
    # without the small-sample correction and with the plain percentile levels: scipy's interval
    ours = ratio_draws(figs, reps, NAMES, RATIOS, seed, resamples, correct=False)
    ci = interval(ours.draws["accuracy"])
    for r in range(3):
        # per-item means over 3 repeats are thirds; the engine sums them as whole numbers of thirds
        # (exact in any order), so scipy gets the same whole numbers: the ratio is unchanged
        num, den = np.rint(figs[r, :, 1] * repeats), np.rint(figs[r, :, 0] * repeats)
        res = scipy.stats.bootstrap((num, den), _ratio, paired=True, vectorized=True, n_resamples=resamples,
                                    method="percentile", rng=np.random.default_rng(seed))
        assert np.array_equal(res.bootstrap_distribution, ours.draws["accuracy"][:, r])
        assert ci[0, r] == res.confidence_interval.low and ci[1, r] == res.confidence_interval.high
        assert ours.point["accuracy"][r] == num.sum() / den.sum()


def test_two_runs_are_bit_identical():
    figs = synthetic(4, 200, repeats=3)
    reps = np.full(figs.shape[:2], 3)
    a = ratio_draws(figs, reps, NAMES, RATIOS, 42, 1500)
    b = ratio_draws(figs, reps, NAMES, RATIOS, 42, 1500)
    assert a.record == b.record and a.record["exact_sums"]
    for m in RATIOS:
        assert np.array_equal(interval(a.draws[m]), interval(b.draws[m]))


def test_exact_products_run_on_one_blas_thread():
    """Whole-number products are taken on BLAS_THREADS threads (the same sums whatever the machine), and
    the limit is lifted afterwards: the process's thread pools are found once, not for every product."""
    from generator.stats import resample

    seen: list[list[int]] = []

    def threads(_rows: int) -> None:
        seen.append([lib["num_threads"] for lib in resample._blas().info() if lib["user_api"] == "blas"])

    before = [lib["num_threads"] for lib in resample._blas().info() if lib["user_api"] == "blas"]
    assert before  # numpy's BLAS is found
    w = resample.CountMatrix(7, [50], 300, chunk=100)
    resample.resample_sums(w, [np.arange(100.0).reshape(50, 2)], threads)
    assert seen and all(t == [resample.BLAS_THREADS] * len(t) for t in seen)
    assert [lib["num_threads"] for lib in resample._blas().info() if lib["user_api"] == "blas"] == before
    assert resample._blas() is resample._blas()
