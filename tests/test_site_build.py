"""The site build without a browser: refusal and drafts, atomic swap, determinism, safety of the HTML."""

from __future__ import annotations

import gzip
import hashlib
import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import Disagreement, InputProblem, ScorerBUnavailable
from generator.pipeline import crosscheck
from tests.site_support import build, fixture_site, make_project, missing_node

pytestmark = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


def tree(path: Path) -> dict[str, bytes]:
    return {p.relative_to(path).as_posix(): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def html_pages(path: Path) -> list[Path]:
    return sorted(path.rglob("*.html"))


def test_two_builds_are_byte_identical(tmp_path):
    root = make_project(tmp_path / "p")
    build(root, tmp_path / "a")
    build(root, tmp_path / "b")
    a, b = tree(tmp_path / "a"), tree(tmp_path / "b")
    assert a.keys() == b.keys()
    assert [k for k in a if a[k] != b[k]] == []


def test_refuses_when_scorers_disagree_and_keeps_the_old_site(tmp_path, monkeypatch):
    root = make_project(tmp_path / "p")
    out = tmp_path / "site"
    build(root, out)
    before = tree(out)
    _disagree(monkeypatch)  # a changed scorer, as far as the build can tell only by running it: no cache
    with pytest.raises(Disagreement, match="scorers disagree"):
        build(root, out, cache=False)
    assert tree(out) == before
    report = build(root, out, draft=True)
    assert report.draft == "draft: the scorers disagree"
    for page in html_pages(out):
        assert "Draft: the scorers disagree" in page.read_text(encoding="utf-8"), page


def _disagree(monkeypatch):
    def finish(self, runs):
        return crosscheck.Agreement(self.suite_name, "disagree", 10, 1, [], node="v0")

    monkeypatch.setattr(crosscheck.Gate, "finish", finish)


def test_scorer_b_missing_gives_its_own_draft_label(tmp_path, monkeypatch):
    root = make_project(tmp_path / "p")
    monkeypatch.setattr(crosscheck.shutil, "which", lambda name: None)
    with pytest.raises(ScorerBUnavailable, match="Node.js 18 or newer"):
        build(root, tmp_path / "site")
    with pytest.raises(ScorerBUnavailable):
        build(root, tmp_path / "site", draft=True)  # the same rule as rescore: no silent draft
    assert not (tmp_path / "site").exists()
    with pytest.raises(InputProblem, match="needs --draft"):
        build(root, tmp_path / "site", skip_scorer_b=True)
    build(root, tmp_path / "site", draft=True, skip_scorer_b=True)
    assert "Draft: scorer B did not run" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_a_failed_write_leaves_the_previous_site(tmp_path, monkeypatch):
    root = make_project(tmp_path / "p")
    out = tmp_path / "site"
    build(root, out)
    before = tree(out)
    from generator.render import build as build_module

    def boom(*a, **k):
        raise RuntimeError("disk full")

    monkeypatch.setattr(build_module, "listing", boom)
    with pytest.raises(RuntimeError):
        build(root, out, cache=False)  # nothing changed: only a build without the cache writes at all
    assert tree(out) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site")] == []


def test_every_page_is_safe_static_html():
    site = fixture_site()
    pages = html_pages(site)
    assert len(pages) > 20
    for page in pages:
        html = page.read_text(encoding="utf-8")
        csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
        assert csp and unescape(csp.group(1)).startswith("default-src 'none'; script-src 'self';"), page
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert 'src="' in tag or 'type="application/json"' in tag, (page, tag)
        # the URLs of the page's tags (text, escaped, holds no tag: its `<` is `&lt;`, but it may hold
        # `href="..."` as text, e.g. a hostile answer shown exactly)
        for tag in re.findall(r"<[A-Za-z][^>]*>", html):
            for url in re.findall(r'\s(?:href|src)="([^"]*)"', tag):
                assert not re.match(r"^(/|[a-z]+:)", url), (page, url)
        assert "Example data." in html  # the fixture's runs are simulated
        assert re.search(r"<(img|iframe|style|meta http-equiv=\"refresh)[^>]*evil", html) is None


def test_hostile_responses_are_escaped_exactly():
    html = (fixture_site() / "suites" / "mini" / "items" / "i-pub-1.html").read_text(encoding="utf-8")
    # shown as text: `<` and `&` escaped (quotes need no escaping outside attributes)
    assert '&lt;a href="javascript:window.__pwned = 3"&gt;click me&lt;/a&gt;' in html
    assert "<script>window.__pwned" not in html and "<a href=\"javascript" not in html
    assert not re.search(r"<[A-Za-z][^>]*\sonerror=", html)


def test_private_items_have_no_pages_and_no_public_data():
    site = fixture_site()
    items = {p.stem for p in (site / "suites" / "mini" / "items").glob("*.html")}
    assert items == {"index", "i-pub-1", "i-pub-2", "r-pub-1", "r-pub-2"}
    verdicts = gzip.decompress((site / "downloads" / "mini" / "verdicts-public.csv.gz").read_bytes()).decode()
    assert "-prv-" not in verdicts and "i-pub-1" in verdicts
    for path in (site / "downloads" / "mini" / "responses-public").iterdir():
        assert "-prv-" not in gzip.decompress(path.read_bytes()).decode()


def test_downloads_list_every_file_with_its_sha256():
    site = fixture_site()
    sums = (site / "downloads" / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    files = {p.relative_to(site / "downloads").as_posix() for p in (site / "downloads").rglob("*")
             if p.is_file() and p.name not in ("SHA256SUMS", "index.html")}
    listed = {}
    for line in sums:
        digest, name = line.split("  ", 1)
        listed[name] = digest
        assert hashlib.sha256((site / "downloads" / name).read_bytes()).hexdigest() == digest
    assert set(listed) == files
    page = (site / "downloads" / "index.html").read_text(encoding="utf-8")
    assert all(d in page for d in listed.values())
    assert {"mini/stats.json", "mini/verdicts-public.csv.gz", "mini/headline.csv", "mini/headline.json"} <= files


def test_stored_lines_are_published_exactly(tmp_path):
    site = fixture_site()
    root = site.parent
    stored = (root / "results" / "mini" / "hostile-cloud" / "responses.jsonl").read_bytes().splitlines()
    published = gzip.decompress((site / "downloads" / "mini" / "responses-public" / "hostile-cloud.jsonl.gz")
                                .read_bytes()).splitlines()
    assert published == [line for line in stored if b'"item": "i-pub-' in line or b'"item": "r-pub-' in line]


def test_cli_build_and_refusal(tmp_path, monkeypatch):
    root = make_project(tmp_path / "p")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1793491200")
    args = ["site", "build", "--root", str(root), "--out", str(tmp_path / "s"), "-q"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "pages" in result.output and (tmp_path / "s" / "index.html").is_file()
    with monkeypatch.context() as m:
        _disagree(m)  # a scorer changed in a way only running it shows: without the cache
        result = CliRunner().invoke(main, [*args, "--no-cache"])
        assert result.exit_code == 3 and "refusing to publish" in result.output
    monkeypatch.setattr(crosscheck.shutil, "which", lambda name: None)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 4 and "apt-get install nodejs" in result.output


def test_input_errors_stop_the_build(tmp_path):
    root = make_project(tmp_path / "p")
    shutil.rmtree(root / "results" / "mini" / "rules-local")
    (root / "results" / "mini" / "bad").mkdir()
    with pytest.raises(InputProblem, match="run.json is missing"):
        build(root, tmp_path / "site")


PAGE_LIMIT = 300 * 1024  # bytes: no page of a site over this


def test_no_page_over_300_kb_and_each_stored_response_published_once():
    """The fixture's two long answers (200,000 characters and a megabyte): no page of the site is over
    300 KB, and each long answer's bytes are in exactly one file of the site (its run's download,
    gzip), not also on its page or in a download of their own."""
    site = fixture_site()
    pages = {p.relative_to(site).as_posix(): p.stat().st_size for p in site.rglob("*.html")}
    assert pages and max(pages.values()) <= PAGE_LIMIT, sorted(pages.items(), key=lambda kv: -kv[1])[:3]
    marker = "x" * 100_000
    holding = []
    for p in site.rglob("*"):
        if p.is_file() and not p.name.startswith("plotly-"):
            data = gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes()
            if marker.encode() in data:
                holding.append(p.relative_to(site).as_posix())
    assert holding == ["downloads/mini/responses-public/hostile-cloud.jsonl.gz"], holding
    page = (site / "suites" / "mini" / "items" / "i-pub-1.html").read_text(encoding="utf-8")
    notes = re.findall(r'<p class="note stored-elsewhere"[^>]*data-line="(\d+)">[^<]*<a href="([^"]+)"', page)
    assert notes, "each stored record is named by its line in its run's download"
    named = []
    for number, href in notes:
        lines = gzip.decompress((site / "suites" / "mini" / "items" / unescape(href)).read_bytes()).splitlines()
        named.append(lines[int(number) - 1])
    assert all(b'"item": "i-pub-1"' in line for line in named)
    assert sum(marker.encode() in line for line in named) == 1


def test_item_pages_name_their_item_and_records_in_the_downloads():
    """What item pages no longer inline is reachable: the re-check's item line and every response's stored
    record line name files of the site, and each named line is that item's (its id) and that run's."""
    import json

    site = fixture_site()
    pages = sorted(p for p in (site / "suites" / "mini" / "items").glob("*.html") if p.name != "index.html")
    assert pages
    for path in pages:
        page = path.read_text(encoding="utf-8")
        item = re.search(r'data-items="([^"]+)" data-item-line="(\d+)"', page)
        assert item, path
        items = gzip.decompress((path.parent / unescape(item.group(1))).read_bytes()).decode().split("\n")
        assert json.loads(items[int(item.group(2)) - 1])["id"] == path.stem
        notes = re.findall(r'data-anchor="([^"]+)-r(\d+)" data-line="(\d+)">[^<]*<a href="([^"]+)"', page)
        assert len(notes) == page.count('<section class="response"') - page.count("No stored response:")
        for run, repeat, number, href in notes:
            assert unescape(href).endswith(f"/responses-public/{run}.jsonl.gz")
            lines = gzip.decompress((path.parent / unescape(href)).read_bytes()).decode().split("\n")
            record = json.loads(lines[int(number) - 1])
            assert (record["item"], record["repeat"]) == (path.stem, int(repeat))


def test_suite_page_shows_its_prompt_as_text():
    """The suite page shows prompt.toml's two messages as text (markup in them escaped, doubled braces
    read as single), its placeholders, its SHA-256 and which runs recorded sending it."""
    from tests.site_support import prompt_sha256

    page = (fixture_site() / "suites" / "mini" / "index.html").read_text(encoding="utf-8")
    section = page[page.index('<section aria-labelledby="prompt">'):]
    section = section[:section.index("</section>")]
    shown = [unescape(p) for p in re.findall(r'<pre class="raw prompt"[^>]*>\n(.*?)</pre>', section, re.S)]
    assert shown[0].startswith('You read receipts. Answer with one JSON object {"total": number} and nothing else.')
    assert "<script>" not in section and "&lt;script&gt;window.__pwned = 5&lt;/script&gt;" in section
    assert shown[1] == "Reference date: {reference_date}. Fields: {field_list}.\n<<<\n{document}\n>>>"
    assert "<code>{document}</code>, <code>{field_list}</code>, <code>{reference_date}</code> filled in" in section
    assert f"<code>{prompt_sha256()}</code>: the run.json of 1 of 4 runs records it." in section
    assert "Another wording: careful-other." in section
    assert "No prompt recorded" in section and "hostile" in section and "rules-local" in section
    assert '<a href="#prompt">Prompt</a>' in page


def test_search_index_holds_the_text_of_each_section_of_a_page():
    """A prose page is indexed by section: its text as plain text (tags dropped, entities read), under
    the heading, linked to the heading's anchor; the text before the first heading under the page."""
    import json

    script = (fixture_site() / "static" / "search-index.js").read_text(encoding="utf-8")
    entries = json.loads(script[script.index("= ") + 2:].rstrip().rstrip(";"))
    assert ["section", "Calls", "Method", "pages/method.html#calls",
            "Pairs are called by Holm's step-down procedure."] in entries
    page = next(e for e in entries if e[0] == "page" and e[1] == "How to read this")
    assert page[3:] == ["pages/how-to-read.html", "Each number has a 95% interval; see the method."]


def test_headline_says_which_half_it_ranks_on_and_why():
    """The suite page's headline says which half it ranks on and why; a suite with public items only, or
    one whose headline half is too small, says that instead."""
    from types import SimpleNamespace

    from generator.render.pages.suite import half_note

    page = (fixture_site() / "suites" / "mini" / "index.html").read_text(encoding="utf-8")
    note = re.search(r'<p class="note" id="headline-half">(.*?)</p>', page)
    assert note and note.group(1).startswith("The headline ranks on the private half only (4 items)")
    assert "The 4 public items show every response" in note.group(1)

    def view(halves, headline_half="public"):
        items = [SimpleNamespace(half=h) for h in halves]
        suite = SimpleNamespace(headline_half=headline_half, min_stratum_items=5)
        return SimpleNamespace(result=SimpleNamespace(items=items), suite=suite)

    assert "no private half, and a model may have seen them" in half_note(view(["public"] * 6), "half=public")
    assert "too small to rank on alone (fewer than 5 items)" in half_note(view(["public", "private"], "private"), "all")
    assert half_note(view(["private"] * 3, "private"), "half=private").endswith("trained or tuned on them.")


def test_gzip_downloads_carry_no_name_and_no_time():
    """Every .gz download has no file name and time 0 in its gzip header, so a build writes the same
    bytes whenever it runs (the golden test compares two builds' bytes as well)."""
    gz = sorted((fixture_site() / "downloads").rglob("*.gz"))
    assert {p.name for p in gz} >= {"verdicts-public.csv.gz", "hostile-cloud.jsonl.gz"}
    for path in gz:
        head = path.read_bytes()[:10]
        assert head[:3] == b"\x1f\x8b\x08" and head[3] & 0x08 == 0 and head[4:8] == b"\0\0\0\0", path
        gzip.decompress(path.read_bytes())  # whole and valid


def test_verdict_rows_the_page_cannot_show_exactly_are_listed_in_its_data_block():
    """The re-check reads the published verdicts from the verdict table; a row whose unit or order an HTML
    parser would change (a carriage return, a NUL) or whose verdict is not one class name is listed in
    the page's data block instead."""
    from generator.render.pages.items import shown_exactly

    row = {"unit": "total", "verdict": "false_null", "points": 0, "order": ""}
    assert shown_exactly(row)
    assert not shown_exactly(row | {"unit": "to\rtal"})
    assert not shown_exactly(row | {"order": "1\x002"})
    assert not shown_exactly(row | {"unit": "\ud800"})
    assert not shown_exactly(row | {"verdict": "wrong x"})
    assert not shown_exactly(row | {"points": 0.5})
