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
    """Served over http, the re-check reads the item and each stored record from the downloads and
    reproduces every published verdict of the page."""
    site = example_site() if which == "example" else fixture_site()
    items = sorted(p for p in (site / "suites").glob("*/items/*.html") if p.name != "index.html")
    with served(site) as base:
        for path in items[:3] + items[-1:]:
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("response", lambda r: r.status >= 400 and not r.url.endswith("/favicon.ico")
                    and errors.append(f"{r.status} {r.url}"))
            page.goto(base + path.relative_to(site).as_posix())
            page.click("#recheck")
            page.wait_for_selector("#recheck-status[data-result]")
            status = page.inner_text("#recheck-status")
            assert page.get_attribute("#recheck-status", "data-result") == "reproduced", status
            assert "reproduced all 0" not in status
            cells = page.eval_on_selector_all("td.recheck-cell", "cs => cs.map(c => c.textContent)")
            assert cells and set(cells) <= {"reproduced", "no stored response"} and "reproduced" in cells
            assert page.locator("table.verdicts tbody td").count() == 7 * len(cells)
            assert errors == []
            page.close()


def test_recheck_reads_a_suite_s_count_columns(ctx):
    """LongListBench's item tables show three count columns and no points or order column (their
    `data-columns` say so): the re-check reads the counts from them and compares them with scorer B's."""
    from tests.site_support import full_example_site

    site = full_example_site()
    with served(site) as base:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "suites/longlistbench/items/multihop_012_001_crosspage.html")
        columns = page.eval_on_selector_all("table.verdicts", "ts => ts.map(t => t.getAttribute('data-columns'))")
        assert columns and set(columns) == {"unit kind verdict reason counts"}
        assert page.locator("table.verdicts tbody tr").first.locator("td").count() == 8
        page.click("#recheck")
        page.wait_for_selector("#recheck-status[data-result]", timeout=120_000)
        status = page.inner_text("#recheck-status")
        assert page.get_attribute("#recheck-status", "data-result") == "reproduced", status
        cells = page.eval_on_selector_all("td.recheck-cell", "cs => cs.map(c => c.textContent)")
        assert len(cells) == 2 * 19 and set(cells) == {"reproduced"}  # two rows per run, 19 runs
        # a count changed on the page is a difference the re-check finds
        page.reload()
        page.eval_on_selector("table.verdicts tbody tr td:nth-child(5)", "td => { td.textContent = '999'; }")
        page.click("#recheck")
        page.wait_for_selector("#recheck-status[data-result]", timeout=120_000)
        assert page.get_attribute("#recheck-status", "data-result") != "reproduced"
        cells = page.eval_on_selector_all("td.recheck-cell", "cs => cs.map(c => c.textContent)")
        assert sum(c.startswith("differs") for c in cells) == 1
        assert errors == []
        page.close()


def test_recheck_opened_from_disk_says_what_it_could_not_check(ctx):
    """Opened from disk, a page cannot read the downloads: the re-check says plainly that it checked none
    of the verdicts, how many, why and what to do instead."""
    w = Watched(ctx, fixture_site()).open("suites/mini/items/r-pub-1.html")
    w.page.click("#recheck")
    w.page.wait_for_selector("#recheck-status[data-result]")
    status = w.page.inner_text("#recheck-status")
    assert w.page.get_attribute("#recheck-status", "data-result") == "skipped", status
    rows = w.page.locator("table.verdicts tbody tr").count()
    assert f"re-checked none of the {rows} published verdicts" in status
    assert "opened from disk" in status and "http.server" in status and "reproduced" not in status
    cells = w.page.eval_on_selector_all("td.recheck-cell", "cs => cs.map(c => c.textContent)")
    assert len(cells) == rows and set(cells) == {"not re-checked: its download could not be read"}
    assert w.errors == [] and w.outside() == []
    w.page.close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # no line per request on stderr
        pass


@contextmanager
def served(site):
    """The site over http on 127.0.0.1 (a free port), stopped on leaving."""
    handler = functools.partial(_QuietHandler, directory=str(site))
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
    site = fixture_site()
    with served(site) as base:
        page = ctx.new_page()
        page.goto(base + "suites/mini/items/r-pub-1.html")
        page.evaluate("""() => {  // the first verdict as the page shows it: correct, 1 point -> wrong, 0
            const cells = document.querySelector('table.verdicts tbody tr').cells;
            cells[2].className = 'verdict wrong'; cells[3].textContent = '0';
        }""")
        page.click("#recheck")
        page.wait_for_selector("#recheck-status[data-result]")
        assert page.get_attribute("#recheck-status", "data-result") == "differs"
        assert "differs" in page.locator("td.recheck-cell").first.inner_text()
        page.close()
