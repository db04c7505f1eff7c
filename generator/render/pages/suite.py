"""Per suite: every metric with its interval, forest plot, pairwise calls, public vs private, balance,
per-dataset tables and links to every stratum; plus one page per stratum."""

from __future__ import annotations

from ..context import Column, Table, interval, number, text
from ..gather import SiteData, SuiteData
from . import Page
from .common import (
    RUN_COLUMNS, headline_key, leaderboard, metric_label, metric_scale, metrics_table, pairwise_matrix, run_cells,
    stratum_path, stratum_title, suite_path,
)
from .home import headline_forest
from .tradeoff import tradeoff_charts


def gap_table(sd: SuiteData, export: str) -> Table:
    metric = sd.stats["headline"]["metric"]
    scale, unit = metric_scale(sd, metric)
    unit = f" ({unit})" if unit else ""
    table = Table("gap-table", f"{metric_label(sd, metric)} on the public and the private half, and the gap",
                  [*RUN_COLUMNS, Column("public", f"Public half{unit}", True),
                   Column("private", f"Private half{unit}", True),
                   Column("gap", f"Gap, public \u2212 private [95% interval]{unit}", True),
                   Column("flagged", "Flagged", help="the interval on the gap excludes zero")], export=export)
    for run, g in sorted(sd.stats.get("gap", {}).items(), key=lambda kv: (-(kv[1].get("estimate") or 0), kv[0])):
        flag = "yes: the gap is significant" if g.get("flagged") else "no"
        table.rows.append([*run_cells(sd, run), number(g.get("public"), scale), number(g.get("private"), scale),
                           interval(g, scale), text(flag, cls="flag" if g.get("flagged") else "")])
    return table


def balance_tables(sd: SuiteData) -> list[dict]:
    out = []
    for ds, rep in sorted((sd.balance or {}).get("datasets", {}).items()):
        t = Table(f"balance-{ds}", f"{ds}: public and private halves feature by feature",
                  [Column("feature", "Feature"), Column("public", "Public", True), Column("private", "Private", True),
                   Column("d", "Standardised difference d", True), Column("flag", "Flag")],
                  export=f"downloads/{sd.suite.name}/balance-{ds}")
        for name, f in sorted(rep.get("features", {}).items()):
            flag = text(f.get("flag"), cls="flag" if f.get("flag") != "ok" else "")
            t.rows.append([text(name), number(f.get("public"), digits=3), number(f.get("private"), digits=3),
                           number(f.get("d"), digits=3), flag])
        out.append({"dataset": ds, "n_items": rep.get("n_items", {}), "max_abs_d": rep.get("max_abs_d"),
                    "imbalanced": rep.get("imbalanced", []), "table": t})
    return out


def stratum_links(sd: SuiteData) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for key, st in sd.stats["strata"].items():
        dim = st.get("dimension") or "all"
        groups.setdefault(dim, []).append({"title": stratum_title(key), "href": stratum_path(sd, key),
                                           "count": st["items"]})
    return groups


def stratum_block(sd: SuiteData, key: str, prefix: str) -> dict:
    """Headline leaderboard, forest plot, every metric and the pairwise calls of one stratum."""
    metric = sd.stats["headline"]["metric"]
    base = f"downloads/{sd.suite.name}/{prefix}"
    order, matrix, fam = pairwise_matrix(sd, key, metric)
    st = sd.stats["strata"][key]
    return {"key": key, "title": stratum_title(key), "n_items": st["items"], "not_covered": st.get("not_covered", []),
            "leaderboard": leaderboard(sd, key, metric, f"{prefix}-headline", f"{base}-headline"),
            "metrics": metrics_table(sd, key, f"{prefix}-metrics", f"{base}-metrics"),
            "forest": headline_forest(sd, key, metric, f"forest-{prefix}"),
            "pairwise": {"metric": metric_label(sd, metric), "order": order, "matrix": matrix,
                         "c": fam.get("c"), "rule": fam.get("rule"), "names": _short_names(sd, order)}}


def _short_names(sd: SuiteData, runs: list[str]) -> list[dict]:
    info = sd.stats["runs"]
    return [{"run": r, "label": f"{info[r]['model']} on {info[r]['provider']}"} for r in runs]


def pages(site: SiteData):
    for sd in site.suites:
        name = sd.suite.name
        head_key = headline_key(sd)
        main = stratum_block(sd, head_key, "headline-stratum")
        datasets = [stratum_block(sd, f"dataset={d.id}", f"dataset-{d.id}") | {"dataset": d.title}
                    for d in sd.suite.datasets if f"dataset={d.id}" in sd.stats["strata"]]
        gap = gap_table(sd, f"downloads/{name}/gap")
        balance = balance_tables(sd)
        tables = [main["leaderboard"], main["metrics"], gap] + [d["metrics"] for d in datasets] + \
                 [b["table"] for b in balance]
        for d in datasets:
            d["leaderboard"].export = None
        ctx = {"sd": sd, "suite": sd.suite, "main": main, "datasets": datasets, "gap": gap, "balance": balance,
               "strata": stratum_links(sd), "skipped": sd.stats.get("skipped_strata", {}),
               "method": sd.stats["method"], "tradeoffs": tradeoff_charts(sd, f"tradeoff-{name}"),
               "public_items": len(sd.public_items), "items_href": suite_path(sd, "items/index.html"),
               "n_items": len(sd.result.items)}
        yield Page(suite_path(sd), "suite.html", sd.suite.title, ctx, tables, ("sort.js", "charts.js"))
        for key in sd.stats["strata"]:
            block = stratum_block(sd, key, "stratum")
            block["leaderboard"].export = block["metrics"].export = None  # the stratum's download below
            block["metrics"].export = f"downloads/{name}/strata/{stratum_path(sd, key).rsplit('/', 1)[1][:-5]}"
            yield Page(stratum_path(sd, key), "stratum.html", f"{sd.suite.title}: {stratum_title(key)}",
                       {"sd": sd, "suite": sd.suite, "block": block, "suite_href": suite_path(sd),
                        "method": sd.stats["method"]}, [block["leaderboard"], block["metrics"]],
                       ("sort.js", "charts.js"))
