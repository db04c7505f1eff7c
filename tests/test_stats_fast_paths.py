"""The engine's fast paths give the same bits as the plain computation they replace, over many shapes.

- resample_sums takes W_g @ block in float32 when that is exact (exact_in_float32); the plain way is
  the float64 product of each chunk's counts with the block's distinct columns.
- The hash of W reads counts as single bytes without a clipping pass when no count is above 255.
- pair_differences builds the paired differences of a block of pairs from column slices; the plain
  way gathers the two columns of every pair.
- Holm's spread tests max = min (a difference that never varies) only on the pairs whose mean and SD
  allow it; the plain way tests every pair.
- Type-7 quantiles place the two order statistics with np.partition (a column whose picked value is a
  zero sorted whole); the plain way sorts every column.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest

from generator.stats import pairwise, quantiles, ranks
from generator.stats.pairwise import BETTER, PAIR_BLOCK, TIE, WORSE, holm, max_t, pair_differences, pair_index
from generator.stats.quantiles import interval_probs, linear
from generator.stats.resample import FLOAT32_EXACT, CountMatrix, _count_bytes, exact_in_float32, resample_sums, widen


def plain_sums(w: CountMatrix, blocks: list[np.ndarray]) -> list[np.ndarray]:
    """The reference: every chunk's counts in float64 times the whole block."""
    parts: list[list[np.ndarray]] = [[] for _ in blocks]
    for counts in w.chunks():
        for g, c in enumerate(counts):
            parts[g].append(c.astype(np.float64) @ blocks[g])
    return [np.vstack(p) for p in parts]


def _block(rng: np.random.Generator, n: int, k: int, kind: str) -> np.ndarray:
    if kind == "small integers":  # figures of an item: fields, right answers
        block = rng.integers(0, 15, (n, k)).astype(np.float64)
        block[:, ::3] = block[:, :1]  # runs share denominators: repeated columns
        return block
    if kind == "signed integers":
        return rng.integers(-400, 400, (n, k)).astype(np.float64)
    if kind == "integers past float32":  # n x max reaches 2**24: the float64 path
        return rng.integers(FLOAT32_EXACT // n, 2 * FLOAT32_EXACT // n + 2, (n, k)).astype(np.float64)
    return rng.random((n, k)) * 7  # fractions: the float64 path


SHAPES = [(1, 3), (2, 1), (7, 5), (150, 12), (999, 40), (2000, 82)]
KINDS = ["small integers", "signed integers", "integers past float32", "fractions"]


@pytest.mark.parametrize("n,k", SHAPES)
@pytest.mark.parametrize("kind", KINDS)
def test_sums_equal_the_float64_product(n, k, kind):
    rng = np.random.default_rng(n * 1000 + k)
    block = _block(rng, n, k, kind)
    resamples = 2300 if n < 1000 else 1100  # a last chunk shorter than the others
    (fast,) = resample_sums(CountMatrix(n + k, [n], resamples), [block])
    (plain,) = plain_sums(CountMatrix(n + k, [n], resamples), [block])
    assert fast.dtype == np.float64 and fast.shape == (resamples, k)
    assert np.array_equal(fast, plain)
    if kind == "small integers" and n > 1:
        assert exact_in_float32(block)
    if kind in ("integers past float32", "fractions"):
        assert not exact_in_float32(block)


def test_stratified_groups_mixing_both_paths():
    rng = np.random.default_rng(4)
    blocks = [_block(rng, 60, 9, "small integers"), _block(rng, 35, 9, "fractions"),
              _block(rng, 80, 9, "integers past float32")]
    fast = resample_sums(CountMatrix(17, [60, 35, 80], 2500, chunk=700), blocks)
    plain = plain_sums(CountMatrix(17, [60, 35, 80], 2500, chunk=700), blocks)
    assert all(np.array_equal(f, p) for f, p in zip(fast, plain))


def test_float32_bound_is_where_float32_stops_being_exact():
    n = 4
    edge = np.full((n, 1), (FLOAT32_EXACT - 1) // n, dtype=np.float64)
    assert exact_in_float32(edge)
    over = np.full((n, 1), FLOAT32_EXACT // n + 1, dtype=np.float64)
    assert not exact_in_float32(over)
    # past the bound float32 would be wrong: one odd value above 2**24 is not representable
    odd = np.array([[FLOAT32_EXACT + 1.0]])
    assert float(odd.astype(np.float32)[0, 0]) != odd[0, 0]
    (sums,) = resample_sums(CountMatrix(1, [1], 10), [odd])
    assert (sums == FLOAT32_EXACT + 1.0).all()
    assert not exact_in_float32(np.array([[0.5], [1.0]])) and not exact_in_float32(np.array([[np.nan], [1.0]]))


def test_count_bytes_clip_above_255():
    counts = np.array([[0, 1, 255, 256, 1000], [3, 2, 1, 0, 7]], dtype=np.int64)
    assert _count_bytes(counts) == np.minimum(counts, 255).astype(np.uint8).tobytes()
    small = counts[1:]
    assert _count_bytes(small) == small.astype(np.uint8).tobytes()


def test_hash_of_w_is_unchanged():
    w = CountMatrix(9, [50, 7], 2100, chunk=800)
    digest = hashlib.sha256()
    for counts in CountMatrix(9, [50, 7], 2100, chunk=800).chunks():
        for c in counts:
            digest.update(np.minimum(c, 255).astype(np.uint8).tobytes())
    w.full()
    assert w.sha256 == digest.hexdigest()


@pytest.mark.parametrize("runs", [2, 3, 4, 9, 33, 40, 58])
def test_pair_differences_equal_the_gathered_columns(runs):
    rng = np.random.default_rng(runs)
    x = rng.normal(size=(500, runs)) * rng.uniform(1e-3, 1e3, runs)
    ii, jj = pair_index(runs)
    for block in (PAIR_BLOCK, 1, 5, 64):
        for start in range(0, len(ii), block):
            sl = slice(start, start + block)
            fast, plain = pair_differences(x, ii, jj, sl), x[:, ii[sl]] - x[:, jj[sl]]
            # the same layout: the reductions over resamples that follow add in the same order
            assert fast.shape == plain.shape and fast.dtype == plain.dtype
            assert fast.flags["F_CONTIGUOUS"] and plain.flags["F_CONTIGUOUS"]
            assert np.array_equal(fast, plain)
            fortran = pair_differences(np.asfortranarray(x), ii, jj, sl)  # the layout holm and max_t pass
            assert np.array_equal(fortran, plain) and fortran.flags["F_CONTIGUOUS"]
    x32 = x.astype(np.float32)
    sl = slice(0, PAIR_BLOCK)
    assert np.array_equal(pair_differences(x32, ii, jj, sl), x32[:, ii[sl]] - x32[:, jj[sl]])


def _plain_spread(estimates: np.ndarray, thetas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Holm's paired standard errors and differences as computed before the fast path (gathered
    columns, the same blocks of pairs)."""
    ii, jj = pair_index(len(estimates))
    sd, flat = np.zeros(len(ii)), np.zeros(len(ii), dtype=bool)
    for start in range(0, len(ii), PAIR_BLOCK):
        sl = slice(start, start + PAIR_BLOCK)
        dev = thetas[:, ii[sl]] - thetas[:, jj[sl]]
        flat[sl] = dev.max(axis=0) == dev.min(axis=0)
        dev -= dev.mean(axis=0)
        sd[sl] = np.sqrt(np.einsum("ij,ij->j", dev, dev) / (thetas.shape[0] - 1))
    return np.where(flat, 0.0, sd), estimates[ii] - estimates[jj]


@pytest.mark.parametrize("runs", [5, 26, 41])
def test_holm_and_max_t_pairs_match_the_gathered_computation(runs):
    rng = np.random.default_rng(100 + runs)
    thetas = rng.normal(size=(3000, runs)) * 0.01 + np.linspace(0.5, 0.6, runs)
    thetas[:, 2] = thetas[:, 3]  # a pair with no spread
    estimates = thetas.mean(axis=0)
    se, d = _plain_spread(estimates, thetas)
    _, pairs = holm(estimates, thetas, 1999)
    assert [p["se"] for p in pairs] == se.tolist() and [p["diff"] for p in pairs] == d.tolist()
    _, pairs_t = max_t(estimates, thetas)
    assert [p["se"] for p in pairs_t] == _plain_max_t_se(estimates, thetas).tolist()


def _plain_max_t_se(estimates: np.ndarray, thetas: np.ndarray) -> np.ndarray:
    """max-T's standard errors as computed before the fast path: of the deviations from the estimates."""
    ii, jj = pair_index(len(estimates))
    delta, se = thetas - estimates, np.zeros(len(ii))
    for start in range(0, len(ii), PAIR_BLOCK):
        sl = slice(start, start + PAIR_BLOCK)
        dev = delta[:, ii[sl]]
        dev -= delta[:, jj[sl]]
        centred = dev - dev.mean(axis=0)
        se[sl] = np.sqrt(np.einsum("ij,ij->j", centred, centred) / (thetas.shape[0] - 1))
    return se


@pytest.mark.parametrize("n", [2, 3, 40, 2000])
def test_widen_in_place_equals_the_formula(n):
    rng = np.random.default_rng(n)
    sums, full = rng.normal(size=(300, 7)) * 1e3, rng.normal(size=7) * 1e3
    assert np.array_equal(widen(sums, full, n), full + math.sqrt(n / (n - 1)) * (sums - full))


def _holm_cases():
    rng = np.random.default_rng(8)
    for runs, rows, df in ((6, 400, 399), (30, 2000, 1999), (12, 300, 0), (9, 500, 20)):
        thetas = np.round((rng.normal(size=(rows, runs)) * 0.02 + np.linspace(0.3, 0.8, runs)) * 512) / 512
        thetas[:, 1] = thetas[:, 0] + 0.125  # no spread, nonzero: called whatever the critical value
        thetas[:, 3] = thetas[:, 2]  # no spread, zero
        thetas[:, 5 % runs] = thetas[:, 4 % runs] + rng.normal(size=rows) * 1e-3  # a sure call
        yield thetas, thetas.mean(axis=0), df


@pytest.mark.parametrize("higher", [True, False])
def test_holm_on_arrays_equals_holm_pair_by_pair(higher):
    from bench.stats_plain import holm as plain_holm

    for thetas, estimates, df in _holm_cases():
        fast, plain = holm(estimates, thetas, df, higher), plain_holm(estimates, thetas, df, higher)
        assert fast == plain  # the first step's c and every pair: the same floats, calls and key order
        assert [list(p) for p in fast[1]] == [list(p) for p in plain[1]]
        assert {p["call"] for p in fast[1]} - {TIE}  # some pairs are called


def _plain_letters(order: list[int], pairs: list[dict], count: int) -> list[str]:
    """The compact letter display with a full absorb after every insert step (ranks.py before its fast path)."""
    columns = [frozenset(range(count))]
    for p in pairs:
        if p["call"] not in (BETTER, WORSE):
            continue
        split: list[frozenset[int]] = []
        for col in columns:
            split += [col - {p["a"]}, col - {p["b"]}] if p["a"] in col and p["b"] in col else [col]
        columns = ranks._absorb(split)
    columns = ranks._sweep(columns, order)
    position = {run: k for k, run in enumerate(order)}
    columns.sort(key=lambda col: sorted(position[r] for r in col))
    return ["".join(ranks.symbol(k) for k, col in enumerate(columns) if run in col) for run in range(count)]


@pytest.mark.parametrize("runs,share", [(5, 0.5), (12, 0.3), (18, 0.6), (24, 0.15)])
def test_letters_equal_the_full_absorb(runs, share):
    rng = np.random.default_rng(runs * 7 + int(share * 10))
    for _ in range(4):
        skill = np.sort(rng.normal(size=runs))[::-1]
        ii, jj = pair_index(runs)
        pairs = []
        for a, b in zip(ii.tolist(), jj.tolist()):
            called = rng.random() < share * min(1.0, abs(skill[a] - skill[b]) * 2)
            pairs.append({"a": a, "b": b, "call": (BETTER if skill[a] > skill[b] else WORSE) if called else TIE})
        order = list(range(runs))
        assert ranks.compact_letters(order, pairs, runs) == _plain_letters(order, pairs, runs)


def _spread_cases():
    """Thetas of every magnitude with pairs whose difference never varies (identical runs, a run shifted by
    a constant, constant runs, signed zeros), pairs of tiny spread, and infinities."""
    rng = np.random.default_rng(5)
    for trial in range(160):
        rows, runs = (2, 3, 10, 333, 2000)[trial % 5], int(rng.integers(2, 10))
        scale = (1e-310, 1e-300, 1e-160, 1e-20, 1.0, 1e20, 1e160, 1e300)[trial % 8]
        x = rng.normal(size=(rows, runs)) * scale
        for r in range(1, runs):
            kind = rng.integers(0, 7)
            if kind == 0:
                x[:, r] = x[:, 0] + rng.normal() * scale
            elif kind == 1:
                x[:, r] = x[:, 0]
            elif kind == 2:
                x[:, r] = rng.normal() * scale
            elif kind == 3:
                x[:, r] = x[:, 0] + rng.normal(size=rows) * scale * 1e-15
            elif kind == 4:
                x[:, r] = np.where(rng.random(rows) < 0.5, 0.0, -0.0)
            elif kind == 5 and trial % 3 == 0:
                x[rng.integers(0, rows), r] = np.inf
        yield x


def test_spread_equals_max_min_on_every_pair():
    from bench.stats_plain import paired_spread

    flat = 0
    with np.errstate(invalid="ignore", over="ignore"):
        for x in _spread_cases():
            est = x.mean(axis=0)
            fast, plain = pairwise._paired_spread(est, x), paired_spread(est, x)
            assert all(f.tobytes() == p.tobytes() for f, p in zip(fast, plain))  # d, se, the constant difference
            flat += int((~np.isnan(plain[2])).sum())
    assert flat > 200  # many pairs whose difference never varies


def test_maybe_flat_keeps_every_flat_pair_and_few_others():
    rng = np.random.default_rng(6)
    x = rng.normal(size=(4000, 30)) * 0.01 + 0.5
    x[:, 7] = x[:, 3] + 0.25  # one pair that never varies
    ii, jj = pair_index(30)
    sd, centre = np.zeros(len(ii)), np.zeros(len(ii))
    for k, (a, b) in enumerate(zip(ii, jj)):
        dev = x[:, a] - x[:, b]
        centre[k], sd[k] = dev.mean(), dev.std(ddof=1)
    maybe = pairwise._maybe_flat(sd, centre, 4000)
    assert maybe.tolist() == [(a, b) == (3, 7) for a, b in zip(ii, jj)]
    assert pairwise._maybe_flat(np.array([0.0, np.inf, np.nan, 1e-300]), np.array([1.0, 1.0, 1.0, 1e-301]), 10).all()


def _plain_linear(values, probs):
    from bench.stats_plain import linear as plain

    return plain(values, probs)


def _quantile_cases():
    rng = np.random.default_rng(7)
    for trial in range(600):
        rows, cols = (1, 2, 3, 5, 17, 40, 200, 1001, 2000, 2600)[trial % 10], int(rng.integers(1, 6))
        kind = trial // 10 % 6
        if kind == 0:
            x = rng.normal(size=(rows, cols))
        elif kind == 1:  # ties, zeros of both signs
            x = rng.integers(-2, 3, (rows, cols)) * rng.choice([0.0, -0.0, 1.0], (rows, cols))
        elif kind == 2:
            x = rng.choice([0.0, -0.0, 0.5, -0.5], (rows, cols))
        elif kind == 3:  # NaN: each column its own count
            x = rng.normal(size=(rows, cols))
            x[rng.random((rows, cols)) < 0.3] = np.nan
        elif kind == 4:
            x = np.round(rng.normal(size=(rows, cols)), 1)
            x[rng.random((rows, cols)) < 0.05] = np.nan
            x[x == 0] = -0.0
        else:  # zeros of both signs at the picked positions
            x = rng.choice([0.0, -0.0], (rows, cols)) + (rng.random((rows, cols)) < 0.01) * rng.choice([-1.0, 1.0])
        yield x


@pytest.mark.parametrize("from_rows", [quantiles.PARTITION_MIN_ROWS, 0])  # as used; partition at every size
def test_linear_equals_the_full_sort(monkeypatch, from_rows):
    monkeypatch.setattr(quantiles, "PARTITION_MIN_ROWS", from_rows)
    for x in _quantile_cases():
        rows = x.shape[0]
        for probs in (interval_probs(rows - 1), interval_probs(None), 0.95, np.array([0.0, 1.0]), interval_probs(3)):
            fast, plain = linear(x, probs), _plain_linear(x, probs)
            assert fast.shape == plain.shape and fast.tobytes() == plain.tobytes()
        assert linear(x[:, 0], 0.5).tobytes() == _plain_linear(x[:, 0], 0.5).tobytes()


def test_signed_zeros_are_where_a_partition_and_a_sort_differ(monkeypatch):
    """Why a column whose picked value is a zero is sorted: np.partition alone can pick the other zero."""
    monkeypatch.setattr(quantiles, "PARTITION_MIN_ROWS", 0)
    differs = 0
    for x in _quantile_cases():
        probs = interval_probs(x.shape[0] - 1)
        if x.shape[0] <= 200:  # every position placed by np.partition: the sort's array but for its zeros
            ours, picked = np.sort(x, axis=0), np.partition(x, np.arange(x.shape[0]), axis=0)
            differs += int((ours.tobytes() != picked.tobytes()) and bool((ours == 0).any()))
        assert linear(x, probs).tobytes() == _plain_linear(x, probs).tobytes()
    assert differs > 10
