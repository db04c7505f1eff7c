"""Case pages of suites whose answer is an episode (a plugin with `episode_view`, LedgerShield): per
public case, every stored episode's trajectory as a timeline and the grade of each dimension, and,
for episodes imported from another harness, that harness's own grade beside Tally's; an index of
every public episode with both grades. Private cases get no pages."""

from __future__ import annotations

import orjson

from ..context import Column, Table, text
from ..gather import SiteData, SuiteView
from . import Page
from .common import item_path, suite_path
from .items import Reader, _content


def episodes_path(sd: SuiteView, item_id: str | None = None) -> str:
    return suite_path(sd, f"episodes/{item_id}.html" if item_id else "episodes/index.html")


def has_episodes(sd: SuiteView) -> bool:
    return callable(getattr(sd.plugin, "episode_view", None))


def _their_score(view: dict) -> str:
    return next((r["theirs"] for r in view["provenance"] if r["what"] == "score"), "")


def case_page(sd: SuiteView, item, reader: Reader, index: Table) -> Page:
    raw = orjson.loads(item.line)
    runs = sd.runs
    episodes = []
    for run, table, start, stop in sorted(sd.verdicts.get(item.id, []), key=lambda v: v[0]):
        by_repeat: dict[int, dict[str, str]] = {}
        for v in table.rows(start, stop):
            by_repeat.setdefault(v.repeat, {})[v.unit] = v.order
        for repeat, orders in sorted(by_repeat.items()):
            line = reader.line(run, item.id, repeat)
            content = _content(orjson.loads(line)) if line is not None else None
            view = sd.plugin.episode_view(raw, content, orders)
            anchor = f"{run}-r{repeat}"
            episodes.append({"run": run, "repeat": repeat, "anchor": anchor, "stored": line is not None,
                             "simulated": runs[run].simulated, "model": runs[run].model,
                             "provider": runs[run].provider, **view})
            href = f"{episodes_path(sd, item.id)}#{anchor}"
            index.rows.append([text(item.id, href=href), text(run), text(repeat, sort=repeat, cls="num"),
                               text(view["score"]), text(view.get("ended", "")), text(_their_score(view))])
    ctx = {"sd": sd, "suite": sd.suite, "item": item, "episodes": episodes, "task": raw.get("task", ""),
           "item_href": item_path(sd, item.id), "index_href": episodes_path(sd), "suite_href": suite_path(sd)}
    return Page(episodes_path(sd, item.id), "episode.html", f"Episodes of case {item.id}", ctx, [], ("sort.js",))


def pages(site: SiteData):
    for sd in site.suites:
        if not has_episodes(sd):
            continue
        index = Table("public-episodes", f"Episodes of the public cases of {sd.suite.title}",
                      [Column("case", "Case"), Column("run", "Run"), Column("repeat", "Repeat", True),
                       Column("score", "Tally's score"), Column("ended", "Ended"),
                       Column("theirs", "Other harness's own score (imported episodes)")], export=None)
        reader = Reader(sd)
        try:
            for item in sd.public_items:
                yield case_page(sd, item, reader, index)
        finally:
            reader.close()
        yield Page(episodes_path(sd), "episodes.html", f"{sd.suite.title}: episodes of the public cases",
                   {"sd": sd, "suite": sd.suite, "table": index, "suite_href": suite_path(sd)}, [index])
