"""Per public item: the document, the checked answers, every run's message content and where its stored
record is published, and the field-by-field verdicts with reasons. Private items get no pages."""

from __future__ import annotations

import functools
import hashlib
import re
from collections import Counter

import orjson
from markupsafe import Markup, escape

from ...inputs.page_images import known_shown_size, shown_size
from ...pipeline.cache import Cache
from ...score.verdicts import POINTS, Verdict
from ...suite.api import implements
from ..context import Column, Table, text
from ..env import json_compact, json_text, relative
from ..gather import SiteData, SuiteView
from ..page_cache import template_hash
from ..sections import TEMPLATE, Made, Sections, run_section_key, section_env
from ..shells import Shelled
from . import Deferred, Page
from .common import item_path, model_path, provider_path, suite_path
from .labels import item_label_rows


def _content(record: dict) -> str | None:
    try:
        content = record["response"]["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None
    return content if isinstance(content, str) else None


def _answers(sd: SuiteView, raw: dict) -> dict:
    """The item's checked answers as the suite lays them out (caption, column names, rows)."""
    p = sd.plugin
    return {"caption": p.answer_caption, "columns": p.answer_columns, "rows": p.answer_rows(raw)}


def scorer_scripts(sd: SuiteView) -> dict:
    """Scorer B in the browser: the scripts in load order (the core first) and the suite's name in
    the core's registry."""
    from ..build import scorer_script_path

    scripts = ["static/core.js"] + [f"static/{scorer_script_path(sd.plugin, k)}"
                                    for k in range(len(sd.plugin.scorer_b.scripts))]
    return {"scripts": scripts, "name": sd.plugin.scorer_b.name}


class Reader:
    """Public items' stored lines and verdict rows, read from the runs' artifacts (run_score.RunScore:
    each opened once per process; a process forked to render pages opens its own)."""

    def __init__(self, sd: SuiteView):
        self.sd = sd
        self.by_id = {r.run.id: r for r in sd.result.runs}
        self._numbers: dict[str, dict[tuple[str, int], int]] = {}
        self._items = {item.id: k for k, item in enumerate(sd.public_items, 1)}

    def item_number(self, item: str) -> int:
        """The 1-based number of the public item's line in the suite's items download (items_file)."""
        return self._items[item]

    def line_number(self, run: str, item: str, repeat: int) -> int:
        """The 1-based number of the item's stored line in the run's public lines (its download)."""
        if run not in self._numbers:
            self._numbers[run] = self.by_id[run].public_line_numbers()
        return self._numbers[run][(item, repeat)]

    def line(self, run: str, item: str, repeat: int) -> str | None:
        return self.by_id[run].public_line(item, repeat)

    def rows(self, item: str) -> list[tuple[str, list[Verdict]]]:
        """(run, the item's verdict rows in that run, all repeats) for every run that has rows of the
        public item, in run order."""
        return [(r.run.id, rows) for r in self.sd.result.runs if (rows := r.rows_of(item))]

    def close(self) -> None:
        for r in self.sd.result.runs:
            r.close()


def document_file(sd: SuiteView, item_id: str) -> str:
    return suite_download(sd, f"documents/{item_id}.txt")


def responses_file(sd: SuiteView, run: str) -> str:
    """The one published copy of a run's public stored lines, in file order (gzip: readers and the
    in-browser re-check inflate it)."""
    return suite_download(sd, f"responses-public/{run}.jsonl.gz")


PAGE_SHOWN_WIDTH = 720  # item pages show a page image at most this wide (the link opens it whole)


def page_images(sd: SuiteView, item) -> list[dict]:
    """The item's page images as its page shows them: published under downloads/<suite>/ (their path
    in the item, checked at load), with their size, scaled to at most PAGE_SHOWN_WIDTH pixels wide."""
    from PIL import Image

    out = []
    for page in item.document.get("pages") or []:
        known = known_shown_size(page["sha256"])  # read and checked when the items were loaded
        if known is None:
            with Image.open(sd.suite.root / "items" / page["path"]) as image:
                known = shown_size(image)
        width, height = known
        shown = min(width, PAGE_SHOWN_WIDTH)
        out.append({"href": suite_download(sd, page["path"]), "alt": page["alt"], "width": shown,
                    "height": max(1, round(height * shown / width)),
                    "kb": max(1, round((sd.suite.root / "items" / page["path"]).stat().st_size / 1024))})
    return out


def page_files(sd: SuiteView):
    """(site path, bytes) of every public item's page images, read and checked again (type, size, hash;
    decoded whole when the load did not already decode these bytes, or know them from the build cache's
    record), each file once: items that show the same page (its path and SHA-256) publish it once."""
    from ...inputs.page_images import read_page

    done: set[tuple[str, str]] = set()
    for item in sd.public_items:
        for page in item.document.get("pages") or []:
            if (page["path"], page["sha256"]) not in done:
                done.add((page["path"], page["sha256"]))
                yield suite_download(sd, page["path"]), read_page(sd.suite.root / "items", page)


def items_file(sd: SuiteView) -> str:
    """The one published copy of the suite's public items: their lines exactly as stored, in the order of
    the suite's public items (gzip: the in-browser re-check inflates it)."""
    return suite_download(sd, "items-public.jsonl.gz")


def public_item_lines(sd: SuiteView):
    """The public items' stored lines (bytes, no line break) in items_file's order."""
    for item in sd.public_items:
        yield item.line


def suite_download(sd: SuiteView, rest: str) -> str:
    return f"downloads/{sd.suite.name}/{rest}"


def _excerpt(text: str, limit: int) -> tuple[str, int]:
    """(the first `limit` characters, how many more there are)."""
    return (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)


def oversize_files(sd: SuiteView):
    """(site path, text) of every document that its item page shows only in part (the suite's page
    budget), to be published whole in downloads. A stored record is not copied again: the page names
    its line in the run's download (responses_file)."""
    budget = sd.plugin.budget
    for item in sd.public_items:
        text = item.document.get("text")
        if isinstance(text, str) and len(text) > budget.document_chars:
            yield document_file(sd, item.id), text


# One verdict row; its last cell, the re-check's, is empty until the re-check runs (recheck.js fills it).
# Nothing in a row is repeated that no reader or script uses: a long item's page holds thousands of rows,
# so the cells' end tags, which HTML makes optional, are left out, and the points column is styled by
# its position in a table that has one (site.css), not by a class on every cell (a count's cell has one).
_CELLS = {"unit": "<td>{0}", "kind": "<td>{1}", "verdict": '<td class="verdict {2}">{3}', "points": "<td>{4}",
          "reason": "<td>{5}", "order": "<td>{6}", "counts": "{7}"}


@functools.lru_cache(maxsize=1 << 14, typed=True)  # units, kinds, verdicts, reasons repeat; 1 and True apart
def _escaped(value: str | int) -> str:
    return str(escape(value))


_VERDICT = re.compile(r"[A-Za-z0-9_-]+")
_NOT_KEPT = re.compile("[\r\0\ud800-\udfff]")  # an HTML parser changes CR and drops NUL; UTF-8 cannot hold a surrogate


def table_columns(plugin) -> tuple[str, ...]:
    """The columns of an item page's verdict tables, before the re-check cell: the unit, kind, verdict,
    points (unless the suite shows none), reason, order (unless it has no `order_label`) and one column
    per count the suite declares. The table names them in `data-columns` for the in-browser re-check."""
    return (("unit", "kind", "verdict") + (("points",) if plugin.points_shown else ()) + ("reason",)
            + (("order",) if plugin.order_label is not None else ()) + (("counts",) if plugin.counts else ()))


def shown_exactly(row: dict, columns: tuple[str, ...] = ("unit", "kind", "verdict", "points", "reason", "order"),
                  counts: int = 0) -> bool:
    """Whether a verdict row reads back exactly from its table row, as the in-browser re-check reads the
    published verdicts (unit, order, points and counts as the cells' text, the verdict as the second
    class of its cell); the page's data block lists the rows of a response where one does not. A column
    the table leaves out must hold what the re-check assumes: points by the one rule, no order."""
    order, got = row["order"], row.get("counts", ())
    return (bool(_VERDICT.fullmatch(row["verdict"])) and type(row["points"]) is int
            and not _NOT_KEPT.search(row["unit"]) and not _NOT_KEPT.search(order)
            and ("points" in columns or row["points"] == POINTS.get(row["verdict"], 0))
            and ("order" in columns or order == "")
            and len(got) == counts and all(type(n) is int for n in got))


def verdict_rows_html(rows: list[dict], columns: tuple[str, ...] = ("unit", "kind", "verdict", "points", "reason", "order"),
                      counts: int = 0) -> Markup:
    """A response's rows of its verdict table on the item page, escaped as the template would escape
    them (written here: looking up each cell in the template was most of an item page's time)."""
    e = _escaped
    form = "<tr>" + "".join(_CELLS[c] for c in columns) + "<td>\n"
    blank = ("",) * counts
    return Markup("".join(form.format(e(v["unit"]), e(v["kind"]), e(v["verdict"]), e(v["verdict"].replace("_", " ")),
                                      e(v["points"]), e(v["reason"]), e(v["order"]),
                                      "".join(f'<td class="num">{e(n)}' for n in (tuple(v.get("counts", ())) + blank)[:counts]))
                          for v in rows))


def _run_sections(sd: SuiteView, item, reader: Reader, paged: tuple[set[str], set[str]], run: str,
                  verdicts: list[Verdict], page_path: str) -> Made:
    """One run's sections on the item's page, one per repeat (their HTML, joined), and their entries in
    the page's published verdicts (sections.Made)."""
    budget, info = sd.plugin.budget, sd.runs[run]
    columns, counts = table_columns(sd.plugin), len(sd.plugin.counts)
    template = section_env().get_template(TEMPLATE)
    shared = {"columns": columns, "unit_label": sd.plugin.unit_label, "order_label": sd.plugin.order_label,
              "count_names": sd.plugin.counts, "rel": functools.partial(relative, page=page_path)}
    by_repeat: dict[int, list] = {}
    for v in verdicts:
        by_repeat.setdefault(v.repeat, []).append(
            {"unit": v.unit, "kind": v.kind, "verdict": v.verdict, "points": v.points, "reason": v.reason,
             "order": v.order, "counts": v.counts})
    html, published = [], []
    for repeat, rows in sorted(by_repeat.items()):
        line = reader.line(run, item.id, repeat)
        record = orjson.loads(line) if line is not None else None
        anchor = f"{run}-r{repeat}"
        content = _content(record) if record else None
        content, content_more = _excerpt(content, budget.response_chars) if content is not None else (None, 0)
        number = reader.line_number(run, item.id, repeat) if line is not None else None
        download = responses_file(sd, run) if line is not None else None
        r = {"run": run, "repeat": repeat, "anchor": anchor,
             "stored": line is not None, "line_number": number, "download": download,
             "record_chars": len(line) if line is not None else 0,
             "content": content, "content_more": content_more, "rows_html": verdict_rows_html(rows, columns, counts),
             "model": info.model, "provider": info.provider, "simulated": info.simulated, "input": info.input,
             "model_href": model_path(info.model) if info.model in paged[0] else None,
             "provider_href": provider_path(info.provider) if info.provider in paged[1] else None}
        html.append(template.render(r=r, **shared))
        entry = {"run": run, "repeat": repeat, "anchor": anchor, "stored": line is not None}
        if not all(shown_exactly(v, columns, counts) for v in rows):
            entry["rows"] = [[v["unit"], v["verdict"], v["points"], v["order"]] + ([list(v["counts"])] if counts else [])
                             for v in rows]
        published.append(entry)
    return "".join(html), ",".join(json_compact(entry) for entry in published), len(published)


def item_page(sd: SuiteView, item, reader: Reader, paged: tuple[set[str], set[str]] = (set(), set()),
              sections: Sections | None = None) -> Shelled:
    """`paged`: the models and the providers that have pages (a run kept off the leaderboards may not).

    Each stored record and the item itself are published once, in downloads (the run's public lines,
    the suite's public items): the page shows the document, the checked answers, each response's
    message content (up to the suite's page budget) and its verdicts, and names each record's line in
    its run's download; the in-browser re-check reads the item and the records from there.

    Each run's responses are sections of their own (render/sections.py); with `sections` (the build
    cache's), a run's sections an earlier build made under the same key are used again (its rows and
    records not read), and those made here are kept for the next build. What depends on the runs (their
    sections, how many, the published verdicts' block) are the slots of a page whose shell is made by
    `item_shell` only when the build cache does not hold it (render/shells.py; its key: `shell_key`)."""
    path = item_path(sd, item.id)
    keys = sd.result.run_keys
    html: list[str] = []
    published: list[str] = []  # each run's entries' text (sections.Made)
    count = 0
    for scored in sd.result.runs:  # in run order
        if not scored.has_rows(item.id):
            continue
        run, meta = scored.run.id, scored.run
        key = (run_section_key(run, keys[run], meta.model in paged[0], meta.provider in paged[1])
               if sections is not None and run in keys else None)
        made = sections.get(item.id, key) if sections is not None and key is not None else None
        if made is None:
            made = _run_sections(sd, item, reader, paged, run, scored.rows_of(item.id), path)
            if sections is not None and key is not None:
                sections.put(item.id, key, made)
        html.append(made[0])
        published.append(made[1])
        count += made[2]
    # the list's text as json_block gives it (env.json_compact: its items' texts joined by commas)
    block = json_text("[" + ",".join(text for text in published if text) + "]")
    return Shelled(functools.partial(item_shell, sd, item, reader),
                   {"published_block": block, "response_count": str(count), "responses_html": "".join(html)})


def item_shell(sd: SuiteView, item, reader: Reader) -> Page:
    """The item's page without what depends on the runs (the slots item_page fills)."""
    raw = orjson.loads(item.line)
    budget = sd.plugin.budget
    document = dict(item.document)
    doc_text, doc_more = _excerpt(document.get("text") or "", budget.document_chars)
    if doc_more:
        document["text"] = doc_text
    ctx = {"sd": sd, "suite": sd.suite, "item": item, "document": document, "answers": _answers(sd, raw),
           "document_more": doc_more, "document_href": document_file(sd, item.id) if doc_more else None,
           "page_images": page_images(sd, item),
           "scorer_scripts": scorer_scripts(sd),
           "items_href": items_file(sd), "item_line_number": reader.item_number(item.id),
           "suite_href": suite_path(sd), "index_href": suite_path(sd, "items/index.html"),
           "episodes_href": suite_path(sd, f"episodes/{item.id}.html")
           if implements(sd.plugin, "episode_view") else None}
    ctx["label_rows"] = item_label_rows(sd, item.id)
    return Page(item_path(sd, item.id), "item.html", f"Item {item.id}", ctx, [], ("sort.js", "recheck.js"))


def index_page(sd: SuiteView) -> Page:
    dims = sorted({k for i in sd.public_items for k in i.strata} - {"half"})
    table = Table("public-items", f"Public items of {sd.suite.title} ({len(sd.public_items)})",
                  [Column("item", "Item")] + [Column(d, d.replace("_", " ").capitalize()) for d in dims] +
                  [Column("responses", "Stored responses", True)], export=None)
    stored: Counter[str] = Counter()  # item -> the runs with a stored response to it (its first repeat)
    for r in sd.result.runs:
        stored.update(item for item, repeat in r.public_keys() if repeat == 0)
    for item in sd.public_items:
        n = stored[item.id]
        table.rows.append([text(item.id, href=item_path(sd, item.id))] +
                          [text(item.strata.get(d, "")) for d in dims] + [text(n, sort=n, cls="num")])
    return Page(suite_path(sd, "items/index.html"), "items.html", f"{sd.suite.title}: public items",
                {"sd": sd, "suite": sd.suite, "table": table, "suite_href": suite_path(sd)}, [table])


def paged_names(site: SiteData) -> tuple[set[str], set[str]]:
    """The models and the providers that have a page of their own (item pages link to them)."""
    return ({i["model"] for sd in site.suites for i in sd.stats["runs"].values()},
            {i["provider"] for sd in site.suites for i in sd.stats["runs"].values()})


def shell_key(item, suite: str) -> str:
    """The hash of an item page's inputs but the runs (its shell's: render/shells.py): the suite's key
    (as item_key's) and the item's id."""
    return hashlib.sha256(f"item-shell\0{suite}\0{item.id}".encode()).hexdigest()


def item_key(sd: SuiteView, item, suite: str, paged: tuple[set[str], set[str]]) -> str | None:
    """The hash of an item page's own inputs: the suite's key (its items, rules, labels, page images and
    plugin sources: cache.suite_key, with the hash of the sections' template), the item's id, and for
    each run the page shows, its build cache key (its stored files and metadata) and whether its model
    and provider have pages. None when a run has no key (a build without the cache)."""
    h = hashlib.sha256(f"item\0{suite}\0{item.id}\0".encode())
    info = sd.result.run_keys
    for scored in sd.result.runs:  # in run id order
        if not scored.has_rows(item.id):
            continue
        run = scored.run.id
        key = info.get(run)
        if key is None:
            return None
        r = scored.run
        h.update(f"{run}\0{key}\0{r.model in paged[0]}\0{r.provider in paged[1]}\n".encode())
    return h.hexdigest()


def pages(site: SiteData):
    paged = paged_names(site)
    for sd in site.suites:
        yield from suite_pages(sd, paged)


def page_count(sd: SuiteView) -> int:
    """How many pages suite_pages yields (for a progress bar sized before the pages are made)."""
    return 1 + len(sd.public_items)


def suite_pages(sd: SuiteView, paged: tuple[set[str], set[str]], cache: Cache | None = None):
    """The suite's item index, then a deferred page per public item (from the build cache when its
    inputs are unchanged; else made with each run's sections from the cache where that run is
    unchanged: render/sections.py)."""
    from ...pipeline.cache import suite_key

    yield index_page(sd)
    reader = Reader(sd)
    suite = suite_key(sd.suite.root, sd.plugin) if sd.result.run_keys else None
    sections = (Sections(cache, sd.suite.name, suite, [item.id for item in sd.public_items], len(sd.result.runs))
                if cache is not None and suite else None)
    # the page's template does not name its sections' (they are rendered on their own): its hash here
    own = f"{suite}\0{template_hash(section_env(), TEMPLATE)}" if suite else None
    try:
        for item in sd.public_items:
            yield Deferred(item_path(sd, item.id), "item.html", sd.suite.name,
                           item_key(sd, item, own, paged) if own else None,
                           functools.partial(item_page, sd, item, reader, paged, sections),
                           shell_key(item, own) if own else None)
        if sections is not None:  # the entries of runs no longer shown, or made under another key
            sections.prune(run_section_key(r.run.id, sd.result.run_keys[r.run.id], r.run.model in paged[0],
                                           r.run.provider in paged[1])
                           for r in sd.result.runs if r.run.id in sd.result.run_keys)
    finally:
        reader.close()
