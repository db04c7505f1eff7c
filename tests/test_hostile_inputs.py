"""Hostile and malformed inputs outside the scorers: no traceback, no silent acceptance, nothing that a
spreadsheet runs or a terminal obeys, no page overwritten by another, no partial build left behind."""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import InputError
from tests.conftest import GOOD, chat_record, run_meta, write_jsonl
from tests.site_support import build, make_project, missing_node

ITEMS = ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]


def rescore(project, *args):
    return CliRunner().invoke(main, ["rescore", "--root", str(project.root), "-q", "--skip-scorer-b", *args])


def _error(project, result, *fragments):
    assert result.exit_code == 2, result.output
    for f in fragments:
        assert f in result.output, result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- stored runs

@pytest.mark.parametrize("meta, message", [
    ({"prices": {"input_per_mtok": "NaN", "output_per_mtok": "1.00"}}, "prices.input_per_mtok must be a decimal"),
    ({"prices": {"input_per_mtok": "abc", "output_per_mtok": "1.00"}}, "prices.input_per_mtok must be a decimal"),
    ({"prices": {"input_per_mtok": "1e30", "output_per_mtok": "1.00"}}, "prices.input_per_mtok must be a decimal"),
    ({"started": "9999-99-99"}, "started must be a date and time"),
    ({"finished": 20261101}, "finished must be a date and time"),
])
def test_run_metadata_that_would_be_read_wrong_is_an_error(project, meta, message):
    project.add_run("bad", [chat_record("r-pub-1", GOOD)], **meta)
    _error(project, rescore(project), "results/extracting/bad/run.json", message)


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(latency_ms=1.2e29), "latency_ms must be a number of milliseconds"),
    (lambda r: r.update(usage={"prompt_tokens": "12", "completion_tokens": 3}), "usage.prompt_tokens must be"),
    (lambda r: r["attempts"][0].update(status="200"), "attempts[0].status must be an HTTP status"),
    (lambda r: r["attempts"][0].update(status=True), "attempts[0].status must be an HTTP status"),
])
def test_record_fields_that_would_be_read_wrong_are_errors(project, change, message):
    record = chat_record("r-pub-1", GOOD)
    change(record)
    project.add_run("bad", [record])
    _error(project, rescore(project), "results/extracting/bad/responses.jsonl:1", message)


def test_crlf_line_endings_are_refused_with_file_and_line(project):
    d = project.add_run("crlf", [chat_record("r-pub-1", GOOD), chat_record("r-pub-2", GOOD)])
    path = d / "responses.jsonl"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    _error(project, rescore(project), "crlf/responses.jsonl:1", "carriage return")


def test_an_empty_run_is_a_loud_warning_and_marked_empty(project):
    d = project.add_run("empty", [])
    (d / "responses.jsonl").write_bytes(b"")
    result = rescore(project)
    assert result.exit_code == 0, result.output
    assert "warning: results/extracting/empty/responses.jsonl: holds no response" in result.output
    summary = json.loads((project.root / "build/rescore/extracting/summary.json").read_text())
    assert summary["empty"]["empty"] is True and summary["empty"]["missing_responses"] == 5


def test_symbolic_links_in_results_and_content_are_refused(project, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    write_jsonl(outside / "responses.jsonl", [chat_record("r-pub-1", GOOD)])
    (outside / "run.json").write_text(json.dumps(run_meta("linked")))
    (project.root / "results" / "extracting").mkdir(parents=True, exist_ok=True)
    os.symlink(outside, project.root / "results" / "extracting" / "linked")
    _error(project, rescore(project), "results/extracting/linked", "symbolic link")
    os.unlink(project.root / "results" / "extracting" / "linked")
    items = project.suite_dir / "items" / "invoices.public.jsonl"
    shutil.move(items, tmp_path / "items.jsonl")
    os.symlink(tmp_path / "items.jsonl", items)
    _error(project, rescore(project), "invoices.public.jsonl", "symbolic link")


def test_terminal_control_sequences_in_names_are_escaped_in_messages(project):
    assert str(InputError("results/x\x1b[2Jy", 3, "bad\rthing")) == "results/x\\x1b[2Jy:3: bad\\x0dthing"
    d = project.add_run("ok", [chat_record("r-pub-1", GOOD)])
    d.rename(d.with_name("Bad\x1b[31mName"))
    result = rescore(project)
    assert result.exit_code == 2 and "\x1b" not in result.output and "\\x1b[31m" in result.output


def test_an_item_id_that_would_overwrite_the_item_index_is_refused(project):
    rows = project.items["receipts.public"]
    rows[0]["id"] = "Index"
    write_jsonl(project.suite_dir / "items" / "receipts.public.jsonl", rows)
    _error(project, rescore(project), "receipts.public.jsonl:1", "is reserved")


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(project):
    record = chat_record("r-pub-1", GOOD)
    record["attempts"][0]["error"] = "=HYPERLINK(\"http://x\")"
    project.add_run("csv", [record])
    assert rescore(project).exit_code == 0
    with (project.root / "build/rescore/extracting/calls.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    (row,) = [r for r in rows if r["item"] == "r-pub-1"]
    assert row["error"].startswith("'=HYPERLINK")
    from generator.csvsafe import csv_safe

    assert [csv_safe(v) for v in ("-1.5", "+2", "-", "@x", "\tx", "\rx", "plain", 3)] == \
        ["-1.5", "+2", "'-", "'@x", "'\tx", "'\rx", "plain", 3]


# ---------------------------------------------------------------- the site

needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


def _rename_run(root: Path, run: str, **meta) -> None:
    path = root / "results" / "mini" / run / "run.json"
    path.write_text(json.dumps(json.loads(path.read_text()) | meta))


@needs_node
def test_names_that_would_share_or_take_a_page_get_their_own(tmp_path):
    root = make_project(tmp_path / "p")
    _rename_run(root, "rules-local", model="index", provider="index")
    _rename_run(root, "careful-other", model="bidi \u202eevil\u202c name", description="\u202egnirts")
    out = build(root, tmp_path / "site").out
    assert (out / "models" / "index.html").read_text().count("<h1>") == 1
    own = [p.name for p in (out / "models").glob("index-*.html")]
    assert len(own) == 1, own  # the model called "index" has a page of its own
    models = (out / "models" / "index.html").read_text(encoding="utf-8")
    assert "\u202e" not in models and "\u27e8U+202E\u27e9" in models and "<bdi>" in models


@needs_node
def test_two_names_for_one_page_are_an_error_naming_both(tmp_path):
    from generator.errors import InputProblem
    from generator.render.context import slug

    root = make_project(tmp_path / "p")
    _rename_run(root, "careful-other", model=slug("Careful X"))
    _rename_run(root, "rules-local", model="Careful X")
    with pytest.raises(InputProblem, match="would share the page"):
        build(root, tmp_path / "site")


@needs_node
def test_a_refused_build_leaves_the_previous_outputs_and_leftovers_are_cleaned(tmp_path, monkeypatch):
    from generator.pipeline import crosscheck

    root = make_project(tmp_path / "p")
    build(root, tmp_path / "site")
    before = {p: p.read_bytes() for p in sorted((root / "build").rglob("*")) if p.is_file()}
    (root / "build" / ".site-outputs-killed").mkdir()  # what a killed build leaves
    (tmp_path / ".site-build-killed").mkdir()

    def finish(self, runs):
        return crosscheck.Agreement(self.suite_name, "disagree", 10, 1, [], node="v0")

    monkeypatch.setattr(crosscheck.Gate, "finish", finish)
    with pytest.raises(Exception, match="refusing to publish"):  # a changed scorer only running shows: no cache
        build(root, tmp_path / "site", cache=False)
    after = {p: p.read_bytes() for p in sorted((root / "build").rglob("*")) if p.is_file()}
    assert after == before  # build/rescore and build/stats untouched by the refused build
    assert not (root / "build" / ".site-outputs-killed").exists() and not (tmp_path / ".site-build-killed").exists()


@needs_node
def test_a_second_build_at_the_same_time_is_refused(tmp_path):
    import fcntl

    from generator.errors import TallyError

    root = make_project(tmp_path / "p")
    (root / "build").mkdir()
    with (root / "build" / ".site-build.lock").open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        with pytest.raises(TallyError, match="another `tally site build` is running"):
            build(root, tmp_path / "site")


@needs_node
def test_unreadable_content_names_its_file(tmp_path):
    from generator.errors import InputProblem

    root = make_project(tmp_path / "p")
    (root / "content" / "pages" / "broken.md").write_bytes(b"# Broken\n\xff\xfe not UTF-8\n")
    with pytest.raises(InputProblem, match="broken.md: not valid UTF-8"):
        build(root, tmp_path / "site")
    (root / "content" / "pages" / "broken.md").unlink()
    (root / "content" / "suites" / "mini" / "balance.json").write_text('{"datasets": {')
    with pytest.raises(InputProblem, match="balance.json: not a valid balance report"):
        build(root, tmp_path / "site")


def test_a_record_over_the_size_limit_is_an_error(project, monkeypatch):
    from generator.inputs import results

    monkeypatch.setattr(results, "MAX_RECORD_BYTES", 2000)
    project.add_run("big", [chat_record("r-pub-1", GOOD + " " * 3000)])
    _error(project, rescore(project), "big/responses.jsonl:1", "more than the")


@pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")
def test_a_lone_surrogate_in_a_unit_does_not_stop_the_gate(tmp_path):
    repo = Path(__file__).resolve().parents[1]
    root = tmp_path / "p"
    shutil.copytree(repo / "content" / "suites" / "au-bas", root / "content" / "suites" / "au-bas")
    item = json.loads((root / "content/suites/au-bas/items/default.public.jsonl").read_text().splitlines()[0])
    key = item["key"]
    answer = {label: key[label] for label in ("G1", "1A", "1B", "net")} | {"faults": {"\ud800": ["outside_period"]}}
    content = "<answer>" + json.dumps(answer) + "</answer>"  # json.dumps escapes the lone surrogate
    record = chat_record(item["id"], content)
    run = root / "results" / "au-bas" / "lone"
    run.mkdir(parents=True)
    (run / "run.json").write_text(json.dumps(run_meta("lone", suite="au-bas", half="public")))
    (run / "responses.jsonl").write_text(json.dumps(record) + "\n")
    result = CliRunner().invoke(main, ["rescore", "--root", str(root), "-q"])
    assert result.exit_code == 0, result.output
    assert "0 differ" in result.output
    built = CliRunner().invoke(main, ["site", "build", "--root", str(root), "-q"])
    assert built.exit_code == 0, built.output
    page = (root / "site" / "suites" / "au-bas" / "items" / f"{item['id']}.html").read_text(encoding="utf-8")
    assert "\\ud800:outside_period" in page  # shown escaped, never written as a lone surrogate


def test_verdicts_csv_written_column_by_column_equals_row_by_row():
    import csv
    import io

    from generator.csvsafe import csv_row
    from generator.pipeline.csv_columns import verdict_lines
    from generator.score.verdicts import Verdict, VerdictTable, counts_text

    table = VerdictTable("=run")
    texts = ("=HYPERLINK(1)", "-1.5", "+x", "@me", "\tx", "plain", 'a "quoted", text', "line\nbreak", "")
    rows = [Verdict("=run", f"item-{k % 3}", k % 2, texts[k % 9], "field", "wrong", k % 2, texts[(k + 3) % 9],
                    texts[(k + 5) % 9], (k, k % 7, 40 - k) if k % 4 else ()) for k in range(40)]
    table.extend(rows)
    expected = io.StringIO(newline="")
    csv.writer(expected, lineterminator="\n").writerows(csv_row(row[:9] + (counts_text(row.counts),)) for row in rows)
    written = verdict_lines(table)
    assert written == expected.getvalue().encode()
    assert b"'=HYPERLINK(1)" in written and b"'+x" in written and b",-1.5," in written
    assert verdict_lines(VerdictTable("r")) == b""


def test_calls_csv_written_column_by_column_equals_row_by_row():
    import csv
    import io

    from generator.csvsafe import csv_row
    from generator.pipeline.csv_columns import column_lines

    rows = [("run", f"=item{k % 3}", k, "@x" if k % 2 else "ok", "", 200 if k % 3 else "", 1, True if k % 4 else 1,
             repr(0.5 * k), None if k == 3 else k, "", 'a "b",\nc', 0) for k in range(12)]
    floats = [(0.0, "a"), (-0.0, "b"), (float("nan"), "-1"), (1.0, "=1")]
    texts_and_ints = [("1", 1), (1, "1"), ("", 0), (0, ""), ("-1", -1), (-1, "=1"), ("a,b", 10**30)]
    for table in (rows, floats, texts_and_ints):
        expected = io.StringIO(newline="")
        csv.writer(expected, lineterminator="\n").writerows(map(csv_row, table))
        assert column_lines(table) == expected.getvalue()
    assert column_lines([]) == ""
