"""A site hosting real runs beside simulated ones and baselines (LongListBench's imported runs): the
banner counts them honestly, a suite's attribution of third-party material is on every page, and a
suite with only public items shows no empty public/private gap section."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.site_support import build, make_project

ATTRIBUTION = "documents and runs from Some Bench by Someone, MIT licence"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = make_project(tmp_path_factory.mktemp("real-runs"))
    suite = root / "content" / "suites" / "mini"
    (suite / "suite.toml").write_text((suite / "suite.toml").read_text(encoding="utf-8")
                                      .replace('headline_half = "private"', 'headline_half = "public"')
                                      .replace("description = ", f'attribution = "{ATTRIBUTION}"\ndescription = '),
                                      encoding="utf-8")
    public = set()
    for path in sorted((suite / "items").glob("*.jsonl")):
        if path.name.endswith(".private.jsonl"):
            path.unlink()
        else:
            public |= {json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()}
    for run in sorted((root / "results" / "mini").iterdir()):
        lines = (run / "responses.jsonl").read_text(encoding="utf-8").splitlines()
        (run / "responses.jsonl").write_text("".join(x + "\n" for x in lines if json.loads(x)["item"] in public),
                                             encoding="utf-8")
    real = root / "results" / "mini" / "real-cloud"
    shutil.copytree(root / "results" / "mini" / "careful-cloud", real)
    meta = json.loads((real / "run.json").read_text(encoding="utf-8"))
    meta |= {"run_id": "real-cloud", "model": "real-model", "simulated": False, "description": "A real model's run."}
    (real / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    build(root, root / "site")
    return root / "site"


def test_the_banner_counts_real_runs_apart_from_simulated_ones_and_baselines(site):
    html = (site / "index.html").read_text(encoding="utf-8")
    assert "3 of the 5 runs are simulated models, 1 are real models' runs, the others baselines." in html
    assert "No real model has been run" not in html


def test_a_suites_attribution_is_on_every_page(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    missing = [p for p in pages if ATTRIBUTION not in p.read_text(encoding="utf-8")]
    assert missing == []


def test_an_all_public_suite_has_no_public_private_gap_section(site):
    html = (site / "suites" / "mini" / "index.html").read_text(encoding="utf-8")
    assert 'id="gap"' not in html and "Public and private halves" not in html and "#gap" not in html
    assert not (site / "downloads" / "mini" / "gap.csv").exists()
