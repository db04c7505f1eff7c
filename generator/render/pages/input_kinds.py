"""The suite page's input-kind section: a leaderboard per other input kind than text (page images;
text and images), ranked apart from the text leaderboards, and each model's paired text-versus-image
difference on the same items with its interval (from stats.json `inputs`)."""

from __future__ import annotations

from ..context import Cell, Column, Table, interval, number, text
from ..gather import SuiteView
from .common import RUN_COLUMNS, metric_label, metric_scale, model_path, provider_path, stratum_title

KIND_TITLES = {"image": "page images", "text+image": "text and page images", "pdf": "the PDF file"}


def _cells(sd: SuiteView, info: dict) -> list[Cell]:
    sim = " (simulated)" if info["simulated"] else ""
    text_models = {r["model"] for r in sd.stats["runs"].values()}
    text_providers = {r["provider"] for r in sd.stats["runs"].values()}
    return [text(info["model"] + sim, href=model_path(info["model"]) if info["model"] in text_models else None,
                 sort=info["model"]),
            text(info["provider"], href=provider_path(info["provider"]) if info["provider"] in text_providers else None),
            text(info["hosting"])]


def kind_tables(sd: SuiteView, kind: str, section: dict) -> dict:
    metric = sd.stats["headline"]["metric"]
    scale, unit = metric_scale(sd, metric)
    unit = f" ({unit})" if unit else ""
    name, title = sd.suite.name, KIND_TITLES.get(kind, kind)
    slug = kind.replace("+", "-")
    board = section.get("board") or {}
    fam = board.get("pairwise", {}).get(metric, {})
    key = section.get("stratum")
    where = stratum_title(key) if key else "no half covered by every run"
    leaders = Table(f"input-{slug}-board", f"{metric_label(sd, metric)} with {title} as input, {where}: estimate "
                    "and 95% interval (best first; the pairwise calls are in stats.json, under inputs)",
                    [*RUN_COLUMNS, Column(metric, f"{metric_label(sd, metric)}{unit}", True)],
                    export=f"downloads/{name}/input-{slug}")
    order = list(fam.get("order", [])) + sorted(r for r in section["runs"] if r not in fam.get("order", []))
    for run in order:
        leaders.rows.append([*_cells(sd, section["runs"][run]),
                             interval(board.get("metrics", {}).get(metric, {}).get(run), scale)])
    paired = Table(f"input-{slug}-paired", f"Text against {title}, same model and provider, same items: "
                   f"{metric_label(sd, metric)} and the paired difference",
                   [*RUN_COLUMNS, Column("text", f"Text{unit}", True), Column("other", f"{title.capitalize()}{unit}", True),
                    Column("difference", f"Difference, {title} \u2212 text [95% interval]{unit}", True),
                    Column("items", "Items", True),
                    Column("significant", "Interval excludes 0")], export=f"downloads/{name}/input-{slug}-paired")
    for run, p in sorted(section.get("paired", {}).items(), key=lambda kv: (kv[1]["difference"], kv[0])):
        excludes = p["low"] is not None and (p["low"] > 0 or p["high"] < 0)
        paired.rows.append([*_cells(sd, section["runs"][run]), number(p["text"], scale), number(p["other"], scale),
                            interval({"estimate": p["difference"], "low": p["low"], "high": p["high"]}, scale),
                            number(p["items"], digits=0), text("yes" if excludes else "no")])
    return {"kind": kind, "title": title, "where": where, "board": leaders, "paired": paired,
            "n_paired": len(section.get("paired", {})), "simulated": any(r["simulated"] for r in section["runs"].values())}


def input_sections(sd: SuiteView) -> list[dict]:
    return [kind_tables(sd, kind, section) for kind, section in sorted(sd.stats.get("inputs", {}).items())]
