"""Each run group's headline score per round, with its 95% interval: the history a model page shows
when a suite has more than one round.

For every model on a provider that ran in more than one round, each round's run group gets the
suite's headline metric on the headline stratum (the one the leaderboard ranks on), computed exactly
as the leaderboard computes it: the same items, the same seed (suite, stratum, metric group) and so
the same resampled items, the same percentile interval. The current round's figure is the
leaderboard's own; an earlier round's is what the leaderboard would have shown for it. Rounds are
ordered by the date their runs declare they started, then by name (inputs.split_rounds). A round
whose run does not cover every item of the stratum has no figure (listed with `covered: false`).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from .estimates import Draws, macro_draws, per_run, ratio_draws
from .inputs import RunInfo, SuiteData
from .resample import derive_seed
from .strata import Stratum, headline_choices, select_strata

RATIO_GROUP = "ratios"  # as engine.RATIO_GROUP: the seed of the ratio metrics' count matrix


def headline_stratum(data: SuiteData) -> Stratum | None:
    """The stratum the leaderboard ranks on (strata.headline_choices: the first one with enough items)."""
    strata = {st.key: st for st in select_strata(data.suite, data.items)[0]}
    return next((strata[k] for k in headline_choices(data.suite) if k in strata), None)


def headline_draws(data: SuiteData, st: Stratum, positions: list[int], resamples: int) -> tuple[str, Draws]:
    """(metric group, draws) of the headline metric for the runs at `positions` of data.all_runs, as
    engine._stratum draws it for the leaderboard."""
    declared, head = data.declared, data.plugin.headline
    assert data.all_figs is not None and data.all_repeats is not None  # suite_data fills them
    figs = data.all_figs[positions][:, st.positions, :]
    reps = data.all_repeats[positions][:, st.positions]
    for dm in declared.dataset_means:
        if dm.name == head:
            datasets = [data.items[p].dataset for p in st.positions]
            groups = [np.flatnonzero(np.array(datasets) == d.id) for d in data.suite.datasets if d.id in datasets]
            return dm.name, macro_draws(figs, reps, data.figure_names, declared.spec, dict(dm.weights), dm.times,
                                        groups, dm.name, derive_seed(data.suite.name, st.key, dm.name), resamples)
    return RATIO_GROUP, ratio_draws(figs, reps, data.figure_names, declared.spec,
                                    derive_seed(data.suite.name, st.key, RATIO_GROUP), resamples)


def round_history(data: SuiteData, leaderboard: dict, resamples: int) -> dict:
    """{"metric", "stratum", "groups": [{"model", "provider", "rounds": [...]}]} for the run groups with
    more than one round; {} when there are none. `leaderboard`: the engine's strata output."""
    st = headline_stratum(data)
    if not data.earlier or st is None:
        return {}
    head = data.plugin.headline
    current = {(r.model, r.provider): r for r in data.runs}
    series: dict[tuple[str, str], list[RunInfo]] = defaultdict(list)
    for r in data.earlier:
        series[(r.model, r.provider)].append(r)
    pos = {r.id: k for k, r in enumerate(data.all_runs)}
    repeats = data.all_repeats
    assert repeats is not None
    earlier = [r for key in sorted(series) for r in series[key] if (repeats[pos[r.id], st.positions] > 0).all()]
    rows: dict[str, dict] = {}
    if earlier:
        _, draws = headline_draws(data, st, [pos[r.id] for r in earlier], resamples)
        found, _, _ = per_run(draws.point[head], draws.draws[head], len(st.positions), draws.df)
        rows = dict(zip((r.id for r in earlier), found))
    board = leaderboard.get(st.key, {}).get("metrics", {}).get(head, {})
    groups = []
    for model, provider in sorted(series):
        runs = series[(model, provider)] + [current[(model, provider)]]
        runs.sort(key=lambda r: (r.started, r.round, r.id))
        out = []
        for r in runs:
            est = board.get(r.id) if r is current[(model, provider)] else rows.get(r.id)
            out.append({"round": r.round, "run": r.id, "started": r.started, "simulated": r.simulated,
                        "current": r is current[(model, provider)], "covered": est is not None}
                       | {k: (est or {}).get(k) for k in ("estimate", "low", "high")})
        groups.append({"model": model, "provider": provider, "rounds": out})
    return {"metric": head, "stratum": st.key, "groups": groups}
