"""Crawl the whole example site: every internal link and fragment resolves, nothing points outside."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.site_support import example_site, fixture_site, missing_node

pytestmark = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key):
                self.urls.append(a[key])
        self.urls += (a.get("data-scripts") or "").split()  # the re-check button's scorer B scripts


def crawl(site: Path) -> tuple[int, list[str]]:
    parsed: dict[Path, Links] = {}

    def parse(path: Path) -> Links:
        if path not in parsed:
            p = Links()
            p.feed(path.read_text(encoding="utf-8"))
            parsed[path] = p
        return parsed[path]

    problems, seen, todo = [], set(), [site / "index.html"]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        for url in parse(page).urls:
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or url.startswith("/"):
                problems.append(f"{page.relative_to(site)}: not a relative link: {url}")
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_file() or site.resolve() not in target.parents:
                problems.append(f"{page.relative_to(site)}: broken link {url}")
                continue
            if target.suffix == ".html":
                if parts.fragment and parts.fragment not in parse(target).ids:
                    problems.append(f"{page.relative_to(site)}: no #{parts.fragment} in {url}")
                todo.append(target)
    return len(seen), problems


@pytest.mark.parametrize("which", ["example", "fixture"])
def test_every_internal_link_resolves(which):
    site = example_site() if which == "example" else fixture_site()
    pages, problems = crawl(site)
    assert problems == []
    everything = {p.resolve() for p in site.rglob("*.html")}
    assert pages == len(everything), "every page is reachable from the home page"
