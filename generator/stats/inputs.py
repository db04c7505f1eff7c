"""What the engine needs, built in memory from a scored suite: items, run groups and their per-item
figures, and the calls of each run.

A run group is one model on one provider in its latest round (by the date its runs declare they
started). A run without a stored response for every item of its half is incomplete: it is never ranked
and never replaces a complete run; the site lists it apart with its coverage. Several runs of the same model,
provider and round are replicates: one group whose per-item figures combine as the suite declares
("mean": each run's per-item mean weighs the same; "pooled": every response weighs the same).
Earlier rounds of a group are kept apart, for the anchor comparison only. Runs of another input kind
than text (page images, or text and images: run.json `input`) are never grouped with text runs: they
form their own SuiteData per kind (`other_inputs`), ranked apart; the text runs are the leaderboards.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputProblem
from ..inputs.content import Item, SuiteConfig
from ..pipeline.calls import CALL_COLUMNS, MISSING
from ..suite.api import Suite
from .declared import Declared


class StatsInputError(InputProblem):
    """The inputs of the statistics engine can't be used."""


@dataclass(frozen=True)
class RunInfo:
    """One run group (see the module's docstring); `id` is its first run's id."""
    id: str
    model: str
    provider: str
    hosting: str
    simulated: bool
    prices: dict | None
    round: str = ""
    started: str = ""
    anchors: tuple[str, ...] = ()
    replicates: tuple[str, ...] = ()  # the runs of the group (one for a single run)
    coverage: tuple[int, int] = (0, 0)  # (items of its half with a stored response, items of its half)
    input: str = "text"  # what its runs were given: text | image | text+image


@dataclass
class SuiteData:
    suite: SuiteConfig
    plugin: Suite
    declared: Declared
    items: list[Item]  # sorted by id
    runs: list[RunInfo]  # current run groups, sorted by id
    figure_names: tuple[str, ...]
    figs: np.ndarray  # runs x items x figures, NaN where the run has no row for the item
    repeats: np.ndarray  # runs x items, 0 where the run has no row
    calls: Mapping[str, list[dict]]  # run group -> calls of its runs (dicts of strings, as in calls.csv)
    earlier: list[RunInfo] = field(default_factory=list)  # earlier rounds of a current run group
    incomplete: list[RunInfo] = field(default_factory=list)  # runs missing items of their half: never ranked
    # incomplete runs that stored every anchor item they list (an anchor check, `tally run --anchors-only`):
    # compared with their model's current run on those items (anchors.py), never ranked
    anchor_checks: list[RunInfo] = field(default_factory=list)
    # run -> item -> (units compared, units answered the same in every repeat): RunScore.consistency
    consistency: Mapping[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    all_runs: list[RunInfo] = field(default_factory=list)  # current, earlier, anchor checks: all_figs' order
    all_figs: np.ndarray | None = None
    all_repeats: np.ndarray | None = None
    other_inputs: dict[str, "SuiteData"] = field(default_factory=dict)  # input kind -> its runs, ranked apart


def suite_data(scored) -> SuiteData:
    """From a scored suite (pipeline.ScoredSuite)."""
    declared = Declared(scored.plugin)
    groups: dict[tuple[str, str, str, str], list] = defaultdict(list)
    incomplete, checks = [], []
    known = {item.id for item in scored.items}
    for r in sorted(scored.runs, key=lambda r: r.run.id):
        if r.missing:  # a run that does not cover its half never replaces a complete one, nor is ranked
            expected = sum(1 for i in scored.items if r.run.half in ("both", i.half))
            info = _info(r.run, [r], (expected - r.missing, expected))
            incomplete.append(info)
            if info.anchors and all(a in known for a in info.anchors) and not set(info.anchors) & _missing(r):
                checks.append((info, r))
            continue
        groups[(r.run.model, r.run.provider, str(r.run.meta.get("round", "")), r.run.input)].append(r)
    entries: list[tuple[RunInfo, list]] = []  # each group (and anchor check) with its runs
    calls = {}
    for members in groups.values():
        expected = sum(1 for i in scored.items if members[0].run.half in ("both", i.half))
        info = _info(members[0].run, members, (expected, expected))
        entries.append((info, members))
        calls[info.id] = members
    for info, r in checks:  # after the groups: their figures are only read by the anchor comparisons
        entries.append((info, [r]))
        calls[info.id] = [r]
    check_ids = {info.id for info, _ in checks}
    entries.sort(key=lambda e: e[0].id)
    infos = [info for info, _ in entries]
    current, earlier = split_rounds([i for i in infos if i.id not in check_ids])
    by_kind = {}
    for kind in sorted({info.input for info in infos} | {r.input for r in incomplete} | {"text"}):
        mine = [k for k, info in enumerate(infos) if info.input == kind]
        keep = [k for k in mine if infos[k] in current]
        mine_figs, mine_repeats = _figures([entries[k][1] for k in mine], scored, declared)
        at = {k: n for n, k in enumerate(mine)}
        kept_figs, kept_repeats = _rows(mine_figs, [at[k] for k in keep]), _rows(mine_repeats, [at[k] for k in keep])
        by_kind[kind] = SuiteData(
            scored.suite, scored.plugin, declared, scored.items, [infos[k] for k in keep], declared.figure_names,
            kept_figs, kept_repeats, GroupCalls({infos[k].id: calls[infos[k].id] for k in keep}),
            earlier=[r for r in earlier if r.input == kind], all_runs=[infos[k] for k in mine],
            all_figs=mine_figs, all_repeats=mine_repeats,
            incomplete=[r for r in incomplete if r.input == kind],
            anchor_checks=[info for info, _ in checks if info.input == kind],
            consistency={r.run.id: r.consistency for r in scored.runs if r.run.input == kind})
    main = by_kind.pop("text")  # the leaderboards, headline included, are of text input
    main.other_inputs = by_kind
    return main


def _figures(groups: list[list], scored, declared: Declared) -> tuple[np.ndarray, np.ndarray]:
    """(groups x items x figures, groups x items): each group's combined per-item figures (with the
    declared derived columns) and repeats, written into one array as they are made (not kept in a list,
    stacked, then copied per input kind: the figures held three times over)."""
    n_items, width = len(scored.items), len(declared.figure_names)
    figs = np.empty((len(groups), n_items, width)) if groups else np.zeros((0, n_items, width))
    repeats = []
    for k, members in enumerate(groups):
        f, rep = combine(members, scored.plugin.replicates)
        figs[k] = declared.expand(f)
        repeats.append(rep)
    return figs, (np.stack(repeats) if repeats else np.zeros((0, n_items), dtype=np.int64))


def _rows(array: np.ndarray, rows: list[int]) -> np.ndarray:
    """array[rows]; the array itself when that is every row in order (the engine never writes into
    these arrays, so two SuiteData may share one instead of each holding a copy)."""
    return array if rows == list(range(len(array))) else array[rows]


class GroupCalls(Mapping):
    """run group -> the calls of its runs as calls.csv has them (dicts of strings), made when asked
    (read from the runs' artifacts), not kept."""

    def __init__(self, members: dict[str, list]) -> None:
        self.members = members  # run group -> its runs (RunScore)

    def __getitem__(self, group: str) -> list[dict]:
        return [dict(zip(CALL_COLUMNS, map(str, row))) for m in self.members[group] for row in m.calls()]

    def __iter__(self) -> Iterator[str]:
        return iter(self.members)

    def __len__(self) -> int:
        return len(self.members)



def _info(first, members: list, coverage: tuple[int, int]) -> RunInfo:
    anchors = tuple(dict.fromkeys(a for m in members for a in m.run.meta.get("anchors", []) if isinstance(a, str)))
    return RunInfo(first.id, first.model, first.provider, first.hosting, any(m.run.simulated for m in members),
                   first.meta.get("prices"), str(first.meta.get("round", "")),
                   min(str(m.run.meta.get("started", "")) for m in members), anchors,
                   tuple(m.run.id for m in members), coverage, first.input)


def _missing(r) -> set[str]:
    """The items of a run's half it has no stored response for (scored as failed calls: calls.missing_row)."""
    return {row[1] for row in r.calls() if row[4] == MISSING}


def combine(members: list, how: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-item figures and repeat counts of a group of replicate runs (RunScore)."""
    if len(members) == 1:
        return members[0].means(), members[0].repeats
    sums = np.stack([m.sums for m in members])  # k x items x figures
    reps = np.stack([m.repeats for m in members])  # k x items
    total = reps.sum(axis=0)
    out = np.full(sums.shape[1:], np.nan)
    covered = total > 0
    if how == "pooled":
        out[covered] = sums.sum(axis=0)[covered] / total[covered, None]
    else:  # mean of runs: each run's per-item mean, averaged over the runs that have the item
        has = reps > 0
        means = np.zeros(sums.shape)
        means[has] = sums[has] / reps[has][:, None]
        out[covered] = means.sum(axis=0)[covered] / has.sum(axis=0)[covered, None]
    return out, total


def split_rounds(infos: list[RunInfo]) -> tuple[list[RunInfo], list[RunInfo]]:
    """(current, earlier): per model and provider, the group of the latest round is current.

    Rounds are ordered by the date their runs declare they started (`started` in run.json), then by
    the round's name: a round's name is a label, not a date.
    """
    groups: dict[tuple[str, str, str], list[RunInfo]] = defaultdict(list)
    for info in infos:
        groups[(info.model, info.provider, info.input)].append(info)
    current, earlier = [], []
    for runs in groups.values():
        ordered = sorted(runs, key=lambda r: (r.started, r.round, r.id))
        current.append(ordered[-1])
        earlier += ordered[:-1]
    return sorted(current, key=lambda r: r.id), sorted(earlier, key=lambda r: r.id)
