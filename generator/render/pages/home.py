"""The home page: each suite's headline leaderboard first (table and chart), with intervals, rank ranges
and letters; one line explains them and links the guide."""

from __future__ import annotations

from ..charts import forest
from ..facts import site_facts
from ..gather import SiteData
from ..prose import HOME_SNIPPET
from . import Page
from .common import (
    headline_key,
    leaderboard,
    metric_label,
    metric_scale,
    ranked_runs,
    run_names,
    stratum_title,
    suite_path,
)
from .summary import cross_suite


def headline_forest(sd, key: str, metric: str, div_id: str) -> dict:
    st = sd.stats["strata"][key]
    names = run_names(sd)
    scale, unit = metric_scale(sd, metric)
    rows = []
    for run in ranked_runs(sd, st, metric):
        e = st["metrics"].get(metric, {}).get(run) or {}
        if e.get("estimate") is not None:
            lo, hi = (e["estimate"] if e.get(k) is None else e[k] for k in ("low", "high"))
            rows.append((names[run], e["estimate"] * scale, lo * scale, hi * scale))
    return forest(div_id, f"{metric_label(sd, metric)}, {stratum_title(key)}", rows, unit or "points")


def pages(site: SiteData):
    blocks = []
    tables = []
    facts = site_facts(site)
    for sd in site.suites:
        key, metric = headline_key(sd), sd.stats["headline"]["metric"]
        table = leaderboard(sd, key, metric, f"headline-{sd.suite.name}", f"downloads/{sd.suite.name}/headline",
                            facts)
        tables.append(table)
        fam = sd.stats["strata"][key]["pairwise"].get(metric, {})
        blocks.append({"suite": sd.suite, "href": suite_path(sd), "table": table, "c": fam.get("c"),
                       "rule": fam.get("rule"), "metric": metric_label(sd, metric), "stratum": stratum_title(key),
                       "resamples": sd.stats["method"]["resamples"],
                       "chart": headline_forest(sd, key, metric, f"forest-{sd.suite.name}")})
    guide = next((p for p in site.pages if p.name == HOME_SNIPPET), None)  # linked, not repeated: ranking first
    yield Page("index.html", "home.html", "Leaderboard", {"blocks": blocks, "guide": guide, "summary": cross_suite(site)}, tables,
               ("sort.js", "charts.js"))
