"""The site in a real browser (Debian's chromium through Playwright): pages load cleanly, tables sort
by mouse and keyboard, charts render, hostile responses stay inert, and the re-check button
reproduces the published verdicts."""

from __future__ import annotations

import pytest

from tests.site_browser import Watched, chromium, page_types
from tests.site_support import example_site, fixture_site, missing_browser

pytestmark = [pytest.mark.skipif(missing_browser() is not None, reason=missing_browser() or ""), pytest.mark.slow]


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture
def ctx(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


@pytest.mark.parametrize("which", ["example", "fixture"])
def test_every_page_type_loads_cleanly(ctx, which):
    site = example_site() if which == "example" else fixture_site()
    for kind, path in page_types(site).items():
        w = Watched(ctx, site).open(path)
        w.page.wait_for_timeout(100)
        assert w.errors == [], (kind, path, w.errors)
        assert w.outside() == [], (kind, path, w.outside())
        assert w.page.locator("h1").count() == 1
        assert "Example data." in w.page.inner_text(".banner.simulated")
        w.page.close()


def test_charts_render(ctx):
    site = example_site()
    for path in ("index.html", "suites/extracting/index.html", page_types(site)["model"]):
        w = Watched(ctx, site).open(path)
        plots = w.page.locator("figure.chart .plot")
        assert plots.count() >= 1
        for k in range(plots.count()):
            plots.nth(k).locator(".main-svg").first.wait_for(state="attached", timeout=10000)
        assert w.page.locator("figure.chart .plot .point, figure.chart .plot path.point").count() > 0
        assert w.errors == []
        w.page.close()


def _column(page, table: str, col: int) -> list[float]:
    return page.eval_on_selector_all(
        f"{table} tbody tr", f"rows => rows.map(r => parseFloat(r.cells[{col}].getAttribute('data-sort')))")


def test_sorting_by_mouse_and_keyboard(ctx):
    w = Watched(ctx, example_site()).open("index.html")
    table = "table.sortable"
    headers = w.page.locator(f"{table} thead th")
    col = next(k for k in range(headers.count()) if "Index" in headers.nth(k).inner_text())
    button = headers.nth(col).locator("button")
    button.click()
    values = _column(w.page, table, col)
    assert values == sorted(values) and values[0] < values[-1]
    assert headers.nth(col).get_attribute("aria-sort") == "ascending"
    button.focus()
    w.page.keyboard.press("Enter")
    values = _column(w.page, table, col)
    assert values == sorted(values, reverse=True)
    assert headers.nth(col).get_attribute("aria-sort") == "descending"
    headers.nth(1).locator("button").focus()
    w.page.keyboard.press("Space")
    names = w.page.eval_on_selector_all(f"{table} tbody tr", "rs => rs.map(r => r.cells[1].textContent.toLowerCase())")
    assert names == sorted(names)
    assert w.errors == []


@pytest.mark.parametrize("width", [1280, 390])
def test_hostile_responses_stay_inert(browser, width):
    site = fixture_site()
    context = browser.new_context(viewport={"width": width, "height": 800})
    for path in sorted((site / "suites" / "mini" / "items").glob("*-pub-*.html")):
        w = Watched(context, site).open(path.relative_to(site).as_posix())
        w.page.wait_for_timeout(200)
        for sel in ("details",):
            for k in range(w.page.locator(sel).count()):
                w.page.locator(sel).nth(k).evaluate("d => d.open = true")
        w.page.click("#recheck")
        w.page.wait_for_selector("#recheck-status[data-result]")
        assert w.page.evaluate("typeof window.__pwned") == "undefined", path
        assert w.dialogs == [] and w.errors == [], (path, w.errors)
        assert w.outside() == [], (path, w.outside())
        assert w.page.locator("main script:not([type='application/json'])").count() == 0
        assert w.page.locator("main img, main iframe, main svg, main style, main a[href^='javascript']").count() == 0
        overflow = w.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, (path, width, overflow)
        assert w.page.is_visible("footer.site")
        w.page.close()


def test_hostile_text_is_shown_exactly(ctx):
    site = fixture_site()
    if True:
        w = Watched(ctx, site).open("suites/mini/items/i-pub-1.html")
        shown = w.page.eval_on_selector_all("pre.raw:not(.record)", "ps => ps.map(p => p.textContent)")
        assert any(s.startswith('<a href="javascript:window.__pwned = 3">click me</a>') for s in shown)
        # a 200,000-character answer: the page's budget of it, exactly as stored, and a link to all of it
        budget = 8000
        assert any(len(s) == budget and s.startswith('<a href="javascript:') for s in shown)
        assert "more characters: see the whole stored record" in w.page.content()
        w = Watched(ctx, site).open("suites/mini/items/i-pub-2.html")
        shown = w.page.eval_on_selector_all("pre.raw:not(.record)", "ps => ps.map(p => p.textContent)")
        assert any(s.startswith("</textarea></pre></script></code></details><!-- an unclosed") and len(s) == budget
                   for s in shown)


@pytest.mark.parametrize("which", ["example", "fixture"])
def test_recheck_reproduces_the_published_verdicts(ctx, which):
    site = example_site() if which == "example" else fixture_site()
    items = sorted(p for p in (site / "suites").glob("*/items/*.html") if p.name != "index.html")
    for path in items[:3] + items[-1:]:
        w = Watched(ctx, site).open(path.relative_to(site).as_posix())
        w.page.click("#recheck")
        w.page.wait_for_selector("#recheck-status[data-result]")
        assert w.page.get_attribute("#recheck-status", "data-result") == "reproduced", \
            w.page.inner_text("#recheck-status")
        cells = w.page.eval_on_selector_all("td.recheck-cell", "cs => cs.map(c => c.textContent)")
        assert cells and set(cells) <= {"reproduced", "no stored response", "record too large for this page"}
        assert w.errors == [] and w.outside() == []
        w.page.close()


def test_recheck_notices_a_tampered_verdict(ctx):
    w = Watched(ctx, fixture_site()).open("suites/mini/items/r-pub-1.html")
    w.page.evaluate("""() => {
        const block = document.getElementById('published-verdicts');
        const data = JSON.parse(block.textContent);
        data[0].rows[0][1] = 'wrong'; data[0].rows[0][2] = 0;
        block.textContent = JSON.stringify(data);
    }""")
    w.page.click("#recheck")
    w.page.wait_for_selector("#recheck-status[data-result]")
    assert w.page.get_attribute("#recheck-status", "data-result") == "differs"
    assert "differs" in w.page.locator("td.recheck-cell").first.inner_text()
