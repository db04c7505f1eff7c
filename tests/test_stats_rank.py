"""ROC AUC and step-rule detection against scikit-learn with sample weights, and the class-stratified bootstrap."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score, roc_curve

from generator.stats.rank import MISSING_RISK, detection_at, rank_bootstrap, roc_auc
from generator.stats.resample import CountMatrix

Y = [0, 0, 1, 1, 0, 1, 0, 1, 0, 0]
S = [.1, .4, .35, .8, .4, .4, .9, .8, .2, .4]


def _sk_detection(y, s, rate, w=None):
    fpr, tpr, _ = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    return tpr[fpr <= rate].max()


def test_reference_vector():
    assert roc_auc(Y, S) == 0.6458333333333334
    assert detection_at(Y, S, 0.2) == 0.5
    assert roc_auc_score(Y, S) == pytest.approx(roc_auc(Y, S), rel=1e-12)
    for rate in (0.0, 0.1, 0.2, 0.5, 0.7, 1.0):
        assert detection_at(Y, S, rate) == _sk_detection(Y, S, rate)


def test_missing_risk_scores_half():
    s = [None if v == 0.4 else v for v in S]
    assert roc_auc(Y, s) == roc_auc(Y, [MISSING_RISK if v is None else v for v in s])


def test_bootstrap_draws_match_sklearn_with_count_weights():
    rng = np.random.default_rng(5)
    y = (rng.random(120) < 0.3).astype(int)
    s = np.round(rng.random(120) * 0.6 + 0.4 * y, 2)  # rounded: many ties
    seed, resamples = 77, 300
    res = rank_bootstrap(y, s, seed, resamples, rates=(0.01, 0.05, 0.1))
    W = CountMatrix(seed, [int(y.sum()), int((1 - y).sum())], resamples).full()
    pos = y.astype(bool)
    for b in range(0, resamples, 7):
        w = np.zeros(len(y))
        w[pos], w[~pos] = W[b, :pos.sum()], W[b, pos.sum():]
        assert res["draws"]["auc"][b] == pytest.approx(roc_auc_score(y, s, sample_weight=w), rel=1e-12)
        for k, rate in enumerate((0.01, 0.05, 0.1)):
            assert res["draws"]["detection"][b, k] == pytest.approx(_sk_detection(y, s, rate, w), rel=1e-12)
    assert res["metrics"]["auc"]["estimate"] == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    m = res["metrics"]["auc"]
    assert m["low"] <= m["estimate"] <= m["high"]
    assert res["positives"] == y.sum() and res["resampling"]["group_sizes"] == [int(y.sum()), int((1 - y).sum())]


def test_stratified_by_class_never_loses_a_class():
    y = [1] + [0] * 30  # one positive: an unstratified resample would often have none
    s = list(np.linspace(0, 1, 31))
    res = rank_bootstrap(y, s, 1, 500)
    assert not np.isnan(res["draws"]["auc"]).any()
    with pytest.raises(ValueError):
        rank_bootstrap([0, 0], [0.1, 0.2], 1, 10)
