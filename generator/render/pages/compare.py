"""Compare two runs of a suite (suites/<suite>/compare.html): every metric of the headline stratum for
both, with the paired difference, its interval and its corrected call as the statistics engine computed
them, and the public items where their verdicts differ, each linking to its item page. The page shows
any pair the reader chooses (static/compare.js) from data embedded in it, so it works from file://."""

from __future__ import annotations

from ..context import fmt, interval
from ..gather import SuiteView
from . import Page
from .common import headline_key, item_path, metric_label, metric_order, metric_scale, model_path, ranked_runs, stratum_title, suite_path


def compare_data(sd: SuiteView, page_path: str) -> dict:
    from ..env import relative

    key = headline_key(sd)
    st = sd.stats["strata"][key]
    metric = sd.stats["headline"]["metric"]
    info = sd.stats["runs"]
    runs = [r for r in ranked_runs(sd, st, metric) if r in info]
    metrics = []
    for m in metric_order(sd):
        scale, unit = metric_scale(sd, m)
        fam = st.get("pairwise", {}).get(m, {})
        pairs = {f"{p['a']}|{p['b']}": [p.get("diff"), p.get("low"), p.get("high"), p.get("call")]
                 for p in fam.get("pairs", [])}
        metrics.append({
            "key": m, "label": metric_label(sd, m) + (f" ({unit})" if unit else ""), "scale": scale,
            "higher_is_better": sd.declared.higher_is_better(m), "rule": fam.get("rule") or "",
            "shown": {r: interval(st["metrics"].get(m, {}).get(r), scale).text for r in runs},
            "pairs": {k: [None if v is None or isinstance(v, str) else v * scale for v in p[:3]] + [p[3]]
                      for k, p in pairs.items()}})
    items, signatures = _disagreements(sd, runs, page_path)
    return {"stratum": stratum_title(key), "n_items": st["items"],
            "runs": [{"id": r, "label": f"{info[r]['model']} on {info[r]['provider']}"
                      + (" (simulated)" if info[r]["simulated"] else ""),
                      "model": relative(model_path(info[r]["model"]), page_path)} for r in runs],
            "metrics": metrics, "items": items, "verdicts": signatures,
            "unit": sd.plugin.unit_label, "first": fmt(None)}


BUNDLE = 512  # public items whose verdicts are read from each run at once


def _disagreements(sd: SuiteView, runs: list[str], page_path: str) -> tuple[dict, dict]:
    """Public items in id order, each [id, its page, its units, its distinct verdict patterns], and per run
    the index of its pattern for each item. An item's units are indices into `units`, the suite's unit
    names, each written once (items share most of theirs). A pattern is [unit index, verdict index, unit
    index, verdict index, ...] (flat: the page is smaller; a unit index is a position in the item's units)
    over the item's first repeat (verdict names in `verdicts`); pattern 0 is "no response". Two runs
    disagree on an item when their pattern indices differ. Each run's verdicts are read a bundle of
    items at a time (RunScore.first_repeat), the runs in the suite's order."""
    from ..env import relative

    public = sorted(i.id for i in sd.public_items)
    out: dict[str, list[int]] = {r: [0] * len(public) for r in runs}
    shown = [r for r in sd.result.runs if r.run.id in out]
    verdicts: list[str] = []
    names: dict[str, int] = {}  # unit name -> its index in `units`
    items = []
    try:
        for first in range(0, len(public), BUNDLE):
            bundle = public[first:first + BUNDLE]
            read = [(r.run.id, r.first_repeat(bundle)) for r in shown]
            for k, item in enumerate(bundle, first):
                units: list[str] = []
                patterns: list[list[int]] = [[]]
                for run, of_run in read:
                    rows = of_run.get(item)
                    if rows is None:
                        continue
                    pattern: list[int] = []
                    for unit, verdict in rows:
                        if unit not in units:
                            units.append(unit)
                        if verdict not in verdicts:
                            verdicts.append(verdict)
                        pattern += (units.index(unit), verdicts.index(verdict))
                    if pattern not in patterns:
                        patterns.append(pattern)
                    out[run][k] = patterns.index(pattern)
                items.append([item, relative(item_path(sd, item), page_path),
                              [names.setdefault(u, len(names)) for u in units], patterns])
    finally:
        for r in sd.result.runs:
            r.close()
    return {"list": items, "verdicts": verdicts, "units": list(names)}, out


def compare_page(sd: SuiteView) -> Page:
    path = suite_path(sd, "compare.html")
    return Page(path, "compare.html", f"{sd.suite.title}: compare two runs",
                {"suite": sd.suite, "suite_href": suite_path(sd), "data": compare_data(sd, path),
                 "method": sd.stats["method"]}, [], ("compare.js",))
