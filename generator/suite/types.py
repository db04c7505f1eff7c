"""The data types of the suite interface (generator/suite/api.py re-exports them all): metrics and
their helpers, scorer B's scripts, an item page's budget, a shared case, and a report table's parts.

Per-item figures are numbers (counts or values) a suite computes from one response's verdict rows;
metrics are declared over their sums across items, so one bootstrap serves every metric:

- `ratio`: sum(numerator) / sum(denominator) (micro); the denominator may be `ITEMS`, the item count,
  which makes `mean` the mean of a per-item value;
- `f1`: 2 tp / (2 tp + fp + fn) from counts;
- `macro`: the mean over items of a per-item ratio (items whose denominator is 0 left out);
- `total`: a sum, shown as a count;
- `DatasetMean`: a weighted mix of metrics within each dataset, then the datasets' equal-weight mean.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

ITEMS = "items"  # the denominator "number of items"
Better = Literal["higher", "lower", "none"]
Terms = tuple[tuple[str, float], ...]  # a linear combination of per-item figures
JsonObject = dict[str, Any]  # a parsed JSON object (an item, a stored record)


@dataclass(frozen=True)
class Metric:
    """sum(num) / sum(den) over items, or sum(num) alone when `den` is None."""

    name: str
    label: str
    num: Terms
    den: Terms | None
    better: Better = "higher"
    scale: float = 100.0  # shown as value x scale
    unit: str = "%"
    report: str = ""  # heading of its column in the terminal report; "" keeps it out
    macro: bool = False  # num and den are per-item ratio columns (see `macro`)


@dataclass(frozen=True)
class DatasetMean:
    """Within each dataset, the weighted mean of the metrics in `weights` that have a value, times
    `scale`; then the equal-weight mean over the datasets that have a value."""

    name: str
    label: str
    weights: tuple[tuple[str, float], ...]
    times: float = 100.0  # each dataset's mix is multiplied by this
    better: Better = "higher"
    scale: float = 1.0  # shown as value x scale
    unit: str = ""
    report: str = ""


AnyMetric = Metric | DatasetMean


def ratio(name: str, label: str, num: str, den: str, **kw: object) -> Metric:
    return Metric(name, label, ((num, 1.0),), ((den, 1.0),), **kw)  # type: ignore[arg-type]


def mean(name: str, label: str, figure: str, **kw: object) -> Metric:
    """The mean over items of a per-item figure."""
    return ratio(name, label, figure, ITEMS, **kw)


def f1(name: str, label: str, tp: str, fp: str, fn: str, **kw: object) -> Metric:
    return Metric(name, label, ((tp, 2.0),), ((tp, 2.0), (fp, 1.0), (fn, 1.0)), **kw)  # type: ignore[arg-type]


def macro(name: str, label: str, num: str, den: str, **kw: object) -> Metric:
    """The mean over items of num/den, over the items where den > 0."""
    return Metric(name, label, ((macro_column(num, den), 1.0),), ((macro_column(den, den, True), 1.0),),
                  macro=True, **kw)  # type: ignore[arg-type]


def total(name: str, label: str, figure: str, **kw: object) -> Metric:
    kw = {"scale": 1.0, "unit": "", "better": "none"} | kw
    return Metric(name, label, ((figure, 1.0),), None, **kw)  # type: ignore[arg-type]


def macro_column(num: str, den: str, indicator: bool = False) -> str:
    """The name of a derived per-item column: num/den, or the indicator den > 0."""
    return f"{den}>0" if indicator else f"{num}/{den}"


@dataclass(frozen=True)
class ScorerB:
    """The suite's scorer B: classic scripts loaded in order after the shared core
    (`scorer-js/core.js`), which register the suite's scorer under `name`."""

    name: str
    scripts: tuple[Path, ...]


@dataclass(frozen=True)
class PageBudget:
    """How much an item page embeds; beyond it the page shows an excerpt and links the full file."""

    document_chars: int = 20_000
    response_chars: int = 8_000


def expected_row(row: list[object]) -> tuple[object, ...]:
    """A shared case's expected row as written in its file ([unit, verdict], [unit, verdict, order] or
    [unit, verdict, order, [counts]]), with its counts as a tuple, as `case_rows` gives them."""
    return tuple(row[:3]) + (tuple(row[3]),) if len(row) > 3 and isinstance(row[3], list) else tuple(row)


@dataclass(frozen=True)
class VectorCase:
    """One shared case: an item (as one line of an item file), a stored response record and the
    verdict rows both scorers must give: (unit, verdict), (unit, verdict, order) when the case also
    fixes the rows' `order`, or (unit, verdict, order, counts) when it also fixes their counts."""

    id: str
    item: JsonObject
    record: JsonObject
    expected: tuple[tuple[object, ...], ...]


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval (either bound None when there is none) and its n."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int | None = None


ReportCell = str | int | float | Estimate | None


@dataclass(frozen=True)
class ReportChart:
    """A chart of a report table's rows: for each series (the rows sharing the values of the `series`
    columns), column `y` against column `x`, as bars or lines."""

    kind: Literal["bar", "line"]
    x: int  # the column of the x values (text or numbers)
    y: int  # the column of the y values (numbers or estimates, shown x the table's scale)
    series: tuple[int, ...] = ()  # columns naming a series; () is one series
    y_title: str = ""


@dataclass(frozen=True)
class ReportTable:
    """A table a suite computes itself from its scored runs (analyses the declared metrics can't
    express: rank metrics, calibration, cost sweeps, a seed's own comparison rule). Shown on the
    suite's page, in order, and published as CSV and JSON. Floats and estimates are shown as
    value x scale with at most `digits` decimals (generator.numbers.decimals); integers are counts, shown as they are."""

    id: str  # a safe id, unique within the suite: the download's name
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[ReportCell, ...], ...]
    note: str = ""  # how to read it, shown under the title
    scale: float = 1.0
    digits: int = 1
    chart: ReportChart | None = None


Replicates = Literal["mean", "pooled"]  # how replicate runs of one model, provider and round combine
