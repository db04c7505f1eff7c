"""The engine on the committed example results, and the `stats` command on a tiny project."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.pipeline.outputs import write_outputs
from generator.pipeline.stages import load, score
from generator.stats.engine import compute, dumps, planned_rows
from generator.stats.inputs import suite_data
from generator.stats.processes import strata_in_processes
from tests.conftest import GOOD, chat_record

REPO = Path(__file__).resolve().parents[1]
RESAMPLES = 1000


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    out = tmp_path_factory.mktemp("rescore")
    scored = score(load(REPO, ["extracting"]), REPO, jobs=2, gate=False)
    write_outputs(out, scored)
    data = suite_data(scored[0])
    return out, data, compute(data, RESAMPLES)


def test_output_is_bit_identical_across_runs(example):
    out, data, doc = example
    again = compute(suite_data(score(load(REPO, ["extracting"]), REPO, jobs=1, gate=False)[0]), RESAMPLES)
    assert dumps(doc) == dumps(again)
    assert doc["method"]["numpy"] == np.__version__ and doc["method"]["resamples"] == RESAMPLES


def test_strata_and_side_parts_in_processes_give_the_same_document(example):
    """Forked processes compute the strata, and the side parts (real against generated documents, the
    other input kinds' boards) as a task of their own: the document is the one computed here."""
    _out, data, doc = example
    assert doc["sources"] and doc["inputs"]["image"]["board"]  # the example has both side parts
    told: list[int] = []
    again = compute(data, RESAMPLES, told.append, strata_by=strata_in_processes(2))
    assert dumps(again) == dumps(doc)
    alone: list[int] = []
    compute(data, RESAMPLES, alone.append)
    assert sum(told) == sum(alone) == planned_rows(data, RESAMPLES)  # the progress bar is told every row
    rec = doc["strata"]["all"]["resampling"]["ratios"]
    assert rec["exact_sums"] and len(rec["w_sha256"]) == 64 and rec["group_sizes"] == [824]


_PARENT: list[int] = []  # the test's process: the forked ones below die instead of computing


def _dying_task(st):
    import os

    from generator.stats import processes

    if os.getpid() not in _PARENT and st.key != "all":
        os._exit(9)
    return processes._stratum(processes._SHARED[0], st, processes._SHARED[1], None, processes._as_is)


def _dying_sides():
    import os

    if os.getpid() not in _PARENT:
        os._exit(9)
    raise AssertionError("side parts are computed here with side_parts, not this task")


def test_a_stratum_or_side_part_a_process_dies_on_is_computed_here(example, monkeypatch):
    """A process that dies (killed, out of memory) breaks the pool: what it had not delivered is computed
    here, the same document, and the build never waits for it."""
    import os

    from generator.stats import processes

    _out, data, doc = example
    monkeypatch.setattr(processes, "_task", _dying_task)
    monkeypatch.setattr(processes, "_sides", _dying_sides)
    _PARENT[:] = [os.getpid()]
    try:
        again = compute(data, RESAMPLES, strata_by=strata_in_processes(2))
    finally:
        _PARENT.clear()
    assert dumps(again) == dumps(doc)


def test_every_metric_run_and_stratum_is_there_and_matches_the_rescore(example):
    out, data, doc = example
    summary = json.loads((out / "extracting" / "summary.json").read_text())
    # ... source (generated, real), collection (generated, nws, sroie), freeze (pre, post), the headline stratum
    assert len(doc["strata"]) == 1 + 6 + 2 + 6 + 3 + 3 + 3 + 2 + 3 + 2 + 1
    assert doc["headline"]["stratum"] == "half=private,freeze=post-freeze"
    assert doc["strata"]["half=private,freeze=post-freeze"]["items"] == 412 - 52  # no real (pre-freeze) document
    for key, st in doc["strata"].items():
        assert st["items"] >= 10 and set(st["metrics"]) == set(data.declared.names())
        for metric, rows in st["metrics"].items():
            assert set(rows) == {r.id for r in data.runs}
            for row in rows.values():
                assert row["estimate"] is None or row["low"] <= row["estimate"] <= row["high"]
    # image runs are ranked apart; the earlier rounds' runs and the anchor checks of the anchor rounds are not ranked
    assert set(summary) == (set(doc["runs"]) | set(doc["inputs"]["image"]["runs"]) | set(doc["earlier_runs"])
                            | set(doc["incomplete_runs"]))
    assert sorted(doc["earlier_runs"]) == ["acme-lynx-1-cloudco", "owl-careful-1-owlworks"]
    for run, s in summary.items():
        if run not in doc["runs"]:
            continue
        st = doc["strata"]
        # the same computation: equal to the last bit
        assert st["half=private"]["metrics"]["index"][run]["estimate"] == s["private"]["metrics"]["index"]
        assert st["dataset=receipts"]["metrics"]["accuracy"][run]["estimate"] == \
            s["all"]["datasets"]["receipts"]["accuracy"]
    fam = doc["strata"]["half=private"]["pairwise"]["index"]
    assert fam["rule"] == "holm" and fam["c"] > 1.96 and len(fam["pairs"]) == 36
    assert sorted(fam["order"]) == sorted(fam["runs"]) == sorted(fam["letters"])
    assert fam["rank_ranges"]["baseline-null"] == [9, 9]


def test_w_does_not_depend_on_which_runs_are_present(example):
    out, data, doc = example
    kept = {(r.model, r.provider) for r in data.runs[:4]}  # and the earlier rounds of those models only
    fewer = compute(replace(data, runs=data.runs[:4], figs=data.figs[:4], repeats=data.repeats[:4],
                            earlier=[r for r in data.earlier if (r.model, r.provider) in kept]), RESAMPLES)
    for key in ("all", "half=private", "locale=de-DE"):
        assert fewer["strata"][key]["resampling"] == doc["strata"][key]["resampling"]
        for run in fewer["strata"][key]["metrics"]["index"]:
            assert fewer["strata"][key]["metrics"]["index"][run] == doc["strata"][key]["metrics"]["index"][run]


def test_operations_and_gap(example):
    out, data, doc = example
    ops = doc["operations"]
    assert ops["heron-open-8b-on-prem"]["self_hosted"] and not ops["acme-lynx-1-cloudco-2026-r3"]["self_hosted"]
    run = next(r for r in data.runs if r.id == "acme-lynx-1-budgetapi")
    rows = [c for c in data.calls[run.id] if c["prompt_tokens"]]
    price_in, price_out = Decimal(run.prices["input_per_mtok"]), Decimal(run.prices["output_per_mtok"])
    total = sum(int(c["prompt_tokens"]) * price_in + int(c["completion_tokens"]) * price_out for c in rows)
    expected = (total / Decimal(1_000_000) * 1000 / len(rows)).quantize(Decimal("0.0001"))
    assert ops[run.id]["cost_per_1000_documents"] == str(expected)
    lat = [float(c["latency_ms"]) for c in data.calls[run.id] if c["outcome"] != "failed_call" and c["latency_ms"]]
    assert ops[run.id]["latency_ms"]["p95"] == np.percentile(lat, 95, method="inverted_cdf")
    failed = sum(c["outcome"] == "failed_call" for c in data.calls[run.id])
    assert ops[run.id]["failed_rate"]["k"] == failed
    assert set(doc["gap"]) == {r.id for r in data.runs}
    g = doc["gap"]["baseline-null"]
    assert g["estimate"] == 0.0 and not g["flagged"]


def test_stats_command_rescores_and_is_deterministic(project):
    project.add_run("perfect", [chat_record(i, GOOD) for i in ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]])
    result = CliRunner().invoke(main, ["stats", "--root", str(project.root), "--resamples", "200", "-q"])
    assert result.exit_code == 0, result.output
    assert (project.root / "build" / "rescore" / "extracting" / "agreement.json").is_file()
    path = project.root / "build" / "stats" / "extracting" / "stats.json"
    first = path.read_text()
    doc = json.loads(first)
    assert doc["strata"]["all"]["metrics"]["index"]["perfect"]["estimate"] == 100.0
    assert doc["skipped_strata"]["dataset=receipts"]["items"] == 3  # under min_stratum_items
    assert CliRunner().invoke(main, ["stats", "--root", str(project.root), "--resamples", "200", "-q"]).exit_code == 0
    assert path.read_text() == first
    bad = CliRunner().invoke(main, ["stats", "--root", str(project.root), "--suite", "nope"])
    assert bad.exit_code == 2 and "no suite named" in bad.output


def test_overlap_rule_is_selected_by_the_suite(example):
    out, data, doc = example
    ra = compute(replace(data, suite=replace(data.suite, comparison="overlap")), 300)
    fam = ra["strata"]["half=private"]["pairwise"]["index"]
    assert ra["method"]["comparison"] == "overlap" and fam["rule"] == "overlap" and fam["c"] is None
    rows = ra["strata"]["half=private"]["metrics"]["index"]
    for p in fam["pairs"]:
        apart = rows[p["a"]]["low"] > rows[p["b"]]["high"] or rows[p["a"]]["high"] < rows[p["b"]]["low"]
        assert (p["call"] != "can't tell apart") == apart
    lat = ra["operations_calls"]["latency_p50"]
    assert lat["runs"] == sorted(r.id for r in data.runs if r.hosting == "hosted") and "heron-open-8b-on-prem" not in lat["runs"]
    assert "operations_calls" not in doc


def test_a_headline_that_is_a_ratio_metric_rides_on_the_ratio_group(example):
    out, data, doc = example
    from generator.stats.declared import Declared
    from generator.suites.extracting import Extracting

    class AccuracyFirst(Extracting):
        metrics = tuple(m for m in Extracting.metrics if m.name != "index")
        headline = "accuracy"

    plugin = AccuracyFirst()
    plain = compute(replace(data, plugin=plugin, declared=Declared(plugin)), 300)
    assert plain["headline"]["metric"] == "accuracy" and "index" not in plain["strata"]["all"]["metrics"]
    for run, row in plain["strata"]["all"]["metrics"]["accuracy"].items():
        assert row["estimate"] == doc["strata"]["all"]["metrics"]["accuracy"][run]["estimate"]


def test_every_headline_family_has_its_degrees_of_freedom_and_minimum_detectable_effect(example):
    from scipy.stats import t as student_t

    from generator.stats.pairwise import MIN_CALL_DF, TIE

    _, data, doc = example
    head = doc["headline"]["metric"]
    for key, st in doc["strata"].items():
        fam = st["pairwise"].get(head)
        if not fam or fam["c"] is None:
            continue
        groups = st["resampling"][head]["group_sizes"]
        assert fam["df"] == sum(groups) - len(groups)  # N - G: the index resamples within document types
        ses = sorted(p["se"] for p in fam["pairs"] if p["se"] and p["se"] > 0)
        if ses:
            expected = (fam["c"] + student_t.ppf(0.8, fam["df"])) * float(np.median(ses))
            assert fam["mde"] == pytest.approx(expected, rel=1e-12)
        if fam["df"] < MIN_CALL_DF:  # too small: the page says so, and nothing is called
            assert fam["too_small"] and all(p["call"] == TIE for p in fam["pairs"])
        else:
            assert "too_small" not in fam
    assert doc["method"]["min_call_df"] == MIN_CALL_DF


def test_too_small_family_makes_no_call():
    from generator.stats.engine import _family
    from generator.stats.pairwise import TIE

    rng = np.random.default_rng(1)
    point = np.array([0.9, 0.1, 0.5])
    draws = point + 0.01 * rng.normal(size=(500, 3))  # far apart: called whenever a call is allowed
    big = _family("holm", "accuracy", ["a", "b", "c"], point, draws, point - 0.1, point + 0.1, 40, True, 39)
    assert all(p["call"] != TIE for p in big["pairs"]) and "too_small" not in big and big["mde"] > 0
    small = _family("holm", "accuracy", ["a", "b", "c"], point, draws, point - 0.1, point + 0.1, 12, True, 11)
    assert all(p["call"] == TIE for p in small["pairs"]) and "too small to call" in small["too_small"]
    assert small["letters"] == {"a": "a", "b": "a", "c": "a"} and small["rank_ranges"]["a"] == [1, 3]


def test_too_small_holds_for_the_overlap_rule_too():
    """The overlap rule's intervals are the engine's expanded percentile intervals, which the simulation
    shows no longer hold their 95% below MIN_CALL_DF degrees of freedom: no call there either."""
    from generator.stats.engine import _family
    from generator.stats.pairwise import MIN_CALL_DF, TIE

    point = np.array([0.9, 0.1, 0.5])
    draws = np.tile(point, (10, 1))
    lows, highs = point - 0.05, point + 0.05  # intervals far apart: every pair called when calls are allowed
    big = _family("overlap", "accuracy", ["a", "b", "c"], point, draws, lows, highs, 40, True, 39)
    assert all(p["call"] != TIE for p in big["pairs"]) and "too_small" not in big and big["df"] == 39
    small = _family("overlap", "accuracy", ["a", "b", "c"], point, draws, lows, highs, 12, True, MIN_CALL_DF - 1)
    assert all(p["call"] == TIE for p in small["pairs"]) and "too small to call" in small["too_small"]
    assert small["letters"] == {"a": "a", "b": "a", "c": "a"} and small["df"] == MIN_CALL_DF - 1


def test_a_stratum_s_inputs_are_the_two_step_gather_s_values():
    """engine._select: array[runs][:, positions] in one gather, and the array itself (no copy) for every
    run and every item."""
    from generator.stats.engine import _select

    rng = np.random.default_rng(4)
    figs, reps = rng.normal(size=(6, 9, 3)), rng.integers(0, 3, size=(6, 9))
    for runs in ([0, 1, 2, 3, 4, 5], [1, 3, 4], [], [5]):
        for positions in (np.arange(9), np.array([0, 2, 7]), np.array([], dtype=np.int64), np.arange(8)):
            for array in (figs, reps):
                got, want = _select(array, runs, positions), array[runs][:, positions]
                assert got.shape == want.shape and got.dtype == want.dtype and np.array_equal(got, want)
    assert _select(figs, list(range(6)), np.arange(9)) is figs
