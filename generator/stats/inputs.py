"""Read what the engine needs: the suite and its items (content/), run metadata (results/) and the
rescore outputs (build/rescore/<suite>/item_stats.csv and calls.csv)."""

from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np

from ..content import Item, Suite, load_items, load_suite
from ..errors import ErrorLog
from ..results import list_run_dirs, load_run
from ..suites import scorer_module

HEAD = ("run", "item", "dataset", "half", "repeats")


class StatsInputError(Exception):
    """The inputs of the statistics engine are missing, invalid or out of date."""


@dataclass(frozen=True)
class RunInfo:
    """One run group: one model on one provider, in its latest round (earlier rounds of the same
    model and provider are kept apart, for the anchor comparison only)."""
    id: str
    model: str
    provider: str
    hosting: str
    simulated: bool
    prices: dict | None
    round: str = ""
    started: str = ""
    anchors: tuple[str, ...] = ()


@dataclass
class SuiteData:
    suite: Suite
    module: ModuleType
    items: list[Item]  # sorted by id
    runs: list[RunInfo]  # sorted by id
    figure_names: tuple[str, ...]
    figs: np.ndarray  # runs x items x figures, NaN where the run has no row for the item
    repeats: np.ndarray  # runs x items, 0 where the run has no row
    calls: dict[str, list[dict]]
    earlier: list[RunInfo] = field(default_factory=list)  # earlier rounds of a current run group
    all_runs: list[RunInfo] = field(default_factory=list)  # current and earlier, the order of all_figs
    all_figs: np.ndarray | None = None
    all_repeats: np.ndarray | None = None


def _fail(log: ErrorLog, what: str) -> None:
    if log.errors:
        raise StatsInputError(f"{what}:\n" + "\n".join(str(e) for e in log.errors))


def load_suite_data(root: Path, suite_name: str, rescore_dir: Path) -> SuiteData:
    log = ErrorLog(root)
    suite = load_suite(root / "content" / "suites" / suite_name, log)
    _fail(log, "the suite could not be read")
    try:
        module = scorer_module(suite.scorer)
    except KeyError as exc:
        raise StatsInputError(f"suite {suite_name}: {exc.args[0]}") from None
    items = load_items(suite, module.parse_spec, log)
    _fail(log, "the suite's items could not be read")
    runs = [r for d in list_run_dirs(root / "results", suite_name) if (r := load_run(d, suite_name, log))]
    _fail(log, "the stored runs could not be read")
    base = rescore_dir / suite_name
    for name in ("item_stats.csv", "calls.csv"):
        if not (base / name).is_file():
            raise StatsInputError(f"{base / name} not found: run `tally rescore` first")
    infos = [RunInfo(r.id, r.model, r.provider, r.hosting, r.simulated, r.meta.get("prices"),
                     str(r.meta.get("round", "")), str(r.meta.get("started", "")),
                     tuple(a for a in r.meta.get("anchors", []) if isinstance(a, str))) for r in runs]
    current, earlier = split_rounds(infos)
    figure_names, figs, repeats = _read_item_stats(base / "item_stats.csv", items, infos, tuple(module.FIGURES))
    keep = [k for k, info in enumerate(infos) if info in current]
    calls = _read_calls(base / "calls.csv", {r.id for r in infos})
    calls = {run: rows for run, rows in calls.items() if run in {r.id for r in current}}
    return SuiteData(suite, module, items, current, figure_names, figs[keep], repeats[keep], calls,
                     earlier, infos, figs, repeats)


def split_rounds(infos: list[RunInfo]) -> tuple[list[RunInfo], list[RunInfo]]:
    """(current, earlier): per model and provider, the run of the latest round is current.

    Rounds are ordered by their names, then by start time; two runs of one model on one provider in
    the same round are an error.
    """
    groups: dict[tuple[str, str], list[RunInfo]] = defaultdict(list)
    for info in infos:
        groups[(info.model, info.provider)].append(info)
    current, earlier = [], []
    for (model, provider), runs in groups.items():
        rounds = [r.round for r in runs]
        if len(set(rounds)) != len(rounds):
            ids = ", ".join(sorted(r.id for r in runs))
            raise StatsInputError(f"runs {ids} are all {model} on {provider}; a model on a provider needs one run "
                                  "per round (give each run its own round in run.json)")
        ordered = sorted(runs, key=lambda r: (r.round, r.started, r.id))
        current.append(ordered[-1])
        earlier += ordered[:-1]
    return sorted(current, key=lambda r: r.id), sorted(earlier, key=lambda r: r.id)


def _stale(path: Path, why: str) -> StatsInputError:
    return StatsInputError(f"{path}: {why}; the rescore outputs are out of date: run `tally rescore` again")


def _read_item_stats(path: Path, items: list[Item], runs: list[RunInfo], figures: tuple[str, ...]):
    pos = {item.id: k for k, item in enumerate(items)}
    run_pos = {r.id: k for k, r in enumerate(runs)}
    figs = np.full((len(runs), len(items), len(figures)), np.nan)
    repeats = np.zeros((len(runs), len(items)), dtype=np.int64)
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        header = tuple(next(reader, ()))
        if header != HEAD + figures:
            raise _stale(path, f"columns {', '.join(header)} are not the suite's")
        for row in reader:
            run, item = row[0], row[1]
            if run not in run_pos:
                raise _stale(path, f"run {run} is not among the stored runs")
            if item not in pos:
                raise _stale(path, f"item {item} is not in the suite")
            r, i = run_pos[run], pos[item]
            repeats[r, i] = int(row[4])
            figs[r, i] = [float(x) for x in row[5:]]
    missing = [r.id for r in runs if not repeats[run_pos[r.id]].any()]
    if missing:
        raise _stale(path, f"no rows for run(s) {', '.join(missing)}")
    return figures, figs, repeats


def _read_calls(path: Path, run_ids: set[str]) -> dict[str, list[dict]]:
    calls: dict[str, list[dict]] = defaultdict(list)
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["run"] not in run_ids:
                raise _stale(path, f"run {row['run']} is not among the stored runs")
            calls[row["run"]].append(row)
    return dict(calls)
