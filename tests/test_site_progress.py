"""`tally site build` progress: one bar per stage and suite on stderr, the page bars sized exactly; none with -q."""

from __future__ import annotations

import contextlib

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.site_support import build, make_project, missing_node

pytestmark = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


class Recorder:
    """A progress factory that keeps every bar's label, planned total and updates."""

    def __init__(self) -> None:
        self.bars: list[dict] = []

    def __call__(self, total: int, label: str):
        bar = {"label": label, "total": total, "done": 0}
        self.bars.append(bar)

        class Bar:
            def update(self, n: int) -> None:
                bar["done"] += n

        return contextlib.nullcontext(Bar())


def test_every_stage_has_a_bar_per_suite_and_page_bars_are_exact(tmp_path):
    root = make_project(tmp_path / "p")
    rec = Recorder()
    report = build(root, tmp_path / "site", progress=rec)
    labels = [b["label"] for b in rec.bars]
    assert labels == ["scoring mini (A and B)", "statistics of mini", "pages: leaderboards",
                      "pages: leaderboards of mini", "pages: providers and models", "pages: public items of mini",
                      "pages: prose, agreement, commitments, search", "downloads of mini"]
    pages = [b for b in rec.bars if b["label"].startswith("pages")]
    for b in pages:
        assert b["done"] == b["total"] > 0, b
    assert rec.bars[-1]["done"] == rec.bars[-1]["total"] == 1
    # every page but the downloads index went through a bar
    assert sum(b["total"] for b in pages) + 1 == report.pages
    items = next(b for b in pages if b["label"] == "pages: public items of mini")
    public = len(list((tmp_path / "site" / "suites" / "mini" / "items").glob("*.html")))
    assert items["total"] == public  # the items index and one page per public item

    again = Recorder()  # statistics unchanged: taken from the cache, still shown
    build(root, tmp_path / "other-site", progress=again)  # into `site` again: nothing to build at all
    assert "statistics of mini (unchanged: from the cache)" in [b["label"] for b in again.bars]


def test_cli_shows_bars_on_stderr_and_none_with_quiet(tmp_path, monkeypatch):
    root = make_project(tmp_path / "p")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1793491200")
    args = ["site", "build", "--root", str(root), "--out", str(tmp_path / "s")]
    loud = CliRunner().invoke(main, args)
    assert loud.exit_code == 0, loud.stderr
    assert "pages: public items of mini" in loud.stderr and "pages: leaderboards of mini" in loud.stderr
    assert "pages:" not in loud.stdout and "wrote" in loud.stdout
    quiet = CliRunner().invoke(main, args + ["-q"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
