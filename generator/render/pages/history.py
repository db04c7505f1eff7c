"""A model's history on a suite: its headline score per round, with the 95% interval, when it ran in
more than one round (the statistics' `history`, stats/rounds.py): a table and a small chart."""

from __future__ import annotations

from ..charts import forest
from ..context import Column, Table, interval, text
from ..gather import SuiteView
from .common import metric_label, metric_scale, stratum_title


def history_section(sd: SuiteView, model: str) -> dict | None:
    """{"table", "chart"} of the model's rounds on every provider it has more than one round on, or None."""
    hist = sd.stats.get("history") or {}
    groups = [g for g in hist.get("groups", []) if g["model"] == model]
    if not groups:
        return None
    metric = hist["metric"]
    scale, unit = metric_scale(sd, metric)
    where = stratum_title(hist["stratum"])
    table = Table(f"history-{sd.suite.name}", f"{model} in {sd.suite.title}, round by round: "
                  f"{metric_label(sd, metric)}, {where} (95% interval)",
                  [Column("provider", "Provider"), Column("round", "Round"), Column("started", "Started"),
                   Column("run", "Run"), Column(metric, metric_label(sd, metric), True),
                   Column("shown", "On the leaderboard")], export=None,
                  note="Rounds in the order their runs declare they started. An earlier round's figure is "
                       "computed as the leaderboard computes the current one (the same items, resamples and "
                       "seed); only the current round is ranked. \u2013: the run does not cover every item.")
    rows = []
    for g in groups:
        for r in g["rounds"]:
            sim = " (simulated)" if r["simulated"] else ""
            table.rows.append([text(g["provider"]), text(r["round"]), text(r["started"][:10]), text(r["run"] + sim),
                               interval(r if r["covered"] else None, scale),
                               text("yes, the current round" if r["current"] else "no, an earlier round")])
            if r["covered"]:
                lo, hi = (r["estimate"] if r[k] is None else r[k] for k in ("low", "high"))
                rows.append((f"{g['provider']}, round {r['round']} ({r['started'][:10]}){sim}",
                             r["estimate"] * scale, lo * scale, hi * scale))
    chart = forest(f"history-chart-{sd.suite.name}", f"{metric_label(sd, metric)} by round, {where}", rows,
                   unit or "points") if rows else None
    return {"table": table, "chart": chart}
