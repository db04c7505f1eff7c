"""What a reader sees on the whole example site (every suite), in Debian's chromium: the home page's
first screen holds every suite's leader group and the date of the last update at 390 and 1400 px, the
leader marks match the pairwise calls, and headline tables show their score with its interval inside
the viewport on a phone."""

from __future__ import annotations

import json

import pytest

from generator.render.pages.summary import leader_group
from tests.site_browser import Watched, chromium
from tests.site_support import full_example_site, missing_browser

browser_only = pytest.mark.skipif(missing_browser() is not None, reason=missing_browser() or "")
SCREENS = ((390, 844), (1400, 900))  # a phone and a laptop: the first screen, without scrolling


def test_leader_group_is_marked_by_the_calls_not_the_point_estimate():
    fam = {"order": ["a", "b", "c", "d"],
           "pairs": [{"a": "a", "b": "b", "call": "can't tell apart"},
                     {"a": "a", "b": "c", "call": "better"},
                     {"a": "d", "b": "b", "call": "can't tell apart"},
                     {"a": "d", "b": "a", "call": "can't tell apart"},
                     {"a": "c", "b": "d", "call": "can't tell apart"},
                     {"a": "b", "b": "d", "call": "can't tell apart"}]}
    assert leader_group(fam) == ["a", "b", "d"]  # b and d trail a on the point estimate but are not beaten
    fam["pairs"].append({"a": "d", "b": "b", "call": "worse"})  # read from d: b is called better than d
    assert leader_group(fam) == ["a", "b"]
    assert leader_group({"order": [], "pairs": []}) == []


@pytest.fixture(scope="module")
def site():
    return full_example_site()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _stats(site) -> dict[str, dict]:
    return {p.parent.name: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((site / "downloads").glob("*/stats.json"))}


@browser_only
@pytest.mark.parametrize("width,height", SCREENS)
def test_home_first_screen_holds_every_suites_leaders(browser, site, width, height):
    stats = _stats(site)
    ctx = browser.new_context(viewport={"width": width, "height": height})
    w = Watched(ctx, site).open("index.html")
    boxes = w.page.eval_on_selector_all("#leaders li, #last-update", """es => es.map(e => {
        const r = e.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, text: e.textContent};
    })""")
    assert len(boxes) == len(stats) + 1, boxes
    for b in boxes:
        assert 0 <= b["top"] and b["bottom"] <= height and 0 <= b["left"] and b["right"] <= width, (width, b)
    assert "Last updated 20" in boxes[0]["text"]
    top = w.page.eval_on_selector("#summary-matrix", "t => t.getBoundingClientRect().top")
    assert top < height  # the matrix starts on the first screen
    assert w.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1
    assert w.errors == [] and w.outside() == []
    ctx.close()


@browser_only
def test_matrix_marks_the_leader_group_from_the_calls(browser, site):
    stats = _stats(site)
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    w = Watched(ctx, site).open("index.html")
    heads = w.page.eval_on_selector_all("#summary-matrix thead th a", "as => as.map(a => a.getAttribute('href'))")
    suites = [h.split("/")[1] for h in heads]
    rows = w.page.eval_on_selector_all("#summary-matrix tbody tr", """rs => rs.map(r => ({
        model: r.cells[0].querySelector('a').textContent, label: r.cells[0].textContent,
        lead: Array.from(r.cells).slice(1).map(c => c.classList.contains('lead')),
        text: Array.from(r.cells).slice(1).map(c => c.textContent)}))""")
    for k, name in enumerate(suites):
        s = stats[name]
        key = s["headline"]["stratum"] if s["headline"]["stratum"] in s["strata"] else "all"
        leaders = {s["runs"][r]["model"] for r in leader_group(s["strata"][key]["pairwise"][s["headline"]["metric"]])}
        marked = {r["model"] for r in rows if r["lead"][k]}
        assert marked == leaders, (name, marked, leaders)
        for r in rows:
            if r["lead"][k] or r["text"][k] != "\u2013":
                assert "[" in r["text"][k], (name, r)  # a score always with its interval
    simulated = {i["model"] for s in stats.values() for i in s["runs"].values() if i["simulated"]}
    for r in rows:
        assert ("(simulated)" in r["label"]) == (r["model"] in simulated), r
    ctx.close()


LEADERBOARDS = """() => Array.from(document.querySelectorAll('table.sortable'))
  .filter(t => /^headline-|-headline$/.test(t.id) && t.tBodies[0].rows.length).map(t => {
    const heads = Array.from(t.tHead.rows[0].cells);
    const k = heads.findIndex(th => th.classList.contains('num') && !/Rank/.test(th.textContent)
                                    && getComputedStyle(th).display !== 'none');
    const m = heads.findIndex(th => th.textContent.startsWith('Model'));
    const wrap = t.closest('.table-wrap').getBoundingClientRect();
    return {id: t.id, rows: Array.from(t.tBodies[0].rows).map(r => {
      const b = r.cells[k].getBoundingClientRect();
      return {left: b.left, right: b.right, wrap: wrap.right, text: r.cells[k].textContent,
              overflows: r.cells[k].scrollWidth > r.cells[k].clientWidth + 1,
              name: r.cells[m].innerText.trim()};
    })};
  })"""


def _phone_pages(site) -> list[str]:
    out = ["index.html"]
    for suite in sorted(p for p in (site / "suites").iterdir() if p.is_dir()):
        out.append(f"suites/{suite.name}/index.html")
        out += [p.relative_to(site).as_posix() for p in sorted((suite / "strata").glob("*.html"))[:1]]
    return out


@pytest.mark.slow
@browser_only
def test_phone_leaderboards_show_the_score_and_tell_rows_apart(browser, site):
    """At 390 px the score with its whole interval is inside the viewport and inside its table's scroll box
    in every headline leaderboard, and no two rows read the same."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    seen = 0
    for path in _phone_pages(site):
        w = Watched(ctx, site).open(path)
        for table in w.page.evaluate(LEADERBOARDS):
            seen += 1
            for r in table["rows"]:
                where = (path, table["id"], r)
                assert "[" in r["text"] or r["text"] == "\u2013", where
                assert 0 <= r["left"] and r["right"] <= min(390, r["wrap"]) + 0.5 and not r["overflows"], where
            names = [r["name"] for r in table["rows"]]
            assert len(set(names)) == len(names), (path, table["id"], names)
        assert w.errors == []
        w.page.close()
    assert seen >= 11  # home (5 suites), each suite page and one stratum page per suite
    ctx.close()


@pytest.mark.slow
@browser_only
def test_no_page_scrolls_sideways_on_a_phone(browser, site):
    """Every page but the item and episode pages (one of each is in test_site_views) at 390 px: rule pages'
    markdown tables scroll in a box of their own."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    wide = []
    paths = [p for p in sorted(site.rglob("*.html")) if not {"items", "episodes"} & set(p.relative_to(site).parts)]
    for path in paths:
        page.goto(path.as_uri())
        over = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if over > 1:
            wide.append((path.relative_to(site).as_posix(), over))
    assert len(paths) > 100 and wide == [], wide
    ctx.close()


CHART = """f => { const svg = f.querySelector('.main-svg').getBoundingClientRect();
    const legend = f.querySelector('.legend'); if (!legend) return null;
    const l = legend.getBoundingClientRect();
    return {id: f.querySelector('.plot').id, entries: f.querySelectorAll('.legend .traces').length,
            traces: f.querySelector('.plot').data.length,
            inside: l.left >= svg.left - 1 && l.right <= svg.right + 1 && l.bottom <= svg.bottom + 1}; }"""


@pytest.mark.slow
@browser_only
@pytest.mark.parametrize("width", [1400, 390])
def test_chart_legends_are_not_cut(browser, site, width):
    """Every entry of the cost and latency charts' legends is drawn inside the chart."""
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    pages = [f"suites/{p.name}/index.html" for p in sorted((site / "suites").iterdir()) if p.is_dir()]
    pages.append("models/acme-lynx-1.html")
    checked = 0
    for path in pages:
        w = Watched(ctx, site).open(path)
        figs = w.page.locator("figure.chart:has(.plot[id^='tradeoff-'])")
        for k in range(figs.count()):
            figs.nth(k).locator(".main-svg").first.wait_for(state="attached", timeout=10000)
            info = figs.nth(k).evaluate(CHART)
            assert info and info["inside"] and info["entries"] == info["traces"], (path, width, info)
            checked += 1
        w.page.close()
    assert checked >= 4
    ctx.close()


@pytest.mark.slow
@browser_only
def test_model_pages_runs_tables_are_not_clipped(browser, site):
    """At 1400 px a model page's runs table fits its box (au-bas' long metric names used to push it past)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    for path in sorted((site / "models").glob("*.html")):
        page.goto(path.as_uri())
        clipped = page.evaluate("""() => Array.from(document.querySelectorAll('main .table-wrap'))
            .filter(w => /^runs-/.test(w.querySelector('table').id) && w.scrollWidth > w.clientWidth + 1)
            .map(w => [w.querySelector('table').id, w.scrollWidth, w.clientWidth])""")
        assert clipped == [], (path.name, clipped)
    ctx.close()


def _text(path) -> str:
    """A page's visible text, roughly: no data blocks, no tags, no attributes."""
    import html
    import re

    page = re.sub(r"<script\b.*?</script>", " ", path.read_text(encoding="utf-8"), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_numbers_a_reader_can_read(site):
    import csv
    import re

    rabench = _text(site / "suites" / "ra-bench" / "index.html")
    assert not re.search(r"\d(\.\d+)?e[+-]\d", rabench)  # was 3.16e+03 and 7e-05 in the findings table
    assert "0.0% [0.0, 0.7] (n=544)" in rabench  # was "0 [0, 0.701] (n=544)"
    episodes = sorted((site / "suites" / "ledgershield" / "episodes").glob("*.html"))
    texts = [_text(p) for p in episodes]
    assert not any("millionths" in t for t in texts) and any("% of the score" in t for t in texts)
    lumen = _text(site / "models" / "lumen-2.html")
    assert re.search(r"USD \d+\.\d+", lumen)  # a cost always with its currency
    header = next(csv.reader((site / "downloads" / "ra-bench" / "reports" / "findings.csv").open(encoding="utf-8")))
    assert header[:4] == ["ours", "ours_id", "baseline", "baseline_id"] and not any(re.fullmatch(r"c\d+", h)
                                                                                      for h in header)
    findings = (site / "suites" / "ra-bench" / "index.html").read_text(encoding="utf-8").split('id="report-findings"')[1]
    assert "<bdi>heron-open-8b (simulated)</bdi>" in findings.split("</table>")[0]  # by model, as on leaderboards
    stats = _stats(site)
    for name, s in stats.items():
        page = (site / "suites" / name / "index.html").read_text(encoding="utf-8")
        metrics = page.split('id="headline-stratum-metrics"')[1].split("</thead>")[0]
        headings = re.findall(r'data-type="number">([^<]*)</button>', metrics)
        assert headings, name
        for h in headings:
            assert not h.endswith("(%)") or "mean)" not in h, (name, h)  # counts and means are not percentages
    aubas = (site / "suites" / "au-bas" / "index.html").read_text(encoding="utf-8")
    assert ">Pairs flagged (mean)</button>" in aubas
