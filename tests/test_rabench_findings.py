"""RA-Bench's findings table (rule page 5.9): the pairwise correction it names is the one the statistics
use, a latency the harness did not measure never wins, and self-hosted runs are never ranked on speed or
cost (the statistics page)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace

from generator.suite.api import Estimate, ReportTable
from generator.suite.report import scored_runs
from generator.suites.rabench.findings import HEADLINES, findings
from generator.suites.rabench.tables import latency_kind, run_target

ROOT = Path(__file__).resolve().parents[1]
TASKS = {"extraction", "checks", "authenticity", "duplicates", "decisions", "evidence", "operations"}


def target(run_id: str, kind: str, hosting: str = "hosted", latency: str = "measured"):
    return SimpleNamespace(id=run_id, kind=kind, tasks=TASKS, hosting=hosting, latency=latency)


def tables(ids: list[str]) -> dict[str, ReportTable]:
    """Every headline table the rule reads, each target at the same value (only operations differ)."""
    columns: dict[str, list[str]] = {}
    for _task, table, column, _higher, _interval in HEADLINES:
        if table != "ops":
            columns.setdefault(table, []).append(column)
    out = {}
    for table, cols in columns.items():
        rows = tuple((i, *(Estimate(0.5, 0.4, 0.6, 100) for _ in cols)) for i in ids)
        out[table] = ReportTable(table, table, ("Target", *cols), rows, "", scale=100)
    return out


def ops(latency: float, cost: float) -> dict:
    return {"latency p50": (latency, 100), "cost per check": (cost, 100)}


def calls(table: ReportTable) -> dict[str, str]:
    return {row[3]: row[6] for row in table.rows}


def test_the_note_names_the_correction_the_statistics_use():
    suite = tomllib.loads((ROOT / "content" / "suites" / "ra-bench" / "suite.toml").read_text(encoding="utf-8"))
    assert suite["comparison"] == "holm"
    ours, base = target("engine", "self"), target("diy", "diy")
    note = findings(tables(["engine", "diy"]), [ours, base], {"engine": ops(40, 0.05), "diy": ops(5000, 0.01)},
                    suite["comparison"]).note
    assert "Holm's step-down correction" in note and "max-T" not in note
    page = (ROOT / "content" / "pages" / "scoring-ra-bench.md").read_text(encoding="utf-8")
    assert "max-T" not in page and "Holm's step-down correction" in page


def test_a_nominal_latency_never_wins():
    ours, base = target("engine", "self", latency="nominal"), target("diy", "diy")
    got = calls(findings(tables(["engine", "diy"]), [ours, base], {"engine": ops(40, 0.05), "diy": ops(5000, 0.5)}))
    assert got["latency p50"].startswith("not compared: latency not measured by the harness: engine (nominal)")
    assert got["cost per check"] == "win"  # both hosted: cost is still compared at 1.2x
    measured = target("engine", "self")
    got = calls(findings(tables(["engine", "diy"]), [measured, base], {"engine": ops(40, 0.05), "diy": ops(5000, 0.5)}))
    assert got["latency p50"] == "win"  # the same figure, measured by the harness, is compared


def test_self_hosted_runs_are_not_ranked_on_speed_or_cost():
    ours, on_prem = target("engine", "self"), target("heron", "diy", hosting="self-hosted")
    got = calls(findings(tables(["engine", "heron"]), [ours, on_prem], {"engine": ops(40, 0.05), "heron": ops(900, 5)}))
    for column in ("latency p50", "cost per check"):
        assert got[column] == "not compared: heron self-hosted (never ranked on speed or cost)", column
    assert got["Errors"] == "tie"  # other rows are still called


def test_latency_kind_reads_the_run_metadata():
    assert latency_kind({}) == "measured" and latency_kind({"latency": "nominal"}) == "nominal"
    assert latency_kind({"latency": 3}) == "unstated" and latency_kind({"latency": " "}) == "unstated"
    assert run_target({"target": ["nominal"]}) == {} and run_target({}) == {}  # not an object: the defaults
    assert latency_kind(run_target({"target": "nominal"})) == "measured"


def test_the_example_engine_says_its_latency_is_nominal_and_gets_no_speed_or_cost_call():
    import json

    from generator.pipeline.stages import load_and_score

    meta = json.loads((ROOT / "results" / "ra-bench" / "ra-engine-self" / "run.json").read_text(encoding="utf-8"))
    assert meta["target"]["latency"] == "nominal" and meta["hosting"] == "self-hosted"
    [scored] = load_and_score(ROOT, ["ra-bench"], gate=False)
    report = {t.id: t for t in scored.plugin.report_tables(scored_runs(scored))}
    rows = [r for r in report["findings"].rows if r[3] in ("latency p50", "cost per check")]
    assert rows and all(r[6].startswith("not compared") for r in rows)
    assert "Holm's step-down correction" in report["findings"].note
