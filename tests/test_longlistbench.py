"""The LongListBench suite (plugins/longlistbench, rule page content/pages/scoring-longlistbench.md):
scorer A against LongListBench's own published per-document figures on the example's committed
documents and runs, the shared cases, the import command on a small checkout of LongListBench's
layout, and the interface pieces it needed (cases that fix a row's order; runs given a PDF)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import ErrorLog
from generator.inputs.content import Item
from generator.inputs.results import load_run
from generator.parse.response import read_outcome
from generator.suite.api import VectorCase
from generator.suite.check import Report, _check_a
from generator.suite.plugins import load_registry

ROOT = Path(__file__).resolve().parents[1]
SUITE_DIR = ROOT / "content" / "suites" / "longlistbench"


@pytest.fixture(scope="module")
def suite():
    return load_registry(ROOT).get("longlistbench")


def _items(suite) -> dict[str, Item]:
    out = {}
    for path in sorted((SUITE_DIR / "items").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            raw = json.loads(line)
            spec, problems = suite.parse_item(raw)
            assert not problems, problems
            out[raw["id"]] = Item(raw["id"], raw["dataset"], raw["half"], raw["strata"], raw["document"], spec)
    return out


@pytest.mark.slow
def test_scorer_a_gives_longlistbenchs_published_counts_on_every_committed_document(suite):
    """Every committed response (6 documents x 19 runs): the two rows' counts, completeness and the
    per-document F1 (bit for bit) equal LongListBench's evaluation_report.json values."""
    published = json.loads((SUITE_DIR / "published.json").read_text(encoding="utf-8"))["runs"]
    items = _items(suite)
    checked = 0
    for run_id, run in sorted(published.items()):
        lines = (ROOT / "results" / "longlistbench" / run_id / "responses.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) == len(items) == len(run["documents"])
        for line in lines:
            record = json.loads(line)
            want = run["documents"][record["item"]]
            outcome = read_outcome(record, suite.extract_answer, suite.answer_what)
            rows = suite.score(items[record["item"]], outcome, run_id, 0)
            figures = dict(zip(suite.figures, suite.item_figures(rows)))
            assert rows[0].order == rows[1].order == ""
            got = list(rows[0].counts + rows[1].counts)
            assert got == [want[k] for k in ("exact_record_matches", "ground_truth_count", "predicted_count", "found",
                                             "total_gold_field_pairs", "total_pred_field_pairs")], (run_id, record["item"])
            assert bool(figures["complete"]) == want["complete_document"]
            assert figures["f1"] == want["f1"]  # the same float, not merely close
            assert rows[0].verdict == ("correct" if want["complete_document"] else "wrong")
            checked += 1
    assert checked == 6 * 19


def test_every_shared_case_gives_its_expected_rows_and_counts_in_scorer_a(suite):
    cases = suite.vector_cases()
    assert len(cases) >= 50 and all(len(row) == 4 and len(row[3]) == 3 and all(type(n) is int for n in row[3])
                                    for c in cases for row in c.expected)
    report = Report("longlistbench")
    _check_a(suite, cases, report)
    assert report.problems == []


def test_a_shared_case_that_fixes_the_counts_fails_when_they_differ(suite):
    good = suite.vector_cases()[0]
    unit, verdict, order, counts = good.expected[0]
    bad = VectorCase("bad", good.item, good.record, ((unit, verdict, order, (9, 9, 9)), good.expected[1]))
    report = Report("longlistbench")
    _check_a(suite, [good, bad], report)
    assert len(report.problems) == 1 and "bad: expected" in report.problems[0] and "(9, 9, 9)" in report.problems[0]
    # one count fewer is a difference too, not a prefix that passes
    short = VectorCase("short", good.item, good.record, ((unit, verdict, order, counts[:2]), good.expected[1]))
    report = Report("longlistbench")
    _check_a(suite, [short], report)
    assert len(report.problems) == 1 and "short: expected" in report.problems[0]
    # a two-column expectation still compares unit and verdict only
    loose = VectorCase("loose", good.item, good.record, tuple(row[:2] for row in good.expected))
    report = Report("longlistbench")
    _check_a(suite, [loose], report)
    assert report.problems == []


def test_the_suite_declares_its_figures_and_an_all_public_example(suite):
    from generator.suite.api import declaration_problems

    assert declaration_problems(suite, files=True) == []
    assert {i.half for i in _items(suite).values()} == {"public"}


def test_a_run_may_say_it_was_given_the_pdf_and_nothing_else_unknown(tmp_path):
    run = tmp_path / "results" / "longlistbench" / "r1"
    run.mkdir(parents=True)
    (run / "responses.jsonl").write_text("", encoding="utf-8")
    meta = {"format": 1, "suite": "longlistbench", "run_id": "r1", "model": "m", "provider": "p", "hosting": "hosted",
            "simulated": False, "started": "2026-07-24T23:25:56Z", "input": "pdf"}
    (run / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    log = ErrorLog(tmp_path)
    got = load_run(run, "longlistbench", log)
    assert not log.errors and got is not None and got.input == "pdf"
    (run / "run.json").write_text(json.dumps(meta | {"input": "fax"}), encoding="utf-8")
    log = ErrorLog(tmp_path)
    assert load_run(run, "longlistbench", log) is None
    assert any("input must be one of text, image, text+image, pdf" in str(e) for e in log.errors)


def _checkout(base: Path) -> Path:
    """A LongListBench checkout in miniature: two documents and one stored Codex run."""
    gold = [{"jurisdiction": "AL", "total_miles": 12, "tax_rate": 0.2713}]
    incident = json.loads((ROOT / "plugins" / "longlistbench" / "vectors-a.json").read_text(encoding="utf-8"))
    claim = next(c for c in incident["cases"] if c["id"] == "incidents-identical")["item"]["gold"]
    for sample, data, config in (("ifta_tax_summary_001", gold, "core_operations"),
                                 ("multihop_012_001_crosspage", claim, "claim_multihop")):
        for folder, text in (("ground_truth", json.dumps(data, indent=2)),
                             ("metadata", json.dumps({"hf_config": config, "complexity_regime": "x", "pdf_page_count": 3})),
                             ("transcripts/ocr_gemini", f"# {sample}\n")):
            path = base / "data" / folder / (f"{sample}.md" if "transcripts" in folder else f"{sample}.json")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    run = base / "benchmarks" / "results" / "codex_gpt56_sol_run1_current_ocr_v2"
    run.mkdir(parents=True)
    (run / "ifta_tax_summary_001_ocr_codex_gpt56_sol_predicted.json").write_text(
        json.dumps([{"jurisdiction": "Alabama", "total_miles": "12", "tax_rate": "0.2713"}], indent=2), encoding="utf-8")
    (run / "multihop_012_001_crosspage_ocr_codex_gpt56_sol_predicted.json").write_text(json.dumps(claim), encoding="utf-8")
    (run / "evaluation_report.json").write_text(json.dumps({"model_stats": {"codex_gpt56_sol": {
        "avg_f1": 1.0, "exact_record_recall": 1.0, "complete_documents": 2, "weighted_f1": 1.0}}, "detailed_results": [
        {"sample": s, "metrics": {"exact_record_matches": 1, "ground_truth_count": 1, "predicted_count": 1, "found": n,
                                  "total_gold_field_pairs": n, "total_pred_field_pairs": n, "complete_document": True,
                                  "f1": 1.0}} for s, n in (("ifta_tax_summary_001", 3), ("multihop_012_001_crosspage", 22))]}),
        encoding="utf-8")
    (run / "run_metadata.json").write_text(json.dumps({
        "runner": "run_codex_cli_evaluation.py", "requested_model": "gpt-5.6-sol", "effort": "xhigh",
        "cli_version_observed_at_metadata_write": "codex-cli 0.146.0", "generated_at": "2026-08-02T17:44:06.679279+00:00",
        "samples": {"ifta_tax_summary_001": {"usage": {"input_tokens": 1000, "output_tokens": 50}}}}), encoding="utf-8")
    cost = base / "benchmarks" / "cost_measurements" / "sol" / "summary.json"
    cost.parent.mkdir(parents=True)
    cost.write_text(json.dumps({"runs": [{"result_dir": run.name, "api_equivalent_usd": 33.134675}]}), encoding="utf-8")
    (base / "VERSION").write_text("2.2.1\n", encoding="utf-8")
    return base


def test_import_writes_items_and_an_honest_real_run_and_verify_reproduces_the_report(tmp_path, monkeypatch):
    checkout = _checkout(tmp_path / "llb")
    project = tmp_path / "project"
    project.mkdir()
    (project / "tally.toml").write_text('[suites]\npaths = ["plugins"]\n', encoding="utf-8")
    (project / "plugins").symlink_to(ROOT / "plugins")
    monkeypatch.chdir(project)
    got = CliRunner().invoke(main, ["longlistbench", "import", "--from", str(checkout), "--all"])
    assert got.exit_code == 0, got.output
    assert "wrote 2 items and 1 runs" in got.output
    items = (project / "content/suites/longlistbench/items/core_operations.public.jsonl").read_text(encoding="utf-8")
    assert json.loads(items)["gold"] == [{"jurisdiction": "AL", "total_miles": 12, "tax_rate": 0.2713}]
    run_dir = project / "results/longlistbench/codex_gpt56_sol_run1_current_ocr_v2"
    meta = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    assert (meta["model"], meta["provider"], meta["simulated"]) == ("gpt-5.6-sol", "codex-cli-0.146.0", False)
    assert meta["measured_cost"]["usd"] == "33.134675" and "MIT licence" in meta["description"]
    records = [json.loads(x) for x in (run_dir / "responses.jsonl").read_text(encoding="utf-8").splitlines()]
    source = checkout / records[0]["source"]["file"]
    assert records[0]["request"] is None and "Tally sent no request" in records[0]["note"]
    assert records[0]["source"]["sha256"] == hashlib.sha256(source.read_bytes()).hexdigest()
    assert records[0]["response"]["choices"][0]["message"]["content"] == source.read_text(encoding="utf-8")
    assert records[0]["usage"] == {"prompt_tokens": 1000, "completion_tokens": 50} and "usage" not in records[1]
    got = CliRunner().invoke(main, ["longlistbench", "verify", "--from", str(checkout)])
    assert got.exit_code == 0, got.output
    assert "2 documents of 1 runs: 20 of 20 values equal to the published reports" in got.output
    report = checkout / "benchmarks/results/codex_gpt56_sol_run1_current_ocr_v2/evaluation_report.json"
    doc = json.loads(report.read_text(encoding="utf-8"))
    doc["detailed_results"][0]["metrics"]["found"] = 2  # a report that disagrees: named, exit status 1
    report.write_text(json.dumps(doc), encoding="utf-8")
    got = CliRunner().invoke(main, ["longlistbench", "verify", "--from", str(checkout)])
    assert got.exit_code == 1 and "DIFFERS codex_gpt56_sol_run1_current_ocr_v2 ifta_tax_summary_001" in got.output
    report.write_text("{}", encoding="utf-8")
    got = CliRunner().invoke(main, ["longlistbench", "verify", "--from", str(checkout)])
    assert got.exit_code == 2 and "not LongListBench's layout" in got.output and "Traceback" not in got.output


def test_import_refuses_a_folder_that_is_not_a_checkout_and_an_unknown_document(tmp_path, monkeypatch):
    project = tmp_path / "project"
    project.mkdir()
    (project / "tally.toml").write_text('[suites]\npaths = ["plugins"]\n', encoding="utf-8")
    (project / "plugins").symlink_to(ROOT / "plugins")
    monkeypatch.chdir(project)
    got = CliRunner().invoke(main, ["longlistbench", "import", "--from", str(tmp_path)])
    assert got.exit_code == 2 and "not a LongListBench checkout" in got.output and "Traceback" not in got.output
    checkout = _checkout(tmp_path / "llb")
    got = CliRunner().invoke(main, ["longlistbench", "import", "--from", str(checkout), "--document", "nope"])
    assert got.exit_code == 2 and "no such document(s): nope" in got.output
    meta = checkout / "benchmarks/results/codex_gpt56_sol_run1_current_ocr_v2/run_metadata.json"
    meta.write_text(json.dumps({k: v for k, v in json.loads(meta.read_text(encoding="utf-8")).items()
                                if k != "generated_at"}), encoding="utf-8")
    got = CliRunner().invoke(main, ["longlistbench", "import", "--from", str(checkout), "--all"])
    assert got.exit_code == 2 and "not LongListBench's layout of a result directory" in got.output
    assert "generated_at" in got.output and "Traceback" not in got.output
    transcript = checkout / "data/transcripts/ocr_gemini/ifta_tax_summary_001.md"
    transcript.unlink()
    transcript.symlink_to(tmp_path / "outside.md")
    (tmp_path / "outside.md").write_text("not the checkout's", encoding="utf-8")
    got = CliRunner().invoke(main, ["longlistbench", "import", "--from", str(checkout), "--all"])
    assert got.exit_code == 2 and "ifta_tax_summary_001.md: not a file of a LongListBench checkout" in got.output
    assert not (project / "results").exists() and not (project / "content").exists()  # nothing half-written


def test_the_terminal_report_shows_whole_run_ids(suite):
    """LongListBench's result directories are longer than 32 characters and differ at their ends
    (`..._strict_contract`, `..._targeted_prompt`): the report shows them whole, aligned."""
    from types import SimpleNamespace

    from generator.pipeline.report import print_summary

    ids = ("reducto_deep_extract_v3_strict_contract", "reducto_deep_extract_v3_targeted_prompt", "short")
    summary = {r: {"simulated": False, "missing_responses": 0, "all": {"metrics": {"macro_f1": 0.5}}} for r in ids}
    res = SimpleNamespace(plugin=suite, suite=SimpleNamespace(name="longlistbench", version="2.2.1"), items=[],
                          runs=list(ids), summary=summary)
    lines = print_summary(res).splitlines()
    rows = [line for line in lines if line.startswith(ids)]
    assert [line.split()[0] for line in rows] == sorted(ids)
    assert len({line.index(" 50.0") for line in rows}) == 1  # the columns stay aligned


def test_a_draft_site_of_the_suite_shows_its_counts_leaderboard_and_attribution(tmp_path):
    """A project with LongListBench's suite (two committed documents, two runs), built as a draft
    without scorer B: item pages show the rows' counts under the suite's names for them (and no points or
    order column), verdicts.csv has them in its counts column, the suite page has
    LongListBench's own leaderboard table, every page its attribution."""
    from tests.site_support import build

    (tmp_path / "tally.toml").write_text('[suites]\npaths = ["plugins"]\n', encoding="utf-8")
    shutil.copytree(ROOT / "plugins", tmp_path / "plugins")
    suite_dir = tmp_path / "content" / "suites" / "longlistbench"
    shutil.copytree(SUITE_DIR, suite_dir, ignore=lambda d, names: [n for n in names if n.endswith(".jsonl")])
    keep = {"multihop_012_001_crosspage", "driver_mvr_packet_001"}
    for path in sorted((SUITE_DIR / "items").glob("*.jsonl")):
        lines = [x for x in path.read_text(encoding="utf-8").splitlines() if json.loads(x)["id"] in keep]
        if lines:
            (suite_dir / "items" / path.name).write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    for run in ("codex_gpt56_sol_run1_current_ocr_v2", "reducto_deep_extract_v3_strict_contract"):
        src, dst = ROOT / "results" / "longlistbench" / run, tmp_path / "results" / "longlistbench" / run
        dst.mkdir(parents=True)
        shutil.copy(src / "run.json", dst / "run.json")
        lines = [x for x in (src / "responses.jsonl").read_text(encoding="utf-8").splitlines()
                 if json.loads(x)["item"] in keep]
        (dst / "responses.jsonl").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    build(tmp_path, tmp_path / "site", draft=True, skip_scorer_b=True, resamples=100)
    site = tmp_path / "site" / "suites" / "longlistbench"
    item = (site / "items" / "multihop_012_001_crosspage.html").read_text(encoding="utf-8")
    head = ('<th scope="col">Verdict</th><th scope="col">Reason</th><th scope="col" class="num">Exact or found</th>'
            '<th scope="col" class="num">Checked</th><th scope="col" class="num">Predicted</th><th scope="col">Re-check</th>')
    assert head in item and ">Points<" not in item and ">Order<" not in item
    assert 'data-columns="unit kind verdict reason counts"' in item
    assert '<td class="num">12<td class="num">12<td class="num">12<td>\n' in item  # Sol's run has every incident of this packet exact
    csv_rows = (tmp_path / "build" / "rescore" / "longlistbench" / "verdicts.csv").read_text(encoding="utf-8").splitlines()
    assert csv_rows[0].endswith(",reason,order,counts")
    sol = [r for r in csv_rows if r.startswith("codex_gpt56_sol_run1_current_ocr_v2,multihop_012_001_crosspage,0,records,")]
    assert len(sol) == 1 and sol[0].endswith(",,12 12 12"), sol
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "LongListBench&#39;s leaderboard" in index or "LongListBench's leaderboard" in index
    assert "the PDF file" in index  # Reducto's run, given the PDFs, is ranked apart from the text runs
    for page in sorted((tmp_path / "site").rglob("*.html")):
        assert "MIT licence" in page.read_text(encoding="utf-8"), page
