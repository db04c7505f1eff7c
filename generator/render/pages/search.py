"""Search across models, providers, suites, public items and the text of the prose pages (method,
rule pages, how to read), from file://: the site build writes the index as a classic script
(static/search-index.js, `window.TALLY_SEARCH = [...]`), which the search page (search.html) and
static/search.js read; no fetch, no server, no library. A prose page is indexed section by section
(each heading with an id), so a hit links to its section and shows the words around the match."""

from __future__ import annotations

import html
import re

from ..gather import SiteData
from ..prose import Prose
from . import Page
from .common import item_path, model_path, provider_path, suite_path

_HEADING = re.compile(r'<h([2-4]) id="([^"]+)">(.*?)</h\1>', re.S)
_BLOCK = re.compile(r"</?(?:p|li|ul|ol|h[1-6]|td|th|tr|table|pre|div|blockquote|br|hr)\b[^>]*>")
_TAG = re.compile(r"<[^>]+>")


def plain(fragment: str) -> str:
    """The text of an HTML fragment: block tags read as spaces, inline tags dropped, entities read,
    white space collapsed."""
    return " ".join(html.unescape(_TAG.sub("", _BLOCK.sub(" ", fragment))).split())


def sections(page: Prose) -> list[tuple[str, str, str]]:
    """(heading, anchor, text) of each section of a prose page: the text before its first heading
    under the page's own title and no anchor, then one per heading with an id (h2 to h4)."""
    source = str(page.html)
    marks = list(_HEADING.finditer(source))
    out = [(page.title, "", plain(source[:marks[0].start()] if marks else source))]
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(source)
        out.append((plain(m.group(3)), m.group(2), plain(source[m.end():end])))
    return out


def entries(site: SiteData) -> list[list[str]]:
    """[kind, title, more text searched and shown, site path] in a stable order; a prose page's
    sections also carry [..., their text, searched and shown only around a match]."""
    from ..facts import site_facts

    facts = site_facts(site)
    models: dict[str, set[str]] = {}
    providers: dict[str, set[str]] = {}
    hosting: dict[str, set[str]] = {}
    out = []
    for sd in site.suites:
        out.append(["suite", sd.suite.title, sd.suite.description, suite_path(sd)])
        for info in sd.stats["runs"].values():
            models.setdefault(info["model"], set()).add(info["provider"])
            providers.setdefault(info["provider"], set()).add(info["model"])
            hosting.setdefault(info["provider"], set()).add(info["hosting"])
    for model, on in sorted(models.items()):
        org = facts[model].organisation if model in facts and facts[model].organisation else ""
        out.append(["model", model, "; ".join(x for x in (", ".join(sorted(on)), org) if x), model_path(model)])
    for provider, served in sorted(providers.items()):
        out.append(["provider", provider, f"{', '.join(sorted(hosting[provider]))}; {', '.join(sorted(served))}",
                    provider_path(provider)])
    for p in site.pages:
        for heading, anchor, body in sections(p):
            if not anchor:
                out.append(["page", p.title, "", p.path, body])
            elif body:
                out.append(["section", heading, p.title, f"{p.path}#{anchor}", body])
    for sd in site.suites:
        for item in sorted(sd.public_items, key=lambda i: i.id):
            more = ", ".join([sd.suite.title, *(f"{k} {v}" for k, v in sorted(item.strata.items()))])
            out.append(["item", item.id, more, item_path(sd, item.id)])
    return out


def pages(site: SiteData):
    yield Page("static/search-index.js", "search-index.js", "Search index", {"entries": entries(site)}, [], ())
    yield Page("search.html", "search.html", "Search", {}, [], ("search-index.js", "search.js"))
