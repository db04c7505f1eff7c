"""The home page's first screen: every suite's leader group (marked by the pairwise calls, not by the
point estimate) in one line each, the date of the last update, and a models x suites matrix of headline
scores with their intervals."""

from __future__ import annotations

from ..context import interval
from ..gather import SiteData, SuiteView
from .common import headline_key, metric_label, metric_scale, model_path, ranked_runs, stratum_title, suite_path

SHOWN_LEADERS = 3  # leader names spelled out on the one line; the rest are counted


def leader_group(fam: dict) -> list[str]:
    """The runs no other run is called better than, in the family's order (best first). A pair's call
    reads from run a to run b: "better" means a was called better than b."""
    beaten = set()
    for p in fam.get("pairs", []):
        if p.get("call") == "better":
            beaten.add(p["b"])
        elif p.get("call") == "worse":
            beaten.add(p["a"])
    return [r for r in fam.get("order", []) if r not in beaten]


def run_label(sd: SuiteView, run: str) -> str:
    """The run's model, marked when simulated, with its provider when another ranked run shares the model."""
    info = sd.stats["runs"][run]
    same = [r for r, i in sd.stats["runs"].items() if i["model"] == info["model"]]
    sim = " (simulated)" if info["simulated"] else ""
    return info["model"] + sim + (f" on {info['provider']}" if len(same) > 1 else "")


def _suite_summary(sd: SuiteView) -> dict:
    key, metric = headline_key(sd), sd.stats["headline"]["metric"]
    st = sd.stats["strata"][key]
    fam = st["pairwise"].get(metric, {})
    leaders = leader_group(fam)
    scale, unit = metric_scale(sd, metric)
    scores = st["metrics"].get(metric, {})
    names = [{"label": run_label(sd, r), "href": model_path(sd.stats["runs"][r]["model"]),
              "score": interval(scores.get(r), scale).text} for r in leaders[:SHOWN_LEADERS]]
    return {"suite": sd.suite, "href": suite_path(sd), "metric": metric_label(sd, metric),
            "unit": unit, "stratum": stratum_title(key), "leaders": names,
            "more": max(0, len(leaders) - SHOWN_LEADERS), "ranked": len(fam.get("order", [])),
            "too_small": bool(fam.get("too_small")),  # no pair can be called: no leader group to name
            "lead_set": set(leaders), "runs": ranked_runs(sd, st, metric), "scores": scores, "scale": scale}


def cross_suite(site: SiteData) -> dict:
    """{'suites': one line per suite, 'rows': the models x suites matrix, 'date': the last update}.
    A model run more than once in a suite (providers, configurations) shows its best-ranked run there."""
    suites = [_suite_summary(sd) for sd in site.suites]
    models: dict[str, dict] = {}
    for k, (sd, s) in enumerate(zip(site.suites, suites)):
        for run in s["runs"]:
            info = sd.stats["runs"][run]
            row = models.setdefault(info["model"], {"model": info["model"], "simulated": info["simulated"],
                                                    "href": model_path(info["model"]),
                                                    "cells": [None] * len(suites), "best": len(site.suites) * 99})
            if row["cells"][k] is not None:
                continue  # ranked_runs is best first: the model's best run in this suite is already in
            cell = interval(s["scores"].get(run), s["scale"])
            score, _, ci = cell.text.partition(" [")
            lead = run in s["lead_set"]
            row["cells"][k] = {"score": score, "ci": f"[{ci}" if ci else "", "lead": lead,
                               "title": f"{run_label(sd, run)}: {cell.text}" + (" (leader group)" if lead else "")}
            row["best"] = min(row["best"], 0 if lead else 1)
    rows = sorted(models.values(), key=lambda r: (r["best"], -sum(c is not None and c["lead"] for c in r["cells"]),
                                                 r["model"].lower()))
    for s in suites:
        for key in ("lead_set", "runs", "scores", "scale"):
            del s[key]
    return {"suites": suites, "rows": rows, "date": site.build_date}
