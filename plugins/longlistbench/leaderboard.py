"""LongListBench's own leaderboard (rule page, section 6): each run's four figures on that run alone,
then the arithmetic mean and the sample standard deviation over the replicate runs of one model,
provider and round, as LongListBench's README reports them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from generator.suite_api import ReportTable

if TYPE_CHECKING:
    from generator.suite_api import ScoredRuns, Suite

NOTE = ("LongListBench's leaderboard statistic: each run's figures on that run alone, then the arithmetic mean "
        "over the replicate runs and their sample standard deviation (divisor n - 1), as its README reports them. "
        "Percentages are in points; complete documents are counts. The cost is LongListBench's own measurement "
        "(API-equivalent USD from its cost_measurements), not Tally's price x tokens; - where none was published. "
        "Data and runs: LongListBench by Kay.ai, MIT licence.")


def run_figures(figures: Sequence[str], means: np.ndarray) -> tuple[float, int, float, float, int]:
    """(exact-record recall, complete documents, field micro-F1, field macro-F1, documents) of one run."""
    covered = means[~np.isnan(means).any(axis=1)]
    col = {name: covered[:, i] for i, name in enumerate(figures)}
    exact, gold = float(col["exact"].sum()), float(col["gold_records"].sum())
    found, gp, pp = float(col["found"].sum()), float(col["gold_pairs"].sum()), float(col["pred_pairs"].sum())
    n = len(covered)
    return (exact / gold if gold else 0.0, int(col["complete"].sum()),
            2 * found / (gp + pp) if gp + pp else 0.0, float(col["f1"].sum()) / n if n else 0.0, n)


def mean_sd(values: Sequence[float]) -> tuple[float, float | None]:
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, None
    return m, math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def _cell(values: Sequence[float], scale: float, digits: int, unit: str) -> str:
    m, sd = mean_sd(values)
    if sd is None:
        return f"{m * scale:.{digits}f}{unit}"
    return f"{m * scale:.{digits}f}{unit} ± {sd * scale:.{digits}f}{' pp' if unit == '%' else ''}"


def leaderboard_table(suite: Suite, scored: ScoredRuns) -> ReportTable:
    groups: dict[tuple[str, str, str, str], list] = {}
    for r in scored.runs:
        key = (r.run.model, r.run.provider, str(r.run.meta.get("round", "")), r.run.input)
        cost = (r.run.meta.get("measured_cost") or {}).get("usd")
        groups.setdefault(key, []).append((run_figures(suite.figures, r.means()), cost))
    rows = []
    for (model, provider, round_, kind), runs in sorted(groups.items()):
        figs = [f for f, _ in runs]
        costs = [float(c) for _, c in runs if c is not None]
        docs = max(f[4] for f in figs)
        rows.append((model, provider, round_ or "-", kind, len(runs), docs,
                     _cell([f[0] for f in figs], 100, 1, "%"),
                     _cell([float(f[1]) for f in figs], 1, 1, "") + f" / {docs}",
                     _cell([f[2] for f in figs], 100, 1, "%"),
                     _cell([f[3] for f in figs], 100, 1, "%"),
                     _cell(costs, 1, 2, "") if len(costs) == len(runs) else "-"))
    return ReportTable("llb-leaderboard", "LongListBench's leaderboard (replicate mean ± sample s.d.)",
                       ("Model", "Provider", "Round", "Input", "Runs", "Documents", "Exact-record recall",
                        "Complete documents", "Field micro-F1", "Field macro-F1",
                        "Measured cost of the whole run (USD)"),
                       tuple(rows), note=NOTE)
