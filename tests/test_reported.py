"""Results a benchmark's authors published (content/suites/<suite>/reported.toml) are shown on the suite
page as reported, not rescored by Tally, each with its source, never ranked with Tally's runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.render.reported import ReportedError, load_reported
from tests.site_support import REPO, full_example_site, missing_node


def test_the_cortifybench_and_au_bas_seeds_published_results_are_declared_with_their_sources():
    cortify = load_reported(REPO / "content" / "suites" / "cortifybench")
    aubas = load_reported(REPO / "content" / "suites" / "au-bas")
    assert [len(t["rows"]) for t in cortify] == [6] and [len(t["rows"]) for t in aubas] == [5]
    assert ["v2", "claude-haiku-4-5 + extended thinking (8k)", "0.584", "0/10", "0.810", "0.475"] in cortify[0]["rows"]
    assert aubas[0]["rows"][0][1:5] == ["openai/gpt-5-mini (via Prime Inference)", "30/30", "0.267", "0.946"]
    assert all(t["source"] for t in cortify + aubas)
    assert load_reported(REPO / "content" / "suites" / "extracting") == []  # none declared: nothing shown


@pytest.mark.parametrize("body, message", [
    ("[[table]]\nid = 'a'\ntitle = 't'\ncolumns = ['x']\nrows = [['1']]\n", "source must be a non-empty string"),
    ("[[table]]\nid = 'a'\ntitle = 't'\nsource = 's'\ncolumns = ['x', 'y']\nrows = [['1']]\n", "one per column"),
    ("[[table]]\nid = '../a'\ntitle = 't'\nsource = 's'\ncolumns = ['x']\nrows = [['1']]\n", "safe identifier"),
    ("[[table]]\nid = 'a'\ntitle = 't'\nsource = 's'\nlink = 'javascript:x'\ncolumns = ['x']\nrows = [['1']]\n",
     "http(s)"),
    ("[[table]]\nid = 'a'\ntitle = 't'\nsource = 's'\ncolumns = ['x']\nrows = [[1]]\n", "lists of strings"),
    ("rank = 1\n", "only [[table]]"),
    ("[[table]\n", "not valid TOML"),
])
def test_a_malformed_reported_file_is_a_clear_error_naming_it(tmp_path, body, message):
    (tmp_path / "reported.toml").write_text(body, encoding="utf-8")
    with pytest.raises(ReportedError, match=re.escape(message)) as got:
        load_reported(tmp_path)
    assert str(tmp_path / "reported.toml") in str(got.value)


def cortify_site() -> Path:
    """The example site with CortifyBench (the whole example, built once per test session)."""
    return full_example_site()


@pytest.mark.skipif(missing_node() is not None, reason=str(missing_node()))
def test_the_suite_page_shows_them_apart_from_the_ranked_runs():
    page = (cortify_site() / "suites" / "cortifybench" / "index.html").read_text(encoding="utf-8")
    start, end = page.index('<section aria-labelledby="reported">'), page.index("</section>", page.index(
        '<section aria-labelledby="reported">'))
    reported, rest = page[start:end], page[:start] + page[end:]
    assert "reported by the benchmark&#39;s authors, not rescored by Tally" in reported
    assert "Source: CortifyBench&#39;s README by its author" in reported
    assert 'class="sortable"' not in reported and "claude-haiku-4-5" in reported
    assert "claude-haiku-4-5" not in rest and "claude-sonnet-5-5" not in rest  # never in a ranked table
    assert page.index('id="headline"') < start
    assert (cortify_site() / "downloads" / "cortifybench" / "reported" / "authors-results.csv").is_file()
    # the headline ranks on the blind private seed range
    assert "half=private" in (cortify_site() / "downloads" / "cortifybench" / "stats.json").read_text(encoding="utf-8")
