"""RA-Bench's case-level measures, from verdict rows (content/pages/scoring-ra-bench.md, section 5)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from decimal import Decimal

import numpy as np

from ...stats.quantiles import interval
from ...stats.rank import rank_bootstrap
from ...stats.resample import CountMatrix, derive_seed
from ...stats.wilson import wilson
from ...suite_api import Estimate

RESAMPLES = 2000
RATES = (0.01, 0.05, 0.10)
Runs = list[dict[str, tuple[str, str]]]  # per run of a case: unit -> (verdict, order)


def case_runs(run_score) -> dict[str, Runs]:
    """item -> its runs (in repeat order), each a mapping unit -> (verdict, order)."""
    per: dict[str, dict[int, dict[str, tuple[str, str]]]] = defaultdict(dict)
    t = run_score.verdicts()
    for k in range(len(t)):
        per[t.item[k]].setdefault(t.repeat[k], {})[t.unit[k]] = (t.verdict[k], t.order[k])
    return {item: [reps[r] for r in sorted(reps)] for item, reps in per.items()}


def rate(cases: Sequence[Runs], hit: Callable[[dict], bool], within: Callable[[dict], bool] = lambda r: True
         ) -> Estimate:
    """Each case counts once with the share of its runs (that `within` admits) where `hit` holds; Wilson."""
    shares = []
    for runs in cases:
        admitted = [r for r in runs if within(r)]
        if admitted:
            shares.append(sum(hit(r) for r in admitted) / len(admitted))
    n = len(shares)
    if n == 0:
        return Estimate(None, n=0)
    k = float(sum(shares))
    ci = wilson(min(k, n), n)
    return Estimate(k / n, ci[0], ci[1], n) if ci else Estimate(None, n=0)


def risk_of(run: dict) -> float | None:
    order = run.get("decision", ("", ""))[1]
    return float(order) if order else None


def flagged(run: dict, at: str = "0.5") -> bool:
    order = run.get("decision", ("", ""))[1]
    return order != "" and Decimal(order) >= Decimal(at)


def case_score(runs: Runs) -> float:
    """The mean of the case's risks over its runs that have one; 0.5 when none has (rule 5.4)."""
    risks = [r for r in map(risk_of, runs) if r is not None]
    return sum(risks) / len(risks) if risks else 0.5


def rank_estimates(fakes: Sequence[Runs], genuine: Sequence[Runs], *seed_names: str) -> dict[str, Estimate]:
    """AUC and detection at each false-flag rate, with stratified percentile bootstrap intervals."""
    if not fakes or not genuine:
        return {}
    s = [case_score(c) for c in fakes] + [case_score(c) for c in genuine]
    y = [1] * len(fakes) + [0] * len(genuine)
    got = rank_bootstrap(y, s, derive_seed("ra-bench", *seed_names), RESAMPLES, RATES)["metrics"]
    n = len(s)
    out = {"auc": Estimate(got["auc"]["estimate"], got["auc"]["low"], got["auc"]["high"], n)}
    for a in RATES:
        row = got[f"detection_at_{a:g}"]
        out[f"det_{a:g}"] = Estimate(row["estimate"], row["low"], row["high"], n)
    return out


def line_f1(fakes: Sequence[Runs], genuine: Sequence[Runs], *seed_names: str) -> Estimate:
    """Micro line-item F1 over documents (each case's mean tp, fp, fn), stratified bootstrap."""
    def counts(cases: Sequence[Runs]) -> np.ndarray:
        out = np.zeros((len(cases), 3))
        for k, runs in enumerate(cases):
            rows = [tuple(int(x) for x in r["line_items"][1].split(" ")) for r in runs if "line_items" in r]
            if rows:
                out[k] = np.mean(rows, axis=0)
        return out

    groups = [g for g in (counts(fakes), counts(genuine)) if len(g)]
    if not groups:
        return Estimate(None, n=0)
    total = sum(g.sum(axis=0) for g in groups)

    def f1(c: np.ndarray) -> np.ndarray:
        den = 2 * c[..., 0] + c[..., 1] + c[..., 2]
        return np.where(den > 0, 2 * c[..., 0] / np.where(den > 0, den, 1), np.nan)

    w = CountMatrix(derive_seed("ra-bench", *seed_names), [len(g) for g in groups], RESAMPLES)
    draws = np.concatenate([f1(sum(c @ g for c, g in zip(chunk, groups))) for chunk in w.chunks()])
    ci = interval(draws)
    return Estimate(float(f1(total)), float(ci[0, 0]), float(ci[1, 0]), sum(len(g) for g in groups))


def ece(runs: Sequence[tuple[float, bool]]) -> float | None:
    """Expected calibration error, 10 equal-width bins, bin = min(floor(10 p), 9), weighted by run count."""
    if not runs:
        return None
    conf = np.zeros(10)
    hits = np.zeros(10)
    for p, fake in runs:
        b = min(int(np.floor(10 * p)), 9)
        conf[b] += p
        hits[b] += fake
    return float(np.abs(hits - conf).sum() / len(runs))


def expected_cost(ffr: float, det: float, p: float = 0.01, c_miss: float = 100.0, c_review: float = 17.0) -> float:
    """Cost per 1,000 receipts: 1000 x ((1 - p) x FFR x C_review + p x (1 - DET) x C_miss)."""
    return 1000 * ((1 - p) * ffr * c_review + p * (1 - det) * c_miss)


def consistent_decision(runs: Runs) -> bool:
    return len({flagged(r) for r in runs}) == 1


def consistent_total(runs: Runs) -> bool:
    totals = [r["field:total"][1] for r in runs]
    if all(t == "" for t in totals):
        return True
    if any(t == "" for t in totals):
        return False
    values = [Decimal(t) for t in totals]
    return max(values) - min(values) <= Decimal("0.01")
