"""Everything the statistics engine computes for one suite, written to build/stats/<suite>/stats.json.

The file is deterministic: sorted keys, floats written by repr, no timestamps. It records the seed,
resample count and hash of every count matrix and the numpy version.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

from .anchors import anchor_comparisons
from .estimates import Draws, macro_draws, per_run, ratio_draws
from .gap import gap
from .input_kinds import input_kinds
from .inputs import SuiteData
from .items import consistency, item_analysis
from .json_stream import write_json
from .operations import QUANTILE_RULE, operations_calls
from .pair_table import PairTable, json_default
from .pairwise import MIN_CALL_DF, OVERLAP, TIE, TOO_SMALL, holm, max_t, min_detectable, overlap_calls
from .ranks import compact_letters, rank_ranges
from .resample import CHUNK, derive_seed
from .rounds import round_history
from .run_memo import OpsOf, computed
from .sources import planned_source_rows, source_gaps
from .strata import ALL, Stratum, headline_key, select_strata

FORMAT = 1
RATIO_GROUP = "ratios"  # all ratio metrics of a suite share one W per stratum
ZERO_DENOMINATOR = ("a ratio whose denominator is 0 has no value: on the full data no estimate; in a resample, "
                    "that resample is left out of the interval (counted as undefined_resamples) and of max-T")
RUN_GROUP = ("one model on one provider (model x provider), in its latest round by declared start date; several "
             "runs of it in one round are replicates, combined per item as the suite declares; earlier rounds of "
             "the same model and provider enter only the anchor comparison and the round-by-round history; a run "
             "without a stored response for every item of its half is incomplete and never ranked")


def planned_rows(data: SuiteData, resamples: int) -> int:
    strata, _ = select_strata(data.suite, data.items)
    return len(strata) * resamples * (1 + len(data.declared.dataset_means)) + planned_source_rows(data, resamples)


Keep = Callable[[Sequence], Sequence]  # a family's pairs -> what the document holds of them (family_parts.py)


def _as_is(pairs: Sequence) -> Sequence:
    return pairs


def _family(rule: str, metric: str, run_ids: list[str], point: np.ndarray, draws: np.ndarray,
            lows: np.ndarray, highs: np.ndarray, n_items: int, hib: bool, df: int, keep_pairs: Keep = _as_is) -> dict:
    keep = [r for r in range(len(run_ids)) if not np.isnan(point[r])]
    ids = [run_ids[r] for r in keep]
    est = point[keep]
    extra: dict = {"df": df}
    if rule == OVERLAP:
        c, pairs = None, overlap_calls(est, lows[keep], highs[keep], np.full(len(keep), n_items), hib)
    else:
        if rule == "max-t":  # the earlier single-step max-T, kept for comparison
            c, pairs = max_t(est, draws[:, keep], hib)
        else:
            c, pairs = holm(est, draws[:, keep], df, hib)
        extra["mde"] = min_detectable(c, np.array([p["se"] for p in pairs]), df)
    if df < MIN_CALL_DF:  # too few items for the intervals and calls to hold, whatever the rule: no call is made
        pairs = [p | {"call": TIE} for p in pairs]
        extra["too_small"] = TOO_SMALL
    order = sorted(range(len(keep)), key=lambda r: (-est[r] if hib else est[r], ids[r]))
    out_pairs = [p | {"a": ids[p["a"]], "b": ids[p["b"]]} for p in pairs]
    letters = compact_letters(order, pairs, len(keep))
    return extra | {"rule": rule, "c": c, "runs": ids, "order": [ids[r] for r in order],
                    "pairs": keep_pairs(PairTable.of(out_pairs)),
            "letters": {ids[r]: letters[r] for r in range(len(keep))},
            "rank_ranges": {ids[r]: list(rr) for r, rr in enumerate(rank_ranges(pairs, len(keep)))}}


def _stratum(data: SuiteData, st: Stratum, resamples: int, on_chunk,
             keep_pairs: Keep = _as_is) -> tuple[dict, Draws | None, list[str]]:
    suite, declared = data.suite, data.declared
    cover = _covered(data, st)
    run_ids = [data.runs[r].id for r in cover]
    out: dict[str, object] = {"dimension": st.dimension, "value": st.value, "items": len(st.positions), "runs": run_ids,
           "not_covered": [r.id for k, r in enumerate(data.runs) if k not in cover]}
    if not cover:
        if on_chunk:
            on_chunk(resamples * (1 + len(declared.dataset_means)))
        return out | {"metrics": {}, "pairwise": {}, "resampling": {}}, None, run_ids
    n = len(st.positions)
    parts = dict(_parts(data, st, cover, resamples, on_chunk))
    head = data.plugin.headline
    headline = next(p for p in parts.values() if head in p.point)
    metrics, pairwise = {}, {}
    for part in parts.values():
        for metric, point in part.point.items():
            rows, lows, highs = per_run(point, part.draws[metric], n, part.df)
            metrics[metric] = dict(zip(run_ids, rows))
            if not declared.ranked(metric):  # a count with no better direction
                continue
            pairwise[metric] = _family(suite.comparison, metric, run_ids, point, part.draws[metric], lows, highs, n,
                                       declared.higher_is_better(metric), part.df, keep_pairs)
    out |= {"metrics": metrics, "pairwise": pairwise, "resampling": {k: p.record for k, p in parts.items()}}
    return out, headline, run_ids


def _covered(data: SuiteData, st: Stratum) -> list[int]:
    """The runs (their positions) with a response to every item of the stratum."""
    return [r for r in range(len(data.runs)) if (data.repeats[r, st.positions] > 0).all()]


def _parts(data: SuiteData, st: Stratum, cover: list[int], resamples: int, on_chunk,
           only: str | None = None) -> Iterator[tuple[str, Draws]]:
    """The stratum's metric groups resampled, one at a time in the document's order: the ratio metrics,
    then each dataset mean, each with its own seed, so that one drawn alone (`only`: its name) has the
    same draws."""
    suite, declared = data.suite, data.declared
    figs, reps = _select(data.figs, cover, st.positions), _select(data.repeats, cover, st.positions)
    if only in (None, RATIO_GROUP):
        yield RATIO_GROUP, ratio_draws(figs, reps, data.figure_names, declared.spec,
                                       derive_seed(suite.name, st.key, RATIO_GROUP), resamples, on_chunk)
    if only == RATIO_GROUP:
        return
    datasets = [data.items[p].dataset for p in st.positions]
    groups = [np.flatnonzero(np.array(datasets) == d.id) for d in suite.datasets if d.id in datasets]
    for dm in declared.dataset_means:
        if only in (None, dm.name):
            yield dm.name, macro_draws(figs, reps, data.figure_names, declared.spec, dict(dm.weights), dm.times,
                                       groups, dm.name, derive_seed(suite.name, st.key, dm.name), resamples, on_chunk)


def headline_draws(data: SuiteData, st: Stratum, resamples: int,
                   on_chunk: Callable[[int], None] | None = None) -> tuple[Draws | None, list[str]]:
    """The draws of the stratum's metric group holding the headline metric, and the runs drawn: what
    _stratum's third and second values hold, bit for bit (the same runs, seed and steps), without the
    other groups, the intervals and the comparisons, for what needs only the headline's draws (sources.py,
    input_kinds.py). `on_chunk` is told of the rows of every group, as _stratum tells them."""
    cover = _covered(data, st)
    run_ids = [data.runs[r].id for r in cover]
    if on_chunk:  # the rows of the groups not drawn
        on_chunk(resamples * (len(data.declared.dataset_means) + (0 if cover else 1)))
    if not cover:
        return None, run_ids
    head = data.plugin.headline
    group = RATIO_GROUP if head in data.declared.spec else head  # as the document's "metrics" name it
    part = next((p for _, p in _parts(data, st, cover, resamples, on_chunk, group) if head in p.point), None)
    if part is None:
        raise ValueError(f"no metric group holds the headline metric {head!r}")
    return part, run_ids


def _select(array: np.ndarray, runs: list[int], positions: np.ndarray) -> np.ndarray:
    """array[runs][:, positions]: the same values, gathered in one step, and not copied at all when
    that is every run and every item in order (the engine never writes into its inputs)."""
    every_run = runs == list(range(array.shape[0]))
    every_item = len(positions) == array.shape[1] and bool(np.array_equal(positions, np.arange(array.shape[1])))
    if every_run and every_item:
        return array
    if every_run:
        return array[:, positions]
    if every_item:
        return array[runs]
    return array[np.ix_(np.asarray(runs, dtype=np.int64), positions)]


def _gaps(data: SuiteData, halves: dict[str | None, tuple[Draws, list[str]]]) -> dict:
    if "public" not in halves or "private" not in halves:
        return {}
    (pub, pub_ids), (prv, prv_ids) = halves["public"], halves["private"]
    metric = data.plugin.headline
    hib = data.declared.higher_is_better(metric)
    out = {}
    for run in sorted(set(pub_ids) & set(prv_ids)):
        a, b = pub_ids.index(run), prv_ids.index(run)
        out[run] = {"metric": metric} | gap(float(pub.point[metric][a]), float(prv.point[metric][b]),
                                           pub.draws[metric][:, a], prv.draws[metric][:, b], hib, pub.df + prv.df)
    return out


StratumPart = tuple[dict, Draws | None, list[str]]  # _stratum's: its part of the document, headline, runs
# (data, strata, resamples, on_chunk, keep_pairs, sides) -> each stratum's part, in the strata's order; by the
# time the last is taken, `sides` (a dict, empty when given) holds side_parts' values
EachStratum = Callable[[SuiteData, list[Stratum], int, Callable[[int], None] | None, Keep, dict],
                       Iterable[StratumPart]]


def side_parts(data: SuiteData, resamples: int, on_chunk: Callable[[int], None] | None = None) -> dict:
    """The parts of the document that are not per stratum and need no stratum's result, each resampled
    with its own seeds: the gaps between real and generated documents ("sources") and the boards of the
    other input kinds ("inputs"). `strata_by` computes them beside the strata (processes.py: in the
    same processes), or after them."""
    out: dict = {}
    if sources := source_gaps(data, resamples, on_chunk):  # real against generated documents
        out["sources"] = sources
    if data.other_inputs:
        out["inputs"] = input_kinds(data, resamples, _stratum)  # one board per other kind: kept in the document
    return out


def each_stratum(data: SuiteData, strata: list[Stratum], resamples: int, on_chunk: Callable[[int], None] | None,
                 keep_pairs: Keep, sides: dict) -> Iterator[StratumPart]:
    """Each stratum computed here, one after the other, then the side parts (stats/cluster.py: the strata
    on a Dask cluster)."""
    for st in strata:
        yield _stratum(data, st, resamples, on_chunk, keep_pairs)
    sides.update(side_parts(data, resamples, on_chunk))


def compute(data: SuiteData, resamples: int, on_chunk: Callable[[int], None] | None = None,
            keep_pairs: Keep = _as_is, strata_by: EachStratum = each_stratum, ops_of: OpsOf = computed) -> dict:
    """The suite's statistics document. Each family's pairs are handed to `keep_pairs` as soon as they are
    computed, and the document holds what it returns (family_parts.PartStore.put: a reference to the part
    the pairs were written to; by default the pairs themselves). `strata_by` computes the strata, `ops_of`
    each run group's operations figures (run_memo.py: RunMemo.operations keeps them in the build cache)."""
    suite, declared = data.suite, data.declared
    strata, skipped = select_strata(suite, data.items)
    out_strata: dict = {}
    halves: dict[str | None, tuple[Draws, list[str]]] = {}
    sides: dict = {}
    analysis = None
    for st, (part, headline, run_ids) in zip(strata, strata_by(data, strata, resamples, on_chunk, keep_pairs, sides),
                                             strict=True):
        out_strata[st.key] = part
        if st.dimension == "half" and headline is not None:
            halves[st.value] = (headline, run_ids)
        if st.key == ALL:  # made while the strata after it are computed (in other processes, or here)
            analysis = item_analysis(data, {r: row["estimate"] for r, row in part["metrics"]
                                            .get(data.plugin.headline, {}).items()})
    ops = {r.id: ops_of(data, r) for r in data.runs}
    doc = {
        "format": FORMAT, "suite": suite.name, "suite_version": suite.version,
        "method": {"resamples": resamples, "confidence": 0.95, "unit": "item (a whole document, ledger or case)",
                   "interval": "expanded percentile: type-7 ('linear') quantiles of the resampled values at "
                               "Phi(-t) and Phi(t), t the 0.975 quantile of Student's t with the stratum's "
                               "degrees of freedom (items - groups resampled separately)",
                   "small_sample_correction": "each resampled group's sums S_g^(b) are replaced by "
                                              "S_g + sqrt(n_g / (n_g - 1)) (S_g^(b) - S_g)",
                   "min_call_df": MIN_CALL_DF, "power_for_mde": 0.8,
                   "comparison": suite.comparison, "run_group": RUN_GROUP,
                   "replicates": data.plugin.replicates, "zero_denominator": ZERO_DENOMINATOR,
                   "latency_quantile": QUANTILE_RULE, "numpy": np.__version__, "chunk_rows": CHUNK,
                   "seed": "first 53 bits (little-endian) of SHA-256 of suite, stratum and metric group "
                           "joined by U+001F", "min_stratum_items": suite.min_stratum_items},
        "headline": {"metric": data.plugin.headline, "stratum": headline_key(suite)},
        "metrics": {m: {"higher_is_better": declared.higher_is_better(m),
                        "group": RATIO_GROUP if m in declared.spec else m} for m in declared.names()},
        "runs": {r.id: {"model": r.model, "provider": r.provider, "hosting": r.hosting, "simulated": r.simulated,
                        "round": r.round} | ({"replicates": list(r.replicates)} if len(r.replicates) > 1 else {})
                 for r in data.runs},
        "earlier_runs": {r.id: {"model": r.model, "provider": r.provider, "hosting": r.hosting,
                                "simulated": r.simulated, "round": r.round} for r in data.earlier},
        "incomplete_runs": {r.id: {"model": r.model, "provider": r.provider, "hosting": r.hosting,
                                   "simulated": r.simulated, "round": r.round, "items_covered": r.coverage[0],
                                   "items": r.coverage[1]} | ({"anchor_check": True} if r in data.anchor_checks else {})
                            for r in data.incomplete},
        "strata": out_strata, "skipped_strata": skipped, "operations": ops,
        "gap": _gaps(data, halves),
        "anchors": anchor_comparisons(data, resamples),
        "history": round_history(data, out_strata, resamples),
        "consistency": consistency(data),
        "item_analysis": analysis,
    }
    doc |= sides
    if suite.comparison == OVERLAP:
        doc["operations_calls"] = operations_calls(ops)
    return _clean(doc)


def _clean(x):
    if isinstance(x, dict):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return None if np.isnan(x) or np.isinf(x) else float(x)
    return x


def dumps(doc: dict) -> str:
    return json.dumps(doc, sort_keys=True, indent=1, allow_nan=False, ensure_ascii=False, default=json_default) + "\n"


def dump(doc: dict, fh) -> None:
    """`dumps` written to a text file, one family's pairs at a time (json_stream.py): the text of the pairs
    is never held whole, and each family's pairs are made dicts only while they are written."""
    write_json(doc, fh, indent=1, allow_nan=False)
    fh.write("\n")


def write_stats(doc: dict, out_root: Path) -> Path:
    """Write build/stats/<suite>/stats.json (through a temporary file, so a failure leaves the old one)."""
    target = out_root / doc["suite"] / "stats.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(".stats.json.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        dump(doc, fh)
    tmp.replace(target)
    return target
