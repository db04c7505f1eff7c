"""One module per suite scorer. A scorer module provides:

- `extract_answer(content) -> object | None` and `ANSWER_WHAT`: the answer in a message, if any;
- `parse_spec(raw_item) -> (spec, problems)`: validate and convert the item's checked answer;
- `score(item, outcome, run, repeat) -> list[Verdict]`: verdict rows for one response;
- `FIGURES` and `figures(item, verdicts) -> tuple`: per-item sufficient statistics;
- `metrics(sums, n_items) -> dict`: ratio metrics from sums of per-item figures;
- `HEADLINE`, `HEADLINE_TITLE` and `headline(per_dataset_metrics, overall)`: the headline metric
  (how datasets combine) and its name for readers; `METRIC_LABELS`: names of the other metrics;
- `ANSWER_CAPTION`, `ANSWER_COLUMNS` and `answer_rows(raw_item)`: the checked answers as a table
  for item pages;
- `REPORT_COLUMNS`: (metric, heading, scale) for the terminal report;
- `LOWER_IS_BETTER` (metrics where less is better) and optionally `NOT_RANKED` (metrics that get
  no pairwise calls) for the statistics engine.
"""

from __future__ import annotations

import importlib
from types import ModuleType

SCORERS = ("extracting", "aubas")


def scorer_module(name: str) -> ModuleType:
    if name not in SCORERS:
        raise KeyError(f"unknown scorer {name!r}; known: {', '.join(SCORERS)}")
    return importlib.import_module(f"{__name__}.{name}")
