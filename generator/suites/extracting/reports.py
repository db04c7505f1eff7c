"""The suite's own analysis: list order, reported separately (the seed: "Lists are compared as sets of
items; order is reported separately"). From the verdict rows only: a list field read right as a set
carries `order` "same" or "different" (the model's list in the document's order, or not)."""

from __future__ import annotations

from ...stats.wilson import wilson
from ...suite_api import Estimate, ReportTable

ORDERS = ("same", "different")


def list_order_table(scored) -> ReportTable:
    """Per run: the list fields read right as sets, how many of them keep the document's order, and that
    share with its Wilson 95% interval (every response: both halves, every repeat)."""
    rows = []
    for r in scored.runs:
        same = n = 0
        for v in r.verdicts().rows():
            if v.order in ORDERS:
                n += 1
                same += v.order == "same"
        ci = wilson(same, n)
        rows.append((r.run.id + (" (simulated)" if r.run.simulated else ""), n, same,
                     Estimate(same / n if n else None, ci[0] if ci else None, ci[1] if ci else None, n)))
    return ReportTable("list-order", "List order, reported separately",
                       ("Run", "Lists right as sets", "In the document's order", "Share in order (Wilson 95%)"),
                       tuple(rows), "A list is scored as a set of items (its verdict ignores order); this table "
                       "shows how often a list read right also keeps the order the document lists them in. "
                       "Every response of both halves, every repeat; not part of any headline.", scale=100.0)
