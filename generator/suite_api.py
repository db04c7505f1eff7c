"""The suite interface's stable import path: `from generator.suite_api import Suite, ...`.

Plugins (the built-in suites, third-party packages, a project's plugin folders) import the interface
from here; it lives in generator/suite/api.py and this module re-exports all of it, so a suite written
against it keeps working when the package's layout changes.
"""

from .suite.api import (
    HOOKS,
    ITEMS,
    AnyMetric,
    Better,
    DatasetMean,
    Estimate,
    Harness,
    InterfaceChange,
    JsonObject,
    Metric,
    PageBudget,
    Pages,
    Replicates,
    ReportCell,
    ReportChart,
    ReportItem,
    ReportRun,
    ReportTable,
    Rules,
    RunInfo,
    ScoredRuns,
    ScorerB,
    Suite,
    Terms,
    VectorCase,
    case_rows,
    declaration_notes,
    declaration_problems,
    expected_row,
    f1,
    implements,
    macro,
    macro_column,
    mean,
    ratio,
    total,
)

__all__ = [
    "HOOKS", "ITEMS", "AnyMetric", "Better", "DatasetMean", "Estimate", "Harness", "InterfaceChange",
    "JsonObject", "Metric", "PageBudget", "Pages", "Replicates", "ReportCell", "ReportChart", "ReportItem",
    "ReportRun", "ReportTable", "Rules", "RunInfo", "ScoredRuns", "ScorerB", "Suite", "Terms", "VectorCase",
    "case_rows", "declaration_notes", "expected_row", "declaration_problems", "f1", "implements", "macro", "macro_column",
    "mean", "ratio", "total",
]
