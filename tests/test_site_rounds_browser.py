"""The round-by-round history and the anchor tables in Debian's chromium: the history chart draws, the
score is visible without horizontal scrolling at 390, 1400 and 1920 px, no console error, no outside
request, axe-core serious/critical 0 (light and dark), vnu errors 0, every internal link resolves."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.site_browser import Watched, chromium
from tests.site_support import AXE, VNU, aubas_site, missing_browser
from tests.test_site_links import crawl

pytestmark = [pytest.mark.skipif(missing_browser() is not None, reason=missing_browser() or ""), pytest.mark.slow]

PAGES = ("models/abacus-slip-2.html", "providers/cloudco.html")


@pytest.mark.parametrize("width", (390, 1400, 1920))
def test_history_draws_and_its_scores_stay_in_view(width):
    site = aubas_site()
    with chromium() as browser:
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        for path in PAGES:
            w = Watched(ctx, site).open(path)
            w.page.wait_for_timeout(200)
            assert w.errors == [] and w.outside() == [], (path, w.errors, w.outside())
            overflow = w.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 1, (path, width, overflow)
        w = Watched(ctx, site).open(PAGES[0])
        w.page.wait_for_timeout(200)
        assert w.page.locator("#history-chart-au-bas svg").count() > 0  # plotly drew the chart
        cell = w.page.locator("#history-au-bas tbody tr").first.locator("td").nth(4)
        cell.scroll_into_view_if_needed()
        box = cell.bounding_box()
        assert cell.is_visible() and "[" in cell.inner_text() and box is not None
        assert 0 <= box["x"] and box["x"] + box["width"] <= width, box
        ctx.close()


@pytest.mark.skipif(not AXE.is_file(), reason="axe-core is not installed (npm install)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation(scheme):
    site = aubas_site()
    with chromium() as browser:
        context = browser.new_context(bypass_csp=True, color_scheme=scheme)
        found = {}
        for path in PAGES:
            page = context.new_page()
            page.goto((site / path).as_uri())
            page.wait_for_load_state("load")
            page.add_script_tag(path=str(AXE))
            result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
            bad = [f"{v['id']}: {v['help']}" for v in result["violations"] if v["impact"] in ("serious", "critical")]
            if bad:
                found[path] = bad
            page.close()
        assert found == {}


@pytest.mark.skipif(not VNU.is_file() or not shutil.which("java"), reason="vnu-jar or java is not installed")
def test_vnu_finds_no_error():
    site = aubas_site()
    run = subprocess.run(["java", "-jar", str(VNU), "--errors-only", "--format", "json",
                          *(str(site / p) for p in PAGES)], capture_output=True, text=True, timeout=300)
    messages = json.loads(run.stderr or run.stdout or '{"messages": []}')["messages"]
    assert [m.get("message") for m in messages if m.get("type") == "error"] == []


def test_every_internal_link_resolves():
    pages, problems = crawl(aubas_site())
    assert problems == []
