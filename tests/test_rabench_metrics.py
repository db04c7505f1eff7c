"""RA-Bench's own measures against hand-computed cases and scikit-learn."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from generator.suite.api import Estimate
from generator.suite.report import scored_runs
from generator.suites.rabench import measure as m
from generator.suites.rabench.findings import call

ROOT = Path(__file__).resolve().parents[1]


def runs(*risks):
    return [{"decision": ("cleared", "" if r is None else str(r))} for r in risks]


def test_auc_and_detection_ties_on_the_statistics_vector():
    y = [0, 0, 1, 1, 0, 1, 0, 1, 0, 0]
    s = [.1, .4, .35, .8, .4, .4, .9, .8, .2, .4]
    fakes = [runs(v) for v, t in zip(s, y) if t]
    genuine = [runs(v) for v, t in zip(s, y) if not t]
    r = m.rank_estimates(fakes, genuine, "test")
    assert r["auc"].value == pytest.approx(0.6458333333333334, abs=1e-15)
    assert r["auc"].low <= r["auc"].value <= r["auc"].high and r["auc"].n == 10
    # at a 20% false-flag rate the step rule flags risk >= 0.8 (1 of 6 genuine): 2 of 4 fakes
    from generator.stats.rank import detection_at
    assert detection_at(y, s, 0.2) == 0.5


def test_missing_risk_scores_half_and_repeats_average():
    assert m.case_score(runs(None, None)) == 0.5
    assert m.case_score(runs(0.2, None, 0.6)) == pytest.approx(0.4)
    r = m.rank_estimates([runs(None)] * 3, [runs(0.5)] * 3, "tie")
    assert r["auc"].value == 0.5  # a result without a risk ties with risk 0.5: counted half


def test_ece_bin_edges_follow_the_rule():
    p = [0, .1, .3, .3, .6, .7, .7, .9, 1, 1, .5, .2]
    y = [0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0]
    assert m.ece(list(zip(p, map(bool, y)))) == pytest.approx(0.175, abs=1e-12)
    assert m.ece([]) is None


def test_cost_formula_at_the_defaults():
    approve_all = m.expected_cost(0.0, 0.0)
    assert approve_all == pytest.approx(1000.0)
    one_point_ffr = m.expected_cost(0.01, 0.0) - approve_all
    one_point_det = approve_all - m.expected_cost(0.0, 0.01)
    assert one_point_ffr / one_point_det == pytest.approx(16.83)  # "about 17 points of detection"
    assert m.expected_cost(0.0, 1.0) == 0.0


def test_rates_count_a_case_once_with_the_share_of_its_runs():
    cases = [runs(0.9, 0.1), runs(0.9), runs(0.1)]
    e = m.rate(cases, m.flagged)
    assert e.value == pytest.approx(0.5) and e.n == 3 and e.low < 0.5 < e.high


def test_consistency_rules():
    assert m.consistent_decision(runs(0.5, 0.9)) and not m.consistent_decision(runs(0.49, 0.5))
    tot = lambda *t: [{"field:total": ("correct", x)} for x in t]  # noqa: E731
    assert m.consistent_total(tot("", "")) and m.consistent_total(tot("10.8", "10.81"))
    assert not m.consistent_total(tot("10.8", "")) and not m.consistent_total(tot("10.8", "10.82"))


def test_findings_rule():
    a, b = Estimate(0.9, 0.85, 0.95, 50), Estimate(0.7, 0.6, 0.8, 50)
    assert call(a, b, True, True) == "win" and call(b, a, True, True) == "loss"
    assert call(a, Estimate(0.8, 0.7, 0.86, 50), True, True) == "tie"  # intervals overlap
    assert call(a, Estimate(0.7, 0.6, 0.8, 9), True, True) == "tie"  # fewer than 10 cases
    assert call(Estimate(100, n=50), Estimate(121, n=50), False, False) == "win"  # latency: 1.21x
    assert call(Estimate(100, n=50), Estimate(119, n=50), False, False) == "tie"


def test_auc_equals_scikit_learn_on_the_example():
    from generator.pipeline.stages import load_and_score
    from generator.suites.rabench.tables import Target

    [scored] = load_and_score(ROOT, ["ra-bench"], gate=False)
    label = {i.id: i.spec for i in scored.items}
    for r in scored.runs:
        t = Target(r, scored.items)
        fakes = [c for c in t.base if label[c]["fake"]]
        genuine = [c for c in t.base if not label[c]["fake"]]
        ours = m.rank_estimates([t.base[c] for c in fakes], [t.base[c] for c in genuine], "x")["auc"].value
        scores = np.array([m.case_score(t.base[c]) for c in fakes + genuine])
        assert abs(ours - roc_auc_score([1] * len(fakes) + [0] * len(genuine), scores)) < 1e-12
    tables = {t.id: t for t in scored.plugin.report_tables(scored_runs(scored))}
    dup = {row[0]: row for row in tables["duplicates"].rows}
    assert dup["diy-lumen-2-cloudco"][2] == "not supported"  # never shown as 0
    assert isinstance(dup["ra-engine-self"][2], Estimate) and dup["ra-engine-self"][1] == 64
    assert any(row[1] == "class=ai_full" for row in tables["authenticity-rank"].rows)
    assert any(row[0] == "approve everything" and row[3] == pytest.approx(1000) for row in tables["cost"].rows)
