"""Rank metrics for suites with risk scores: ROC AUC and detection at fixed false-flag rates.

Positives (label 1) are the items to catch (fakes), negatives the genuine items. A result without a
risk score is scored 0.5. AUC counts ties half (the weighted Mann-Whitney statistic). Detection at a
false-flag rate a uses the step rule: the lowest threshold t (items with risk >= t are flagged, so ties
at t are all flagged) whose share of flagged genuine items is at most a; detection is the share of
positives flagged there (0 if no threshold qualifies). The bootstrap is stratified by class: positives
and negatives are resampled separately (one W, the positives' group first), so no resample lacks a class.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .quantiles import interval
from .resample import CountMatrix

MISSING_RISK = 0.5
RATES = (0.01, 0.05, 0.10)


def clean_scores(scores: Sequence[float | None] | np.ndarray) -> np.ndarray:
    return np.array([MISSING_RISK if s is None else float(s) for s in scores], dtype=np.float64)


def _level_counts(counts: np.ndarray, levels: np.ndarray, n_levels: int) -> np.ndarray:
    """(rows x n_levels) summed counts per score level; levels gives each column's level."""
    order = np.argsort(levels, kind="stable")
    lv = levels[order]
    starts = np.flatnonzero(np.r_[True, lv[1:] != lv[:-1]])
    out = np.zeros((counts.shape[0], n_levels))
    out[:, lv[starts]] = np.add.reduceat(counts[:, order].astype(np.float64), starts, axis=1)
    return out


def _from_level_counts(pos: np.ndarray, neg: np.ndarray, rates: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """AUC (rows) and detection (rows x rates) from per-level weights of positives and negatives."""
    p_tot, n_tot = pos.sum(axis=1), neg.sum(axis=1)
    below = np.cumsum(neg, axis=1) - neg
    auc = (pos * (below + 0.5 * neg)).sum(axis=1) / (p_tot * n_tot)
    fp = np.cumsum(neg[:, ::-1], axis=1)[:, ::-1]  # flagged genuine weight at threshold = level
    tp = np.cumsum(pos[:, ::-1], axis=1)[:, ::-1]
    fpr, tpr = fp / n_tot[:, None], tp / p_tot[:, None]
    det = np.stack([np.where(fpr <= a, tpr, 0.0).max(axis=1) for a in rates], axis=1)
    return auc, det


def _levels(scores: np.ndarray) -> tuple[np.ndarray, int]:
    uniq, inverse = np.unique(scores, return_inverse=True)
    return inverse.reshape(-1), len(uniq)


def roc_auc(labels: Sequence[int], scores: Sequence[float | None], weights: Sequence[float] | None = None) -> float:
    auc, _ = _point(labels, scores, weights, ())
    return auc


def detection_at(labels: Sequence[int], scores: Sequence[float | None], rate: float,
                 weights: Sequence[float] | None = None) -> float:
    _, det = _point(labels, scores, weights, (rate,))
    return det[0]


def _point(labels: Sequence[int] | np.ndarray, scores: Sequence[float | None] | np.ndarray,
           weights: Sequence[float] | None, rates: Sequence[float]) -> tuple[float, list[float]]:
    y = np.asarray(labels).astype(bool)
    s = clean_scores(scores)
    w = np.ones(len(s)) if weights is None else np.asarray(weights, dtype=np.float64)
    lv, n_lv = _levels(s)
    pos = _level_counts(w[y][None, :], lv[y], n_lv)
    neg = _level_counts(w[~y][None, :], lv[~y], n_lv)
    auc, det = _from_level_counts(pos, neg, rates or (0.0,))
    return float(auc[0]), [float(x) for x in det[0]][: len(rates)]


def rank_bootstrap(labels: Sequence[int], scores: Sequence[float | None], seed: int, resamples: int,
                   rates: Sequence[float] = RATES) -> dict:
    """Point estimates and 95% percentile intervals of AUC and detection, items in the order given (by id)."""
    y = np.asarray(labels).astype(bool)
    s = clean_scores(scores)
    if y.all() or not y.any():
        raise ValueError("rank metrics need both positives and negatives")
    lv, n_lv = _levels(s)
    w = CountMatrix(seed, [int(y.sum()), int((~y).sum())], resamples)
    aucs, dets = [], []
    for pos_counts, neg_counts in w.chunks():
        a, d = _from_level_counts(_level_counts(pos_counts, lv[y], n_lv), _level_counts(neg_counts, lv[~y], n_lv), rates)
        aucs.append(a)
        dets.append(d)
    auc_b, det_b = np.concatenate(aucs), np.vstack(dets)
    auc, det = _point(y, s, None, rates)
    auc_ci, det_ci = interval(auc_b), interval(det_b)
    out = {"auc": {"estimate": auc, "low": float(auc_ci[0, 0]), "high": float(auc_ci[1, 0])}}
    for k, rate in enumerate(rates):
        out[f"detection_at_{rate:g}"] = {"estimate": det[k], "low": float(det_ci[0, k]), "high": float(det_ci[1, k])}
    return {"metrics": out, "positives": int(y.sum()), "negatives": int((~y).sum()), "resampling": w.record(),
            "draws": {"auc": auc_b, "detection": det_b}}
