"""Compare two runs of a suite (suites/<suite>/compare.html): every metric of the headline stratum for
both, with the paired difference, its interval and its corrected call as the statistics engine computed
them, and the public items where their verdicts differ, each linking to its item page.

The page itself holds the runs, the metrics and where the rest is; the rest is in scripts beside it,
loaded by static/compare.js when the reader picks runs (classic scripts, not fetch: the site works from
file://): one per run (compare/<run's file name>.js: its estimates, the pairs the statistics list it
first in, and its verdict pattern on each public item), and compare-items.js (the public items and
their verdict patterns). So the page stays small whatever the number of pairs, and the build holds
one comparison family and one run's pairs at a time (compare_pairs.py)."""

from __future__ import annotations

from collections.abc import Iterator

from ..context import fmt, interval, slug
from ..gather import BuildError, SuiteView
from . import Page
from .common import headline_key, item_path, metric_label, metric_order, metric_scale, model_path, ranked_runs, stratum_title, suite_path
from .compare_pairs import RunPairs


def compared_runs(sd: SuiteView) -> list[str]:
    """The runs on the compare page, best first: none when the headline family has fewer than two
    (the suite page then links no compare page)."""
    st = sd.stats["strata"][headline_key(sd)]
    metric = sd.stats["headline"]["metric"]
    if len(st.get("pairwise", {}).get(metric, {}).get("runs", [])) < 2:
        return []
    return [r for r in ranked_runs(sd, st, metric) if r in sd.stats["runs"]]


def page_count(sd: SuiteView) -> int:
    """How many files compare_pages writes: the page, its items' script and one script per run."""
    runs = compared_runs(sd)
    return 2 + len(runs) if runs else 0


def run_scripts(sd: SuiteView, runs: list[str]) -> dict[str, str]:
    """Each run's script, by the site's safe file name of its id (context.slug: a run id is untrusted);
    two runs whose names would meet are an error, never one file for both."""
    paths: dict[str, str] = {}
    taken: dict[str, str] = {}
    for run in runs:
        name = slug(run)
        other = taken.setdefault(name, run)
        if other != run:
            raise BuildError(f"the runs {other!r} and {run!r} of {sd.suite.name} would share the compare "
                             f"page's script {name}.js: rename one")
        paths[run] = suite_path(sd, f"compare/{name}.js")
    return paths


def compare_pages(sd: SuiteView) -> Iterator[Page]:
    """The compare page, then its items' script, then one script per run, each made as it is written."""
    runs = compared_runs(sd)
    if not runs:
        return
    from ..env import relative

    path = suite_path(sd, "compare.html")
    items_path = suite_path(sd, "compare-items.js")
    scripts = run_scripts(sd, runs)
    key = headline_key(sd)
    st = sd.stats["strata"][key]
    info = sd.stats["runs"]
    keys = metric_order(sd)
    scales = [metric_scale(sd, m) for m in keys]
    items, verdicts = _disagreements(sd, runs, path)
    data = {"stratum": stratum_title(key), "n_items": st["items"], "unit": sd.plugin.unit_label, "first": fmt(None),
            "items": relative(items_path, path),
            "runs": [{"id": r, "label": f"{info[r]['model']} on {info[r]['provider']}"
                      + (" (simulated)" if info[r]["simulated"] else ""),
                      "model": relative(model_path(info[r]["model"]), path), "src": relative(scripts[r], path)}
                     for r in runs],
            "metrics": [{"key": m, "label": metric_label(sd, m) + (f" ({unit})" if unit else ""), "scale": scale,
                         "higher_is_better": sd.declared.higher_is_better(m),
                         "rule": st.get("pairwise", {}).get(m, {}).get("rule") or ""}
                        for m, (scale, unit) in zip(keys, scales)]}
    with RunPairs(st, [(m, scale) for m, (scale, _) in zip(keys, scales)], runs) as pairs:
        yield Page(path, "compare.html", f"{sd.suite.title}: compare two runs",
                   {"suite": sd.suite, "suite_href": suite_path(sd), "data": data, "method": sd.stats["method"]},
                   [], ("compare.js",))
        yield Page(items_path, "compare-items.js", f"{sd.suite.title}: the items of the compare page",
                   {"items": items}, [], ())
        del items
        for run in runs:
            others, aligned = pairs.of(run)
            shown = [interval(st["metrics"].get(m, {}).get(run), scale).text for m, (scale, _) in zip(keys, scales)]
            yield Page(scripts[run], "compare-run.js", f"{sd.suite.title}: {run} on the compare page",
                       {"run": {"run": run, "shown": shown, "others": others, "pairs": aligned,
                                "verdicts": verdicts.pop(run)}}, [], ())


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
    verdicts: dict[str, int] = {}  # verdict name -> its index, in the order first met
    names: dict[str, int] = {}  # unit name -> its index in `units`
    items = []
    try:
        for first in range(0, len(public), BUNDLE):
            bundle = public[first:first + BUNDLE]
            read = [(r.run.id, r.first_repeat(bundle)) for r in shown]
            for k, item in enumerate(bundle, first):
                units: dict[str, int] = {}  # the item's units -> their index, in the order first met
                patterns: list[list[int]] = [[]]
                # Two runs' patterns are equal exactly when their rows are (a unit's or verdict's index never
                # changes once given), so each distinct rows' pattern is made once; no rows of the first
                # repeat make the pattern [], pattern 0, as no response does
                seen: dict[tuple[tuple[str, str], ...], int] = {}
                for run, of_run in read:
                    rows = of_run.get(item)
                    if rows is None:
                        continue
                    index = seen.get(rows)
                    if index is None:
                        pattern: list[int] = []
                        for unit, verdict in rows:
                            pattern += (units.setdefault(unit, len(units)), verdicts.setdefault(verdict, len(verdicts)))
                        if pattern not in patterns:  # only "[]", which the list holds first
                            patterns.append(pattern)
                        index = seen[rows] = patterns.index(pattern)
                    out[run][k] = index
                items.append([item, relative(item_path(sd, item), page_path),
                              [names.setdefault(u, len(names)) for u in units], patterns])
    finally:
        for r in sd.result.runs:
            r.close()
    return {"list": items, "verdicts": list(verdicts), "units": list(names)}, out
