"""Input kinds in the statistics and on the site: a text run and an image run of one model are never
grouped together; the leaderboards (headline included) are of text runs; image runs are ranked apart
with the paired text-versus-image difference and its interval on the same items."""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner
from test_harness_support import LiveServer, harness_project  # noqa: F401

from generator.cli import main
from generator.harness.commands import run


def invoke(command, args: list[str]):
    return CliRunner().invoke(command, args, catch_exceptions=False)


def test_image_runs_are_ranked_apart_and_paired_with_their_text_run(harness_project):
    root = harness_project
    for suite in (root / "content" / "suites").iterdir():  # the extracting suite alone keeps the test short
        if suite.name != "extracting":
            shutil.rmtree(suite)
    base = ["extracting", "--model", "clean-1", "--provider", "testprov", "--root", str(root), "-q", "--round", "r1"]
    with LiveServer(root, scale=0.0) as server:
        for kind in ("text", "image"):
            done = invoke(run, [*base, "--input", kind, "--base-url", server.url()])
            assert done.exit_code == 0, done.output
    stats = invoke(main, ["stats", "--root", str(root), "--resamples", "200", "-q", "-j", "1", "--suite", "extracting"])
    assert stats.exit_code == 0, stats.output
    doc = json.loads((root / "build" / "stats" / "extracting" / "stats.json").read_text(encoding="utf-8"))
    assert list(doc["runs"]) == ["clean-1-testprov"]  # the text run alone: not a replicate of the image run
    assert doc["headline"]["stratum"] == "half=private,freeze=post-freeze"  # the example suite.toml: a frozen test set
    image = doc["inputs"]["image"]
    assert list(image["runs"]) == ["clean-1-testprov-image"] and image["stratum"] == "half=public"
    metric = doc["headline"]["metric"]
    est = image["board"]["metrics"][metric]["clean-1-testprov-image"]
    pair = image["paired"]["clean-1-testprov-image"]
    assert pair["text_run"] == "clean-1-testprov" and pair["items"] == image["board"]["items"] == 412
    text_public = doc["strata"]["half=public"]["metrics"][metric]["clean-1-testprov"]["estimate"]
    assert pair["text"] == text_public and pair["other"] == est["estimate"]
    assert pair["difference"] == pair["other"] - pair["text"]
    # a clean model on text, its simulated image reading worse: the whole interval is below zero
    assert pair["low"] <= pair["difference"] <= pair["high"] < 0
