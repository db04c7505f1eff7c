"""The suite interface: what a benchmark plugs into Tally, declared in one place.

A suite is a subclass of `Suite` with its declarations filled in and its abstract methods written,
exposed as an instance named in the `tally.suites` entry point group (or found in a project's plugin
folder, see `generator/plugins.py`). Everything generic (rescore, the agreement gate, statistics,
the site, the harness) reads a suite only through this interface.

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

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .content import Item
    from .parse.response import Outcome
    from .pipeline import ScoredSuite
    from .prompts import Template
    from .score.verdicts import Verdict

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


@dataclass(frozen=True)
class VectorCase:
    """One shared case: an item (as one line of an item file), a stored response record and the
    verdict rows both scorers must give: (unit, verdict), or (unit, verdict, order) when the case also
    fixes the rows' `order` (the counts or figures a suite carries there)."""

    id: str
    item: JsonObject
    record: JsonObject
    expected: tuple[tuple[str, ...], ...]


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


Replicates = Literal["mean", "pooled"]


class Suite(ABC):
    """A benchmark's rules. Subclasses set every declaration below and write the abstract methods."""

    name: str  # the plugin's name; content/suites/<suite>/suite.toml names it as `scorer`
    answer_what: str  # what a readable answer is ("complete JSON object"), for verdict reasons
    figures: tuple[str, ...]  # per-item figures, in the order item_figures returns them
    metrics: tuple[AnyMetric, ...]
    headline: str  # the name of one of the metrics
    answer_caption: str
    answer_columns: tuple[str, ...]
    scorer_b: ScorerB
    unit_label: str = "Unit"  # what one verdict row is about ("Field", "Label or pair")
    order_label: str = "Order"  # what the rows' `order` holds, as a column heading (LongListBench: its counts)
    replicates: Replicates = "mean"  # how replicate runs of one model, provider and round combine
    budget: PageBudget = PageBudget()
    vectors: Path | None = None  # the shared case file, read by `vector_cases`
    needs_locale: bool = False  # items must carry document.locale
    # `tally run` plays each item as an episode of tool calls through this environment (a module or
    # object with TOOL_DEFINITIONS, tools_sha256() and the desk's answers: generator/harness/agent_loop.py)
    tool_environment: object | None = None
    # "module:callable" making what the local simulation server (`tally provider serve`) answers for this
    # suite instead of the simulated document readers: called with (items, messages_of, seed, faults),
    # it returns an object with `providers()`, `reply(provider, body, repeat, attempt)` and `seen`
    # (generator/harness/server.py, `Simulation`). Imported only when the server starts.
    local_simulation: str | None = None

    # ---------------------------------------------------------------- scoring (scorer A)

    @abstractmethod
    def extract_answer(self, content: str) -> object | None:
        """The answer in a message's content, or None when there is no readable one."""

    @abstractmethod
    def parse_item(self, raw: JsonObject) -> tuple[object | None, list[str]]:
        """Validate an item's checked answer: (spec for `score`, problems)."""

    @abstractmethod
    def score(self, item: Item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
        """Verdict rows for one response (one per unit, in a fixed order)."""

    @abstractmethod
    def item_figures(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
        """Per-item figures of one response, in the order of `figures`."""

    # ---------------------------------------------------------------- pages

    @abstractmethod
    def answer_rows(self, raw: JsonObject) -> list[tuple[str, ...]]:
        """The item's checked answers as table rows (columns: `answer_columns`)."""

    def answer_value(self, answer: object, unit: str) -> str:
        """The model's value for one unit, shown beside a disagreement of the scorers."""
        if isinstance(answer, Mapping):
            return "<absent>" if unit not in answer else str(answer[unit])[:200]
        return "<no answer object>"

    def answer_values(self, answer: object, units: Iterable[str]) -> tuple[str, ...]:
        """`answer_value` of each unit (in the order given): a suite may answer them all at once, faster;
        the values must be the same."""
        return tuple(self.answer_value(answer, unit) for unit in units)

    def report_tables(self, scored: ScoredSuite) -> list[ReportTable]:
        """Tables of the suite's own analyses, computed from the scored runs (per-item figures; verdict
        rows and calls, each read by a call: `r.verdicts()`, `r.rows_of(item)`, `r.calls()`, from the
        run's artifact: generator/run_score.py); deterministic. Default: none. Everything a figure or
        a table needs must come from the verdict rows, which both scorers produce and the gate compares."""
        return []

    # ---------------------------------------------------------------- harness (optional)

    def messages(self, item: JsonObject, reference_date: str, template: Template) -> list[JsonObject]:
        """The chat messages of a request for one item (`tally run`). Default: the template's
        system text, and its user text with {document} replaced by the item's document text."""
        text = item.get("document", {}).get("text", "")
        return [{"role": "system", "content": template.system.strip()},
                {"role": "user", "content": template.user.strip().replace("{document}", str(text))}]

    def prepare_page(self, data: bytes) -> bytes:
        """A page image as sent to a model (`tally run --input image` or `text+image`), from the bytes of
        the item's checked page file: the suite's file preparation (the stored request records the
        SHA-256 of the bytes sent). Default: the page as it is."""
        return data

    def import_line(self, line: JsonObject, model: str) -> JsonObject:
        """`tally import`: one line of a file stored by another harness, as a Batch API output line
        ({"custom_id", "response": {"status_code", "body"}, "error"}). Default: the line unchanged."""
        return line

    # ---------------------------------------------------------------- the suite's own commands (optional)

    def sealed_order_kept(self, unit: str) -> bool | None:
        """Sealing (generator/sealed_record.py): whether a private verdict row's `order` for `unit` is the
        model's own figure or a comparison result, kept in the sealed record (True), or may quote the
        answer key and is blanked (False). None, the default: the suite does not say, and its sealed
        rows show their positions only, with no `order`."""
        return None

    def commands(self) -> object | None:
        """The suite's own command group (a click.Group), run as `tally <suite name> ...`: what a
        benchmark's seed publishes as its own command line (its generator, its baselines). Import
        click and the heavy modules inside this method: it is called only when such a command runs.
        Default: none."""
        return None

    # ---------------------------------------------------------------- shared cases

    def vector_cases(self) -> list[VectorCase]:
        """The suite's shared cases (both scorers must give the expected rows). Default: the file at
        `vectors`, a JSON object {"cases": [{"id", "item", "record", "expected": [[unit, verdict]]}]};
        an expected row may be [unit, verdict, order] to fix the row's order too."""
        if self.vectors is None:
            return []
        import json

        doc = json.loads(self.vectors.read_text(encoding="utf-8"))
        return [VectorCase(c["id"], c["item"], c["record"], tuple(tuple(row) for row in c["expected"]))
                for c in doc["cases"]]


def case_rows(expected: tuple[tuple[str, ...], ...], rows: list[tuple[str, str, str]]) -> tuple[tuple[str, ...], ...]:
    """Scorer rows (unit, verdict, order) in the shape of a case's expected rows: the order kept for the
    rows whose expectation fixes it."""
    return tuple(row if i < len(expected) and len(expected[i]) == 3 else row[:2] for i, row in enumerate(rows))


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
    from .ids import id_problem

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
    for path in suite.scorer_b.scripts if files else ():
        if not path.is_file():
            problems.append(f"scorer B script {path} not found")
    if files and suite.vectors is not None and not suite.vectors.is_file():
        problems.append(f"shared case file {suite.vectors} not found")
    return problems
