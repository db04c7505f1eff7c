"""Point estimates and bootstrap draws of ratio metrics and of a macro headline, for the runs of a stratum.

Inputs are per-item figures (runs x items x figures, items sorted by id) and the repeat counts behind
them. One W per (suite, stratum, metric group) is shared by every run and every metric of the group, so
differences between runs are paired. Each group's resampled sums are widened by sqrt(n_g / (n_g - 1))
around its full-data sums (resample.widen) before any metric is computed, and the draws carry the
degrees of freedom of the design: the items minus the groups resampled separately (N - G).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .quantiles import interval
from .ratios import Spec, build_block, clip_to_items, combine_weighted, integer_scale, macro_mean, ratio_values, shares, used_figures
from .resample import CountMatrix, resample_sums, widen


@dataclass
class Draws:
    point: dict[str, np.ndarray]  # metric -> (runs,)
    draws: dict[str, np.ndarray]  # metric -> (B x runs)
    record: dict  # seed, resamples, hash of W, ...
    df: int = 0  # degrees of freedom of the resampled design: items - groups (N - G)


def ratio_draws(figs: np.ndarray, repeats: np.ndarray, names: Sequence[str], ratios: Spec,
                seed: int, resamples: int, on_chunk: Callable[[int], None] | None = None, *,
                correct: bool = True) -> Draws:
    """Every ratio metric of the group, resampled over all items (one group). `correct=False` leaves out
    the small-sample correction (the rule before it, kept for the coverage bench)."""
    runs, n = figs.shape[0], figs.shape[1]
    used = list(used_figures(ratios))
    block, scale = integer_scale(build_block(figs, names, used), repeats)
    w = CountMatrix(seed, [n], resamples)
    sums = resample_sums(w, [block], on_chunk)[0]
    if correct:
        sums = widen(sums, block.sum(axis=0), n)
    draws = ratio_values(sums, runs, used, ratios, scale * n, scale)
    if correct:
        draws = clip_to_items(draws, block, runs, used, ratios, scale)
    return Draws(_ratio_point(block, scale, runs, n, used, ratios), draws,
                 w.record() | {"exact_sums": scale > 1 or _whole(block)}, n - 1)


def macro_draws(figs: np.ndarray, repeats: np.ndarray, names: Sequence[str], ratios: Spec,
                weights: Mapping[str, float], scale_to: float, groups: Sequence[np.ndarray], metric: str,
                seed: int, resamples: int, on_chunk: Callable[[int], None] | None = None, *,
                correct: bool = True) -> Draws:
    """The headline: within each group (dataset) the weighted ratios, then the groups' equal-weight mean.
    Resampled within each group (a stratified W): every group keeps its number of items, and each
    group's sums are widened by its own sqrt(n_g / (n_g - 1)) (unless `correct` is False)."""
    runs = figs.shape[0]
    sub = {m: ratios[m] for m in weights}
    used = list(used_figures(sub))
    block, scale = integer_scale(build_block(figs, names, used), repeats)
    blocks = [block[g] for g in groups]
    w = CountMatrix(seed, [len(g) for g in groups], resamples)
    sums = resample_sums(w, blocks, on_chunk)
    if correct:
        sums = [widen(s, b.sum(axis=0), len(b)) for s, b in zip(sums, blocks)]
    per_group = [combine_weighted(ratio_values(s, runs, used, sub, scale * len(g), scale), weights, scale_to)
                 for s, g in zip(sums, groups)]
    draws = macro_mean(per_group)
    if correct:  # a weighted mean of shares stays within [0, scale_to] (clipped as the index, not per group)
        ok = np.ones(runs, dtype=bool)
        for b in blocks:
            for m, share in shares(b, runs, used, sub, scale).items():
                ok &= share | (weights[m] == 0)
        ok &= all(w >= 0 for w in weights.values())
        draws = np.where(ok, np.clip(draws, 0.0, scale_to), draws)
    return Draws({metric: _macro_point(blocks, scale, runs, used, sub, weights, scale_to)},
                 {metric: draws},
                 w.record() | {"exact_sums": scale > 1 or _whole(block)}, sum(len(g) for g in groups) - len(groups))


def _ratio_point(block: np.ndarray, scale: int, runs: int, n: int, used: list[str], ratios: Spec) -> dict:
    return {m: v[0] for m, v in ratio_values(block.sum(axis=0)[None, :], runs, used, ratios, scale * n,
                                              scale).items()}


def _macro_point(blocks: Sequence[np.ndarray], scale: int, runs: int, used: list[str], sub: Spec,
                 weights: Mapping[str, float], scale_to: float) -> np.ndarray:
    per_group = [combine_weighted(ratio_values(b.sum(axis=0)[None, :], runs, used, sub, scale * len(b), scale),
                                  weights, scale_to) for b in blocks]
    return macro_mean(per_group)[0]


def point_estimates(figs: np.ndarray, repeats: np.ndarray, names: Sequence[str], ratios: Spec,
                    dataset_means: Sequence[tuple[str, Mapping[str, float], float]],
                    groups: Sequence[np.ndarray]) -> dict[str, np.ndarray]:
    """Every metric's estimate per run (runs x items x figures in), computed exactly as the engine's
    point estimates are: the rescore summary and the statistics come from this one computation."""
    runs, n = figs.shape[0], figs.shape[1]
    used = list(used_figures(ratios))
    block, scale = integer_scale(build_block(figs, names, used), repeats)
    out = _ratio_point(block, scale, runs, n, used, ratios)
    for metric, weights, scale_to in dataset_means:
        sub = {m: ratios[m] for m in weights}
        sub_used = list(used_figures(sub))
        sub_block, sub_scale = integer_scale(build_block(figs, names, sub_used), repeats)
        out[metric] = _macro_point([sub_block[g] for g in groups], sub_scale, runs, sub_used, sub, weights, scale_to)
    return out


def _whole(block: np.ndarray) -> bool:
    return bool(np.all(block == np.rint(block)))


def per_run(point: np.ndarray, draws: np.ndarray, n_items: int,
            df: int | None = None) -> tuple[list[dict], np.ndarray, np.ndarray]:
    """Each run's estimate, 95% percentile interval over the resamples where it has a value (expanded for
    df degrees of freedom, see quantiles.interval_probs), and n."""
    ci = interval(draws, df)
    rows = []
    for r in range(len(point)):
        defined = not np.isnan(point[r])
        rows.append({"estimate": float(point[r]) if defined else None,
                     "low": float(ci[0, r]) if defined and not np.isnan(ci[0, r]) else None,
                     "high": float(ci[1, r]) if defined and not np.isnan(ci[1, r]) else None,
                     "n": n_items, "undefined_resamples": int(np.isnan(draws[:, r]).sum())})
    return rows, ci[0], ci[1]
