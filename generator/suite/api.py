"""The suite interface: what a benchmark plugs into Tally, importable from one module.

A suite is a subclass of `Suite` with its declarations filled in and its abstract methods written,
exposed as an instance named in the `tally.suites` entry point group (or found in a project's plugin
folder, see `generator/suite/plugins.py`). Everything generic (rescore, the agreement gate, statistics,
the site, the harness) reads a suite only through this interface.

`Suite` plays three roles, each declared with its hooks, their signatures and when they are called
in generator/suite/hooks.py: `Rules` (reading a reply, scoring, figures), `Pages` (what the site
shows) and `Harness` (running models, imports, the suite's own commands). The data types a suite
declares with (metrics, `ScorerB`, `PageBudget`, `ReportTable` ...) are in generator/suite/types.py,
and what `report_tables` is given (`ScoredRuns`) in generator/suite/report.py; all are importable
from here.
"""

from __future__ import annotations

from .hooks import HOOKS, Harness, Pages, Rules, implements, retired_members
from .report import InterfaceChange, ReportItem, ReportRun, RunInfo, ScoredRuns
from .types import (
    ITEMS,
    AnyMetric,
    Better,
    DatasetMean,
    Estimate,
    JsonObject,
    Metric,
    PageBudget,
    Replicates,
    ReportCell,
    ReportChart,
    ReportTable,
    ScorerB,
    Terms,
    VectorCase,
    expected_row,
    f1,
    macro,
    macro_column,
    mean,
    ratio,
    total,
)

__all__ = ["HOOKS", "ITEMS", "AnyMetric", "Better", "DatasetMean", "Estimate", "Harness", "InterfaceChange",
           "JsonObject", "Metric", "PageBudget", "Pages", "Replicates", "ReportCell", "ReportChart", "ReportItem",
           "ReportRun", "ReportTable", "Rules", "RunInfo", "ScoredRuns", "ScorerB", "Suite", "Terms", "VectorCase",
           "case_rows", "declaration_notes", "expected_row", "declaration_problems", "f1", "implements", "macro", "macro_column",
           "mean", "ratio", "total"]


class Suite(Rules, Pages, Harness):
    """A benchmark: its rules, its pages and its harness (generator/suite/hooks.py declares every
    member). Subclasses set every declaration without a default and write the abstract methods."""


def case_rows(expected: tuple[tuple[object, ...], ...], rows: list[tuple[object, ...]]) -> tuple[tuple[object, ...], ...]:
    """Scorer rows (unit, verdict, order, counts) in the shape of a case's expected rows: the order and
    the counts kept for the rows whose expectation fixes them."""
    return tuple(row[:len(expected[i]) if i < len(expected) and len(expected[i]) > 2 else 2]
                 for i, row in enumerate(rows))


def declaration_problems(suite: object, files: bool = False) -> list[str]:
    """What a suite object lacks or declares wrongly (empty when it is usable); with `files`, also the
    files it names that are missing (its scorer B scripts and shared cases)."""
    if not isinstance(suite, Suite):
        return [f"is a {type(suite).__name__}, not an instance of generator.suite_api.Suite"]
    problems = []
    for attr, kind in (("name", str), ("answer_what", str), ("figures", tuple), ("metrics", tuple),
                       ("headline", str), ("answer_caption", str), ("answer_columns", tuple),
                       ("scorer_b", ScorerB)):
        if not isinstance(getattr(suite, attr, None), kind):
            problems.append(f"declares no {attr} (a {kind.__name__})")
    if problems:
        return problems
    from ..inputs.ids import id_problem

    if (p := id_problem(suite.name, "suite name")) is not None:
        problems.append(p)
    names = [m.name for m in suite.metrics]
    if len(set(names)) != len(names):
        problems.append("metric names repeat")
    if suite.headline not in names:
        problems.append(f"the headline {suite.headline!r} is not one of its metrics")
    known = set(suite.figures)
    for m in suite.metrics:
        if isinstance(m, DatasetMean):
            problems += [f"metric {m.name}: weighs {w!r}, which is not a ratio metric" for w, _ in m.weights
                         if not any(isinstance(x, Metric) and x.name == w for x in suite.metrics)]
            continue
        for fig, _ in m.num + (m.den or ()):
            base = fig.split("/")[0].removesuffix(">0") if m.macro else fig
            if base not in known and fig != ITEMS:
                problems.append(f"metric {m.name}: {fig!r} is not one of its figures")
    counts = getattr(suite, "counts", ())
    if not (isinstance(counts, tuple) and all(isinstance(c, str) and c for c in counts)):
        problems.append("counts must be a tuple of the counts' names (texts)")
    if getattr(suite, "order_label", None) is None and not counts and not getattr(suite, "points_shown", True):
        problems.append("item pages would show no figure of a row: declare an order_label, counts or points_shown")
    for path in suite.scorer_b.scripts if files else ():
        if not path.is_file():
            problems.append(f"scorer B script {path} not found")
    if files and suite.vectors is not None and not suite.vectors.is_file():
        problems.append(f"shared case file {suite.vectors} not found")
    return problems


def declaration_notes(suite: object) -> list[str]:
    """What a usable suite still declares that the interface no longer reads, each with what to do
    (printed by `tally suite check`; the suite works as it is)."""
    return retired_members(suite)
