"""Search across models, providers, suites, public items and the method pages, from file://: the site
build writes the index as a classic script (static/search-index.js, `window.TALLY_SEARCH = [...]`),
which the search page (search.html) and static/search.js read; no fetch, no server, no library."""

from __future__ import annotations

from ..gather import SiteData
from . import Page
from .common import item_path, model_path, provider_path, suite_path


def entries(site: SiteData) -> list[list[str]]:
    """[kind, title, more text searched and shown, site path], in a stable order."""
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
        out.append(["page", p.title, "", p.path])
    for sd in site.suites:
        for item in sorted(sd.public_items, key=lambda i: i.id):
            more = ", ".join([sd.suite.title, *(f"{k} {v}" for k, v in sorted(item.strata.items()))])
            out.append(["item", item.id, more, item_path(sd, item.id)])
    return out


def pages(site: SiteData):
    yield Page("static/search-index.js", "search-index.js", "Search index", {"entries": entries(site)}, [], ())
    yield Page("search.html", "search.html", "Search", {}, [], ("search-index.js", "search.js"))
