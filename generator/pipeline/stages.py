"""The pipeline's first stages: load -> score (A, with B alongside) -> per-run summaries.

`tally rescore`, `tally stats` and `tally site build` run them through the orchestrator
(generator/pipeline/orchestrate.py), which then computes the statistics and writes the outputs. Each stored
responses.jsonl is read whole once: the same bytes go to scorer A and to scorer B.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ErrorLog, InputProblem
from ..inputs.content import Item, SuiteConfig, headline_problem, load_items, load_suite
from ..inputs.links import input_problems
from ..inputs.results import Run, list_run_dirs, load_run
from ..sealed_check import check_runs
from ..sealing import read_run
from ..stats.declared import Declared
from ..stats.estimates import point_estimates
from ..suite.api import Suite
from ..suite.plugins import PluginError, Registry, load_registry
from .cache import Cache, run_key, suite_key
from .crosscheck import Gate, responses_file
from .file_digests import FileDigests
from .file_status import status
from .page_checks import PageChecks
from .processes import score_runs
from .run_score import RunScore, Store, open_cached
from .scorer_a import Scoring, release_frozen

# progress(total, label) -> a context manager with update(n), or None for no progress
ProgressFactory = Callable[[int, str], contextlib.AbstractContextManager] | None


@dataclass
class LoadedSuite:
    suite: SuiteConfig
    plugin: Suite
    items: list[Item]  # sorted by id
    runs: list[Run]  # sorted by id


@dataclass
class ScoredSuite:
    suite: SuiteConfig
    plugin: Suite
    items: list[Item]
    runs: list[RunScore]  # sorted by run id
    agreement: dict = field(default_factory=dict)  # the gate's report (crosscheck.Agreement.to_json)
    run_keys: dict[str, str] = field(default_factory=dict)  # run id -> its build cache key (with a cache)

    @property
    def summary(self) -> dict:
        return {r.run.id: r.summary for r in self.runs}


def suite_names(root: Path) -> list[str]:
    base = root / "content" / "suites"
    return sorted(p.name for p in base.iterdir() if (p / "suite.toml").is_file()) if base.is_dir() else []


def load(root: Path, names: list[str] | None = None, registry: Registry | None = None,
         errors: ErrorLog | None = None, cache: Cache | None = None) -> list[LoadedSuite]:
    """Every chosen suite (default: all) with its plugin, items and stored runs. Every input error is
    collected and raised together (InputProblem), or left in `errors` when given (score then adds
    what the stored responses hold and raises them all). A symbolic link or a special file in content/
    or results/ stops loading at once (inputs/links.py). With `cache`, a page image unchanged since it
    was checked in full is not checked again (page_checks.py)."""
    log = errors if errors is not None else ErrorLog(root)
    for path, problem in input_problems(root):
        log.add(path, None, problem)
    log.check()  # nothing is read through a link or from a FIFO
    known = suite_names(root)
    if not known:
        raise InputProblem(f"no suite found under {root / 'content' / 'suites'} (a folder with a suite.toml)")
    for name in names or []:
        if name not in known:
            log.add(root / "content" / "suites", None, f"no suite named {name!r}; known: {', '.join(known)}")
    registry = registry or load_registry(root)
    out = []
    for name in [n for n in known if not names or n in names]:
        suite = load_suite(root / "content" / "suites" / name, log)
        if suite is None:
            continue
        try:
            plugin = registry.get(suite.scorer)
        except PluginError as exc:
            log.add(suite.root / "suite.toml", None, str(exc))
            continue
        if headline_problem(suite, plugin.headline, log):
            continue
        pages = PageChecks(cache, suite.name) if cache is not None else None
        items = load_items(suite, plugin.parse_item, log, pages)
        if pages is not None:
            pages.keep()
        runs = [r for d in list_run_dirs(root / "results", suite.name) if (r := load_run(d, suite.name, log))]
        out.append(LoadedSuite(suite, plugin, items, runs))
    if errors is None:
        log.check()
    return out


def load_and_score(root: Path, names: list[str] | None = None, jobs: int = 1, gate: bool = True,
                   progress: ProgressFactory = None, warn: Callable[[str], None] | None = None,
                   cache: Cache | None = None, scheduler: str | None = None) -> list[ScoredSuite]:
    """`load` then `score`, every input error of both reported together; `warn` hears each warning.
    With `scheduler`, runs are scored on that Dask cluster (generator/pipeline/distributed.py)."""
    log = ErrorLog(root)
    client = None
    try:
        loaded = load(root, names, errors=log, cache=cache)
        if scheduler is not None:
            from .distributed import check_workers, connect

            client = connect(scheduler)
            check_workers(client, [ls.plugin for ls in loaded], gate)
        return score(loaded, root, jobs, gate, progress, log, cache, client)
    finally:
        if client is not None:
            client.close()
        for w in log.warnings:
            (warn or _stderr)(f"warning: {w}")


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


def score(loaded: list[LoadedSuite], root: Path, jobs: int = 1, gate: bool = True,
          progress: ProgressFactory = None, errors: ErrorLog | None = None, cache: Cache | None = None,
          client=None, check_sealed: bool = True) -> list[ScoredSuite]:
    """Score every run with scorer A and, when `gate`, with scorer B alongside (ScorerBUnavailable
    when it can't run). Input errors in stored responses are collected and raised together. Each run
    scored is one artifact (artifact.py), written by whichever process scored it: in the build cache
    with `cache` (a run whose inputs are unchanged is the artifact already there: not read, and not
    sent to scorer B when scorer B agreed with it before, under the same Node.js), else in a temporary
    folder of this command. With `client` (a dask.distributed Client), runs are scored on its cluster.
    With `check_sealed`, each sealed record whose full record was scored must be what sealing it today
    gives (sealed_check.py)."""
    log = errors if errors is not None else ErrorLog(root)
    out = []
    written: list[tuple[Store, list[RunScore]]] = []  # this command's artifacts, undone when it stops
    try:
        for ls in loaded:
            if (scored := _score_suite(ls, root, jobs, gate, progress, log, cache, client, written, check_sealed)) is not None:
                out.append(scored)
        release_frozen()
        log.check()
    except BaseException:
        for store, fresh in reversed(written):
            if store.cache is not None:
                with contextlib.suppress(OSError):
                    store.undo(fresh)
        raise
    return out


def _score_suite(ls: LoadedSuite, root: Path, jobs: int, gate: bool, progress: ProgressFactory, log: ErrorLog,
                 cache: Cache | None, client, written: list, check_sealed: bool = True) -> ScoredSuite | None:
    """One suite's part of `score` (None when input errors were found); `written` hears its store and
    the artifacts written now."""
    # with input errors already found, scorer A alone looks for the rest
    g = Gate(ls.plugin, ls.suite.name, [i.line for i in ls.items]) if gate and not log.errors else None
    store = Store(cache, ls.suite.name)
    stored = _Stored(ls, log, store, g, here=client is None)
    total = sum(r.responses.stat().st_size for r in ls.runs)
    scoring = Scoring(ls.plugin, ls.items, log)
    fresh: list[RunScore] = []
    written.append((store, fresh))
    try:
        with _bar(progress, total, f"scoring {ls.suite.name}" + (" (A and B)" if gate else " (A)")) as bar:
            if client is not None:
                from .distributed import score_runs as on_cluster

                scored_runs = on_cluster(client, stored.runs(), scoring, [i.line for i in ls.items], g, store)
            else:
                scored_runs = score_runs(stored.runs(), scoring, jobs, store)
            for r in scored_runs:
                fresh.append(r)
                if cache is not None and r.name == stored.keys[r.run.id]:  # written for later commands too
                    cache.counts.written += 1
                if bar is not None:
                    bar.update(r.run.responses.stat().st_size)
            if bar is not None and stored.cached:
                bar.update(sum(r.run.responses.stat().st_size for r in stored.cached.values()))
        if cache is not None:
            for problem in cache.take_problems():
                log.warn(cache.folder, None, problem)
        if log.errors and g is not None:  # input errors come first: scorer B's view is moot
            g.abort()
            g = None
    except BaseException:
        if g is not None:
            g.abort()
        raise
    if log.errors:
        return None
    runs = sorted(fresh + list(stored.cached.values()), key=lambda r: r.run.id)
    sealed_checked = check_runs(ls.plugin, {i.id: i for i in ls.items}, runs, log) if check_sealed else 0
    if log.errors:
        if g is not None:
            g.abort()
        return None
    agreement = g.finish(runs).to_json() if g is not None else {
        "suite": ls.suite.name, "status": "not run", "reason": "scorer B was skipped (--skip-scorer-b)"}
    if g is not None and sealed_checked:  # private records both scorers rescored from their full records
        agreement["sealed_checked"] = sealed_checked
    if g is not None:
        files = {r.id: r.responses for r in ls.runs}
        for run_id, line, message in g.warned:  # a reply scorer B's suite script could not handle
            log.warn(files.get(run_id, Path(responses_file(ls.suite.name, run_id))), line, f"scorer B: {message}")
    if cache is not None:
        stored.keep(runs, agreement, g.version if g is not None else "")
    scored = ScoredSuite(ls.suite, ls.plugin, ls.items, runs, agreement, stored.keys)
    summarise(scored)
    return scored


CHECKED = "checked"  # the build cache's kind of entry: per suite, run key -> Node.js version of scorer B


class _Stored:
    """A suite's runs as (run, its stored bytes, its artifact's base name) for scoring, each
    responses.jsonl read once: with the build cache, the run's key (the base name) is computed from
    those bytes, and a run whose artifact is in the cache is taken from it (into `cached`) instead of
    being scored; `gate` (scorer B) vouches for each cached run it agreed with before and is sent the
    bytes of every other cached run, and (`here`: scored on this machine, not on a cluster, whose
    workers run scorer B themselves) of every run scored. Which artifacts scorer B agreed with is one
    entry per suite (CHECKED), written once the whole suite's gate is done (`keep`): an artifact is
    never rewritten."""

    def __init__(self, ls: LoadedSuite, log: ErrorLog, store: Store, gate: Gate | None, here: bool = True) -> None:
        self.ls, self.log, self.store, self.gate, self.here = ls, log, store, gate, here
        self.keys: dict[str, str] = {}  # run id -> its build cache key (with a cache)
        self.cached: dict[str, RunScore] = {}
        self.resent: set[str] = set()  # cached runs that scorer B checks now
        checks = store.cache.read(CHECKED, ls.suite.name, "index", counted=False) if store.cache else None
        ok = isinstance(checks, dict) and all(isinstance(v, str) for v in checks.values())
        self.checks: dict[str, str] = checks if ok else {}  # type: ignore[assignment]
        self.digests = FileDigests(store.cache, ls.suite.name)  # the stored files' SHA-256, by their stat

    def runs(self) -> Iterator[tuple[Run, bytes, str]]:
        ls, cache, g = self.ls, self.store.cache, self.gate
        skey = suite_key(ls.suite.root, ls.plugin) if cache is not None else ""
        for index, run in enumerate(ls.runs):
            if cache is None:
                data, base = read_run(run.responses, self.log).data, f"run-{index}"
            else:
                raw, base = self._look(skey, run)  # raw: None when the record says the file is unchanged
                r = open_cached(self.store, run, base)
                if r is not None and g is not None and self.checks.get(base) != g.version and raw is None:
                    raw, again = self._read(skey, run)  # scorer B checks it now: read after all
                    if again != base:  # changed since it was looked at
                        r.close()
                        base, r = again, open_cached(self.store, run, again)
                self.keys[run.id] = base
                if r is not None:
                    self.cached[run.id] = r
                    if g is not None and self.checks.get(base) == g.version:
                        g.vouch(run.id)
                    elif g is not None:
                        assert raw is not None
                        g.send(run.id, read_run(run.responses, self.log, raw).data)
                        self.resent.add(run.id)
                    continue
                if raw is None:
                    raw, base = self._read(skey, run)
                    self.keys[run.id] = base
                data = read_run(run.responses, self.log, raw).data
                del raw
            if g is not None and self.here:
                g.send(run.id, data)
            yield run, data, base
            del data

    def _look(self, skey: str, run: Run) -> tuple[bytes | None, str]:
        """The run's build cache key, and its stored responses when they had to be read to find it (None
        when the record of their SHA-256 holds: file_digests.py)."""
        st = status(run.responses)
        sha = self.digests.known(run.responses, st)
        if sha is not None:
            return None, self._key(skey, run, sha)
        return self._read(skey, run, st)

    def _read(self, skey: str, run: Run, st: os.stat_result | None = None) -> tuple[bytes, str]:
        """The run's stored responses, read now, and the build cache key of these bytes."""
        st = st if st is not None else status(run.responses)
        raw = run.responses.read_bytes()
        return raw, self._key(skey, run, self.digests.of_bytes(run.responses, st, raw))

    def _key(self, skey: str, run: Run, responses_sha: str) -> str:
        return run_key(skey, run, lambda path: responses_sha if path == run.responses else self.digests.of(path))

    def keep(self, runs: list[RunScore], agreement: dict, node: str) -> None:
        """Record the artifacts scorer B agreed with now (only when the whole suite agreed), keep what
        it agreed with before, and prune the suite's artifacts that no current run has."""
        cache = self.store.cache
        assert cache is not None
        checked = node if agreement.get("status") == "agree" else ""
        index = {}
        for r in runs:
            key = self.keys[r.run.id]
            if r.run.id in self.cached and r.run.id not in self.resent:
                if key in self.checks:
                    index[key] = self.checks[key]
            elif checked and r.name == key:  # scored or checked now, and kept for later commands
                index[key] = checked
        if index != self.checks:
            cache.write(CHECKED, self.ls.suite.name, "index", index, counted=False)
        self.digests.keep()
        self.store.verified.keep({r.name for r in runs})
        cache.prune("runs", self.ls.suite.name, {r.name for r in runs})


@contextlib.contextmanager
def _bar(progress: ProgressFactory, total: int, label: str) -> Iterator:
    if progress is None:
        yield None
    else:
        with progress(total, label) as bar:
            yield bar


def summarise(scored: ScoredSuite) -> None:
    """Each run's metrics per half (all, public, private), overall and per dataset, with the headline;
    computed by the same function as the statistics' point estimates."""
    declared = Declared(scored.plugin)
    halves = np.array([i.half for i in scored.items])
    datasets = np.array([i.dataset for i in scored.items])
    means = [(m.name, dict(m.weights), m.times) for m in declared.dataset_means]
    names = declared.figure_names
    for r in scored.runs:
        figs = declared.expand(r.means())
        out = {}
        for half in ("all", "public", "private"):
            pos = np.flatnonzero((r.repeats > 0) & ((halves == half) if half != "all" else True))
            if not len(pos):
                continue
            f, rep, ds = figs[pos][None], r.repeats[pos][None], datasets[pos]
            groups = [np.flatnonzero(ds == d.id) for d in scored.suite.datasets if (ds == d.id).any()]
            overall = point_estimates(f, rep, names, declared.spec, means, groups)
            per_dataset = {d.id: _values(point_estimates(f[:, g], rep[:, g], names, declared.spec, [], []))
                           for d, g in zip([d for d in scored.suite.datasets if (ds == d.id).any()], groups)}
            out[half] = {"items": int(len(pos)), "metrics": _values(overall), "datasets": per_dataset}
        r.summary = {"model": r.run.model, "provider": r.run.provider, "hosting": r.run.hosting,
                     "simulated": r.run.simulated, "responses": r.responses, "missing_responses": r.missing} | out
        if r.sealed:  # said on the pages and in the rescore output: not re-derived here
            r.summary["sealed_records"] = r.sealed
        if r.responses == 0:
            r.summary["empty"] = True  # a run with no stored response: every item a failed call


def _values(estimates: dict[str, np.ndarray]) -> dict[str, float | None]:
    return {k: (None if np.isnan(v[0]) else float(v[0])) for k, v in estimates.items()}
