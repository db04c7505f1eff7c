"""Per public item: the document, the checked answers, every run's stored response exactly as stored,
and the field-by-field verdicts with reasons. Private items get no pages."""

from __future__ import annotations

import csv
import io
import orjson

from ...suites import scorer_module
from ..context import Column, Table, text
from ..gather import SiteData, SuiteData
from . import Page
from .common import item_path, model_path, provider_path, suite_path


def _content(record: dict) -> str | None:
    try:
        content = record["response"]["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None
    return content if isinstance(content, str) else None


def _answers(sd: SuiteData, raw: dict) -> dict:
    """The item's checked answers as the suite lays them out (caption, column names, rows)."""
    module = scorer_module(sd.suite.scorer)
    return {"caption": module.ANSWER_CAPTION, "columns": module.ANSWER_COLUMNS, "rows": module.answer_rows(raw)}


# Scorer B's scripts for each suite scorer, in load order (the core first), and the name the suite's
# script registers with the core.
SCORER_SCRIPTS = {"extracting": {"scripts": ["static/core.js", "static/suites/extracting.js"], "name": "extracting"},
                  "aubas": {"scripts": ["static/core.js", "static/suites/au-bas.js"], "name": "au-bas"}}


class Reader:
    """Stored lines of each run's responses.jsonl, read by offset (files opened once)."""

    def __init__(self, sd: SuiteData):
        self.sd = sd
        self.files = {}

    def line(self, run: str, item: str, repeat: int) -> str | None:
        where = self.sd.offsets.get(run, {}).get((item, repeat))
        if where is None:
            return None
        fh = self.files.get(run)
        if fh is None:
            fh = self.files[run] = self.sd.runs[run].responses.open("rb")
        fh.seek(where[0])
        return fh.read(where[1]).decode("utf-8")

    def close(self) -> None:
        for fh in self.files.values():
            fh.close()


def item_page(sd: SuiteData, item, reader: Reader) -> Page:
    raw = orjson.loads(item.line)
    info = {**sd.stats["runs"], **sd.stats.get("earlier_runs", {})}
    responses, published = [], []
    for run, chunk in sorted(sd.verdicts.get(item.id, [])):
        by_repeat: dict[int, list] = {}
        for r in csv.reader(io.StringIO(chunk)):
            by_repeat.setdefault(int(r[2]), []).append(
                {"unit": r[3], "kind": r[4], "verdict": r[5], "points": int(r[6]), "reason": r[7], "order": r[8]})
        for repeat, rows in sorted(by_repeat.items()):
            line = reader.line(run, item.id, repeat)
            record = orjson.loads(line) if line is not None else None
            anchor = f"{run}-r{repeat}"
            responses.append({"run": run, "repeat": repeat, "anchor": anchor, "line": line,
                              "content": _content(record) if record else None, "rows": rows,
                              "model": info[run]["model"], "provider": info[run]["provider"],
                              "simulated": info[run]["simulated"],
                              "model_href": model_path(info[run]["model"]),
                              "provider_href": provider_path(info[run]["provider"])})
            published.append({"run": run, "repeat": repeat, "anchor": anchor, "stored": line is not None,
                              "rows": [[v["unit"], v["verdict"], v["points"], v["order"]] for v in rows]})
    ctx = {"sd": sd, "suite": sd.suite, "item": item, "document": item.document, "answers": _answers(sd, raw),
           "scorer_scripts": SCORER_SCRIPTS[sd.suite.scorer],
           "item_line": item.line.decode("utf-8"), "responses": responses, "published": published,
           "suite_href": suite_path(sd), "index_href": suite_path(sd, "items/index.html")}
    return Page(item_path(sd, item.id), "item.html", f"Item {item.id}", ctx, [], ("sort.js", "recheck.js"))


def index_page(sd: SuiteData) -> Page:
    dims = sorted({k for i in sd.public_items for k in i.strata} - {"half"})
    table = Table("public-items", f"Public items of {sd.suite.title} ({len(sd.public_items)})",
                  [Column("item", "Item")] + [Column(d, d.replace("_", " ").capitalize()) for d in dims] +
                  [Column("responses", "Stored responses", True)], export=None)
    for item in sd.public_items:
        n = sum(1 for run in sd.offsets for (i, _r) in [(item.id, 0)] if (i, _r) in sd.offsets[run])
        table.rows.append([text(item.id, href=item_path(sd, item.id))] +
                          [text(item.strata.get(d, "")) for d in dims] + [text(n, sort=n, cls="num")])
    return Page(suite_path(sd, "items/index.html"), "items.html", f"{sd.suite.title}: public items",
                {"sd": sd, "suite": sd.suite, "table": table, "suite_href": suite_path(sd)}, [table])


def pages(site: SiteData):
    for sd in site.suites:
        yield index_page(sd)
        reader = Reader(sd)
        try:
            for item in sd.public_items:
                yield item_page(sd, item, reader)
        finally:
            reader.close()
