"""Per suite: every metric with its interval, forest plot, pairwise calls, public vs private, balance,
per-dataset tables and links to every stratum; plus one page per stratum."""

from __future__ import annotations

import re

from ...commit.responses import covering_commitments
from ...numbers import decimals
from ..context import Cell, Column, Table, interval, number, text
from ..facts import site_facts
from ..gather import SiteData, SuiteView
from ..reported import reported_tables
from . import Page
from .common import (
    RUN_COLUMNS,
    freeze_note,
    headline_key,
    item_path,
    leaderboard,
    metric_label,
    metric_scale,
    metrics_table,
    model_path,
    pairwise_matrix,
    ranked_runs,
    run_cells,
    strata_in_order,
    stratum_path,
    stratum_title,
    suite_path,
)
from .compare import compare_pages, compared_runs
from .episodes import episodes_path, has_episodes, imported_table
from .home import headline_forest
from .input_kinds import input_sections
from .labels import label_tables
from .prompt import prompt_view
from .sources import source_note, source_tables
from .summary import run_label
from .tradeoff import tradeoff_charts


def gap_table(sd: SuiteView, export: str) -> Table:
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


def balance_tables(sd: SuiteView) -> list[dict]:
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


def stratum_links(sd: SuiteView) -> dict[str, list[dict]]:
    """Links to every stratum, by dimension, in the suite's natural order (dict order is kept)."""
    groups: dict[str, list[dict]] = {}
    for key in strata_in_order(sd):
        st = sd.stats["strata"][key]
        dim = st.get("dimension") or "all"
        groups.setdefault(dim, []).append({"title": stratum_title(key), "href": stratum_path(sd, key),
                                           "count": st["items"]})
    return groups


def stratum_block(sd: SuiteView, key: str, prefix: str, facts: dict | None = None) -> dict:
    """Headline leaderboard, forest plot, every metric and the pairwise calls of one stratum."""
    metric = sd.stats["headline"]["metric"]
    base = f"downloads/{sd.suite.name}/{prefix}"
    order, matrix, fam = pairwise_matrix(sd, key, metric)
    st = sd.stats["strata"][key]
    return {"key": key, "title": stratum_title(key), "n_items": st["items"], "not_covered": st.get("not_covered", []),
            "freeze_note": freeze_note(sd, key),
            "leaderboard": leaderboard(sd, key, metric, f"{prefix}-headline", f"{base}-headline", facts),
            "metrics": metrics_table(sd, key, f"{prefix}-metrics", f"{base}-metrics"),
            "forest": headline_forest(sd, key, metric, f"forest-{prefix}"),
            "pairwise": {"metric": metric_label(sd, metric), "order": order, "matrix": matrix,
                         "c": fam.get("c"), "rule": fam.get("rule"), "names": _short_names(sd, order)}}


def filter_views(sd: SuiteView, facts: dict | None, page_path: str) -> dict:
    """The suite page's filters (static/filters.js): the headline leaderboard and forest points of every
    stratum, precomputed, for the page to show in place from file://; each row with its run's hosting
    and, when its model's facts say, its weights ("open" or "closed"); `weights` true when any model's
    are known (the page then offers that filter). Cells are [text, sort, href, class, sub] with links
    relative to the page, trailing empty ones left out."""
    from ..charts import plain
    from ..env import relative

    metric = sd.stats["headline"]["metric"]
    scale, _ = metric_scale(sd, metric)
    names = {r: f"{i['model']} on {i['provider']}" for r, i in sd.stats["runs"].items()}

    def weights(model: str) -> str | None:  # "open", "closed", or None when the model's facts don't say
        known = getattr((facts or {}).get(model), "open_weights", None)
        return None if known is None else "open" if known else "closed"

    views = []
    for key in strata_in_order(sd):
        st = sd.stats["strata"][key]
        if not st.get("pairwise", {}).get(metric, {}).get("order"):
            continue  # no run has an estimate here
        table = leaderboard(sd, key, metric, "view", None, facts)
        rows = []
        for run, row in zip(ranked_runs(sd, st, metric), table.rows):
            e = st["metrics"].get(metric, {}).get(run) or {}
            point = None
            if e.get("estimate") is not None:
                lo, hi = (e["estimate"] if e.get(k) is None else e[k] for k in ("low", "high"))
                point = [plain(names[run]), e["estimate"] * scale, lo * scale, hi * scale]
            rows.append({"hosting": sd.stats["runs"][run]["hosting"], "point": point,
                         "cells": [_cell(c.text, c.sort, relative(c.href, page_path) if c.href else None, c.cls, c.sub)
                                   for c in row]})
            if kind := weights(sd.stats["runs"][run]["model"]):
                rows[-1]["weights"] = kind
        title = stratum_title(key)
        views.append({"key": key, "title": title, "dimension": st.get("dimension") or "all",
                      "heading": f"Headline: {title} ({st['items']} items)", "caption": table.caption,
                      "chart_title": plain(f"{metric_label(sd, metric)}, {title}"), "rows": rows})
    known = any(weights(i["model"]) for i in sd.stats["runs"].values())
    return {"views": views, "weights": known}


def _cell(text_: str, sort, href: str | None, cls: str, sub: str) -> list:
    """A filter view's cell, [text, sort, href, class, sub], without its trailing empty href, class and
    sub (filters.js reads a missing one as empty): the views repeat every row of the leaderboard."""
    cell = [text_, sort, href, cls, sub]
    while len(cell) > 2 and cell[-1] in (None, ""):
        cell.pop()
    return cell


def half_note(sd: SuiteView, key: str) -> str:
    """Which half of the items the headline ranks on (stratum `key`), and why, in a sentence or two."""
    counts = {h: sum(1 for i in sd.result.items if i.half == h) for h in ("public", "private")}
    half = sd.suite.headline_half
    if not key.startswith(f"half={half}"):  # the headline half is too small for a stratum of its own
        return (f"The headline ranks on {stratum_title(key)}: the {half} half ({counts.get(half, 0):,} items) is "
                f"too small to rank on alone (fewer than {sd.suite.min_stratum_items:,} items).")
    if half == "private":
        note = (f"The headline ranks on the private half only ({counts['private']:,} items): those items are kept "
                "unpublished (committed to, revealed only when their round retires), so no model can have been "
                "trained or tuned on them.")
        if counts["public"]:
            note += (f" The {counts['public']:,} public items show every response and verdict on their pages and "
                     "are ranked apart; a model much better there than on the private half is flagged below.")
        return note
    if counts["private"] == 0:
        return (f"The headline ranks on the public half, all {counts['public']:,} items: this benchmark publishes "
                "every document, so there is no private half, and a model may have seen them.")
    return (f"The headline ranks on the public half ({counts['public']:,} items), as this suite declares; its "
            f"{counts['private']:,} private items are ranked apart.")


def _short_names(sd: SuiteView, runs: list[str]) -> list[dict]:
    info = sd.stats["runs"]
    return [{"run": r, "label": f"{info[r]['model']} on {info[r]['provider']}"} for r in runs]


def report_tables(sd: SuiteView) -> list[Table]:
    """The suite's own analyses (Suite.report_tables), as site tables exported under downloads/<suite>/reports/."""
    from ...suite.api import Estimate
    from ..charts import report_chart

    out = []
    runs = sd.stats["runs"]
    for rt in sd.reports:
        columns = [Column(key, title, numeric=any(isinstance(r[k], (int, float, Estimate)) and r[k] is not None
                                                  and not isinstance(r[k], bool) for r in rt.rows))
                   for k, (key, title) in enumerate(zip(column_keys(rt.columns), rt.columns))]
        table = Table(f"report-{rt.id}", rt.title, columns, export=f"downloads/{sd.suite.name}/reports/{rt.id}",
                      note=rt.note)
        table.chart = report_chart(f"chart-{rt.id}", rt) if rt.chart is not None else None
        for row in rt.rows:
            cells = []
            for v in row:
                if isinstance(v, Estimate):
                    cells.append(interval({"estimate": v.value, "low": v.low, "high": v.high}, rt.scale, rt.digits))
                elif isinstance(v, int) and not isinstance(v, bool):
                    cells.append(number(v, 1.0, 0))  # a count is shown as a count, never scaled
                elif isinstance(v, float):
                    cells.append(Cell(decimals(v * rt.scale, rt.digits), repr(v), cls="num", export=(("", v),)))
                elif isinstance(v, str) and v in runs:  # a run: by its model's name, as on the leaderboards
                    cells.append(text(run_label(sd, v), href=model_path(runs[v]["model"]), sort=run_label(sd, v),
                                      export=(("", run_label(sd, v)), ("id", v))))
                else:
                    cells.append(text("\u2013" if v is None else v))
            table.rows.append(cells)
        out.append(table)
    return out


def column_keys(titles) -> list[str]:
    """Download column names from the headings ("Ours: value" -> "ours_value"), unique within the table."""
    keys: list[str] = []
    for k, title in enumerate(titles):
        key = re.sub(r"[^a-z0-9]+", "_", str(title).lower()).strip("_") or f"column_{k + 1}"
        base, n = key, 2
        while key in keys:
            key, n = f"{base}_{n}", n + 1
        keys.append(key)
    return keys


def audit_tables(sd: SuiteView) -> list[Table]:
    """Recorded verdict audits: the scorer error rate per model and for the suite, and every disagreement."""
    a = sd.audit
    if not a:
        return []
    name = sd.suite.name
    rates = Table("audit-rates", "Scorer error rate: share of audited verdicts a person judged wrong",
                  [Column("model", "Model"), Column("rate", "Error rate [95% Wilson interval]", True),
                   Column("wrong", "Judged wrong", True), Column("n", "Judged (n)", True),
                   Column("unsure", "Unsure", True), Column("stale", "Verdict changed since", True)],
                  export=f"downloads/{name}/audit-rates",
                  note="Unsure judgments are left out of n; a verdict the scorers have changed since it was "
                       "audited is counted apart.")
    rows = [(m, r, model_path(m)) for m, r in a["models"].items()] + [("all models", a["suite"], None)]
    for label, r, href in rows:
        rates.rows.append([text(label, href=href), interval(r, 100), number(r["k"], digits=0),
                           number(r["n"], digits=0), number(r["unsure"], digits=0), number(r["stale"], digits=0)])
    public = {i.id for i in sd.public_items}
    dis = Table("audit-disagreements", "Verdicts judged wrong",
                [Column("model", "Model"), Column("item", "Item"), Column("unit", sd.plugin.unit_label),
                 Column("scorer", "Scorer's verdict"), Column("right", "Right verdict"), Column("note", "Note")],
                export=f"downloads/{name}/audit-disagreements")
    for d in a["disagreements"]:
        item = text(d["item"], href=item_path(sd, d["item"]) if d["item"] in public else None)
        unit, verdict, right = (_unsealed(d[k]) for k in ("unit", "verdict", "right_verdict"))
        dis.rows.append([text(d["model"]), item, text(unit), text(verdict), text(right),
                         text(d["note"] if d["item"] in public else "(private item)")])
    return [rates, dis]


def _unsealed(value: object) -> object:
    """A private item's judged unit or verdict is stored sealed (generator/audit/record.py): shown so."""
    return "(sealed: private item)" if isinstance(value, str) and value.startswith("sealed:") else value


def incomplete_table(sd: SuiteView) -> Table | None:
    """Runs that miss items of their half: listed apart with their coverage, never ranked."""
    runs = sd.stats.get("incomplete_runs", {})
    if not runs:
        return None
    table = Table("incomplete-runs", "Incomplete runs: not ranked (a stored response is missing for some items)",
                  [Column("run", "Run"), Column("model", "Model"), Column("provider", "Provider"),
                   Column("round", "Round"), Column("coverage", "Items with a response", True)], export=None)
    for run, info in sorted(runs.items()):
        sim = " (simulated)" if info["simulated"] else ""
        check = " (anchor check: the anchor block alone, compared on its provider's page)" if info.get("anchor_check") else ""
        table.rows.append([text(run), text(info["model"] + sim), text(info["provider"]), text(info["round"]),
                           text(f"{info['items_covered']} of {info['items']}{check}", sort=info["items_covered"],
                                cls="num")])
    return table


def consistency_table(sd: SuiteView) -> Table | None:
    """Repeat consistency per run group (items answered more than once)."""
    rows = sd.stats.get("consistency", {})
    if not rows:
        return None
    table = Table("consistency", "Repeat consistency: the same answers in every repeat of an item (95% Wilson interval)",
                  [*RUN_COLUMNS, Column("documents", "Documents answered the same (%)", True),
                   Column("n_documents", "Documents repeated", True), Column("units", "Answers the same (%)", True)],
                  export=f"downloads/{sd.suite.name}/consistency")
    for run, c in sorted(rows.items()):
        table.rows.append([*run_cells(sd, run), interval(c["documents"], 100.0), number(c["documents"]["n"], digits=0),
                           interval(c["units"], 100.0)])
    return table


def item_tables(sd: SuiteView) -> tuple[dict, Table | None, Table | None]:
    """Item analysis: a summary, the items worth a look (shown) and every item (downloaded)."""
    ia = sd.stats.get("item_analysis", {})
    items = ia.get("items", {})
    if not items:
        return {}, None, None
    public = {i.id for i in sd.public_items}
    columns = [Column("item", "Item"), Column("half", "Half"), Column("runs_right", "Runs fully right", True),
               Column("runs", "Runs", True), Column("mean", "Mean of the runs", True),
               Column("discrimination", "Discrimination", True,
                      help="the correlation, across runs, between the item's value and the run's headline")]

    def row(item_id: str) -> list:
        x = items[item_id]
        return [text(item_id, href=suite_path(sd, f"items/{item_id}.html") if item_id in public else None),
                text(x["half"]), number(x["runs_right"], digits=0), number(x["runs"], digits=0),
                number(x["mean"], metric_scale(sd, sd.plugin.headline)[0]), number(x["discrimination"], digits=2)]

    # a private item is counted, never listed: whether it has a value at all and its mean over the runs
    # follow its answer key (an item with no fault to find has no value; a genuine item has no fake to catch)
    flagged = Table("items-flagged", "Items that separate no run, or rank runs against their overall order",
                    columns + [Column("why", "Why")], export=f"downloads/{sd.suite.name}/items-flagged")
    for item_id in ia.get("not_separating", []):
        if item_id in public:
            flagged.rows.append(row(item_id) + [text("every run scores the same")])
    for item_id in ia.get("against_order", []):
        if item_id in public:
            flagged.rows.append(row(item_id) + [text("negative discrimination")])
    every = Table("items-all", "Every item", columns, export=f"downloads/{sd.suite.name}/item-analysis")
    every.rows = [row(i) for i in sorted(items) if i in public]
    summary = {"items": len(items), "not_separating": len(ia.get("not_separating", [])),
               "against_order": len(ia.get("against_order", [])), "download": every.export,
               "unlisted": sum(i not in public for i in items)}
    return summary, flagged, every


def pages(site: SiteData):
    facts = site_facts(site)
    for sd in site.suites:
        yield from suite_pages(sd, facts)
        yield from compare_pages(sd)
        yield from stratum_pages(sd, facts)


def suite_pages(sd: SuiteView, facts: dict):
    """One suite's leaderboard page (with its filter views; its compare page and scripts:
    compare.compare_pages, its strata's pages: `stratum_pages`)."""
    name = sd.suite.name
    head_key = headline_key(sd)
    main = stratum_block(sd, head_key, "headline-stratum", facts)
    datasets = [stratum_block(sd, f"dataset={d.id}", f"dataset-{d.id}", facts) | {"dataset": d.title}
                for d in sd.suite.datasets if f"dataset={d.id}" in sd.stats["strata"]]
    # an all-public (or all-private) suite has no gap between halves: no empty table, no section
    gap = gap_table(sd, f"downloads/{name}/gap") if len({i.half for i in sd.result.items}) > 1 else None
    balance = balance_tables(sd)
    reports = report_tables(sd)
    consistency = consistency_table(sd)
    item_summary, flagged, every_item = item_tables(sd)
    audit = audit_tables(sd)
    inputs = input_sections(sd)
    tables = [main["leaderboard"], main["metrics"]] + ([gap] if gap is not None else []) + [d["metrics"] for d in datasets] + \
             [b["table"] for b in balance] + reports + [t for t in (consistency, flagged, every_item) if t] + audit + \
             [t for s in inputs for t in (s["board"], s["paired"])]
    tables += (labels := label_tables(sd)) + (sources := source_tables(sd))
    reported = reported_tables(sd.suite.root, name)
    tables += [r["table"] for r in reported]
    for d in datasets:
        d["leaderboard"].export = None
    ctx = {"sd": sd, "suite": sd.suite, "main": main, "datasets": datasets, "gap": gap, "balance": balance,
           "strata": stratum_links(sd), "skipped": sd.stats.get("skipped_strata", {}), "reports": reports,
           "incomplete": incomplete_table(sd), "consistency": consistency,
           "item_summary": item_summary, "items_flagged": flagged, "audit": audit,
           "method": sd.stats["method"], "tradeoffs": tradeoff_charts(sd, f"tradeoff-{name}"),
           "public_items": len(sd.public_items), "items_href": suite_path(sd, "items/index.html"),
           "episodes_href": episodes_path(sd) if has_episodes(sd) else None, "imported": imported_table(sd),
           "n_items": len(sd.result.items), "inputs": inputs,
           "sealed": {r.run.id: r.sealed for r in sd.result.runs if r.sealed},
           "sealed_commitments": covering_commitments(sd.suite.root.parents[2], sd.suite.name,
                                                      [r.run.id for r in sd.result.runs if r.sealed]),
           "filters": filter_views(sd, facts, suite_path(sd)) | {"initial": head_key}}
    ctx |= {"labels": labels, "sources": sources, "sources_note": source_note(sd), "reported": reported,
            "prompt": prompt_view(sd)}
    main["half_note"] = half_note(sd, head_key)
    ctx["compare_href"] = suite_path(sd, "compare.html") if compared_runs(sd) else None
    ctx["filters_src"] = suite_path(sd, "filter-views.js")  # loaded by filters.js when a view is asked for
    yield Page(suite_path(sd), "suite.html", sd.suite.title, ctx, tables,
               ("sort.js", "charts.js", "filters.js"))
    if len(ctx["filters"]["views"]) > 1 or ctx["filters"]["weights"]:  # the page shows its filters
        yield Page(ctx["filters_src"], "filter-views.js", f"{sd.suite.title}: views of the headline table",
                   {"filters": ctx["filters"]}, [], ())


def stratum_pages(sd: SuiteView, facts: dict):
    """One page per stratum of the suite, each made only when it is written: a stratum's pairwise matrix
    (runs x runs) is held for its own page only, never every stratum's at once."""
    name = sd.suite.name
    for key in sd.stats["strata"]:
        block = stratum_block(sd, key, "stratum", facts)
        block["leaderboard"].export = block["metrics"].export = None  # the stratum's download below
        block["metrics"].export = f"downloads/{name}/strata/{stratum_path(sd, key).rsplit('/', 1)[1][:-5]}"
        yield Page(stratum_path(sd, key), "stratum.html", f"{sd.suite.title}: {stratum_title(key)}",
                   {"sd": sd, "suite": sd.suite, "block": block, "suite_href": suite_path(sd),
                    "method": sd.stats["method"], "sources": source_tables(sd, key),
                    "sources_note": source_note(sd)}, [block["leaderboard"], block["metrics"]],
                   ("sort.js", "charts.js"))
