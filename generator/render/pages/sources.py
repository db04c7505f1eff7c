"""Real against generated documents (stats.sources) on the suite page and the stratum pages."""

from __future__ import annotations

from ..context import Column, Table, interval, number, text
from ..gather import SuiteView
from .common import RUN_COLUMNS, metric_label, metric_scale, run_cells

NOTE = "sources.txt"  # the suite's own note on its real documents (content/suites/<suite>/sources.txt)


def source_note(sd: SuiteView) -> str:
    path = sd.suite.root / NOTE
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


def source_tables(sd: SuiteView, stratum: str | None = None) -> list[Table]:
    """The suite page (stratum None): every comparison; a stratum page: its dataset's comparison, a real
    collection's datasets' comparisons, or the suite-wide one on the source pages and the generated
    collection. Tables are exported from the suite page only."""
    comparisons = sd.stats.get("sources", {})
    if stratum is None:
        keys = sorted(comparisons, key=lambda k: (k != "all", k))
    elif stratum in comparisons:
        keys = [stratum]
    elif stratum.startswith("collection=") and stratum != "collection=generated":
        # a collection of real documents: the comparisons of the datasets it belongs to
        datasets = {i.dataset for i in sd.result.items if i.strata.get("collection") == stratum.split("=", 1)[1]}
        keys = [f"dataset={d}" for d in sorted(datasets) if f"dataset={d}" in comparisons]
    elif stratum.split("=")[0] in ("source", "collection") and "all" in comparisons:
        keys = ["all"]
    else:
        keys = []
    titles = {d.id: d.title for d in sd.suite.datasets}
    out = []
    for key in keys:
        c = comparisons[key]
        scale, unit = metric_scale(sd, c["metric"])
        unit = f" ({unit})" if unit else ""
        where = ("datasets with real documents: " + ", ".join(titles.get(d, d) for d in c["datasets"])
                 if key == "all" else titles.get(key.split("=", 1)[1], key))
        slug = "all" if key == "all" else key.split("=", 1)[1]
        t = Table(f"sources-{slug}", f"{metric_label(sd, c['metric'])} on real ({c['real_items']} items) and generated "
                                     f"({c['generated_items']} items) documents, {where}",
                  [*RUN_COLUMNS, Column("real", f"Real{unit}", True), Column("generated", f"Generated{unit}", True),
                   Column("difference", f"Real \u2212 generated [95% interval]{unit}", True),
                   Column("differs", "Differs", help="the interval on the difference excludes zero")],
                  export=f"downloads/{sd.suite.name}/sources-{slug}" if stratum is None else None)
        for run, r in sorted(c["runs"].items(), key=lambda kv: (-(kv[1].get("estimate") or 0), kv[0])):
            t.rows.append([*run_cells(sd, run), number(r["real"], scale), number(r["generated"], scale),
                           interval(r, scale), text("yes" if r["differs"] else "no", cls="flag" if r["differs"] else "")])
        out.append(t)
    return out
