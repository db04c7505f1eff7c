"""Per model: every suite and provider, and cost or latency against accuracy (dominance only where
the engine called the accuracy difference significant)."""

from __future__ import annotations

from ..context import Column, Table, interval, number, shown, text
from ..facts import FACT_COLUMNS, shown_fact, site_facts
from ..gather import SiteData
from . import Page
from .common import (
    cost_cell,
    fact_cells,
    metric_heading,
    metric_scale,
    model_path,
    provider_path,
    stratum_title,
    suite_path,
)
from .history import history_section
from .tradeoff import headline_family, tradeoff_charts


def pages(site: SiteData):
    models: dict[str, list] = {}
    for sd in site.suites:
        for run, i in sd.stats["runs"].items():
            models.setdefault(i["model"], []).append((sd, run))
    facts = site_facts(site)
    index = Table("models", "Every model on this site, with its facts (content/models.toml)",
                  [Column("model", "Model", priority="key"), Column("providers", "Providers"),
                   Column("suites", "Suites", priority="low"),
                   *[Column(k, t, k == "context_window", priority="low" if k != "organisation" else "")
                     for k, t in FACT_COLUMNS]], export="downloads/models",
                  note="A fact left out of content/models.toml is shown as \u201c\u2013\u201d. Simulated models are "
                       "example data: their facts describe the simulation, not a real model.")
    for model, pairs in sorted(models.items()):
        sim = any(sd.stats["runs"][r]["simulated"] for sd, r in pairs)
        index.rows.append([text(model + (" (simulated)" if sim else ""), href=model_path(model), sort=shown(model)),
                           text(", ".join(sorted({sd.stats["runs"][r]["provider"] for sd, r in pairs}))),
                           text(", ".join(dict.fromkeys(sd.suite.title for sd, _ in pairs))),
                           *fact_cells(facts, model, always=True)])
    yield Page("models/index.html", "models.html", "Models", {"table": index}, [index])
    for model, pairs in sorted(models.items()):
        sections = []
        for sd in site.suites:
            runs = sorted(r for s, r in pairs if s is sd)
            if not runs:
                continue
            key, st, _fam = headline_family(sd)
            metric = sd.stats["headline"]["metric"]
            extra = [m for m in sd.stats["metrics"] if m != metric][:1]  # the first other metric
            t = Table(f"runs-{sd.suite.name}", f"{model} in {sd.suite.title}, {stratum_title(key)}",
                      [Column("provider", "Provider"), Column("hosting", "Hosting"),
                       Column(metric, metric_heading(sd, metric), True)] +
                      [Column(m, metric_heading(sd, m), True) for m in extra] +
                      [Column("p50", "Latency p50 (ms)", True),
                       Column("tps", "Output tokens/s p50", True, "output tokens / latency of the final attempt, "
                              "median over the calls that report both (\u2013: none does)", "low"),
                       Column("cost", "Cost per 1,000 documents", True)],
                      export=None)
            for r in runs:
                ops = sd.stats["operations"][r]
                info = sd.stats["runs"][r]
                t.rows.append([text(info["provider"], href=provider_path(info["provider"])), text(info["hosting"]),
                               interval(st["metrics"].get(metric, {}).get(r), metric_scale(sd, metric)[0]),
                               *[interval(st["metrics"].get(m, {}).get(r), metric_scale(sd, m)[0]) for m in extra],
                               number(ops["latency_ms"].get("p50")),
                               number((ops.get("tokens_per_second") or {}).get("p50")),
                               cost_cell(ops)])
            history = history_section(sd, model)
            earlier = [(f"{i['provider']} in the earlier round {i['round']}", sd.runs[r].meta["description"])
                       for r, i in sorted(sd.stats.get("earlier_runs", {}).items())
                       if i["model"] == model and sd.runs[r].meta.get("description")]
            sections.append({"suite": sd.suite, "href": suite_path(sd), "table": t, "history": history,
                             "simulated": any(sd.stats["runs"][r]["simulated"] for r in runs),
                             "description": sorted({(sd.stats["runs"][r]["provider"], sd.runs[r].meta["description"])
                                                    for r in runs if sd.runs[r].meta.get("description")}) + earlier,
                             "charts": tradeoff_charts(sd, f"tradeoff-{sd.suite.name}", set(runs))})
        yield Page(model_path(model), "model.html", f"Model: {model}",
                   {"model": model, "sections": sections, "facts": facts.get(model),
                    "fact_rows": [(t, shown_fact(facts.get(model), k)) for k, t in FACT_COLUMNS]},
                   [t for s in sections for t in (s["table"], *([s["history"]["table"]] if s["history"] else []))],
                   ("sort.js", "charts.js"))
