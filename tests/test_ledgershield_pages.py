"""LedgerShield case pages: every public episode's trajectory as a timeline with the grade of each
dimension, imported episodes' own grade beside Tally's (case page and episodes index), every value
escaped, long trajectories cut, no page for a private case."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.example.ledgershield_agents import careful, hasty
from generator.suites.ledgershield.scoring import extract_answer, grade

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = '<script>alert("x")</script>'


def _read_cases() -> dict[str, dict]:
    out = {}
    for path in sorted((ROOT / "content" / "suites" / "ledgershield" / "items").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            out[item["id"]] = item
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("ledger-site")
    (root / "content" / "suites").mkdir(parents=True)
    shutil.copytree(ROOT / "content" / "suites" / "ledgershield", root / "content" / "suites" / "ledgershield")
    shutil.copytree(ROOT / "content" / "pages", root / "content" / "pages")
    shutil.copy(ROOT / "content" / "providers.toml", root / "content" / "providers.toml")
    shutil.copytree(ROOT / "results" / "ledgershield", root / "results" / "ledgershield")
    cases = _read_cases()
    good = careful(cases["TLY-B-001"])
    bad = hasty(cases["TLY-D-001"])
    long_trace = [{"tool_name": "lookup_policy", "payload": {"note": HOSTILE}}] * 70 + bad["action_trace"][-1:]
    files = [  # as LedgerShield's harness writes them: one JSON document per episode
        {"model": "magpie-2", "case_id": "TLY-B-001", "action_trace": good["action_trace"],
         "final_submission": good["final_submission"], "score": 0.42,
         "final_info": {"final_score": 0.42, HOSTILE: 1,
                        "score_breakdown": {"decision_score": 0.9, "currency_validation_score": 1.0}}},
        {"model": "magpie-2", "case_id": "TLY-D-001", "action_trace": [{"tool_name": HOSTILE, "payload": HOSTILE}] + long_trace,
         "final_submission": dict(bad["final_submission"], decision=HOSTILE), "final_info": {"final_score": 0.8}},
    ]
    paths = []
    for k, episode in enumerate(files):
        paths.append(root / f"episode-{k}.json")
        paths[-1].write_text(json.dumps(episode, indent=2), encoding="utf-8")
    res = CliRunner().invoke(main, ["import", *map(str, paths), "--suite", "ledgershield", "--model", "magpie-2",
                                    "--provider", "cloudco", "--root", str(root)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["site", "build", "--root", str(root), "--resamples", "200", "-j", "1", "-q"])
    assert res.exit_code == 0, res.output
    return root / "site" / "suites" / "ledgershield", cases


def _main(path: Path) -> str:
    return re.search(r"<main.*?</main>", path.read_text(encoding="utf-8"), re.S).group(0)


def _rows(html: str, table_class: str) -> list[list[str]]:
    body = re.findall(rf'<table class="{table_class}">.*?</table>', html, re.S)
    rows = [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for t in body for row in re.findall(r"<tr>(.*?)</tr>", t, re.S)]
    return [r for r in rows if r]


def test_public_cases_have_pages_and_private_ones_none(site):
    pages, cases = site
    public = {i for i, c in cases.items() if c["half"] == "public"}
    assert {p.stem for p in (pages / "episodes").glob("*.html")} == public | {"index"}
    assert 'href="../episodes/TLY-D-001.html"' in (pages / "items" / "TLY-D-001.html").read_text(encoding="utf-8")
    assert 'href="episodes/index.html"' in (pages / "index.html").read_text(encoding="utf-8")


def test_timeline_and_dimension_grades_of_a_scripted_episode(site):
    pages, cases = site
    html = _main(pages / "episodes" / "TLY-D-001.html")
    section = html.split('id="ledgershield-careful-script-r0"')[1].split("</section>")[0]
    timeline = _rows(section, "timeline")
    # what the replay gives: tool, outcome, cost (budget units) and clock (steps) of each step, and the
    # artifact the desk revealed: the callback requested at step 7 with delay 2 arrives after step 9
    assert [(r[1], r[3], r[5], r[6], r[7]) for r in timeline] == [
        ("ocr", "ok", "1.10", "1", ""), ("ocr", "ok", "1.10", "2", ""), ("inspect_email_thread", "ok", "0.25", "3", ""),
        ("lookup_vendor_history", "ok", "0.25", "4", ""), ("lookup_policy", "ok", "0.15", "5", ""),
        ("compare_bank_account", "ok", "0.15", "6", ""), ("request_callback_verification", "ok", "0.40", "7", ""),
        ("route_to_security", "ok", "0.20", "8", ""), ("lookup_policy", "ok", "0.15", "9", "callback_verification_result"),
        ("submit_decision", "ok", "0.00", "10", "")]
    dims = {r[0]: r[2] for r in _rows(section, "dimensions")}
    assert list(dims)[:13] == ["decision", "reason_codes", "policy", "evidence", "counterfactual", "investigation",
                               "intervention", "resolution", "calibration", "efficiency", "downstream", "pressure",
                               "callback"]
    assert dims["decision"] == "100.00%" and dims["penalty:unsafe_pay"] == "none"
    hasty_section = html.split('id="ledgershield-hasty-script-r0"')[1].split("</section>")[0]
    assert {r[0]: r[2] for r in _rows(hasty_section, "dimensions")}["penalty:unsafe_pay"] == "65.0% of the score"


def test_imported_episode_shows_the_other_harness_grade_beside_tallys(site):
    pages, _cases = site
    html = _main(pages / "episodes" / "TLY-B-001.html")
    section = html.split('id="magpie-2-cloudco-r0"')[1].split("</section>")[0]
    theirs = {r[0]: r[1:] for r in _rows(section, "provenance")}
    case = _read_cases()["TLY-B-001"]
    tally = {u: o for u, _k, _v, _r, o in grade(case, extract_answer(json.dumps(careful(case))))}
    score = f"{int(tally['score']) / 10000:.4f}%"
    assert theirs["final_info.final_score"] == ["0.42", score, "score"]
    assert theirs["score_breakdown.decision_score"] == ["0.9", "100.00%", "dimension decision"]
    assert theirs["score_breakdown.currency_validation_score"] == ["1.0", "", ""]  # no Tally dimension: unpaired
    index = _main(pages / "episodes" / "index.html")
    row = next(r for r in _index_rows(index) if r[0] == "TLY-B-001" and r[1] == "magpie-2-cloudco")
    assert row[3] == score and row[5] == "0.42"
    suite = _main(pages / "index.html")
    imported = suite.split('id="imported-grades"')[1].split("</table>")[0]
    assert [r for r in _index_rows(imported) if r and r[0] != "Case"] == [
        ["TLY-B-001", "magpie-2-cloudco", "0", "0.42", score],
        ["TLY-D-001", "magpie-2-cloudco", "0", "0.8", "1.3100%"]]  # no decision: v4 adds a fresh run state's adjustment


def _index_rows(html: str) -> list[list[str]]:
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)]


def test_hostile_values_are_escaped_and_long_trajectories_cut(site):
    pages, _cases = site
    for path in (pages / "episodes").glob("*.html"):
        assert "<script>alert" not in path.read_text(encoding="utf-8")
    html = _main(pages / "episodes" / "TLY-D-001.html")
    section = html.split('id="magpie-2-cloudco-r0"')[1].split("</section>")[0]
    timeline = _rows(section, "timeline")
    assert len(timeline) == 60 and "shown of 72" in section and "12 more steps" in section
    assert timeline[0][1] == "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" and timeline[0][3] == "unknown tool"
    assert timeline[1][3] == "ok" and "&lt;script&gt;" in timeline[1][2]
    assert "final_info.&lt;script&gt;" not in section  # the case page shows only this episode's own keys


@pytest.mark.parametrize("content", [None, "not json", '{"action_trace": 5}', '{"action_trace": [7, null, "x"]}'])
def test_case_view_of_unreadable_or_odd_episodes(content):
    from generator.suites.ledgershield import SUITE

    item = _read_cases()["TLY-D-001"]
    view = SUITE.episode_view(item, content, {"score": "", "dim:decision": ""})
    assert view["score"] == "none" and view["dimensions"][0] == {
        "name": "decision", "weight": 15, "grade": "none", "formula": "LedgerShield's formula"}
    if content is not None and content.startswith('{"action_trace": ['):
        assert view["readable"] and [s["outcome"] for s in view["timeline"]] == ["unknown_tool"] * 3
    else:
        assert not view["readable"] and view["timeline"] == []
