"""Case pages of suites whose answer is an episode (a plugin with `episode_view`, LedgerShield): per
public case, every stored episode's trajectory as a timeline and the grade of each dimension, and,
for episodes imported from another harness, that harness's own grade beside Tally's; an index of
every public episode with both grades. Private cases get no pages."""

from __future__ import annotations

import orjson

from ...suite.api import implements
from ..context import Column, Table, text
from ..gather import SiteData, SuiteView
from . import Page
from .common import item_path, suite_path
from .items import Reader, _content


def episodes_path(sd: SuiteView, item_id: str | None = None) -> str:
    return suite_path(sd, f"episodes/{item_id}.html" if item_id else "episodes/index.html")


def has_episodes(sd: SuiteView) -> bool:
    return implements(sd.plugin, "episode_view")


def _their_score(view: dict) -> str:
    return next((r["theirs"] for r in view["provenance"] if r["what"] == "score"), "")


def _views(sd: SuiteView, item, reader: Reader):
    """(run, repeat, stored?, view) of every scored response of a public item, in run order."""
    raw = orjson.loads(item.line)
    for run, verdicts in reader.rows(item.id):
        by_repeat: dict[int, dict[str, str]] = {}
        for v in verdicts:
            by_repeat.setdefault(v.repeat, {})[v.unit] = v.order
        for repeat, orders in sorted(by_repeat.items()):
            line = reader.line(run, item.id, repeat)
            content = _content(orjson.loads(line)) if line is not None else None
            yield run, repeat, line is not None, sd.plugin.episode_view(raw, content, orders)


def case_page(sd: SuiteView, item, reader: Reader, index: Table) -> Page:
    runs = sd.runs
    episodes = []
    for run, repeat, stored, view in _views(sd, item, reader):
        anchor = f"{run}-r{repeat}"
        episodes.append({"run": run, "repeat": repeat, "anchor": anchor, "stored": stored,
                         "simulated": runs[run].simulated, "model": runs[run].model,
                         "provider": runs[run].provider, **view})
        href = f"{episodes_path(sd, item.id)}#{anchor}"
        index.rows.append([text(item.id, href=href), text(run), text(repeat, sort=repeat, cls="num"),
                           text(view["score"]), text(view.get("ended", "")), text(_their_score(view))])
    ctx = {"sd": sd, "suite": sd.suite, "item": item, "episodes": episodes,
           "task": orjson.loads(item.line).get("task", ""), "item_href": item_path(sd, item.id),
           "index_href": episodes_path(sd), "suite_href": suite_path(sd)}
    return Page(episodes_path(sd, item.id), "episode.html", f"Episodes of case {item.id}", ctx, [], ("sort.js",))


def imported_table(sd: SuiteView) -> Table | None:
    """For the suite page: every public episode imported with another harness's own score, beside
    Tally's score (None when there is none)."""
    if not has_episodes(sd):
        return None
    table = Table("imported-grades", "Imported episodes (public cases): the other harness's own score beside "
                  "Tally's", [Column("case", "Case"), Column("run", "Run"), Column("repeat", "Repeat", True),
                              Column("theirs", "Other harness's own score"), Column("score", "Tally's score")],
                  export=None, note="The other harness's score is provenance stored with the episode; Tally never "
                  "uses it. Private cases are not listed.")
    reader = Reader(sd)
    try:
        for item in sd.public_items:
            for run, repeat, _stored, view in _views(sd, item, reader):
                if theirs := _their_score(view):
                    table.rows.append([text(item.id, href=f"{episodes_path(sd, item.id)}#{run}-r{repeat}"),
                                       text(run), text(repeat, sort=repeat, cls="num"), text(theirs),
                                       text(view["score"])])
    finally:
        reader.close()
    return table if table.rows else None


def pages(site: SiteData):
    for sd in site.suites:
        yield from suite_pages(sd)


def page_count(sd: SuiteView) -> int:
    """How many pages suite_pages yields (for a progress bar sized before the pages are made)."""
    return len(sd.public_items) + 1 if has_episodes(sd) else 0


def suite_pages(sd: SuiteView):
    if not has_episodes(sd):
        return
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
