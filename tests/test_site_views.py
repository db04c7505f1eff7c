"""The site as a reader uses it, in Debian's chromium: every page type at 390, 1400 and 1920 px shows its
headline score without horizontal scrolling, with no console error and no outside request; the suite
page's filters, the column chooser, the pairwise details and the theme toggle work by mouse and keyboard,
from file://."""

from __future__ import annotations

import pytest

from tests.site_browser import Watched, chromium, page_types
from tests.site_support import example_site, missing_browser

pytestmark = [pytest.mark.skipif(missing_browser() is not None, reason=missing_browser() or ""), pytest.mark.slow]

WIDTHS = (390, 1400, 1920)
# page type -> the cell holding the headline score: (table, column) where the first data row is read
SCORE = {"home": ("table.sortable", -1), "suite": ("#headline-stratum-headline", 5),
         "stratum": ("#stratum-headline", 5), "model": ("main table", 2)}


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def site():
    return example_site()


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_type_at_every_width(browser, site, width):
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    for kind, path in page_types(site).items():
        w = Watched(ctx, site).open(path)
        w.page.wait_for_timeout(100)
        assert w.errors == [], (kind, width, w.errors)
        assert w.outside() == [], (kind, width, w.outside())
        overflow = w.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, (kind, width, overflow)
        if kind in SCORE:
            table, col = SCORE[kind]
            box = w.page.evaluate(f"""() => {{
                const t = document.querySelector({table!r});
                const row = t.tBodies[0].rows[0];
                const cells = Array.from(row.cells).filter(c => getComputedStyle(c).display !== 'none');
                const all = Array.from(row.cells);
                const cell = all[{col} < 0 ? all.length + {col} : {col}];
                const r = cell.getBoundingClientRect();
                return {{left: r.left, right: r.right, shown: getComputedStyle(cell).display !== 'none',
                         text: cell.textContent, visible: cells.length}};
            }}""")
            if kind == "home":  # the last column may be an optional fact: the score is the last shown one
                box = w.page.evaluate("""() => {
                    const row = document.querySelector('table.sortable').tBodies[0].rows[0];
                    const cells = Array.from(row.cells).filter(c => getComputedStyle(c).display !== 'none');
                    const r = cells[cells.length - 1].getBoundingClientRect();
                    return {left: r.left, right: r.right, shown: true, text: cells[cells.length - 1].textContent};
                }""")
            assert box["shown"] and "[" in box["text"], (kind, width, box)
            assert 0 <= box["left"] and box["right"] <= width, (kind, width, box)
        w.page.close()
    ctx.close()


@pytest.fixture
def page(browser, site):
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    yield lambda path: Watched(ctx, site).open(path)
    ctx.close()


def _rows(w, table="#headline-stratum-headline"):
    return w.page.eval_on_selector_all(f"{table} tbody tr", "rs => rs.map(r => r.cells[4].textContent)")


def test_filters_by_mouse_and_keyboard_and_the_fragment(page, site):
    w = page("suites/extracting/index.html")
    assert w.page.is_visible("#filters")
    before = _rows(w)
    assert {"hosted", "self-hosted"} <= set(before)
    assert w.page.get_attribute("#filters", "data-loaded") is None  # the views load when first asked for
    w.page.click("#f-hosting")
    w.page.select_option("#f-hosting", "hosted")
    w.page.wait_for_selector("#filters[data-loaded]", state="attached")
    assert set(_rows(w)) == {"hosted"} and len(_rows(w)) == before.count("hosted")
    points = w.page.evaluate("document.getElementById('forest-headline-stratum').data[0].y.length")
    assert points == before.count("hosted")
    w.page.focus("#f-items")
    start = w.page.input_value("#f-items")
    w.page.keyboard.press("ArrowDown")
    chosen = w.page.input_value("#f-items")
    assert chosen != start
    heading = w.page.inner_text("#headline-stratum-headline-heading")
    assert chosen.split("=")[-1] in heading or chosen == "all"
    url = w.page.url
    assert "#items=" in url and "hosting=hosted" in url
    again = page("index.html")
    again.page.goto(url)  # a new load of the page with the fragment
    again.page.wait_for_load_state("load")
    again.page.wait_for_selector("#filters[data-loaded]", state="attached")
    assert again.page.input_value("#f-items") == chosen and again.page.input_value("#f-hosting") == "hosted"
    assert set(_rows(again)) == {"hosted"}
    assert w.errors == [] and again.errors == [] and w.outside() == []


def test_filtered_rows_match_the_stratum_page(page):
    """The filter's view of a stratum is the stratum page's leaderboard, row for row."""
    w = page("suites/extracting/index.html")
    key = w.page.eval_on_selector_all("#f-items option", "os => os.map(o => o.value)")[-1]
    w.page.select_option("#f-items", key)
    w.page.wait_for_selector("#filters[data-loaded]", state="attached")
    shown = w.page.eval_on_selector_all("#headline-stratum-headline tbody tr",
                                        "rs => rs.map(r => Array.from(r.cells).map(c => c.textContent).join('|'))")
    href = w.page.eval_on_selector_all(
        ".links a", f"as => as.filter(a => a.textContent === {key.replace('=', ' = ')!r}).map(a => a.href)")
    assert href, key
    s = page("index.html")
    s.page.goto(href[0])
    s.page.wait_for_load_state("load")
    own = s.page.eval_on_selector_all("#stratum-headline tbody tr",
                                      "rs => rs.map(r => Array.from(r.cells).map(c => c.textContent).join('|'))")
    assert shown == own


def test_column_chooser_shows_an_optional_column(page):
    w = page("index.html")
    th = w.page.locator("table.sortable thead th", has_text="Organisation").first
    assert not th.is_visible()
    w.page.click("details.cols summary")
    w.page.get_by_label("Organisation").first.check()
    assert th.is_visible()
    first = w.page.eval_on_selector("table.sortable", "t => t.tBodies[0].rows[0].cells[6].textContent")
    assert "simulated" in first or "Tally" in first


def test_pairwise_detail_by_keyboard_and_touch(browser, site):
    for touch in (False, True):
        ctx = browser.new_context(viewport={"width": 390 if touch else 1400, "height": 900}, has_touch=touch,
                                  is_mobile=touch)
        w = Watched(ctx, site).open("suites/extracting/index.html")
        button = w.page.locator("table.matrix button.pair").first
        detail = w.page.locator("table.matrix button.pair + .detail").first
        assert detail.bounding_box()["width"] <= 1
        if touch:
            button.tap()
        else:
            button.focus()
        assert detail.bounding_box()["width"] > 20
        assert "difference" in detail.inner_text()
        assert w.errors == []
        ctx.close()


def test_theme_toggle_is_remembered(browser, site):
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, color_scheme="light")
    w = Watched(ctx, site).open("index.html")
    bg = "getComputedStyle(document.body).backgroundColor"
    light = w.page.evaluate(bg)
    w.page.click("#theme-toggle")
    assert w.page.get_attribute("#theme-toggle", "aria-pressed") == "true"
    dark = w.page.evaluate(bg)
    assert dark != light
    other = Watched(ctx, site).open("suites/extracting/index.html")
    assert other.page.evaluate(bg) == dark
    other.page.focus("#theme-toggle")
    other.page.keyboard.press("Enter")
    assert other.page.evaluate(bg) == light
    assert w.errors == [] and other.errors == []
    ctx.close()


def test_compare_two_runs(page, site):
    """Two runs chosen by keyboard, then by mouse: the difference shown is the statistics' (the pair read
    reversed when the statistics list it the other way), from the scripts of only the runs chosen."""
    import json

    stats = json.loads((site / "downloads" / "extracting" / "stats.json").read_text(encoding="utf-8"))
    key = stats["headline"]["stratum"]
    pairs = {(p["a"], p["b"]): p for p in stats["strata"][key]["pairwise"]["index"]["pairs"]}

    def shown_is_the_statistics(a: str, b: str) -> None:
        w.page.wait_for_selector("#compare-form[data-loaded]", state="attached")
        p = pairs.get((a, b))
        diff, call = (p["diff"], p["call"]) if p else (-pairs[(b, a)]["diff"], {"better": "worse", "worse": "better"}.get(
            pairs[(b, a)]["call"], pairs[(b, a)]["call"]))
        row = w.page.eval_on_selector("#compare-metrics", "t => Array.from(t.tBodies[0].rows[0].cells).map(c => c.textContent)")
        assert row[0] == "Extracting Index"
        assert row[3].split(" [")[0].replace("\u2212", "-").lstrip("+") == f"{diff:.1f}"
        assert row[4].endswith(call) or row[4] == call

    w = page("suites/extracting/compare.html")
    runs = w.page.eval_on_selector_all("#run-a option", "os => os.map(o => o.value)")
    w.page.focus("#run-b")
    w.page.keyboard.press("ArrowDown")  # the third run
    a, b = w.page.input_value("#run-a"), w.page.input_value("#run-b")
    assert (a, b) == (runs[0], runs[2])
    shown_is_the_statistics(a, b)
    links = w.page.eval_on_selector_all("#compare-items tbody a", "as => as.map(a => a.getAttribute('href'))")
    assert links and all(h.startswith("items/") and h.endswith(".html") for h in links)
    assert (site / "suites" / "extracting" / links[0]).is_file()
    # the first item's differences read as the published verdicts of the two runs (first repeat)
    import csv
    import gzip
    import io

    item = links[0].rsplit("/", 1)[1][:-5]
    rows = csv.DictReader(io.StringIO(gzip.decompress(
        (site / "downloads" / "extracting" / "verdicts-public.csv.gz").read_bytes()).decode("utf-8")))
    got: dict[str, dict[str, str]] = {a: {}, b: {}}
    for r in rows:
        if r["item"] == item and r["repeat"] == "0" and r["run"] in got:
            got[r["run"]][r["unit"]] = r["verdict"]
    shown = w.page.eval_on_selector("#compare-items tbody tr", "tr => tr.cells[1].textContent")
    if got[a] and got[b]:
        parts = [f"{u}: {got[a].get(u, 'none')} \u2192 {got[b].get(u, 'none')}" for u in got[a] | got[b]
                 if got[a].get(u) != got[b].get(u)]
        listed = shown.split("; and ")[0].split("; ")  # at most six, then "; and N more"
        assert parts and set(listed) <= set(parts) and len(listed) == min(6, len(parts)), (shown, parts)
    assert f"#a={a}&b={b}" in w.page.url
    before = w.page.inner_text("#head-a")
    w.page.select_option("#run-a", runs[1])  # by mouse
    label = w.page.eval_on_selector(f"#run-a option[value='{runs[1]}']", "o => o.textContent")
    assert w.page.inner_text("#head-a") == label != before
    shown_is_the_statistics(runs[1], runs[2])
    w.page.select_option("#run-b", runs[-1])  # a run whose script is not loaded yet
    shown_is_the_statistics(runs[1], runs[-1])
    src = {r["id"]: r["src"] for r in json.loads(w.page.eval_on_selector("#compare-data", "s => s.textContent"))["runs"]}
    loaded = {u.rsplit("/extracting/", 1)[1] for u in w.requests if "/compare/" in u or u.endswith("compare-items.js")}
    assert loaded == {src[r] for r in (runs[0], runs[1], runs[2], runs[-1])} | {"compare-items.js"}, loaded
    again = page("index.html")
    again.page.goto(w.page.url)
    again.page.wait_for_load_state("load")
    assert (again.page.input_value("#run-a"), again.page.input_value("#run-b")) == (runs[1], runs[-1])
    again.page.wait_for_selector("#compare-form[data-loaded]", state="attached")
    assert w.errors == [] and again.errors == [] and w.outside() == []


def test_search_by_keyboard_and_mouse(page, site):
    w = page("search.html")
    assert w.page.evaluate("document.activeElement.id") == "search-box"
    w.page.keyboard.type("acme cloudco")
    hits = w.page.eval_on_selector_all("#search-results li", "ls => ls.map(l => l.textContent)")
    assert hits and hits[0].startswith("Model acme-lynx-1"), hits
    assert all("acme" in h.lower() and "cloudco" in h.lower() for h in hits)
    w.page.fill("#search-box", "")
    w.page.keyboard.type("budgetapi")
    assert w.page.eval_on_selector_all("#search-results li .kind", "ks => ks.map(k => k.textContent)")[0] == "Provider"
    item = next(p.stem for p in sorted((site / "suites" / "extracting" / "items").glob("*.html"))
                if p.name != "index.html")
    w.page.fill("#search-box", item)
    first = w.page.locator("#search-results li a").first
    assert first.inner_text() == item
    assert "#q=" in w.page.url
    first.click()  # by mouse, to the item's page
    w.page.wait_for_load_state("load")
    assert w.page.url.endswith(f"suites/extracting/items/{item}.html")
    w.page.go_back()
    w.page.wait_for_load_state("load")
    assert w.page.input_value("#search-box") == item  # the fragment restores the query
    w.page.fill("#search-box", "qzxv no such thing")  # every word must occur: qzxv is in no page
    assert w.page.locator("#search-results li").count() == 0
    assert "0 found" in w.page.inner_text("#search-status")
    w.page.fill("#search-box", "holm")  # a word of the method pages' text, in no title
    kinds = w.page.eval_on_selector_all("#search-results li .kind", "ks => ks.map(k => k.textContent)")
    snippets = w.page.eval_on_selector_all("#search-results li .snippet", "ss => ss.map(s => s.textContent)")
    assert "Section" in kinds and snippets and all("holm" in s.lower() for s in snippets), (kinds, snippets)
    hrefs = w.page.eval_on_selector_all("#search-results li:has(.snippet) a", "as => as.map(a => a.getAttribute('href'))")
    assert any(h.startswith("pages/statistics.html#") for h in hrefs), hrefs  # to the section holding the word
    assert w.errors == [] and w.outside() == []


def test_hostile_names_stay_text_in_search_and_compare(browser):
    from tests.site_support import fixture_site

    site = fixture_site()
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    w = Watched(ctx, site).open("search.html")
    w.page.fill("#search-box", "hostile")
    assert "hostile <script>x</script>" in w.page.inner_text("#search-results")
    assert w.page.locator("#search-results script, #search-results b").count() == 0
    c = Watched(ctx, site).open("suites/mini/compare.html")
    c.page.wait_for_selector("#compare-form[data-loaded]", state="attached")
    assert "<b>cloud</b>" in c.page.inner_text("#compare-form") + c.page.inner_text("#compare-metrics")
    assert c.page.locator("main b, main script:not([type='application/json'])").count() == 0
    assert w.page.evaluate("typeof window.__pwned") == "undefined" == c.page.evaluate("typeof window.__pwned")
    assert w.errors == [] and c.errors == [] and w.outside() == [] and c.outside() == []
    ctx.close()
