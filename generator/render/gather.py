"""Phase 1 of the site build: gather and compute everything before a page is written.

Rescore with the agreement gate (scorer B), the statistics engine, the content pages and the
commitments. The site writes nothing here except what `tally rescore` and `tally stats` write
(build/rescore/ and build/stats/).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Disagreement, InputProblem
from ..inputs.content import Item
from ..inputs.results import Run
from ..pipeline import orchestrate
from ..pipeline.cache import Cache
from ..pipeline.orchestrate import SCORING, STATISTICS, Options, Statistics, Targets
from ..pipeline.stages import ScoredSuite
from ..stats.declared import Declared
from ..suite.api import Suite
from .prose import Prose, load_pages
from .report_tables import Ahead, report_tables


class BuildError(InputProblem):
    """The site cannot be built from these inputs (nothing was written to the site folder)."""


@dataclass
class SuiteView:
    result: ScoredSuite
    plugin: Suite
    declared: Declared
    stats: dict
    agreement: dict
    balance: dict | None
    rescore_dir: Path
    stats_path: Path
    public_items: list[Item] = field(default_factory=list)
    reports: list = field(default_factory=list)  # the suite's own tables (Suite.report_tables)
    prereg: object = None  # commit.prereg.PreregStatus of the suite's current version, when preregistered
    audit: dict | None = None  # audit.record.summary: scorer error rates from recorded verdict audits
    labels: dict | None = None  # labels.agreement.summary: label agreement of the suite's labelled documents

    @property
    def suite(self):
        return self.result.suite

    @property
    def runs(self) -> dict[str, Run]:
        return {r.run.id: r.run for r in self.result.runs}

    @functools.cached_property
    def runs_by_id(self) -> dict[str, Run]:
        """`runs`, built once."""
        return self.runs


@dataclass
class SiteData:
    root: Path
    suites: list[SuiteView]
    pages: list[Prose]
    commitments: list[dict]
    build_date: str
    draft: str | None  # None, or the reason every page is marked draft
    simulated: tuple[int, int, int]  # (simulated runs, all runs, runs of real models: neither simulated nor baselines)
    seconds: dict[str, float] = field(default_factory=dict)  # time by stage of gathering
    peak_mb: dict[str, float] = field(default_factory=dict)  # by stage of gathering: peak memory so far
    # build/rescore and build/stats as this build computed them, swapped in once the site is written
    staging: Path | None = None
    warnings: list[str] = field(default_factory=list)
    private_note: str | None = None  # why the private half was not re-checked (a draft, or accepted as published)
    private_accepted: bool = False  # --accept-sealed: published as stored, not a draft

    @property
    def simulated_kinds(self) -> tuple[bool, bool]:
        """(some run is simulated, some run is a real model's): all that every page's banner says, so that a
        run added or removed changes no page but those that show it (the home page gives the counts)."""
        return bool(self.simulated[0]), bool(self.simulated[2])

    @property
    def attributions(self) -> list[list[str]]:
        """[suite title, attribution] of each suite hosting third-party material (its suite.toml says so)."""
        return [[sd.suite.title, sd.suite.attribution] for sd in self.suites if sd.suite.attribution]


def _balance(path: Path) -> dict | None:
    """The suite's balance report, if it has one (a file that can't be read is an input error)."""
    if not path.is_file():
        return None
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise BuildError(f"{path}: not a valid balance report (JSON): {exc}") from None
    if not isinstance(report, dict):
        raise BuildError(f"{path}: a balance report must be a JSON object")
    return report


def _check_page_names(results: list[ScoredSuite]) -> None:
    """Every model and provider gets a page of its own: two names that would share one are an error."""
    from .context import slug

    for what in ("model", "provider"):
        pages: dict[str, str] = {}
        for res in results:
            for r in res.runs:
                name = getattr(r.run, what)
                other = pages.setdefault(slug(name), name)
                if other != name:
                    raise BuildError(f"the {what}s {other!r} and {name!r} would share the page {slug(name)}.html "
                                     f"(results/{res.suite.name}/{r.run.id}/run.json): rename one")


def _differences(results: list[ScoredSuite], shown: int = 5) -> str:
    lines = [f"\n  {r.suite.name} {d['run']} {d['item']} repeat {d['repeat']} {d['unit']}: A {d['scorer_a']}, "
             f"B {d['scorer_b']}" for r in results for d in r.agreement.get("differences", [])]
    return "".join(lines[:shown]) + (f"\n  ... and {len(lines) - shown} more listed" if len(lines) > shown else "")


def draft_reason(agreements: list[dict]) -> str | None:
    statuses = {a.get("status") for a in agreements}
    if "disagree" in statuses:
        return "draft: the scorers disagree"
    if statuses - {"agree"}:
        return "draft: scorer B did not run"
    return None


UNCHECKED = "scorer B has not checked the private half"


def unchecked_private(results: list[ScoredSuite]) -> dict[str, int]:
    """Suite -> its sealed private records scored from their stored verdicts: their full records (in
    private storage) were not here, so neither scorer rescored them (sealed_check.py)."""
    return {res.suite.name: n for res in results if (n := sum(r.sealed for r in res.runs))}


def private_note(unchecked: dict[str, int], accepted: bool) -> str | None:
    """What every page says when the private half was not rescored (a short sentence: the agreement
    page says more): its sealed records are scored from their stored verdicts, or, with
    --accept-sealed, published as stored."""
    if not unchecked:
        return None
    n = f"{sum(unchecked.values()):,}"
    if accepted:
        return f"{n} sealed private records are published from their stored verdicts, not rescored (--accept-sealed)."
    return f"{n} sealed private records are scored from their stored verdicts, not rescored: private storage was not here."


def _with(reason: str | None, more: str) -> str:
    return f"{reason}; {more}" if reason else f"draft: {more}"


def build_date(root: Path, runs: list[Run]) -> str:
    """SOURCE_DATE_EPOCH when set, else the latest date a stored run finished (or started)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc).date().isoformat()
    dates = [str(r.meta.get("finished") or r.meta.get("started"))[:10] for r in runs]
    return max(dates) if dates else "1970-01-01"


def _prereg(root: Path, res: ScoredSuite):
    """The preregistration of the suite's current version, compared with today's files and runs."""
    from ..commit.prereg import STATEMENT, prereg_dir, status

    folder = prereg_dir(root, res.suite.name, res.suite.version)
    return status(root, folder) if (folder / STATEMENT).is_file() else None


def gather(root: Path, draft: bool = False, resamples: int | None = None, jobs: int = 1,
           progress=None, skip_scorer_b: bool = False, cache: Cache | None = None,
           scheduler: str | None = None, accept_sealed: bool = False) -> SiteData:
    """Phase 1: load, score (A and B), statistics and the rescore and statistics outputs (the
    orchestrator, generator/pipeline/orchestrate.py, into a staging folder), then the pages' data.
    `progress(total, label)` as in options.progress_factory (None: quiet). With `cache`, unchanged
    runs and statistics are reused. Sealed private records whose full records are not here make the
    site a draft saying why, unless `accept_sealed` (then every page says they were not re-checked)."""
    options = Options(cache=cache is not None, scheduler=scheduler, jobs=jobs, resamples=resamples,
                      skip_scorer_b=skip_scorer_b, draft=draft, progress=progress)
    if skip_scorer_b and not draft:
        raise BuildError("--skip-scorer-b needs --draft: a site whose verdicts scorer B did not check is a draft")
    (root / "build").mkdir(exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".site-outputs-", dir=root / "build"))
    tables = Ahead(jobs if scheduler is None else 1)  # the suites' own tables, made beside the statistics

    def scored(results: list[ScoredSuite]) -> None:
        _publishable(results, draft)
        tables.start(results)

    try:
        outcome = orchestrate.run(root, options, Targets(staging / "rescore", staging / "stats"), cache=cache,
                                  check=scored)
        clock = time.perf_counter()
        warnings: list[str] = []
        suites = [_view(root, st, staging / "rescore", warnings, tables.take) for st in outcome.statistics]
    except BaseException:  # a refused or failed build leaves no outputs
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        tables.close()
    suites.sort(key=lambda sd: (sd.suite.order, sd.suite.name))  # the flagship first
    seconds = {"gather: load, scorer A and scorer B": outcome.seconds[SCORING],
               "gather: statistics": outcome.seconds[STATISTICS] + time.perf_counter() - clock}
    from ..commit.page import commitments_context
    from ..commit.sealed_memo import remembered

    with remembered(cache):  # an unchanged results file's sealed hashes from the cache's record
        commitments = commitments_context(root) if (root / "content" / "commitments").is_dir() else []
    runs = [r.run for res in outcome.scored for r in res.runs]
    reason = draft_reason([res.agreement for res in outcome.scored]) if draft else None
    unchecked = unchecked_private(outcome.scored)
    if unchecked and not accept_sealed:
        reason = _with(reason, UNCHECKED)
    return SiteData(root, suites, load_pages(root / "content" / "pages", cache), commitments, build_date(root, runs),
                    reason, (sum(r.simulated for r in runs), len(runs), sum(map(is_real, runs))), seconds,
                    {"gather: load, scorer A and scorer B": outcome.peak_mb[SCORING]}, staging, warnings,
                    private_note(unchecked, accept_sealed), bool(unchecked) and accept_sealed)


def is_real(run) -> bool:
    """A run of a real model: not simulated and not a baseline. A baseline says `"baseline": true` in its
    run.json, or (the example's own baselines and reference solvers) is served by the provider `local`
    and says nothing."""
    if run.simulated:
        return False
    baseline = run.meta.get("baseline")
    return not baseline if isinstance(baseline, bool) else run.provider != "local"


def _view(root: Path, st: Statistics, rescore_dir: Path, warnings: list[str],
          tables: Callable[[ScoredSuite], list] = report_tables) -> SuiteView:
    """What the pages show of a suite: its scored runs and statistics, with the suite's own parts
    (balance report, report tables, preregistration, audits, label agreement)."""
    from ..audit.record import summary as audit_summary
    from ..labels.load import suite_labels

    res, doc, name = st.result, st.doc, st.result.suite.name
    for run_id, inc in sorted(doc.get("incomplete_runs", {}).items()):
        if inc.get("anchor_check"):
            continue  # the anchor block alone, as asked: not a run cut short
        warnings.append(f"warning: {name}: run {run_id} covers {inc['items_covered']} of {inc['items']} items "
                        "of its half: incomplete, not ranked (listed apart on the suite page)")
    balance = _balance(res.suite.root / "balance.json")
    sd = SuiteView(res, res.plugin, Declared(res.plugin), doc, res.agreement, balance, rescore_dir / name, st.path,
                   public_items=[i for i in res.items if i.half == "public"], reports=tables(res))
    sd.prereg = _prereg(root, res)
    sd.audit = audit_summary(root, res)
    sd.labels = suite_labels(res.suite, res.items)
    return sd


def _publishable(results: list[ScoredSuite], draft: bool) -> None:
    """Before any output is written: every model and provider name gets a page of its own, and the
    scorers agreed on every verdict (else the build is refused, unless it is a draft)."""
    _check_page_names(results)
    reason = draft_reason([res.agreement for res in results])
    if reason and not draft:
        raise Disagreement(f"refusing to publish: {reason.removeprefix('draft: ')}; nothing was written "
                           "(`tally rescore` writes every difference to build/rescore/<suite>/agreement.json; "
                           "--draft builds a marked draft)" + _differences(results))
