"""The one orchestrator of `tally rescore`, `tally stats` and `tally site build`: load -> score ->
statistics -> outputs, with one set of options.

Every command runs `run`: the same build cache (`build/cache/`: a run's scorer A results, a suite's
statistics; generator/pipeline/cache.py), the same Dask scheduler, the same number of processes. What differs
is only where the outputs go (`Targets`) and, for the site, a check between scoring and writing
(`check`: names of pages, the agreement gate's refusal). A suite's statistics are computed in one
place (`statistics`), kept in the cache under the key the site build uses, so `tally stats` and
`tally site build` reuse each other's.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..folders import check_project_outputs
from .cache import Cache, stats_key
from .memory import peak_mb, release_freed
from .outputs import write_outputs
from .stages import ProgressFactory, ScoredSuite, load_and_score

SCORING = "load, scorer A and scorer B"  # the stages' names in Outcome.seconds and Outcome.peak_mb
STATISTICS = "outputs and statistics"


@dataclass(frozen=True)
class Options:
    """How a command computes (not where it writes): every command line option that changes it."""

    cache: bool = True  # read and write the build cache (--no-cache: neither)
    scheduler: str | None = None  # a Dask scheduler's address: score runs on that cluster
    jobs: int = 1  # processes to score runs (and render pages) on
    resamples: int | None = None  # bootstrap resamples; None: each suite's setting
    skip_scorer_b: bool = False  # no agreement gate
    draft: bool = False  # the site only: build even when the gate refuses, every page marked
    progress: ProgressFactory = None  # progress(total, label) -> a bar; None: quiet

    def open_cache(self, root: Path) -> Cache | None:
        """The project's build cache, or None with the cache off."""
        return Cache(root / "build" / "cache") if self.cache else None


@dataclass(frozen=True)
class Targets:
    """Where the outputs go: `rescore`/<suite>/ (outputs.py) and, unless None, `stats`/<suite>/stats.json.
    With `only`, only the scored suites' folders are replaced (the others' kept)."""

    rescore: Path
    stats: Path | None = None
    only: bool = False


@dataclass
class Statistics:
    """A suite's statistics document (stats/engine.py), as written to `path`."""

    result: ScoredSuite
    doc: dict[str, Any]
    resamples: int
    path: Path
    cached: bool  # taken from the build cache, not computed


@dataclass
class Outcome:
    scored: list[ScoredSuite]
    statistics: list[Statistics] = field(default_factory=list)  # in the order of `scored`; empty without stats
    seconds: dict[str, float] = field(default_factory=dict)  # by stage (SCORING, STATISTICS)
    peak_mb: dict[str, float] = field(default_factory=dict)  # by stage: this process's peak so far

    @property
    def disagree(self) -> bool:
        """Scorer B disagreed with scorer A on some verdict of some suite."""
        return any(res.agreement.get("status") == "disagree" for res in self.scored)


def run(root: Path, options: Options, targets: Targets, names: list[str] | None = None, *,
        cache: Cache | None = None, check: Callable[[list[ScoredSuite]], None] | None = None,
        warn: Callable[[str], None] | None = None) -> Outcome:
    """Load the chosen suites (default: all), score every run (scorer A, and scorer B alongside unless
    `options.skip_scorer_b`), call `check` on the scored suites (it raises to stop before anything is
    written), write the rescore outputs, then (with `targets.stats`) each suite's statistics.

    `cache`: the build cache to use when `options.cache` (default: the project's, opened here). Each
    scored run is its artifact (artifact.py: in the build cache, or without it in a temporary folder
    of this command), which every later stage reads. `warn` hears each warning of loading and scoring
    (default: stderr).
    """
    check_project_outputs(root, targets.rescore, *([targets.stats] if targets.stats is not None else []))
    store = (cache if cache is not None else options.open_cache(root)) if options.cache else None
    outcome = Outcome([])
    clock = time.perf_counter()
    outcome.scored = load_and_score(root, names, options.jobs, not options.skip_scorer_b, options.progress,
                                    warn, cache=store, scheduler=options.scheduler)
    outcome.seconds[SCORING] = time.perf_counter() - clock
    outcome.peak_mb[SCORING] = peak_mb()
    release_freed()
    clock = time.perf_counter()
    if check is not None:
        check(outcome.scored)
    write_outputs(targets.rescore, outcome.scored, only=targets.only, cache=store)
    release_freed()
    if targets.stats is not None:
        from ..stats.engine import write_stats

        with _cluster(options.scheduler, [res.plugin for res in outcome.scored]) as cluster:
            for res in outcome.scored:
                count = options.resamples or res.suite.resamples
                doc, cached = statistics(res, count, options.progress, store, cluster, options.jobs)
                release_freed()
                outcome.statistics.append(Statistics(res, doc, count, write_stats(doc, targets.stats), cached))
    outcome.seconds[STATISTICS] = time.perf_counter() - clock
    outcome.peak_mb[STATISTICS] = peak_mb()
    return outcome


def statistics(res: ScoredSuite, resamples: int, progress: ProgressFactory = None,
               cache: Cache | None = None, cluster: Any = None, jobs: int = 1) -> tuple[dict[str, Any], bool]:
    """The suite's statistics document and whether it came from the cache: taken from the cache when
    every run's key, the number of resamples and the engine's sources are unchanged (cache.stats_key),
    else computed (and kept there). Needs the runs' keys: a suite scored without the cache, or with no
    run, is computed each time.

    Each comparison family's pairs are written to a part of their own as soon as they are computed (in
    the cache, else in a temporary folder) and the document refers to it (stats/family_parts.py): a
    page, or stats.json as it is written, reads one family at a time. With `cluster` (distributed.Cluster),
    each stratum is a task on it (stats/cluster.py), else with `jobs` above 1 in that many forked
    processes (stats/processes.py); the document the same."""
    from ..stats.engine import compute, planned_rows
    from ..stats.family_parts import KIND, PartStore, packed, readable, unpacked
    from ..stats.inputs import suite_data
    from ..stats.run_memo import RunMemo, computed

    name = res.suite.name
    keyed = cache is not None and bool(res.run_keys)
    key = stats_key(name, [res.run_keys[r.run.id] for r in res.runs], resamples) if keyed else ""
    store = PartStore(cache, name, key) if cache is not None and keyed else PartStore()
    if cache is not None and keyed:
        doc = cache.read("stats", name, key)
        if isinstance(doc, dict):
            doc = unpacked(doc, store)  # each family's pairs a reference to its part again
        if isinstance(doc, dict) and readable(doc):  # a part removed or corrupt: computed again
            with _bar(progress, 1, f"statistics of {name} (unchanged: from the cache)") as bar:
                if bar is not None:  # shown all the same, so every suite's statistics stage is seen
                    bar.update(1)
            return doc, True
        store.count = 0
    data = suite_data(res)
    memo = RunMemo(cache, name, res.run_keys) if cache is not None else None
    with _bar(progress, planned_rows(data, resamples), f"statistics of {name}") as bar:
        doc = compute(data, resamples, None if bar is None else bar.update, store.put, _on(cluster, jobs),
                      memo.operations if memo is not None else computed)
    del data
    if cache is not None and keyed:
        cache.write("stats", name, key, packed(doc))
        cache.prune("stats", name, {key})
        cache.prune(KIND, name, store.names())
    if memo is not None:
        memo.prune()
    return doc, False


@contextlib.contextmanager
def _cluster(scheduler: str | None, plugins: list[Any]) -> Iterator[Any]:
    """The cluster the statistics use (connected on first use), or None without a scheduler."""
    if scheduler is None:
        yield None
        return
    from .distributed import Cluster

    with Cluster(scheduler, plugins) as cluster:
        yield cluster


def _on(cluster: Any, jobs: int) -> Any:
    """engine.compute's `strata_by`: on the cluster, else in `jobs` processes of this machine."""
    if cluster is None:
        from ..stats.processes import strata_in_processes

        return strata_in_processes(jobs)
    from ..stats.cluster import strata_on

    return strata_on(cluster.client())


@contextlib.contextmanager
def _bar(progress: ProgressFactory, total: int, label: str) -> Iterator[Any]:
    if progress is None:
        yield None
    else:
        with progress(total, label) as bar:
            yield bar
