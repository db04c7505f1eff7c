"""CortifyBench's own analysis: recall per rule family and per pattern, by version, for every run (the
seed's reading: single-invoice checks against matching and aggregation across the dataset). Computed
from the per-item figures, which come from the verdict rows both scorers give."""

from __future__ import annotations

import numpy as np

from ...suite_api import ReportTable
from .patterns import FAMILIES, PATTERNS

VERSIONS = ("v0", "v1", "v2")


def _recall(means: np.ndarray, names: list[str], pos: np.ndarray, key: str) -> float | None:
    found, true = means[pos, names.index(f"found_{key}")], means[pos, names.index(f"true_{key}")]
    ok = ~np.isnan(true)
    total = float(true[ok].sum())
    return None if total == 0 else float(found[ok].sum()) / total


def recall_tables(scored) -> list[ReportTable]:  # type: ignore[no-untyped-def]
    names = list(scored.figures)
    datasets = np.array([i.dataset for i in scored.items])
    fam_rows, pat_rows = [], []
    for r in scored.runs:
        means = r.means()
        label = r.run.id + (" (simulated)" if r.run.simulated else "")
        for v in VERSIONS:
            pos = np.flatnonzero(datasets == v)
            if len(pos):
                fam_rows.append((label, v) + tuple(_recall(means, names, pos, f) for f in FAMILIES))
        pos = np.arange(len(scored.items))
        pat_rows.append((label,) + tuple(_recall(means, names, pos, p) for p in PATTERNS))
    return [
        ReportTable("recall-by-family", "Recall per rule family and version",
                    ("Run", "Version", "documento (one invoice)", "cruce (matching)", "agregacion (weekly, history)"),
                    tuple(fam_rows), note="Found true findings / true findings of each family, all items of the "
                    "version; a blank cell: no such finding. Families as in the audit manual.", scale=100),
        ReportTable("recall-by-pattern", "Recall per pattern (all versions)", ("Run",) + tuple(PATTERNS),
                    tuple(pat_rows), note="Found / true findings of each pattern over every item.", scale=100),
    ]
