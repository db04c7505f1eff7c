"""Every hook of the suite interface, declared in one place with its signature and when it is called.

A suite plays three roles, each a class here (`generator.suite_api.Suite` is all three):

- `Rules`: what both scorers implement: reading a reply, scoring it, the per-item figures and the
  metrics over them, the shared cases, what sealing keeps. Called by rescoring and the statistics.
- `Pages`: how the site shows the suite: checked answers as rows, captions and headings, the value
  beside a disagreement, the suite's own report tables, episode views. Called by `tally site build`.
- `Harness`: how models are run on it: the chat messages, the page images sent, tool calling, the
  local simulation server, imports from other harnesses, the suite's own commands. Called by
  `tally run`, `tally import`, `tally provider serve` and the command line.

Declarations (class attributes) are read as they are; a method with a default is optional. Generic
code reads a suite only through the names declared here (tests/test_suite_hooks.py checks it), and
asks whether a suite provides an optional hook with `implements`, never by probing for a name.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .types import JsonObject, PageBudget, Replicates, ReportTable, ScorerB, VectorCase, expected_row

if TYPE_CHECKING:
    from ..harness.agent_loop import Environment
    from ..harness.importer import ImportOutcome
    from ..harness.runner import RunSpec
    from ..inputs.content import Item
    from ..inputs.prompts import Template
    from ..parse.response import Outcome
    from ..score.verdicts import Verdict
    from .report import ScoredRuns
    from .types import AnyMetric


class Rules(ABC):
    """Reading a reply, scoring it and the figures: what scorer A and scorer B both implement."""

    name: str  # the plugin's name; content/suites/<suite>/suite.toml names it as `scorer`
    answer_what: str  # what a readable answer is ("complete JSON object"), for verdict reasons
    figures: tuple[str, ...]  # per-item figures, in the order item_figures returns them
    metrics: tuple[AnyMetric, ...]  # over sums of the figures (generator/suite/types.py)
    headline: str  # the name of one of the metrics
    scorer_b: ScorerB  # the suite's scorer B scripts, run after scorer-js/core.js
    replicates: Replicates = "mean"  # how replicate runs of one model, provider and round combine
    vectors: Path | None = None  # the shared case file, read by `vector_cases`
    # the names of the whole numbers each verdict row carries in `counts` (LongListBench: matched, checked,
    # predicted), in order; none by default. Both scorers give them, the agreement gate and the shared
    # cases compare them, verdicts.csv and item pages show them.
    counts: tuple[str, ...] = ()

    @abstractmethod
    def extract_answer(self, content: str) -> object | None:
        """The answer in a message's content, or None when there is no readable one.
        Called: by `score`'s caller for every stored response with a message (rescoring, checks)."""

    @abstractmethod
    def parse_item(self, raw: JsonObject) -> tuple[object | None, list[str]]:
        """Validate an item's checked answer: (spec for `score`, problems).
        Called: once per item when content/ is loaded (every command that reads items)."""

    @abstractmethod
    def score(self, item: Item, outcome: Outcome, run: str, repeat: int) -> list[Verdict]:
        """Verdict rows for one response (one per unit, in a fixed order).
        Called: by scorer A for every stored response of every run (`tally rescore`, `stats`, `site build`)."""

    @abstractmethod
    def item_figures(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
        """Per-item figures of one response, in the order of `figures`.
        Called: by scorer A after `score`, for every response."""

    def vector_cases(self) -> list[VectorCase]:
        """The suite's shared cases (both scorers must give the expected rows). Default: the file at
        `vectors`, a JSON object {"cases": [{"id", "item", "record", "expected": [[unit, verdict]]}]};
        an expected row may be [unit, verdict, order] to fix the row's order too.
        Called: by `tally suite check`, the fuzz bench and the tests."""
        if self.vectors is None:
            return []
        import json

        doc = json.loads(self.vectors.read_text(encoding="utf-8"))
        return [VectorCase(c["id"], c["item"], c["record"], tuple(map(expected_row, c["expected"])))
                for c in doc["cases"]]

    def sealed_order_kept(self, unit: str) -> bool | None:
        """Whether a private verdict row's `order` for `unit` is the model's own figure or a comparison
        result, kept in the sealed record (True), or may quote the answer key and is blanked (False).
        None, the default: the suite does not say, and its sealed rows show their positions only.
        Called: by `tally results seal` and `tally run` for every private verdict row."""
        return None


class Pages(ABC):
    """How the site shows the suite's items, answers, disagreements and own analyses."""

    answer_caption: str  # the caption of an item page's table of checked answers
    answer_columns: tuple[str, ...]  # its column headings (the rows: `answer_rows`)
    unit_label: str = "Unit"  # what one verdict row is about ("Field", "Label or pair")
    order_label: str | None = "Order"  # what the rows' `order` holds, as a column heading; None: rows hold none
    points_shown: bool = True  # whether item pages show each row's points (False where the figures are counts)
    budget: PageBudget = PageBudget()  # how much an item page embeds

    @abstractmethod
    def answer_rows(self, raw: JsonObject) -> list[tuple[str, ...]]:
        """The item's checked answers as table rows (columns: `answer_columns`).
        Called: by `tally site build` for every public item's page."""

    def answer_value(self, answer: object, unit: str) -> str:
        """The model's value for one unit, shown beside a disagreement of the scorers.
        Called: by the agreement gate for each row where the scorers disagree (through `answer_values`)."""
        if isinstance(answer, Mapping):
            return "<absent>" if unit not in answer else str(answer[unit])[:200]
        return "<no answer object>"

    def answer_values(self, answer: object, units: Iterable[str]) -> tuple[str, ...]:
        """`answer_value` of each unit (in the order given): a suite may answer them all at once, faster;
        the values must be the same. Called: as `answer_value`, once per response."""
        return tuple(self.answer_value(answer, unit) for unit in units)

    def report_tables(self, scored: ScoredRuns) -> list[ReportTable]:
        """Tables of the suite's own analyses, computed from its scored runs (generator/suite/report.py:
        items, and runs whose verdict rows, calls and per-item figures are each read by a call:
        `r.verdicts()`, `r.rows_of(item)`, `r.calls()`, `r.means()`); deterministic. Everything a table
        needs must come from the verdict rows, which both scorers produce and the gate compares.
        Default: none. Called: once per `tally site build`, after the statistics."""
        return []

    def episode_view(self, raw: JsonObject, content: str | None, orders: dict[str, str]) -> JsonObject:
        """For a suite whose answer is an episode: what its case page shows of one stored response
        (`raw`: the item; `content`: the reply's message content, None for a missing response;
        `orders`: unit -> the verdict row's order), a dict with `score`, `dimensions`, `penalties`,
        `timeline`, `timeline_more`, `provenance`, `readable`, `ended`, `decision`. Optional: a suite
        that implements it gets case pages (`suites/<suite>/episodes/`).
        Called: by `tally site build` for every scored response of every public item."""
        raise NotImplementedError("this suite has no episode pages")


class Harness(ABC):
    """How models are run on the suite and other harnesses' output imported."""

    # `tally run` plays each item as an episode of tool calls through this environment (TOOL_DEFINITIONS,
    # tools_sha256() and the desk's answers: generator/harness/agent_loop.py, `Environment`); None: one call
    tool_environment: Environment | None = None
    # "module:callable" making what the local simulation server (`tally provider serve`) answers for this
    # suite instead of the simulated document readers: called with (items, messages_of, seed, faults),
    # it returns an object with `providers()`, `reply(provider, body, repeat, attempt)` and `seen`
    # (generator/harness/server.py, `Simulation`). Imported only when the server starts.
    local_simulation: str | None = None

    def messages(self, item: JsonObject, reference_date: str, template: Template) -> list[JsonObject]:
        """The chat messages of a request for one item. Default: the template's system text, and its
        user text with {document} replaced by the item's document text.
        Called: by `tally run` and `tally import` (which checks a stored request against it)."""
        text = item.get("document", {}).get("text", "")
        return [{"role": "system", "content": template.system.strip()},
                {"role": "user", "content": template.user.strip().replace("{document}", str(text))}]

    def prepare_page(self, data: bytes) -> bytes:
        """A page image as sent to a model, from the bytes of the item's checked page file: the
        suite's file preparation (the stored request records the SHA-256 of the bytes sent).
        Default: the page as it is. Called: by `tally run --input image` (or `text+image`), per page."""
        return data

    def import_line(self, line: JsonObject, model: str) -> JsonObject:
        """One line of a file stored by another harness, as a Batch API output line
        ({"custom_id", "response": {"status_code", "body"}, "error"}). Default: the line unchanged.
        Called: by `tally import` (Batch API form) for every line."""
        return line

    def import_files(self, spec: RunSpec, files: list[Path], cases_file: Path | None) -> ImportOutcome | None:
        """The suite's own import of its harness's files as a run (with `cases_file`, the operator's
        cases as the suite's items); None leaves the files to the Batch API import. Default: None.
        Called: by `tally import` without --from (or --from batch)."""
        return None

    def commands(self) -> object | None:
        """The suite's own command group (a click.Group), run as `tally <suite name> ...`: what a
        benchmark's seed publishes as its own command line (its generator, its baselines). Import
        click and the heavy modules inside this method. Default: none.
        Called: when `tally` starts with the suite's name as its command."""
        return None


ROLES: tuple[type, ...] = (Rules, Pages, Harness)


def _declared(role: type) -> tuple[str, ...]:
    names = set(getattr(role, "__annotations__", {}))  # the role class's own declarations
    names |= {n for n, v in vars(role).items() if callable(v) and not n.startswith("_")}
    return tuple(sorted(names))


HOOKS: dict[str, type] = {name: role for role in ROLES for name in _declared(role)}  # hook -> its role

# members of the interface as it was, with what became of them (a suite that still sets one is told)
RETIRED: dict[str, str] = {
    "needs_locale": "needs_locale is no longer part of the suite interface (nothing read it): remove it",
}


def implements(suite: object, hook: str) -> bool:
    """Whether `suite` provides the optional hook itself (overrides the role's default)."""
    role = HOOKS[hook]
    return getattr(type(suite), hook, None) is not getattr(role, hook)


def retired_members(suite: object) -> list[str]:
    """What the suite's class still sets that the interface no longer has, each with what to do."""
    return [message for name, message in RETIRED.items()
            if any(name in vars(cls) for cls in type(suite).__mro__ if cls not in ROLES)]
