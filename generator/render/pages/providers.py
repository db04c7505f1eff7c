"""Per provider: latency, cost and error rates of its runs; the same model on other providers compared
on accuracy. Self-hosted runs have their own section and are never ranked against hosted ones."""

from __future__ import annotations

from ..context import Cell, Column, Table, interval, number, text
from ..gather import SiteData, SuiteView
from . import Page
from .common import (
    RUN_COLUMNS,
    cost_cell,
    metric_label,
    metric_order,
    metric_scale,
    model_path,
    provider_path,
    run_cells,
    stratum_title,
)
from .tradeoff import headline_family

SPEED_HELP = "output (completion) tokens / latency of the final attempt, per call"
SPEED_NOTE = ("Speed: output tokens per second of each call that returned a response and reports its output "
              "tokens (\u2013: no such call). Time to first token: not available, the harness does not stream "
              "and no stored call records it.")


def ops_table(sd: SuiteView, runs: list[str], table_id: str, caption: str, export: str | None) -> Table:
    rule = sd.stats["method"].get("latency_quantile", "")
    table = Table(table_id, caption,
                  [*RUN_COLUMNS, Column("p50", "Latency p50 (ms)", True), Column("p95", "p95 (ms)", True),
                   Column("p99", "p99 (ms)", True),
                   Column("tps_p50", "Output tokens/s p50", True, SPEED_HELP),
                   Column("tps_p5", "Tokens/s p5 (slow end)", True, SPEED_HELP, "low"),
                   Column("tps_p95", "Tokens/s p95", True, SPEED_HELP, "opt"),
                   Column("cost", "Cost per 1,000 documents", True, "list price applied to reported usage"),
                   Column("price_date", "Price date"),
                   Column("failed", "Failed calls (%)", True), Column("refusal", "Refusals (%)", True),
                   Column("timeout", "Timeouts (%)", True)], export=export,
                  note=f"Latency and speed quantiles: {rule}. {SPEED_NOTE}")
    for run in runs:
        o = sd.stats["operations"][run]
        lat = o["latency_ms"]
        tps = o.get("tokens_per_second") or {}
        prices = sd.runs[run].meta.get("prices") or {}
        cost = o.get("cost_per_1000_documents")
        table.rows.append([
            *run_cells(sd, run), number(lat.get("p50")), number(lat.get("p95")), number(lat.get("p99")),
            number(tps.get("p50")), number(tps.get("p5")), number(tps.get("p95")),
            cost_cell(o) if cost else Cell("\u2013", "", cls="num", export=(("", None), ("currency", None))),
            text(prices.get("date") if cost else "\u2013"),
            interval(o.get("failed_rate"), 100, 2), interval(o.get("refusal_rate"), 100, 2),
            interval(o.get("timeout_rate"), 100, 2)])
    return table


def _split(sd: SuiteView, runs: list[str]) -> tuple[list[str], list[str]]:
    ops = sd.stats["operations"]
    return [r for r in runs if not ops[r]["self_hosted"]], [r for r in runs if ops[r]["self_hosted"]]


def same_model(sd: SuiteView, provider: str) -> list[Table]:
    """For each model this provider serves: every provider's run of it, on the headline, with the call."""
    key, st, fam = headline_family(sd)
    metric = sd.stats["headline"]["metric"]
    calls = {(p["a"], p["b"]): p for p in fam.get("pairs", [])}
    info = sd.stats["runs"]
    out = []
    for run in sorted(r for r, i in info.items() if i["provider"] == provider):
        model = info[run]["model"]
        others = sorted(r for r, i in info.items() if i["model"] == model and r != run)
        if not others:
            continue
        t = Table(f"same-model-{run}", f"{model} on every provider: {metric_label(sd, metric)} ({stratum_title(key)})",
                  [Column("provider", "Provider"), Column("hosting", "Hosting"),
                   Column(metric, metric_label(sd, metric), True),
                   Column("call", f"Compared with {provider}")], export=None)
        for r in [run] + others:
            p = calls.get((run, r)) or calls.get((r, run))
            call = "\u2013" if r == run else "not compared"
            if p:
                c = p["call"] if p["a"] == run else {"better": "worse", "worse": "better"}.get(p["call"], p["call"])
                call = f"{provider} is {c}" if c != "can't tell apart" else "can't tell apart"
            t.rows.append([text(info[r]["provider"], href=provider_path(info[r]["provider"])), text(info[r]["hosting"]),
                           interval(st.get("metrics", {}).get(metric, {}).get(r), metric_scale(sd, metric)[0]),
                           text(call)])
        out.append(t)
    return out


def anchor_tables(sd, provider: str) -> list[Table]:
    """Each earlier round of a model on this provider against its current round, on the anchor items."""
    out = []
    runs = sd.stats["runs"] | sd.stats.get("earlier_runs", {}) | sd.stats.get("incomplete_runs", {})
    for k, comp in enumerate(c for c in sd.stats.get("anchors", []) if c["provider"] == provider):
        simulated = any(runs.get(comp[w]["run"], {}).get("simulated") for w in ("current", "earlier"))
        t = Table(f"anchors-{sd.suite.name}-{k}",
                  f"{comp['model']}{' (simulated)' if simulated else ''}: round {comp['current']['round']} "
                  f"against round {comp['earlier']['round']} on "
                  f"{comp['items']} anchor items (difference: current minus earlier, 95% interval)",
                  [Column("metric", "Metric"), Column("earlier", f"Round {comp['earlier']['round']}", True),
                   Column("current", f"Round {comp['current']['round']}", True),
                   Column("difference", "Difference", True), Column("changed", "Changed?")], export=None)
        for metric in metric_order(sd):
            m = comp["metrics"].get(metric)
            if m is None:
                continue
            scale = metric_scale(sd, metric)[0]
            t.rows.append([text(metric_label(sd, metric)), number(m["earlier"], scale), number(m["current"], scale),
                           interval({"estimate": m["difference"], "low": m["low"], "high": m["high"]}, scale),
                           text("changed" if m["changed"] else "no change shown")])
        out.append(t)
    return out


def pages(site: SiteData):
    providers: dict[str, list] = {}
    for sd in site.suites:
        for run, i in sd.stats["runs"].items():
            providers.setdefault(i["provider"], []).append((sd, run))
    index_sections = []
    for sd in site.suites:
        hosted, selfh = _split(sd, sorted(sd.stats["runs"]))
        index_sections.append({"suite": sd.suite,
                               "hosted": ops_table(sd, hosted, f"hosted-{sd.suite.name}",
                                                   f"{sd.suite.title}: hosted runs, speed, cost and errors",
                                                   f"downloads/{sd.suite.name}/operations-hosted"),
                               "self_hosted": ops_table(sd, selfh, f"self-hosted-{sd.suite.name}",
                                                        f"{sd.suite.title}: self-hosted runs (not ranked against "
                                                        "hosted providers on speed or cost)",
                                                        f"downloads/{sd.suite.name}/operations-self-hosted")})
    links = [{"title": p, "href": provider_path(p),
              "hosting": sorted({sd.stats["runs"][r]["hosting"] for sd, r in runs})}
             for p, runs in sorted(providers.items())]
    tables = [t for s in index_sections for t in (s["hosted"], s["self_hosted"]) if t.rows]
    yield Page("providers/index.html", "providers.html", "Providers",
               {"sections": index_sections, "links": links}, tables)
    for provider, pairs in sorted(providers.items()):
        sections = []
        for sd in site.suites:
            runs = sorted(r for s, r in pairs if s is sd)
            if not runs:
                continue
            hosted, selfh = _split(sd, runs)
            sections.append({"suite": sd.suite,
                             "hosted": ops_table(sd, hosted, f"ops-hosted-{sd.suite.name}", "Hosted runs", None),
                             "self_hosted": ops_table(sd, selfh, f"ops-self-{sd.suite.name}",
                                                      "Self-hosted runs (reported separately, never ranked "
                                                      "against hosted providers on speed or cost)", None),
                             "same_model": same_model(sd, provider),
                             "anchors": anchor_tables(sd, provider),
                             "models": sorted({(sd.stats['runs'][r]['model'], model_path(sd.stats['runs'][r]['model']))
                                               for r in runs})})
        tables = [t for s in sections for t in (s["hosted"], s["self_hosted"], *s["same_model"], *s["anchors"])
                  if t.rows]
        yield Page(provider_path(provider), "provider.html", f"Provider: {provider}",
                   {"provider": provider, "sections": sections}, tables)
