"""Playwright helpers for the site tests: Debian's chromium, pages of every type, request capture."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from tests.site_support import CHROMIUM, CHROMIUM_ARGS


def page_types(site: Path) -> dict[str, str]:
    """One page of every type of a built site: {type: site path}."""
    suite = next(p for p in sorted((site / "suites").iterdir()) if p.is_dir())
    first = lambda folder, pattern="*.html": next(  # noqa: E731
        p for p in sorted(folder.glob(pattern)) if p.name != "index.html").relative_to(site).as_posix()
    return {
        "home": "index.html", "suite": f"suites/{suite.name}/index.html", "compare": f"suites/{suite.name}/compare.html",
        "stratum": first(suite / "strata"), "items": f"suites/{suite.name}/items/index.html",
        "item": first(suite / "items"), "providers": "providers/index.html", "provider": first(site / "providers"),
        "models": "models/index.html", "model": first(site / "models"), "prose": first(site / "pages"),
        "agreement": "agreement.html", "downloads": "downloads/index.html", "commitments": "commitments/index.html",
        "search": "search.html",
    }


@contextmanager
def chromium():
    """Debian's chromium (never a downloaded browser); one per test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Watched:
    """A page with its console errors, page errors, requests and dialogs recorded."""

    def __init__(self, ctx, site: Path):
        self.site = site
        self.page = ctx.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: m.type in ("error", "warning") and self.errors.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

    def open(self, path: str) -> "Watched":
        self.page.goto((self.site / path).as_uri())
        self.page.wait_for_load_state("load")
        return self

    def outside(self) -> list[str]:
        base = self.site.resolve().as_uri() + "/"
        return [u for u in self.requests if not u.startswith(base)]
