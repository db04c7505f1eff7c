"""Suites as plugins: the scaffold through check, rescore and build in a fresh folder; plugins from a
project folder; declared metrics; broken plugins named; the golden site unchanged by a plugin."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.stats.declared import Declared
from generator.stats.estimates import point_estimates
from generator.suite.api import ITEMS, DatasetMean, ScorerB, Suite, declaration_problems, f1, macro, mean, total
from generator.suite.plugins import load_registry
from tests.site_support import build, make_project, missing_node

needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


def tally(*args: str):
    return CliRunner().invoke(main, list(args))


@needs_node
def test_the_scaffold_checks_rescores_and_builds_in_a_fresh_folder(tmp_path):
    root = tmp_path / "fresh"
    root.mkdir()
    made = tally("suite", "new", "demo", "--root", str(root))
    assert made.exit_code == 0, made.output
    assert (root / "tally.toml").read_text() == '[suites]\npaths = ["plugins"]\n'
    checked = tally("suite", "check", "demo", "--root", str(root))
    assert checked.exit_code == 0 and "demo: ok (7 shared cases, 500 fuzz cases)" in checked.output, checked.output
    rescored = tally("rescore", "--root", str(root), "-q")
    assert rescored.exit_code == 0, rescored.output
    assert "compared 2 verdicts, 0 differ" in rescored.output
    built = tally("site", "build", "--root", str(root), "-q")
    assert built.exit_code == 0, built.output
    site = root / "site"
    page = (site / "suites" / "demo" / "index.html").read_text(encoding="utf-8")
    assert "demo" in page and "simulated" in page.lower()
    assert (site / "static" / "suites" / "demo.js").is_file()
    assert not (site / "static" / "suites" / "extracting.js").exists()  # only the suites on the site
    item = (site / "suites" / "demo" / "items" / "demo-1.html").read_text(encoding="utf-8")
    assert 'data-scorer="demo"' in item and "<th scope=\"col\">Key</th>" in item
    again = tally("suite", "new", "demo", "--root", str(root))
    assert again.exit_code == 2 and "exists already" in again.output


@needs_node
def test_the_scaffold_passes_its_own_check(tmp_path):
    assert tally("suite", "new", "demo", "--root", str(tmp_path)).exit_code == 0
    checked = tally("suite", "check", "demo", "--root", str(tmp_path))
    assert checked.exit_code == 0, checked.output
    assert "demo: ok (7 shared cases, 500 fuzz cases)" in checked.output


def test_a_plugin_that_lacks_a_method_or_a_declaration_is_named(tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (tmp_path / "tally.toml").write_text('[suites]\npaths = ["plugins"]\n')
    (plugins / "half.py").write_text(
        "from generator.suite_api import Suite\n\n"
        "class Half(Suite):\n    name = 'half'\n\n    def extract_answer(self, content):\n        return None\n\n"
        "SUITE = Half()\n")
    (plugins / "bare.py").write_text("X = 1\n")
    reg = load_registry(tmp_path)
    assert "half" not in reg.suites
    problems = " ".join(p for ps in reg.problems.values() for p in ps)
    assert "score" in problems and "item_figures" in problems  # Python names the abstract methods
    assert "defines no SUITE" in problems
    listed = tally("suite", "list", "--root", str(tmp_path))
    assert listed.exit_code == 0 and "(broken)" in listed.output and "extracting" in listed.output
    checked = tally("suite", "check", "half", "--root", str(tmp_path))
    assert checked.exit_code == 1 and "no suite plugin named 'half'" in checked.output


class _Counts(Suite):
    """A tiny suite for the metric declarations: per item tp, fp, fn and a per-item ratio."""

    name = "counts"
    answer_what = "anything"
    figures = ("tp", "fp", "fn", "hits", "tries")
    metrics = (f1("f1", "F1", "tp", "fp", "fn"), total("fp_total", "False positives", "fp"),
               macro("hit_rate", "Hit rate (macro)", "hits", "tries"), mean("tp_mean", "TP per item", "tp"),
               DatasetMean("mix", "Mix", (("f1", 1.0),)))
    headline = "f1"
    answer_caption = "-"
    answer_columns = ("-",)
    scorer_b = ScorerB("counts", ())

    def extract_answer(self, content):
        return None

    def parse_item(self, raw):
        return raw, []

    def score(self, item, outcome, run, repeat):
        return []

    def item_figures(self, verdicts):
        return (0, 0, 0, 0, 0)

    def answer_rows(self, raw):
        return []


def test_declared_metrics_f1_total_macro_and_mean():
    suite = _Counts()
    assert declaration_problems(suite) == []
    d = Declared(suite)
    figs = np.array([[[3, 1, 0, 1, 2], [1, 0, 2, 0, 0], [0, 2, 1, 3, 3]]], dtype=float)  # 1 run x 3 items
    out = point_estimates(d.expand(figs), np.ones((1, 3), int), d.figure_names, d.spec,
                          [("mix", {"f1": 1.0}, 100.0)], [np.arange(3)])
    tp, fp, fn = 4, 3, 3
    assert out["f1"][0] == 2 * tp / (2 * tp + fp + fn)
    assert out["fp_total"][0] == 3.0  # a count stays a count
    assert out["hit_rate"][0] == pytest.approx((1 / 2 + 3 / 3) / 2)  # the item with no tries is left out
    assert out["tp_mean"][0] == pytest.approx(4 / 3)
    assert out["mix"][0] == pytest.approx(100 * out["f1"][0])
    assert d.spec["tp_mean"] == ((("tp", 1.0),), ((ITEMS, 1.0),))
    # with repeats the sums are scaled to whole numbers; a total is divided back
    out2 = point_estimates(d.expand(figs), np.full((1, 3), 3), d.figure_names, d.spec, [], [])
    assert out2["fp_total"][0] == 3.0


def test_a_metric_over_an_unknown_figure_is_a_declaration_problem():
    class Bad(_Counts):
        metrics = (mean("x", "X", "nope"),)
        headline = "missing"

    problems = declaration_problems(Bad())
    assert any("'nope' is not one of its figures" in p for p in problems)
    assert any("headline 'missing'" in p for p in problems)


@needs_node
def test_a_plugin_installed_beside_the_project_leaves_the_golden_site_unchanged(tmp_path):
    plain = make_project(tmp_path / "plain")
    with_plugin = make_project(tmp_path / "plugged")
    assert tally("suite", "new", "extra", "--root", str(tmp_path / "scratch")).exit_code == 0
    shutil.copytree(tmp_path / "scratch" / "plugins", with_plugin / "plugins")
    (with_plugin / "tally.toml").write_text('[suites]\npaths = ["plugins"]\n')
    assert "extra" in load_registry(with_plugin).suites
    build(plain, tmp_path / "a")
    build(with_plugin, tmp_path / "b")
    files = lambda p: {f.relative_to(p).as_posix(): f.read_bytes() for f in p.rglob("*") if f.is_file()}  # noqa: E731
    a, b = files(tmp_path / "a"), files(tmp_path / "b")
    assert a == b


def test_ids_keep_underscores_and_case_but_not_paths(project):
    from generator.inputs.ids import id_problem

    assert id_problem("_Doc_01") is None and id_problem("INV-2026_07.a") is None
    for bad in ("../x", ".hidden", "a/b", "a..b", "-flag", ""):
        assert id_problem(bad) is not None, bad
    rows = project.items["receipts.public"]
    rows[0]["id"], rows[1]["id"] = "Case_A", "case_a"
    from tests.conftest import write_jsonl

    write_jsonl(project.suite_dir / "items" / "receipts.public.jsonl", rows)
    result = tally("rescore", "--root", str(project.root), "-q", "--skip-scorer-b")
    assert result.exit_code == 2 and "differs only in case" in result.output


@needs_node
def test_item_pages_keep_to_the_suite_budget(tmp_path):
    root = make_project(tmp_path / "p", huge=True)
    items = root / "content" / "suites" / "mini" / "items" / "receipts.public.jsonl"
    lines = items.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["document"]["text"] += "\n" + "long line of a long document " * 2000  # about 58,000 characters
    lines[0] = json.dumps(first)
    items.write_text("\n".join(lines) + "\n", encoding="utf-8")
    build(root, tmp_path / "site")
    site = tmp_path / "site"
    page = (site / "suites" / "mini" / "items" / f"{first['id']}.html").read_text(encoding="utf-8")
    assert "more are in" in page and f"downloads/mini/documents/{first['id']}.txt" in page
    whole = (site / "downloads" / "mini" / "documents" / f"{first['id']}.txt").read_text(encoding="utf-8")
    assert whole == first["document"]["text"]
    assert len(page) < 200_000
    # the fixture's 1 MB response: an excerpt on its page, which names its exact line in its run's download
    notes = []
    for path in (site / "suites" / "mini" / "items").glob("*-pub-*.html"):
        notes += re.findall(r'class="note stored-elsewhere"[^>]*data-line="(\d+)">[^<]*'
                            r'<a href="[^"]*/responses-public/([^"/]+)\.jsonl\.gz"', path.read_text(encoding="utf-8"))
    assert notes, "each stored record is named by its line in its run's download"
    long = 0
    for number, run in notes:
        lines = gzip.decompress((site / "downloads" / "mini" / "responses-public" / f"{run}.jsonl.gz").read_bytes())
        record = lines.decode("utf-8").splitlines(keepends=True)[int(number) - 1]
        stored = (root / "results" / "mini" / run / "responses.jsonl").read_text(encoding="utf-8")
        assert record in stored.splitlines(keepends=True)
        long += len(record) > 8000
    assert long >= 1, "the 1 MB response's record is among them"
    assert all(p.stat().st_size < 400_000 for p in (site / "suites" / "mini" / "items").glob("*.html"))


def test_pipeline_reads_each_stored_file_once(project, monkeypatch):
    from generator.pipeline.stages import load_and_score
    from tests.conftest import GOOD, chat_record

    project.add_run("good", [chat_record(i, GOOD) for i in ["r-pub-1", "r-pub-2", "i-pub-1"]])
    reads: list[str] = []
    real = Path.read_bytes

    def counting(self):
        if self.name == "responses.jsonl":
            reads.append(str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    load_and_score(project.root, None, jobs=1, gate=not missing_node())
    assert len(reads) == 1


@needs_node
def test_a_suite_s_own_tables_are_shown_and_published(tmp_path):
    root = tmp_path / "p"
    root.mkdir()
    assert tally("suite", "new", "demo", "--root", str(root)).exit_code == 0
    plugin = root / "plugins" / "demo" / "__init__.py"
    plugin.write_text(plugin.read_text() + (
        "\n\nfrom generator.suite_api import Estimate, ReportChart, ReportTable  # noqa: E402\n\n\n"
        "class WithTables(Demo):\n"
        "    def report_tables(self, scored):\n"
        "        rows = tuple((r.run.id, r.responses, Estimate(0.5, 0.25, 0.75)) for r in scored.runs)\n"
        "        return [ReportTable('runs', 'Runs <and> responses', ('Run', 'Responses', 'Share (%)'), rows,\n"
        "                            note='a note', scale=100, chart=ReportChart('bar', x=0, y=2))]\n\n\n"
        "SUITE = WithTables()\n"))
    built = tally("site", "build", "--root", str(root), "-q")
    assert built.exit_code == 0, built.output
    page = (root / "site" / "suites" / "demo" / "index.html").read_text(encoding="utf-8")
    assert "Runs &lt;and&gt; responses" in page and '50.0 <span class="ci">[25.0, 75.0]</span>' in page and "a note" in page
    assert 'id="chart-runs"' in page and '"y":[50.0]' in page.replace(" ", "")  # the chart, scaled like the table
    doc = json.loads((root / "site" / "downloads" / "demo" / "reports" / "runs.json").read_text(encoding="utf-8"))
    row = doc["rows"][0]  # columns named from their headings; a run by its model's name, with its id
    assert len(doc["rows"]) == 1 and row["run_id"] == "example-echo" and row["run"] != "example-echo"
    assert {k: v for k, v in row.items() if not k.startswith("run")} == {
        "responses": 1, "share": 0.5, "share_low": 0.25, "share_high": 0.75}


@needs_node
def test_a_plugin_reading_a_run_s_parts_as_attributes_is_told_to_call_them(tmp_path):
    """A plugin written when a run's verdict rows and calls were attributes: one message naming the
    call to write instead, and an exit status, never a traceback."""
    root = tmp_path / "p"
    root.mkdir()
    assert tally("suite", "new", "demo", "--root", str(root)).exit_code == 0
    plugin = root / "plugins" / "demo" / "__init__.py"
    plugin.write_text(plugin.read_text() + (
        "\n\nfrom generator.suite_api import ReportTable  # noqa: E402\n\n\n"
        "class Attributes(Demo):\n"
        "    def report_tables(self, scored):\n"
        "        rows = [(r.run.id, len(list(r.verdicts.rows()))) for r in scored.runs]\n"
        "        return [ReportTable('old', 'Old', ('Run', 'Rows'), tuple(rows))]\n\n\n"
        "SUITE = Attributes()\n"))
    built = tally("site", "build", "--root", str(root), "-q")
    assert built.exit_code == 1 and "Traceback" not in built.output, built.output
    assert "suite plugin 'demo'" in built.output and "write r.verdicts()" in built.output


def test_a_verdict_table_travels_between_processes_intact():
    import pickle

    from generator.score.verdicts import VerdictTable, verdict_row

    table = VerdictTable("r")
    table.extend([verdict_row("r", "i1", 0, "total", "printed", "correct"),
                  verdict_row("r", "i1", 1, "a\x1eb", "fault", "false_flag", "not a fault", "x"),  # the separator
                  verdict_row("r", "i2", 0, "", "", "failed_call", "no stored response")])
    again = pickle.loads(pickle.dumps(table))
    assert list(again.rows()) == list(table.rows()) and again.spans() == table.spans()
    assert list(pickle.loads(pickle.dumps(VerdictTable("e"))).rows()) == []
