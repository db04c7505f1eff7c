"""The item analysis computes most items together: its result must be the per-item loop's, to the last bit.

The reference below is the earlier per-item code (np.corrcoef on each item), kept here unchanged. Results
are compared by repr, which shows every float's shortest round-trip form and the type of each number.
"""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.stats import items as items_module
from generator.stats.items import analyse_items, item_analysis


def reference(values: np.ndarray, totals: np.ndarray, ids: list[str], halves: list[str]) -> dict:
    full = np.nanmax(values) if np.isfinite(values).any() else None
    items, flat, against = {}, [], []
    for k, (item_id, half) in enumerate(zip(ids, halves)):
        col = values[:, k]
        ok = ~np.isnan(col) & ~np.isnan(totals)
        if not ok.any():
            continue
        v, t = col[ok], totals[ok]
        disc = None
        if len(v) >= 3 and np.ptp(v) > 0 and np.ptp(t) > 0:
            disc = float(np.corrcoef(v, t)[0, 1])
        items[item_id] = {"runs": int(ok.sum()), "runs_right": int((v == full).sum()) if full is not None else 0,
                          "mean": float(v.mean()), "discrimination": disc, "half": half}
        if len(v) >= 2 and np.ptp(v) == 0:
            flat.append(item_id)
        elif disc is not None and disc < 0:
            against.append(item_id)
    return {"items": items, "not_separating": flat, "against_order": against, "full_value": full}


def same(values: np.ndarray, totals: np.ndarray) -> dict:
    ids = [f"i{k:04d}" for k in range(values.shape[1])]
    halves = ["public" if k % 3 else "private" for k in range(values.shape[1])]
    with np.errstate(all="ignore"):
        want, got = reference(values, totals, ids, halves), analyse_items(values, totals, ids, halves)
    assert repr(got) == repr(want)
    return got


def random_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    runs, n = int(rng.integers(1, 61)), int(rng.integers(0, 90))
    kind = rng.integers(0, 5)
    if kind == 0:  # fractions k/d of a few denominators, as per-item ratios are
        d = rng.choice([1, 2, 3, 5, 7, 17, 40], size=(1, n))
        values = rng.integers(0, d + 1, size=(runs, n)) / d
    elif kind == 1:  # integers
        values = rng.integers(0, 4, size=(runs, n)).astype(float)
    elif kind == 2:
        values = rng.random((runs, n))
    elif kind == 3:  # many ties: mostly right or wrong
        values = (rng.random((runs, n)) < rng.random(n)).astype(float)
    else:  # a mix of scales
        values = rng.random((runs, n)) * 10.0 ** rng.integers(-8, 9, size=(1, n))
    flat = rng.random(n) < 0.15  # items on which every run scores the same
    values[:, flat] = values[0, flat]
    if rng.random() < 0.6:
        values[rng.random((runs, n)) < rng.choice([0.01, 0.1, 0.5])] = np.nan
    if n and rng.random() < 0.2:
        values[:, rng.integers(0, n)] = np.nan  # an item no run has a value for
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a run without any value: a NaN total
        totals = np.nanmean(values, axis=1) if n and rng.random() < 0.5 else rng.random(runs)
    if rng.random() < 0.3:
        totals = np.round(totals, 1)  # runs with equal totals
    if rng.random() < 0.1:
        totals[:] = totals[0]
    if rng.random() < 0.3:
        totals[rng.random(runs) < 0.2] = np.nan
    return values, totals


@pytest.mark.parametrize("seed", range(40))
def test_the_same_bits_as_the_per_item_loop_on_random_inputs(seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        same(*random_case(rng))


def test_the_same_bits_on_a_bench_sized_input():
    rng = np.random.default_rng(7)
    d = rng.choice([1, 2, 4, 5, 17], size=(1, 6000))
    values = rng.integers(0, d + 1, size=(40, 6000)) / d
    got = same(values, values.mean(axis=1))
    assert sum(r["discrimination"] is not None for r in got["items"].values()) > 5000


@pytest.mark.parametrize("runs", range(1, 61))
def test_every_number_of_runs(runs):
    rng = np.random.default_rng(runs)
    values = rng.integers(0, 18, size=(runs, 200)) / 17
    same(values, values.mean(axis=1))
    values[rng.random(values.shape) < 0.05] = np.nan
    totals = np.nanmean(values, axis=1)
    same(values, totals)
    totals[::4] = np.nan
    same(values, totals)


def test_edge_inputs():
    rng = np.random.default_rng(3)
    same(np.full((5, 4), np.nan), rng.random(5))  # no value at all: no full value
    same(rng.random((5, 4)), np.full(5, np.nan))  # no total
    same(np.zeros((5, 0)), rng.random(5))  # no item
    same(np.ones((6, 3)), np.arange(6.0))  # every run fully right everywhere
    same(np.array([[0.0, np.inf], [1.0, 2.0], [0.5, -np.inf], [0.25, 1.0]]), np.arange(4.0))
    same(np.array([[1e-300, 0.0], [0.0, 1e-300], [2e-300, 5e-324]]), np.array([1e-300, 0.0, 3e-300]))
    same(rng.random((4, 3)).astype(np.float32), rng.random(4))  # not float64: the per-item loop
    same(rng.integers(0, 3, size=(4, 3)), rng.random(4))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 30).flatmap(lambda runs: st.tuples(
    st.lists(st.lists(st.one_of(st.integers(0, 17).map(lambda k: k / 17), st.just(float("nan")),
                                st.floats(0, 1)), min_size=runs, max_size=runs), min_size=0, max_size=8),
    st.lists(st.one_of(st.integers(0, 17).map(lambda k: k / 17), st.just(float("nan")), st.floats(0, 1)),
             min_size=runs, max_size=runs))))
def test_the_same_bits_on_generated_inputs(case):
    columns, totals = case
    runs = len(totals)
    same(np.array(columns, dtype=float).reshape(-1, runs).T, np.array(totals, dtype=float))


def test_item_analysis_passes_the_runs_totals_and_items(monkeypatch):
    rng = np.random.default_rng(11)
    values = rng.integers(0, 6, size=(7, 30)) / 5
    values[rng.random(values.shape) < 0.1] = np.nan
    runs = [SimpleNamespace(id=f"r{k}") for k in range(7)]
    items = [SimpleNamespace(id=f"i{k:02d}", half="public" if k % 2 else "private") for k in range(30)]
    monkeypatch.setattr(items_module, "item_values", lambda data: values)
    overall = {f"r{k}": float(np.nanmean(values[k])) for k in range(6)} | {"r6": None}
    got = item_analysis(SimpleNamespace(runs=runs, items=items), overall)  # type: ignore[arg-type]
    totals = np.array([np.nan if overall[r.id] is None else overall[r.id] for r in runs])
    assert repr(got) == repr(reference(values, totals, [i.id for i in items], [i.half for i in items]))
    assert item_analysis(SimpleNamespace(runs=[], items=items), {}) == {  # type: ignore[arg-type]
        "items": {}, "not_separating": [], "against_order": []}
