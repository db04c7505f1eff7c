"""Cost and latency against the headline, for hosted runs only (self-hosted runs are never set
against hosted ones on speed or cost)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from decimal import Decimal

from ..charts import dominance, tradeoff
from ..gather import SuiteView
from .common import headline_key, metric_label, metric_scale, run_names


def headline_family(sd: SuiteView) -> tuple[str, dict, dict]:
    key = headline_key(sd)
    metric = sd.stats["headline"]["metric"]
    st = sd.stats["strata"].get(key, {})
    return key, st, st.get("pairwise", {}).get(metric, {})


def tradeoff_charts(sd: SuiteView, prefix: str, highlight: AbstractSet[str] = frozenset()) -> list[dict]:
    key, st, fam = headline_family(sd)
    metric = sd.stats["headline"]["metric"]
    calls = {(p["a"], p["b"]): p["call"] for p in fam.get("pairs", [])}
    calls |= {(b, a): {"better": "worse", "worse": "better"}.get(c, c) for (a, b), c in list(calls.items())}
    names = run_names(sd)
    scale, unit = metric_scale(sd, metric)
    y_title = metric_label(sd, metric) + (f" ({unit})" if unit else "")
    charts = []
    axes = (("cost", "cost per 1,000 documents",
             lambda o: float(Decimal(o["cost_per_1000_documents"])) if o["cost_per_1000_documents"] else None),
            ("latency", "median latency (p50, ms)", lambda o: o["latency_ms"]["p50"]))
    for name, x_title, read in axes:
        points = []
        for run, ops in sorted(sd.stats["operations"].items()):
            est = st.get("metrics", {}).get(metric, {}).get(run, {}).get("estimate")
            x = None if ops["self_hosted"] else read(ops)
            if x is not None and est is not None:
                points.append({"run": run, "label": names[run], "x": x, "y": est * scale})
        if len(points) < 2:
            continue
        dominated = {b for _a, b in dominance(points, calls)}
        currency = next((o["currency"] for o in sd.stats["operations"].values() if o.get("currency")), "")
        charts.append(tradeoff(f"{prefix}-{name}", f"{metric_label(sd, metric)} against {x_title}",
                               points, f"{x_title}{' (' + currency + ')' if name == 'cost' and currency else ''}",
                               y_title, dominated, set(highlight), "costlier" if name == "cost" else "slower"))
    return charts
