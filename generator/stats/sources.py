"""Real against generated documents: each run's headline on the real and on the generated items of the
datasets holding real documents (the generated side restricted to the same datasets, so that like is
compared with like) and of each such dataset, and the difference real - generated with its interval.

Only for a suite with a `source` stratum holding both `real` and `generated`. Each side is a stratum
resampled as the engine resamples any stratum (its own seed from its key); the two sides hold
different items, so their resamples are independent and the difference's draws are the row-by-row
differences of the same run's draws on each side, with the percentile interval: the engine's
public-versus-private gap (stats.gap), with real in place of public. A side smaller than the
suite's minimum stratum size is not compared.
"""

from __future__ import annotations

import numpy as np

from .gap import gap
from .inputs import SuiteData
from .strata import Stratum

DIMENSION, REAL, GENERATED = "source", "real", "generated"


def _side(data: SuiteData, datasets: set[str], value: str, key: str) -> Stratum:
    pos = np.array([k for k, item in enumerate(data.items) if item.strata.get(DIMENSION) == value
                    and item.dataset in datasets], dtype=np.int64)
    return Stratum(f"{key},{DIMENSION}={value}", DIMENSION, value, pos)


def _sides(data: SuiteData) -> list[tuple[str, list[str], Stratum, Stratum]]:
    """(key, datasets, real side, generated side) of every comparison made."""
    if DIMENSION not in data.suite.strata:
        return []
    with_real = {item.dataset for item in data.items if item.strata.get(DIMENSION) == REAL}
    out = []
    for key, datasets in [("all", with_real)] + [(f"dataset={d}", {d}) for d in sorted(with_real)]:
        real, generated = _side(data, datasets, REAL, key), _side(data, datasets, GENERATED, key)
        if min(len(real.positions), len(generated.positions)) >= data.suite.min_stratum_items:
            out.append((key, sorted(datasets), real, generated))
    return out


def planned_source_rows(data: SuiteData, resamples: int) -> int:
    """Resample rows source_gaps computes (for the progress bar)."""
    return 2 * len(_sides(data)) * resamples * (1 + len(data.declared.dataset_means))


def source_gaps(data: SuiteData, resamples: int, on_chunk=None) -> dict:
    """{"all" | "dataset=<id>": {"metric", "datasets", "real_items", "generated_items", "runs": {run: row}}};
    {} without both sources."""
    from .engine import headline_draws  # the engine's resampling (imported here: the engine imports this module)

    metric = data.plugin.headline
    hib = data.declared.higher_is_better(metric)
    out = {}
    for key, datasets, real, generated in _sides(data):
        (r_draws, r_ids), (g_draws, g_ids) = (headline_draws(data, st, resamples, on_chunk) for st in (real, generated))
        if r_draws is None or g_draws is None:
            continue
        runs = {}
        for run in sorted(set(r_ids) & set(g_ids)):
            a, b = r_ids.index(run), g_ids.index(run)
            row = gap(float(r_draws.point[metric][a]), float(g_draws.point[metric][b]),
                      r_draws.draws[metric][:, a], g_draws.draws[metric][:, b], hib, r_draws.df + g_draws.df)
            differs = row["low"] is not None and (row["low"] > 0 or row["high"] < 0)
            runs[run] = {"real": row["public"], "generated": row["private"], "estimate": row["estimate"],
                         "low": row["low"], "high": row["high"], "differs": bool(differs)}
        out[key] = {
            "metric": metric, "datasets": datasets, "real_items": len(real.positions), "generated_items": len(generated.positions),
            "runs": runs}
    return out
