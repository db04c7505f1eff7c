"""`tally rescore` end to end on a tiny project, and its handling of every kind of bad input."""

from __future__ import annotations

import json

from click.testing import CliRunner

from generator.cli import main
from tests.conftest import GOOD, chat_record, run_meta, write_jsonl

ALL_ITEMS = ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]


def rescore(project, *args):
    return CliRunner().invoke(main, ["rescore", "--root", str(project.root), "-q", *args])


def test_perfect_run_scores_100(project):
    project.add_run("perfect", [chat_record(i, GOOD) for i in ALL_ITEMS])
    result = rescore(project)
    assert result.exit_code == 0, result.output
    out = project.root / "build" / "rescore" / "extracting"
    summary = json.loads((out / "summary.json").read_text())
    m = summary["perfect"]["all"]["metrics"]
    assert m["index"] == 100.0 and m["accuracy"] == 1.0 and m["null_honesty"] == 1.0
    verdict_lines = (out / "verdicts.csv").read_text().splitlines()
    assert verdict_lines[0] == "run,item,repeat,unit,kind,verdict,points,reason,order,counts"
    assert len(verdict_lines) == 1 + 5 * 3
    assert "perfect" in result.output and "100.0" in result.output


def test_index_weights_datasets_equally_and_counts_repeats_once(project):
    bad = '{"total": 1, "date": "2026-03-14", "tax_id": "X-1"}'
    records = [chat_record(i, GOOD) for i in ["i-prv-1", "i-pub-1"]]
    records += [chat_record("r-pub-1", bad), chat_record("r-pub-2", bad), chat_record("r-prv-1", bad)]
    records += [chat_record("r-pub-1", GOOD, repeat=1)]
    project.add_run("mixed", records)
    result = rescore(project)
    assert result.exit_code == 0, result.output
    summary = json.loads((project.root / "build/rescore/extracting/summary.json").read_text())["mixed"]["all"]
    # receipts: accuracy (0.5 + 0 + 0)/3, null honesty 0.5/3 -> index 100*(0.75/6 + 0.25/6)
    assert summary["datasets"]["receipts"]["accuracy"] == 0.5 / 3
    assert summary["metrics"]["index"] == (100.0 + 100 * (0.75 * (0.5 / 3) + 0.25 * (0.5 / 3))) / 2
    stats = (project.root / "build/rescore/extracting/item_stats.csv").read_text().splitlines()
    row = next(line for line in stats if line.startswith("mixed,r-pub-1,"))
    assert row.split(",")[4] == "2"  # two repeats, averaged


def test_missing_response_is_a_failed_call_not_a_drop(project):
    project.add_run("partial", [chat_record(i, GOOD) for i in ALL_ITEMS[:-1]])
    result = rescore(project)
    assert result.exit_code == 0
    assert "1 item(s) had no stored response" in result.output
    verdicts = (project.root / "build/rescore/extracting/verdicts.csv").read_text()
    assert "partial,r-pub-2,0,total,printed,failed_call,0,no stored response," in verdicts


def _assert_input_error(project, result, *fragments):
    assert result.exit_code == 2, result.output
    for fragment in fragments:
        assert fragment in result.output, result.output
    assert not (project.root / "build").exists()


def test_malformed_json_line_names_file_and_line(project):
    d = project.add_run("broken", [chat_record(i, GOOD) for i in ALL_ITEMS])
    lines = (d / "responses.jsonl").read_text().splitlines()
    lines[2] = lines[2][:40]
    (d / "responses.jsonl").write_text("\n".join(lines) + "\n")
    _assert_input_error(project, rescore(project), "results/extracting/broken/responses.jsonl:3", "not valid JSON")


def test_truncated_file(project):
    d = project.add_run("torn", [chat_record(i, GOOD) for i in ALL_ITEMS])
    data = (d / "responses.jsonl").read_bytes()
    (d / "responses.jsonl").write_bytes(data[:-30])
    _assert_input_error(project, rescore(project), "torn/responses.jsonl:5", "truncated")


def test_unknown_item(project):
    project.add_run("ghost", [chat_record("nobody", GOOD)])
    _assert_input_error(project, rescore(project), "ghost/responses.jsonl:1", "unknown item 'nobody'")


def test_duplicate_item_repeat(project):
    project.add_run("dup", [chat_record("r-pub-1", GOOD), chat_record("r-pub-1", GOOD)])
    _assert_input_error(project, rescore(project), "dup/responses.jsonl:2", "first at line 1")


def test_run_without_metadata(project):
    d = project.add_run("nometa", [chat_record("r-pub-1", GOOD)])
    (d / "run.json").unlink()
    _assert_input_error(project, rescore(project), "nometa/run.json", "run without metadata")


def test_run_metadata_of_wrong_shape(project):
    d = project.add_run("badmeta", [chat_record("r-pub-1", GOOD)])
    (d / "run.json").write_text(json.dumps(run_meta("other", hosting="cloud", simulated="yes")))
    _assert_input_error(project, rescore(project), "differs from its folder name", "simulated is required")


def test_label_of_wrong_type(project):
    rows = project.items["receipts.public"]
    rows[1]["fields"][0]["answer"] = 1234.56  # a float, not a decimal string
    rows[0]["fields"][1]["answer"] = "14/03/2026"
    write_jsonl(project.suite_dir / "items" / "receipts.public.jsonl", rows)
    _assert_input_error(project, rescore(project), "items/receipts.public.jsonl:2", "decimal string",
                        "items/receipts.public.jsonl:1", "YYYY-MM-DD")


def test_missing_field_with_answer_and_present_field_without(project):
    rows = project.items["invoices.public"]
    rows[0]["fields"][2]["answer"] = "X"
    rows[0]["fields"][0]["answer"] = None
    write_jsonl(project.suite_dir / "items" / "invoices.public.jsonl", rows)
    _assert_input_error(project, rescore(project), "invoices.public.jsonl:1", "null exactly when the kind is missing")


def test_nan_and_huge_numbers_in_records(project):
    d = project.add_run("nan", [chat_record(i, GOOD) for i in ALL_ITEMS[:2]])
    lines = (d / "responses.jsonl").read_text().splitlines()
    lines[0] = lines[0].replace('"latency_ms": 100.0}', '"latency_ms": NaN}', 1)
    lines[1] = lines[1].replace('"repeat": 0', '"repeat": 123456789012345678901234567890')
    (d / "responses.jsonl").write_text("\n".join(lines) + "\n")
    _assert_input_error(project, rescore(project), "nan/responses.jsonl:1", "nan/responses.jsonl:2")


def test_item_id_that_tries_a_path(project):
    rows = project.items["receipts.private"]
    rows[0]["id"] = "../../etc/passwd"
    write_jsonl(project.suite_dir / "items" / "receipts.private.jsonl", rows)
    project.add_run("paths", [chat_record("../x", GOOD)])
    _assert_input_error(project, rescore(project), "receipts.private.jsonl:1", "not a safe identifier",
                        "paths/responses.jsonl:1")


def test_run_folder_name_that_is_not_an_id(project):
    d = project.add_run("ok", [chat_record("r-pub-1", GOOD)])
    d.rename(d.with_name("Bad Name"))
    _assert_input_error(project, rescore(project), "Bad Name", "not a safe identifier")


def test_all_errors_are_reported_together(project):
    project.add_run("a-unknown", [chat_record("nobody", GOOD)])
    project.add_run("b-dup", [chat_record("r-pub-1", GOOD), chat_record("r-pub-1", GOOD)])
    result = rescore(project)
    _assert_input_error(project, result, "a-unknown", "b-dup", "2 input error(s)")


def test_previous_output_survives_a_failed_rescore(project):
    project.add_run("good", [chat_record(i, GOOD) for i in ALL_ITEMS])
    assert rescore(project).exit_code == 0
    before = (project.root / "build/rescore/extracting/summary.json").read_bytes()
    project.add_run("bad", [chat_record("nobody", GOOD)])
    assert rescore(project).exit_code == 2
    assert (project.root / "build/rescore/extracting/summary.json").read_bytes() == before


def test_rescore_is_byte_identical(project, tmp_path):
    project.add_run("r1", [chat_record(i, GOOD) for i in ALL_ITEMS])
    outs = []
    for name in ("o1", "o2"):
        assert rescore(project, "--out", str(tmp_path / name)).exit_code == 0
        outs.append({p.name: p.read_bytes() for p in (tmp_path / name / "extracting").iterdir()})
    assert outs[0] == outs[1]


def test_unknown_suite_option(project):
    result = rescore(project, "--suite", "nope")
    assert result.exit_code == 2 and "no suite named 'nope'" in result.output


def test_output_does_not_depend_on_the_number_of_processes(project, tmp_path):
    records = [chat_record(i, GOOD) for i in ALL_ITEMS]
    for k in range(4):
        project.add_run(f"run-{k}", records[k:])
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out-{jobs}"
        assert rescore(project, "--out", str(out), "--jobs", jobs).exit_code == 0
        outs.append({p.name: p.read_bytes() for p in (out / "extracting").iterdir()})
    assert outs[0] == outs[1]
    assert outs[0]["verdicts.csv"].count(b"\n") == 1 + 3 * (5 + 4 + 3 + 2) + 3 * (0 + 1 + 2 + 3)


def test_errors_found_in_worker_processes_are_reported(project):
    project.add_run("a", [chat_record("r-pub-1", GOOD)])
    project.add_run("b", [chat_record("nobody", GOOD)])
    _assert_input_error(project, rescore(project, "--jobs", "2"), "b/responses.jsonl:1", "unknown item")


def test_rescoring_one_suite_keeps_the_other_suites_outputs(project):
    project.add_run("perfect", [chat_record(i, GOOD) for i in ALL_ITEMS])
    other = project.root / "build" / "rescore" / "other-suite"
    other.mkdir(parents=True)
    (other / "summary.json").write_text("{}")
    result = rescore(project, "--suite", "extracting")
    assert result.exit_code == 0, result.output
    assert (other / "summary.json").read_text() == "{}"
    assert (project.root / "build" / "rescore" / "extracting" / "summary.json").is_file()
    result = rescore(project)  # every suite: the folder is replaced as a whole
    assert result.exit_code == 0, result.output
    assert not other.exists()
