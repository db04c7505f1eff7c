"""What a suite's `report_tables` hook is given: a small public view of its scored runs
(`ScoredRuns`), not the pipeline's own types, so the pipeline can change without breaking plugins.

Every bulky part of a run is read from its artifact by an explicit call (`verdicts()`, `rows_of(item)`,
`calls()`, `means()`), at the place it is needed. A plugin written when the hook was handed the
pipeline's types keeps working as long as it reads only what is here; reading anything else stops
with one message naming what to read instead (`InterfaceChange`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

from ..errors import TallyError

if TYPE_CHECKING:
    from ..inputs.content import Item
    from ..inputs.results import Run
    from ..pipeline.artifact import Call
    from ..pipeline.run_score import RunScore
    from ..pipeline.stages import ScoredSuite
    from ..score.verdicts import Verdict, VerdictTable

T = TypeVar("T")


class InterfaceChange(TallyError, AttributeError):
    """A suite plugin read a part of the report view that is not in it (it was the pipeline's own
    type when the plugin was written): the message names what to read instead."""


def _missing(kind: str, name: str, offered: str, hints: Mapping[str, str]) -> InterfaceChange:
    hint = hints.get(name)
    return InterfaceChange(
        f"a suite's report_tables read {kind}.{name}, which is not part of generator.suite_api.{kind} "
        f"(it offers {offered})" + (f": {hint}" if hint else "") + " (docs/writing-a-suite.md, report_tables)")


@dataclass(frozen=True)
class RunInfo:
    """A run's description (its run.json as loaded): who answered, how, and its metadata."""

    id: str
    suite: str
    model: str
    provider: str
    hosting: str
    simulated: bool
    half: str
    input: str  # text | image | text+image | pdf
    meta: Mapping[str, Any]  # run.json as stored

    def __getattr__(self, name: str) -> Any:
        raise _missing("RunInfo", name, "id, suite, model, provider, hosting, simulated, half, input, meta",
                       {"responses": "stored responses are not handed to plugins; read the verdict rows"})


@dataclass(frozen=True)
class ReportItem:
    """One item of the suite: its id, half, dataset, strata and the checked answer as the suite's
    `parse_item` returned it (`spec`)."""

    id: str
    dataset: str
    half: str
    strata: Mapping[str, str]
    spec: object

    def __getattr__(self, name: str) -> Any:
        raise _missing("ReportItem", name, "id, dataset, half, strata, spec",
                       {"document": "keep what a table needs in the item's checked answer (spec)",
                        "line": "keep what a table needs in the item's checked answer (spec)"})


class _Part(Generic[T]):
    """A part of a run, read from its artifact when called: `r.verdicts()`. Used as the attribute it
    was before runs were artifacts (`r.verdicts.rows()`, `len(r.calls)`), it says to call it."""

    __slots__ = ("_name", "_read")

    def __init__(self, name: str, read: Callable[[], T]) -> None:
        self._name, self._read = name, read

    def __call__(self) -> T:
        return self._read()

    def _told(self) -> InterfaceChange:
        return InterfaceChange(f"a suite's report_tables used ReportRun.{self._name} as an attribute: it is a "
                               f"call now, read from the run's artifact: write r.{self._name}() "
                               "(docs/writing-a-suite.md, report_tables)")

    def __getattr__(self, name: str) -> Any:
        raise self._told()

    def __len__(self) -> int:
        raise self._told()

    def __iter__(self) -> Iterator[Any]:
        raise self._told()

    def __getitem__(self, key: object) -> Any:
        raise self._told()


class ReportRun:
    """One scored run: `run` (its description), its counts of responses, and its parts, each read
    from the run's artifact when called: the verdict rows, one item's rows, the calls, the per-item
    figures."""

    __slots__ = ("_handle", "missing", "repeats", "responses", "run")

    def __init__(self, handle: RunScore) -> None:
        self._handle = handle
        self.run = run_info(handle.run)
        self.responses: int = handle.responses  # stored responses scored
        self.missing: int = handle.missing  # (item, repeat) pairs with no stored response
        self.repeats: np.ndarray = handle.repeats  # per item (in the order of ScoredRuns.items): responses scored

    @property
    def verdicts(self) -> _Part[VerdictTable]:
        """Every verdict row (sorted by item, then repeat), column by column (`item`, `repeat`, `unit`,
        `kind`, `verdict`, `points`, `reason`, `order`); `.rows()` gives them as Verdicts."""
        return _Part("verdicts", self._handle.verdicts)

    @property
    def calls(self) -> _Part[list[Call]]:
        """One tuple per call, sorted by item, then repeat, its fields as the columns of calls.csv
        (generator.calls.CALL_COLUMNS: run, item, repeat, outcome, error, ...)."""
        return _Part("calls", self._handle.calls)

    def rows_of(self, item: str) -> list[Verdict]:
        """The item's verdict rows (every repeat); [] when the run has none."""
        return self._handle.rows_of(item)

    def means(self) -> np.ndarray:
        """Per-item figures averaged over repeats (items x the suite's figures, items in the order of
        `ScoredRuns.items`), NaN where the run has no row."""
        return self._handle.means()

    def __getattr__(self, name: str) -> Any:
        raise _missing("ReportRun", name, "run, responses, missing, repeats, verdicts(), rows_of(item), calls(), means()",
                       {"sums": "means() gives the per-item figures", "summary": "compute from means()",
                        "has_rows": "rows_of(item) is [] when the run has none"})


@dataclass(frozen=True)
class ScoredRuns:
    """The suite's scored runs as `report_tables` sees them: its items (in the order of the rows of
    each run's `means()`), its runs (sorted by id), its figures and suite.toml's comparison rule."""

    suite: str  # the suite's name in content/suites/
    items: tuple[ReportItem, ...]
    runs: tuple[ReportRun, ...]
    figures: tuple[str, ...]
    comparison: str  # suite.toml's `comparison` (holm, max-t or overlap)

    def __getattr__(self, name: str) -> Any:
        raise _missing("ScoredRuns", name, "suite, items, runs, figures, comparison",
                       {"plugin": "the suite is `self` in report_tables; its figures are scored.figures",
                        "agreement": "the scorers' agreement is not an input of a report table",
                        "summary": "compute from each run's means()"})


def run_info(run: Run) -> RunInfo:
    return RunInfo(run.id, run.suite, run.model, run.provider, run.hosting, run.simulated, run.half, run.input,
                   run.meta)


def report_item(item: Item) -> ReportItem:
    return ReportItem(item.id, item.dataset, item.half, item.strata, item.spec)


def scored_runs(scored: ScoredSuite) -> ScoredRuns:
    """The public view of a scored suite, as its `report_tables` hook is given it."""
    return ScoredRuns(scored.suite.name, tuple(report_item(i) for i in scored.items),
                      tuple(ReportRun(r) for r in scored.runs), tuple(scored.plugin.figures),
                      scored.suite.comparison)
