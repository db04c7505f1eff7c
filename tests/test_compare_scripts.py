"""The compare page's data in scripts beside it (render/pages/compare.py, compare_pairs.py): one script per
run holding the pairs the statistics list it first in, so that every pair of every metric of the headline
stratum is stored exactly once and found from either run's side, each family read once; the runs'
verdict patterns are the rule's; the scripts are valid JavaScript whatever the strings in them."""

from __future__ import annotations

import json
import subprocess

import pytest

from generator.render.env import make_env
from generator.render.gather import gather
from generator.render.pages import compare
from generator.render.pages.common import headline_key, metric_order, metric_scale
from generator.stats.family_parts import PartStore
from tests.site_support import add_run, fixture_site, make_project, missing_node
from tests.test_compare_disagreements import reference

FLIP = {"better": "worse", "worse": "better"}


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("compare") / "p")
    add_run(root, "mini", new="rules-local-2", model="rules two")
    add_run(root, "mini", new="Rules-Local-3", model="rules three")  # an id the file name hashes
    site = gather(root, draft=True, resamples=20)
    return next(s for s in site.suites if s.suite.name == "mini")


def _lookup(scripts: dict, k: int, x: str, y: str) -> list | None:
    """[diff, low, high, call] of x minus y for metric k as static/compare.js finds it: in x's script,
    else reversed in y's."""
    for first, second, flip in ((x, y, False), (y, x, True)):
        s = scripts[first]
        if second in s["others"] and (p := s["pairs"][k][s["others"].index(second)]) is not None:
            if not flip:
                return p
            return [-p[0], -p[2], -p[1], FLIP.get(p[3], p[3])]
    return None


def test_every_pair_is_in_one_run_s_script_and_found_from_both(suite, monkeypatch):
    loads = []
    real = PartStore.load
    monkeypatch.setattr(PartStore, "load", lambda self, index: loads.append(index) or real(self, index))
    pages = list(compare.compare_pages(suite))
    st = suite.stats["strata"][headline_key(suite)]
    keys = metric_order(suite)
    assert sorted(loads) == sorted(set(loads)) and len(loads) == len(keys)  # each family read once
    runs = compare.compared_runs(suite)
    assert len(runs) == 6 and [p.path for p in pages] == [
        "suites/mini/compare.html", "suites/mini/compare-items.js", *compare.run_scripts(suite, runs).values()]
    assert "suites/mini/compare/rules-local-2.js" in [p.path for p in pages]
    assert not any("Rules-Local-3" in p.path for p in pages)  # a run id is never a file name as it is
    data = pages[0].context["data"]
    assert [r["id"] for r in data["runs"]] == runs and [m["key"] for m in data["metrics"]] == keys
    assert [r["src"] for r in data["runs"]] == [p.path.removeprefix("suites/mini/") for p in pages[2:]]
    scripts = {p.context["run"]["run"]: p.context["run"] for p in pages[2:]}
    stored = 0
    for k, m in enumerate(keys):
        scale = metric_scale(suite, m)[0]
        family = list(st["pairwise"][m]["pairs"])
        assert family
        for p in family:
            want = [p["diff"] * scale, p["low"] * scale, p["high"] * scale, p["call"]]
            assert _lookup(scripts, k, p["a"], p["b"]) == want
            flipped = _lookup(scripts, k, p["b"], p["a"])
            assert flipped == [-want[0], -want[2], -want[1], FLIP.get(want[3], want[3])]
        stored += sum(p is not None for s in scripts.values() for p in s["pairs"][k])
        assert stored == sum(len(list(st["pairwise"][n]["pairs"])) for n in keys[:k + 1])  # each pair once
    assert all(len(s["pairs"]) == len(keys) and all(len(row) == len(s["others"]) for row in s["pairs"])
               for s in scripts.values())
    assert any(not s["others"] for s in scripts.values()) and any(len(s["others"]) == 5 for s in scripts.values())


def test_the_runs_verdict_patterns_are_the_rule_s(suite):
    pages = list(compare.compare_pages(suite))
    items, want, verdicts = reference(suite, compare.compared_runs(suite))
    got = pages[1].context["items"]
    assert got["verdicts"] == verdicts
    assert [(i[0], [got["units"][u] for u in i[2]], i[3]) for i in got["list"]] == items
    by_run = {p.context["run"]["run"]: p.context["run"]["verdicts"] for p in pages[2:]}
    assert by_run == want and any(by_run[a] != by_run[b] for a in by_run for b in by_run)
    for a in by_run:  # the items two runs disagree on: where their patterns differ, read item by item
        for b in by_run:
            differ = [i[0] for i, pa, pb in zip(items, want[a], want[b]) if i[2][pa] != i[2][pb]]
            assert differ == [i[0] for i, pa, pb in zip(got["list"], by_run[a], by_run[b]) if pa != pb]


def test_runs_whose_file_names_would_meet_are_refused(suite):
    from generator.render.context import slug
    from generator.render.gather import BuildError

    with pytest.raises(BuildError, match="would share"):
        compare.run_scripts(suite, ["Rules-Local-3", slug("Rules-Local-3")])


def _run_in_node(texts: list[str]) -> dict:
    """What the scripts leave in window.TALLY_COMPARE and window.TALLY_COMPARE_ITEMS, run in turn."""
    code = ("const vm = require('vm'); const window = {}; const ctx = vm.createContext({window});"
            "for (const t of JSON.parse(require('fs').readFileSync(0, 'utf8'))) vm.runInContext(t, ctx);"
            "process.stdout.write(JSON.stringify({runs: window.TALLY_COMPARE, items: window.TALLY_COMPARE_ITEMS}));")
    out = subprocess.run(["node", "-e", code], input=json.dumps(texts), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")
def test_hostile_strings_stay_data_in_the_scripts():
    env = make_env()
    hostile = "</script><script>window.__pwned=1</script>\u2028\u2029<!-- ' \" \\ & \U0001f600"
    run = {"run": hostile, "shown": [hostile], "others": [hostile], "pairs": [[[1.5, -0.5, 3.5, hostile]]],
           "verdicts": [0]}
    items = {"list": [[hostile, hostile, [0], [[], [0, 0]]]], "units": [hostile], "verdicts": [hostile]}
    texts = [env.get_template("compare-run.js").render(run=run), env.get_template("compare-items.js").render(items=items)]
    for text in texts:
        assert "</script" not in text.lower() and "<!--" not in text and "\u2028" not in text and "\u2029" not in text
    assert _run_in_node(texts) == {"runs": [run], "items": items}


@pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")
def test_the_built_scripts_run_and_hold_what_the_page_names():
    site = fixture_site()
    page = (site / "suites" / "mini" / "compare.html").read_text(encoding="utf-8")
    data = json.loads(page.split('id="compare-data">', 1)[1].split("</script>", 1)[0])
    folder = site / "suites" / "mini"
    texts = [(folder / r["src"]).read_text(encoding="utf-8") for r in data["runs"]]
    got = _run_in_node(texts + [(folder / data["items"]).read_text(encoding="utf-8")])
    assert [r["run"] for r in got["runs"]] == [r["id"] for r in data["runs"]]
    assert all(len(r["shown"]) == len(r["pairs"]) == len(data["metrics"]) for r in got["runs"])
    assert all(len(r["verdicts"]) == len(got["items"]["list"]) for r in got["runs"])
    assert sorted(p.name for p in (folder / "compare").iterdir()) == sorted(r["src"].split("/")[1] for r in data["runs"])
    assert len(page.encode()) < 20_000  # the page holds no pair
