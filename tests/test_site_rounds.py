"""The au-bas example's two rounds on the built site: the anchor comparison across rounds (a silent
change of one simulated model flagged, an unchanged one not), rounds ordered by date, not name."""

from __future__ import annotations

import json
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.site_support import REPO, aubas_site, missing_node

pytestmark = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


class Tables(HTMLParser):
    """Every table of a page: id -> (caption, rows of cell texts)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, tuple[str, list[list[str]]]] = {}
        self._id: str | None = None
        self._cell: list[str] | None = None
        self._caption: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id"):
            self._id = a["id"]
            self.tables[self._id] = ("", [])
        elif self._id and tag == "tr":
            self.tables[self._id][1].append([])
        elif self._id and tag in ("td", "th"):
            self._cell = []
        elif self._id and tag == "caption":
            self._caption = []

    def handle_endtag(self, tag):
        if tag == "table":
            self._id = None
        elif self._id and tag in ("td", "th") and self._cell is not None:
            self.tables[self._id][1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif self._id and tag == "caption" and self._caption is not None:
            self.tables[self._id] = (" ".join("".join(self._caption).split()), self.tables[self._id][1])
            self._caption = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._caption is not None:
            self._caption.append(data)


def tables(page: Path) -> dict[str, tuple[str, list[list[str]]]]:
    parser = Tables()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.tables


def test_the_example_has_an_earlier_round_that_sorts_after_by_name():
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((REPO / "results" / "au-bas").glob("*/run.json"))]
    rounds = {(r["round"], r["started"][:10]) for r in runs}
    assert rounds == {("2026-aubas-r1", "2026-11-03"), ("2026-aubas-trial", "2026-10-06")}
    assert "2026-aubas-trial" > "2026-aubas-r1"  # by name the earlier round would come last: the date decides
    anchors = tomllib.loads((REPO / "content/suites/au-bas/anchors.toml").read_text(encoding="utf-8"))
    listed = anchors["public"] + anchors["private"]
    for r in runs:
        if r["hosting"] == "hosted":
            assert r["anchors"] == listed and r["simulated"] is True
            lines = (REPO / "results" / "au-bas" / r["run_id"] / "responses.jsonl").read_text().splitlines()
            assert [json.loads(x)["item"] for x in lines[:len(listed)]] == listed  # the anchor block first


def test_the_provider_page_flags_the_silent_change_and_only_it():
    found = {cap: rows for cap, rows in tables(aubas_site() / "providers" / "cloudco.html").values()
             if "anchor items" in cap}
    assert sorted(found) == [
        "abacus-slip-2 (simulated): round 2026-aubas-r1 against round 2026-aubas-trial on 24 anchor items "
        "(difference: current minus earlier, 95% interval)",
        "tenth-wit-1 (simulated): round 2026-aubas-r1 against round 2026-aubas-trial on 24 anchor items "
        "(difference: current minus earlier, 95% interval)"]
    changed, same = (found[c] for c in sorted(found))
    assert changed[0] == ["Metric", "Round 2026-aubas-trial", "Round 2026-aubas-r1", "Difference", "Changed?"]
    bas = next(r for r in changed if r[0] == "BAS correct (all four labels)")
    assert bas[1:3] == ["100.0", "37.5"] and bas[4] == "changed"  # 24 of 24 right before, 9 of 24 now
    assert next(r for r in changed if r[0].startswith("Total reward"))[4] == "changed"
    assert all(r[4] == "no change shown" for r in same[1:] if r[0].startswith(("Total", "BAS")))


def test_the_leaderboard_ranks_the_current_round_only():
    stats = json.loads((aubas_site() / "downloads" / "au-bas" / "stats.json").read_text(encoding="utf-8"))
    trial = {"abacus-slip-2-cloudco-2026-trial", "tenth-wit-1-cloudco-2026-trial"}
    assert set(stats["earlier_runs"]) == trial and not trial & set(stats["runs"])
    assert all(info["simulated"] for info in stats["earlier_runs"].values())
    caption, rows = tables(aubas_site() / "suites" / "au-bas" / "index.html")["headline-stratum-headline"]
    assert len(rows) == 1 + len(stats["runs"])  # a header and one row per current run group


def test_model_pages_show_each_round_with_its_interval():
    site = aubas_site()
    stats = json.loads((site / "downloads" / "au-bas" / "stats.json").read_text(encoding="utf-8"))
    (group,) = [g for g in stats["history"]["groups"] if g["model"] == "abacus-slip-2"]
    page = site / "models" / "abacus-slip-2.html"
    caption, rows = tables(page)["history-au-bas"]
    assert caption.startswith("abacus-slip-2 in au-bas reconciliation, round by round: Total reward")
    assert [r[1] for r in rows[1:]] == ["2026-aubas-trial", "2026-aubas-r1"]  # by date, though the names sort the other way
    assert [r[3] for r in rows[1:]] == ["abacus-slip-2-cloudco-2026-trial (simulated)",
                                        "abacus-slip-2-cloudco (simulated)"]
    for row, r in zip(rows[1:], group["rounds"]):
        assert row[4] == f"{100 * r['estimate']:.1f} [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"
    # the current round's figure is the leaderboard's
    current = group["rounds"][1]
    assert current["estimate"] == stats["strata"]["half=private"]["metrics"]["total_faulty"]["abacus-slip-2-cloudco"]["estimate"]
    text = page.read_text(encoding="utf-8")
    assert 'data-target="history-chart-au-bas"' in text and "Round by round" in text
    assert "cloudco in the earlier round 2026-aubas-trial" in text  # the earlier run's own description
    assert "Round by round" not in (site / "models" / "muddle-mini.html").read_text(encoding="utf-8")


def test_hostile_names_in_the_history_stay_text(tmp_path):
    import shutil

    from tests.site_support import build, make_project

    root = make_project(tmp_path / "p")
    src, dst = root / "results" / "mini" / "hostile-cloud", root / "results" / "mini" / "hostile-cloud-r0"
    shutil.copytree(src, dst)
    meta = json.loads((dst / "run.json").read_text(encoding="utf-8"))
    meta |= {"run_id": "hostile-cloud-r0", "round": "<b>r0</b>", "started": "2026-10-01T00:00:00Z",
             "description": "<img src=x onerror=alert(1)>"}
    (dst / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    from generator.errors import InputProblem

    with pytest.raises(InputProblem, match="round '<b>r0</b>' is not a safe identifier"):  # refused at load
        build(root, tmp_path / "site")
    (dst / "run.json").write_text(json.dumps(meta | {"round": "r0"}), encoding="utf-8")
    build(root, tmp_path / "site")
    pages = [p for p in (tmp_path / "site" / "models").glob("*.html") if "Round by round" in p.read_text("utf-8")]
    (page,) = pages
    html = page.read_text(encoding="utf-8")
    assert "<script>x</script>" not in html and "<img src=x" not in html
    _, rows = tables(page)["history-mini"]
    assert [r[1] for r in rows[1:]] == ["r0", "2026-r1"]
