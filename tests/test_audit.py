"""`tally audit`: a seeded stratified sample of verdicts, the audit page from file://, recorded judgments,
and the scorer error rate on the suite page."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.audit.sample import draw
from generator.cli import main
from tests.site_support import missing_browser


def tally(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture()
def demo(tmp_path) -> Path:
    root = tmp_path / "proj"
    assert tally("suite", "new", "demo", "--root", root).exit_code == 0
    return root


def test_draw_is_seeded_and_has_every_verdict_kind():
    rows = [("r", f"i{k}", 0, "u", "correct") for k in range(200)] + [("r", "x", 0, "u", "wrong"),
                                                                         ("r", "y", 0, "u", "unparseable")]
    a, b = draw(rows, 10, random.Random("s/1")), draw(rows, 10, random.Random("s/1"))
    assert a == b and len(a) == 10 and {rows[k][4] for k in a} == {"correct", "wrong", "unparseable"}
    assert draw(rows, 10, random.Random("s/2")) != a
    assert len(draw(rows[:3], 10, random.Random(0))) == 3


def test_sample_record_and_the_rate_on_the_suite_page(demo, tmp_path):
    out = tmp_path / "private" / "audit"
    made = tally("audit", "sample", "demo", "--per-model", "4", "--seed", "7", "--out", out, "--root", demo)
    assert made.exit_code == 0, made.output
    doc = json.loads((out / "sample.json").read_text())
    assert doc["seed"] == 7 and 0 < len(doc["entries"]) <= 4
    assert (out / "audit.csv").read_text().startswith("id,run,model,item")
    assert "/*SAMPLE*/" not in (out / "audit.html").read_text()
    inside = tally("audit", "sample", "demo", "--seed", "7", "--out", demo / "audit", "--root", demo)
    assert inside.exit_code == 2 and "outside the project" in inside.output

    e = doc["entries"]
    other = next(k for k in doc["verdict_kinds"] + ["wrong", "correct"] if k != e[0]["verdict"])
    judged = {"format": "tally-audit-judgments-v1", "suite": "demo", "seed": 7, "per_model": 4, "auditor": "Ann Example",
              "judged_at": "2026-12-01T10:00:00Z", "judgments": [
                  {**{k: e[0][k] for k in ("id", "run", "item", "repeat", "unit", "verdict")}, "judgment": "disagree",
                   "right_verdict": other, "note": "the reply says otherwise"}] + [
                  {**{k: x[k] for k in ("id", "run", "item", "repeat", "unit", "verdict")}, "judgment": "agree",
                   "right_verdict": None, "note": ""} for x in e[1:]]}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(judged | {"judgments": [judged["judgments"][0] | {"verdict": "nonsense"}]}))
    refused = tally("audit", "record", bad, "--root", demo)
    assert refused.exit_code == 2 and "nothing recorded" in refused.output
    good = tmp_path / "judged.json"
    good.write_text(json.dumps(judged))
    recorded = tally("audit", "record", good, "--root", demo)
    assert recorded.exit_code == 0, recorded.output
    stored = json.loads(next((demo / "content/audits/demo").glob("*.json")).read_text())
    assert (stored["auditor"], stored["seed"], len(stored["judgments"])) == ("Ann Example", 7, len(e))
    assert tally("site", "build", "--root", demo, "--resamples", "200").exit_code == 0
    html = (demo / "site/suites/demo/index.html").read_text()
    assert "Scorer error rate" in html and "Ann Example" in html and "the reply says otherwise" in html
    rates = json.loads((demo / "site/downloads/demo/audit-rates.json").read_text())
    total = rates["rows"][-1]
    assert (total["model"], total["n"], total["wrong"], total["rate"]) == ("all models", len(e), 1, 1 / len(e))
    assert 0 < total["rate_low"] < total["rate"] < total["rate_high"] <= 1


@pytest.mark.slow
@pytest.mark.skipif(missing_browser() is not None, reason=missing_browser() or "")
def test_the_audit_page_works_from_file_by_keyboard(demo, tmp_path):
    import shutil

    from tests.site_browser import chromium

    second = demo / "results/demo/echo-two"  # a second model: four verdicts to draw from
    shutil.copytree(demo / "results/demo/example-echo", second)
    meta = json.loads((second / "run.json").read_text()) | {"run_id": "echo-two", "model": "echo-two"}
    (second / "run.json").write_text(json.dumps(meta))
    out = tmp_path / "private" / "audit"
    assert tally("audit", "sample", "demo", "--per-model", "5", "--seed", "3", "--out", out, "--root", demo).exit_code == 0
    doc = json.loads((out / "sample.json").read_text())
    assert len(doc["entries"]) >= 3
    with chromium() as browser:
        ctx = browser.new_context(accept_downloads=True)
        page = ctx.new_page()
        requests: list[str] = []
        errors: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto((out / "audit.html").as_uri())
        page.fill("#auditor", "Kim Keys")
        page.locator("body").click(position={"x": 5, "y": 5})
        page.keyboard.press("a")
        page.keyboard.press("j")
        page.keyboard.press("d")
        right = next(k for k in doc["verdict_kinds"] + ["wrong", "correct"] if k != doc["entries"][1]["verdict"])
        page.select_option("#right", right)
        page.keyboard.press("n")
        page.keyboard.type("misread total")
        page.keyboard.press("Escape")
        page.keyboard.press("j")
        page.keyboard.press("u")
        with page.expect_download() as info:
            page.keyboard.press("s")
        saved = tmp_path / "saved.json"
        info.value.save_as(saved)
        ctx.close()
    assert not errors and all(u.startswith("file:") or u.startswith("data:") for u in requests)
    judged = json.loads(saved.read_text())
    assert [j["judgment"] for j in judged["judgments"]] == ["agree", "disagree", "unsure"]
    assert judged["judgments"][1]["right_verdict"] == right and judged["judgments"][1]["note"] == "misread total"
    assert tally("audit", "record", saved, "--root", demo).exit_code == 0
    assert tally("site", "build", "--root", demo, "--resamples", "200").exit_code == 0
    html = (demo / "site/suites/demo/index.html").read_text()
    assert "Kim Keys" in html and "misread total" in html


def test_the_example_ships_a_simulated_audit_that_matches_todays_verdicts():
    from generator.audit.record import load_audits, summary, validate
    from generator.audit.sample import drawn
    from generator.pipeline.stages import load_and_score

    root = Path(__file__).resolve().parents[1]
    audits = load_audits(root, "extracting")
    assert len(audits) == 1 and audits[0]["simulated"] and "simulated" in audits[0]["auditor"]
    scored = load_and_score(root, ["extracting"], 1, False)[0]
    runs: dict[str, set[str]] = {}  # the runs it was drawn from (runs of a model added later are not)
    for j in audits[0]["judgments"]:
        runs.setdefault(j["model"], set()).add(j["run"])
    drawn_now = drawn(scored, audits[0]["per_model"], audits[0]["seed"], {m: sorted(r) for m, r in runs.items()})
    keys = {row[:4] for _, row in drawn_now[1]}
    _, problems = validate(audits[0], scored, keys)  # today's verdicts, and the sample of its seed
    assert problems == []
    s = summary(root, scored)
    assert s is not None and s["simulated"] and s["suite"]["k"] == len(s["disagreements"]) > 0
    assert s["suite"]["stale"] == 0 and len(s["models"]) == len({r.run.model for r in scored.runs})
