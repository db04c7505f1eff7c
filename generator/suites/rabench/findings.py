"""RA-Bench's findings rule (rule page 5.9) and the assembly of its tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...numbers import estimate
from ...suite_api import Estimate, ReportTable
from . import tables as tb

if TYPE_CHECKING:
    from ...suite_api import ScoredRuns

# (task, table id, column, higher is better, has an interval)
HEADLINES = (("extraction", "extraction", "All fields right", True, True),
             ("extraction", "extraction", "Line-item F1", True, True),
             ("checks", "checks", "Recall", True, True),
             ("authenticity", "authenticity-rank", "ROC AUC", True, True),
             ("authenticity", "authenticity-rank", "Detection at 5%", True, True),
             ("duplicates", "duplicates", "Recall", True, True),
             ("decisions", "decisions", "Consistency", True, True),
             ("decisions", "decisions", "Calibration error (ECE)", False, False),
             ("evidence", "evidence", "Fakes caught with proof", True, True),
             ("operations", "operations-rates", "Errors", False, True),
             ("operations", "ops", "latency p50", False, False),
             ("operations", "ops", "cost per check", False, False))


def call(a: Estimate, b: Estimate, higher: bool, interval: bool) -> str:
    """'win', 'loss' or 'tie' for a against b under the benchmark's rule."""
    if a.value is None or b.value is None or (a.n or 0) < tb.MIN_N or (b.n or 0) < tb.MIN_N:
        return "tie"
    if interval:
        if a.low is None or b.high is None or b.low is None or a.high is None:
            return "tie"
        better, worse = (a.low > b.high, a.high < b.low) if higher else (a.high < b.low, a.low > b.high)
    else:
        lo, hi = sorted((a.value, b.value))
        apart = hi >= 1.2 * lo and hi > 0
        better, worse = (apart and (a.value > b.value) == higher), (apart and (a.value > b.value) != higher)
    return "win" if better else "loss" if worse else "tie"


def _cell(tables: dict[str, ReportTable], table: str, column: str, target: str) -> Estimate | str | None:
    t = tables[table]
    k = t.columns.index(column)
    for row in t.rows:
        if row[0] == target and (len(row) < 2 or row[1] in ("all", None) or "Stratum" not in t.columns):
            v = row[k]
            return v if isinstance(v, (Estimate, str)) else Estimate(v)
    return None


UNITS = {"latency p50": "ms", "cost per check": "USD"}  # the operations table's figures (its title says so)


def _show(v: Estimate | str | None, scale: float, unit: str = "") -> str:
    """A value as the site shows numbers (generator.numbers): a rate scaled to percent as "%"."""
    if not isinstance(v, Estimate) or v.value is None:
        return str(v) if isinstance(v, str) else "\u2013"
    unit = unit or ("%" if scale == 100 else "")
    s = 1.0 if unit in ("ms", "USD") else scale
    return estimate(v.value * s, None if v.low is None else v.low * s, None if v.high is None else v.high * s,
                    unit, n=v.n)


# the project's pairwise correction, by the suite's `comparison` setting (generator/stats/pairwise.py)
CORRECTIONS = {"holm": "Holm's step-down correction on the declared metrics",
               "max-t": "single-step bootstrap max-T on the declared metrics",
               "overlap": "the overlap rule on the declared metrics"}


def correction_name(comparison: str) -> str:
    """The pairwise correction the statistics use for a suite's `comparison` setting, as the site names it."""
    return CORRECTIONS.get(comparison, f"the suite's rule {comparison!r}")


def not_compared(a, b, column: str) -> str | None:
    """Why a latency or cost row is not compared (rule page 5.9), or None: a self-hosted run is never
    ranked on speed or cost (the statistics page), and a latency the harness did not measure is never
    compared."""
    hosted_by_self = [t.id for t in (a, b) if t.hosting == "self-hosted"]
    if hosted_by_self:
        return f"not compared: {' and '.join(hosted_by_self)} self-hosted (never ranked on speed or cost)"
    if column == "latency p50":
        nominal = [f"{t.id} ({t.latency})" for t in (a, b) if t.latency != "measured"]
        if nominal:
            return f"not compared: latency not measured by the harness: {', '.join(nominal)}"
    return None


def findings(tables: dict[str, ReportTable], targets, ops: dict, comparison: str = "holm") -> ReportTable:
    rows = []
    ours = [t for t in targets if t.kind == "self"]
    baselines = [t for t in targets if t.kind != "self"]
    for a in ours:
        for b in baselines:
            for task, table, column, higher, interval in HEADLINES:
                va: Estimate | str | None
                vb: Estimate | str | None
                if table == "ops":
                    va, vb = (Estimate(ops[x.id][column][0], n=ops[x.id][column][1]) for x in (a, b))
                    scale = 1.0
                else:
                    va, vb = _cell(tables, table, column, a.id), _cell(tables, table, column, b.id)
                    scale = tables[table].scale
                if task not in a.tasks or task not in b.tasks or not isinstance(va, Estimate) \
                        or not isinstance(vb, Estimate):
                    verdict = "not supported by " + ("both" if task not in a.tasks and task not in b.tasks
                                                     else a.id if task not in a.tasks else b.id)
                elif table == "ops" and (why := not_compared(a, b, column)) is not None:
                    verdict = why
                else:
                    verdict = call(va, vb, higher, interval)
                unit = UNITS.get(column, "") if table == "ops" else ""
                rows.append((a.id, b.id, task, column, _show(va, scale, unit), _show(vb, scale, unit), verdict))
    return ReportTable("findings", "Findings: the benchmark's own rule (our targets against each baseline)",
                       ("Ours", "Baseline", "Task", "Headline row", "Ours: value", "Baseline: value", "Call"),
                       tuple(rows), "Stratum all. A win or a loss only when the two 95% intervals don't overlap; "
                       "latency, cost and calibration error (no interval) only at 1.2x; fewer than 10 cases or calls "
                       "on either side is a tie. Latency and cost are not compared for a self-hosted run, nor "
                       "latency for a run whose latency the harness did not measure (run.json target.latency). "
                       "This is RA-Bench's rule, labelled as such: the pairwise calls "
                       f"elsewhere on this page are the project's ({correction_name(comparison)}) and may differ.")


def report_tables(scored: ScoredRuns) -> list[ReportTable]:
    items = scored.items
    targets = [tb.Target(r, items) for r in scored.runs]
    rank, thresholds = tb.authenticity(targets, items)
    decisions, cost = tb.decisions(targets, items)
    ops, ops_rates, ops_values = tb.operations(targets)
    out = [tb.extraction(targets, items), tb.checks(targets, items), rank, thresholds, tb.duplicates(targets, items),
           decisions, cost, tb.evidence(targets, items), ops, ops_rates]
    return [findings({t.id: t for t in out}, targets, ops_values, scored.comparison)] + out
