"""The site in a real browser (Debian's chromium through Playwright): pages load cleanly, tables sort
by mouse and keyboard, charts render, hostile responses stay inert, and the re-check button
reproduces the published verdicts."""

from __future__ import annotations

import functools
import http.server
import threading
from contextlib import contextmanager

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
        assert w.page.locator("p.stored-elsewhere a[href$='.jsonl.gz']").count() >= 1
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
        oversize = w.page.locator("p.stored-elsewhere").count()
        status = w.page.inner_text("#recheck-status")
        # opened from disk, a record too long for the page can't be read from its download: said plainly
        assert w.page.get_attribute("#recheck-status", "data-result") == ("partial" if oversize else "reproduced"), status
        assert "reproduced all 0" not in status
        cells = w.page.eval_on_selector_all("td.recheck-cell", "cs => cs.map(c => c.textContent)")
        allowed = {"reproduced", "no stored response"} | ({"not re-checked: its download could not be read"}
                                                           if oversize else set())
        assert cells and set(cells) <= allowed
        if oversize:
            assert "not re-checked because their records are too long for this page" in status
            assert "opened from disk" in status
        assert w.errors == [] and w.outside() == []
        w.page.close()


@contextmanager
def served(site):
    """The site over http on 127.0.0.1 (a free port), stopped on leaving."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_recheck_reads_records_too_long_for_the_page_from_their_download(ctx):
    """The fixture's 200,000-character answer is not on its page: served over http, the re-check fetches
    the run's download (gzip), finds the record's line and reproduces every verdict of the page."""
    site = fixture_site()
    with served(site) as base:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "suites/mini/items/i-pub-1.html")
        assert page.locator("p.stored-elsewhere").count() >= 1
        assert page.locator("pre.record").count() < page.locator("table.verdicts").count()
        page.click("#recheck")
        page.wait_for_selector("#recheck-status[data-result]")
        status = page.inner_text("#recheck-status")
        assert page.get_attribute("#recheck-status", "data-result") == "reproduced", status
        cells = page.eval_on_selector_all("td.recheck-cell", "cs => cs.map(c => c.textContent)")
        assert cells and set(cells) <= {"reproduced", "no stored response"} and "reproduced" in cells
        assert errors == []
        page.close()


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


MODEL_FACTS = """\
[models."careful"]
simulated = true
open_weights = false

[models."rules"]
simulated = false
open_weights = true
"""


def test_open_weights_filter(ctx, tmp_path):
    """Where content/models.toml says which models have open weights, the suite page filters its headline
    table and chart by it (a model whose weights are not known is in neither view), kept in the URL
    fragment; without such facts there is no such filter."""
    from tests.site_support import build, make_project

    plain = Watched(ctx, fixture_site()).open("suites/mini/index.html")
    assert plain.page.locator("#f-weights").count() == 0
    root = make_project(tmp_path / "p")
    (root / "content" / "models.toml").write_text(MODEL_FACTS, encoding="utf-8")
    build(root, root / "site")
    w = Watched(ctx, root / "site").open("suites/mini/index.html")
    table = "#headline-stratum-headline tbody tr"
    rows = lambda: w.page.eval_on_selector_all(table, "rs => rs.map(r => r.textContent)")  # noqa: E731
    every = rows()
    assert any("hostile" in r for r in every)
    w.page.select_option("#f-weights", "open")
    assert rows() and all("rules" in r for r in rows()) and len(rows()) == sum("rules" in r for r in every)
    assert "open weights only" in w.page.inner_text("#f-status") and "weights=open" in w.page.url
    points = w.page.evaluate("document.getElementById('forest-headline-stratum').data[0].y.length")
    assert points == len(rows())
    w.page.select_option("#f-weights", "closed")
    assert rows() and all("careful" in r for r in rows()) and len(rows()) == sum("careful" in r for r in every)
    url = w.page.url
    again = Watched(ctx, root / "site").open("index.html")
    again.page.goto(url)
    again.page.wait_for_load_state("load")
    assert again.page.input_value("#f-weights") == "closed"
    assert again.page.eval_on_selector_all(table, "rs => rs.length") == len(rows())
    w.page.select_option("#f-weights", "")
    assert rows() == every
    assert w.errors == [] and again.errors == [] and w.outside() == []
