"""The pipeline's first stages: load -> score (A, with B alongside) -> per-run summaries.

`tally rescore`, `tally stats` and `tally site build` run them through the orchestrator
(generator/orchestrate.py), which then computes the statistics and writes the outputs. Each stored
responses.jsonl is read whole once: the same bytes go to scorer A and to scorer B.
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .cache import Cache, run_entry, run_from_entry, run_key, suite_key
from .content import Item, SuiteConfig, headline_problem, load_items, load_suite
from .crosscheck import Gate, responses_file
from .errors import ErrorLog, InputProblem
from .links import input_problems
from .plugins import PluginError, Registry, load_registry
from .processes import score_runs
from .rescore import RunScore, Scoring, release_frozen
from .results import Run, list_run_dirs, load_run
from .run_files import offload
from .sealed_check import check_runs
from .sealing import read_run
from .stats.declared import Declared
from .stats.estimates import point_estimates
from .suite_api import Suite

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
         errors: ErrorLog | None = None) -> list[LoadedSuite]:
    """Every chosen suite (default: all) with its plugin, items and stored runs. Every input error is
    collected and raised together (InputProblem), or left in `errors` when given (score then adds
    what the stored responses hold and raises them all). A symbolic link or a special file in content/
    or results/ stops loading at once (links.py)."""
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
        items = load_items(suite, plugin.parse_item, log)
        runs = [r for d in list_run_dirs(root / "results", suite.name) if (r := load_run(d, suite.name, log))]
        out.append(LoadedSuite(suite, plugin, items, runs))
    if errors is None:
        log.check()
    return out


def load_and_score(root: Path, names: list[str] | None = None, jobs: int = 1, gate: bool = True,
                   progress: ProgressFactory = None, public_dir: Path | None = None,
                   warn: Callable[[str], None] | None = None, cache: Cache | None = None,
                   scheduler: str | None = None, offload_to_files: bool = False) -> list[ScoredSuite]:
    """`load` then `score`, every input error of both reported together; `warn` hears each warning.
    With `scheduler`, runs are scored on that Dask cluster (generator/distributed.py)."""
    log = ErrorLog(root)
    client = None
    try:
        loaded = load(root, names, errors=log)
        if scheduler is not None:
            from .distributed import check_workers, connect

            client = connect(scheduler)
            check_workers(client, [ls.plugin for ls in loaded], gate)
        return score(loaded, root, jobs, gate, progress, public_dir, log, cache, client, offload_to_files)
    finally:
        if client is not None:
            client.close()
        for w in log.warnings:
            (warn or _stderr)(f"warning: {w}")


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


def score(loaded: list[LoadedSuite], root: Path, jobs: int = 1, gate: bool = True,
          progress: ProgressFactory = None, public_dir: Path | None = None,
          errors: ErrorLog | None = None, cache: Cache | None = None, client=None,
          offload_to_files: bool = False, check_sealed: bool = True) -> list[ScoredSuite]:
    """Score every run with scorer A and, when `gate`, with scorer B alongside (ScorerBUnavailable
    when it can't run). Input errors in stored responses are collected and raised together. With
    `public_dir`, each run's public lines are kept in public_dir/<suite>/<run>.jsonl (for the site).
    With `cache`, a run whose inputs are unchanged is taken from it (and not read; not sent to
    scorer B when scorer B agreed with it before, under the same Node.js) and new results are kept.
    With `client` (a dask.distributed Client), runs are scored on its cluster. With `offload_to_files`
    (and `public_dir`), each run's bulky parts go to files next to its public lines as soon as it is
    scored (run_files.py), so that memory holds the light parts of every run only. With `check_sealed`,
    each sealed record whose full record was scored must be what sealing it today gives (sealed_check.py)."""
    log = errors if errors is not None else ErrorLog(root)
    out = []
    for ls in loaded:
        # with input errors already found, scorer A alone looks for the rest
        g = Gate(ls.plugin, ls.suite.name, [i.line for i in ls.items]) if gate and not log.errors else None
        folder = public_dir / ls.suite.name if public_dir else None
        keys: dict[str, str] = {}
        cached: dict[str, RunScore] = {}
        scratch: Path | None = None
        unchecked: list[RunScore] = []  # cached runs that scorer B checks now
        if cache is not None and folder is None:  # the cache keeps every run's public lines, for a later site build
            scratch = Path(tempfile.mkdtemp(prefix="tally-public-"))
            folder = scratch / ls.suite.name
        public = {i.id: k for k, i in enumerate(i for i in ls.items if i.half == "public")}  # items sorted by id
        then = (functools.partial(offload, folder=folder, public=public)
            if offload_to_files and public_dir and folder is not None else None)
        stored = _Stored(ls, log, cache, g if client is None else None, keys, cached, unchecked, folder, then)
        total = sum(r.responses.stat().st_size for r in ls.runs)
        scoring = Scoring(ls.plugin, ls.items, log, folder)
        fresh: list[RunScore] = []
        try:
            with _bar(progress, total, f"scoring {ls.suite.name}" + (" (A and B)" if gate else " (A)")) as bar:
                if client is not None:
                    from .distributed import score_runs as on_cluster

                    scored_runs = on_cluster(client, stored.runs(), scoring, [i.line for i in ls.items], g)
                else:
                    scored_runs = score_runs(stored.runs(), scoring, jobs, then)
                for r in scored_runs:
                    if client is not None and then is not None:
                        then(r)
                    fresh.append(r)
                    if bar is not None:
                        bar.update(r.run.responses.stat().st_size)
                if bar is not None and cached:
                    bar.update(sum(r.run.responses.stat().st_size for r in cached.values()))
            if cache is not None:
                for problem in cache.take_problems():
                    log.warn(cache.folder, None, problem)
            if log.errors and g is not None:  # input errors come first: scorer B's view is moot
                g.abort()
                g = None
        except BaseException:
            if g is not None:
                g.abort()
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            raise
        if log.errors:
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            continue
        runs = sorted(fresh + list(cached.values()), key=lambda r: r.run.id)
        sealed_checked = check_runs(ls.plugin, {i.id: i.half for i in ls.items}, runs, log) if check_sealed else 0
        if log.errors:
            if g is not None:
                g.abort()
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            continue
        agreement = g.finish(runs).to_json() if g is not None else {
            "suite": ls.suite.name, "status": "not run", "reason": "scorer B was skipped (--skip-scorer-b)"}
        if g is not None and sealed_checked:  # private records both scorers rescored from their full records
            agreement["sealed_checked"] = sealed_checked
        if g is not None:
            files = {r.id: r.responses for r in ls.runs}
            for run_id, line, message in g.warned:  # a reply scorer B's suite script could not handle
                log.warn(files.get(run_id, Path(responses_file(ls.suite.name, run_id))), line, f"scorer B: {message}")
        if cache is not None:
            _keep(cache, ls.suite.name, keys, fresh + (unchecked if g is not None else []), agreement, g.version if g is not None else "")
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
                for r in runs:
                    r.public_file = None
        scored = ScoredSuite(ls.suite, ls.plugin, ls.items, runs, agreement, keys)
        summarise(scored)
        out.append(scored)
    release_frozen()
    log.check()
    return out


class _Stored:
    """A suite's runs as (run, its stored bytes) for scoring, each responses.jsonl read once: with the
    build cache, the run's key is computed from those bytes, and a run found in the cache is taken
    from it (into `cached`) instead of being scored; `gate` (scorer B here, not on a cluster) is sent
    the bytes of every run it has not checked before."""

    def __init__(self, ls: LoadedSuite, log: ErrorLog, cache: Cache | None, gate: Gate | None,
                 keys: dict[str, str], cached: dict[str, RunScore], unchecked: list[RunScore],
                 folder: Path | None, then: Callable[[RunScore], None] | None) -> None:
        self.ls, self.log, self.cache, self.gate, self.folder, self.then = ls, log, cache, gate, folder, then
        self.keys, self.cached, self.unchecked = keys, cached, unchecked

    def _from_entry(self, run: Run, entry: dict) -> RunScore | None:
        """A cached run back from its entry; None (the entry discarded, the run scored again) when the
        entry is not of the expected shape."""
        try:
            if not isinstance(entry.get("checked_by"), str):
                raise TypeError("checked_by is not a text")
            return run_from_entry(run, entry, self.folder)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            assert self.cache is not None
            self.cache.discard("runs", self.ls.suite.name, self.keys[run.id], f"not a scored run ({exc})")
            return None

    def runs(self) -> Iterator[tuple[Run, bytes]]:
        ls, cache, g = self.ls, self.cache, self.gate
        skey = suite_key(ls.suite.root, ls.plugin) if cache is not None else ""
        for run in ls.runs:
            if cache is None:
                data = read_run(run.responses, self.log).data
            else:
                raw = run.responses.read_bytes()
                self.keys[run.id] = run_key(skey, run, {run.responses: raw})
                entry = cache.read("runs", ls.suite.name, self.keys[run.id])
                r = self._from_entry(run, entry) if isinstance(entry, dict) else None
                if r is not None and isinstance(entry, dict):
                    self.cached[run.id] = r
                    if self.then is not None:
                        self.then(r)
                    if g is not None and entry["checked_by"] == g.version:
                        g.vouch(run.id)
                    elif g is not None:
                        g.send(run.id, read_run(run.responses, self.log, raw).data)
                        self.unchecked.append(r)
                    continue
                data = read_run(run.responses, self.log, raw).data
                del raw
            if g is not None:
                g.send(run.id, data)
            yield run, data
            del data


def _keep(cache: Cache, suite: str, keys: dict[str, str], fresh: list[RunScore], agreement: dict,
          node: str) -> None:
    """Cache the runs scored (or checked by scorer B) now; a run with no stored response is not kept
    (its warning must be given again). Marked as checked by scorer B only when the whole suite agreed."""
    checked = node if agreement.get("status") == "agree" else ""
    for r in fresh:  # a run whose replies the suite could not all handle is not kept: its warnings come again
        if r.responses and r.public_file is not None and not r.suite_failures:
            cache.write("runs", suite, keys[r.run.id], run_entry(r, r.public_file.read_bytes(), checked))
    cache.prune("runs", suite, set(keys.values()))


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
