"""Hostile and malformed audit files: judgments outside the seeded sample are refused, a note is
bounded (refused over 2,000 characters when recording, cut with a marker where a stored one is shown),
and every malformed judgments file, workspace sample or stored audit is one clear error naming the
file (exit status 2, no traceback, nothing written)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.audit.files import MAX_NOTE_CHARS
from generator.audit.record import load_audits
from generator.audit.sample import AuditError
from generator.cli import main

HUGE = "x" * 10_000_000
DEEP = "[" * 100_000
KEYS = ("id", "run", "item", "repeat", "unit", "verdict")


def tally(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> tuple[Path, dict]:
    """The scaffold's demo suite (two verdicts) and a sample of one verdict drawn from it."""
    base = tmp_path_factory.mktemp("audit")
    root = base / "proj"
    assert tally("suite", "new", "demo", "--root", root).exit_code == 0
    out = base / "ws"
    made = tally("audit", "sample", "demo", "--per-model", "1", "--seed", "5", "--out", out, "--root", root)
    assert made.exit_code == 0, made.output
    return root, json.loads((out / "sample.json").read_text())


def judged(sample: dict, **changes) -> dict:
    e = sample["entries"][0]
    j = {**{k: e[k] for k in KEYS}, "judgment": "agree", "right_verdict": None, "note": ""} | changes
    return {"format": "tally-audit-judgments-v1", "suite": "demo", "seed": sample["seed"],
            "per_model": sample["per_model"], "auditor": "Ann Example", "judgments": [j]}


def _refused(result, root: Path, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # an error, not a crash
    assert "Traceback" not in result.output and len(result.output) < 3000, result.output[:3000]
    for f in fragments:
        assert f in result.output, result.output
    assert not (root / "content" / "audits").exists()  # nothing was recorded


def test_a_judgment_outside_the_seeded_sample_is_refused(workspace, tmp_path):
    """Both verdicts of the demo run exist in today's scoring; only one was drawn (seed 5, one per model)."""
    root, sample = workspace
    from generator.pipeline.stages import load_and_score

    scored = load_and_score(root, ["demo"], 1, False)[0]
    t = scored.runs[0].verdicts()
    rows = [(scored.runs[0].run.id, t.item[k], t.repeat[k], t.unit[k], t.verdict[k]) for k in range(len(t))]
    e = sample["entries"][0]
    run, item, repeat, unit, verdict = next(r for r in rows if r[3] != e["unit"])
    doc = judged(sample)
    doc["judgments"].append({"id": "a0002", "run": run, "item": item, "repeat": repeat, "unit": unit,
                             "verdict": verdict, "judgment": "agree", "right_verdict": None, "note": ""})
    path = tmp_path / "judged.json"
    path.write_text(json.dumps(doc))
    _refused(tally("audit", "record", path, "--root", root), root, "judged.json: nothing recorded",
             f"judgment 2 (a0002): (run {run}, item {item}, repeat 0, unit {unit}) is not in the sample drawn "
             "with seed 5 and 1 per model")
    # another seed or sample size names another sample: the same judgment is refused
    path.write_text(json.dumps(judged(sample)))
    assert tally("audit", "record", path, "--root", root, "--per-model", "2", "--auditor", "x").exit_code == 0
    stored = json.loads(next((root / "content/audits/demo").glob("*.json")).read_text())
    assert stored["per_model"] == 2 and len(stored["judgments"]) == 1
    for f in (root / "content/audits/demo").glob("*.json"):
        f.unlink()
    (root / "content/audits/demo").rmdir()
    (root / "content/audits").rmdir()


def test_runs_added_after_the_sample_do_not_change_it(tmp_path):
    """The sample names the runs it was drawn from: a later run of the same model changes nothing."""
    import shutil

    root = tmp_path / "proj"
    assert tally("suite", "new", "demo", "--root", root).exit_code == 0
    out = tmp_path / "ws"
    assert tally("audit", "sample", "demo", "--per-model", "1", "--seed", "5", "--out", out, "--root", root).exit_code == 0
    sample = json.loads((out / "sample.json").read_text())
    assert sample["runs"] == {"example-echo": ["example-echo"]}
    later = root / "results/demo/echo-later"
    shutil.copytree(root / "results/demo/example-echo", later)
    meta = json.loads((later / "run.json").read_text()) | {"run_id": "echo-later"}
    (later / "run.json").write_text(json.dumps(meta))
    doc = judged(sample) | {"runs": sample["runs"]}
    path = tmp_path / "judged.json"
    path.write_text(json.dumps(doc | {"runs": {"example-echo": "x"}}))
    _refused(tally("audit", "record", path, "--root", root), root, "`runs` of example-echo must be a list of run ids")
    path.write_text(json.dumps(doc))
    recorded = tally("audit", "record", path, "--root", root)
    assert recorded.exit_code == 0, recorded.output
    stored = json.loads(next((root / "content/audits/demo").glob("*.json")).read_text())
    assert stored["runs"] == {"example-echo": ["example-echo"]}


def test_a_long_note_is_refused_and_a_stored_one_is_cut_where_shown(workspace, tmp_path):
    root, sample = workspace
    path = tmp_path / "judged.json"
    path.write_text(json.dumps(judged(sample, note="n" * (MAX_NOTE_CHARS + 1))))
    _refused(tally("audit", "record", path, "--root", root), root,
             "judgment 1 (a0001): the note is 2,001 characters; a note holds at most 2,000")

    # a stored audit written by hand with a 5 MB note: the suite's audit summary shows 2,000 characters
    from generator.audit.record import summary
    from generator.pipeline.stages import load_and_score

    e = sample["entries"][0]
    other = "wrong" if e["verdict"] != "wrong" else "correct"
    folder = root / "content/audits/demo"
    folder.mkdir(parents=True)
    stored = {"format": "tally-audit-v1", "suite": "demo", "seed": 5, "per_model": 1, "auditor": "Bo",
              "simulated": False, "judgments": [{**{k: e[k] for k in KEYS if k != "id"}, "model": e["model"],
                                                  "judgment": "disagree", "right_verdict": other,
                                                  "note": "N" * 5_000_000, "half": "public"}]}
    (folder / "seed5-bo.json").write_text(json.dumps(stored))
    try:
        s = summary(root, load_and_score(root, ["demo"], 1, False)[0])
        assert s is not None
        note = s["disagreements"][0]["note"]
        assert note.startswith("N" * MAX_NOTE_CHARS) and len(note) < MAX_NOTE_CHARS + 200
        assert note.endswith("[... cut: the note has 5,000,000 characters; all of it is in "
                             "content/audits/demo/seed5-bo.json]")
        built = tally("site", "build", "--root", root, "--resamples", "200", "-q")
        assert built.exit_code == 0, built.output
        page = (root / "site/suites/demo/index.html").read_text()
        assert len(page) < 100_000 and "[... cut: the note has 5,000,000 characters" in page
        assert (root / "site/downloads/demo/audit-disagreements.json").stat().st_size < 20_000
    finally:
        (folder / "seed5-bo.json").unlink()
        folder.rmdir()
        folder.parent.rmdir()


def _doc(sample: dict, change) -> bytes:
    doc = judged(sample)
    out = change(doc)
    return out if isinstance(out, bytes) else json.dumps(doc).encode()


def _judgment(**values):
    def change(doc: dict) -> None:
        doc["judgments"][0] |= values
    return change


# (what is broken, how, the message's words after the file name)
JSON_CASES = [
    ("not UTF-8", lambda d: json.dumps(d).encode().replace(b"Ann", b"\xff\xfe"), "judged.json:1: not UTF-8 text"),
    ("empty", lambda d: b"", "judged.json:1: not valid JSON"),
    ("truncated", lambda d: json.dumps(d).encode()[:60], "judged.json:1: not valid JSON"),
    ("nested 100,000 deep", lambda d: DEEP.encode(), "judged.json: nested too deep"),
    ("an array", lambda d: b"[]", "judged.json: not a tally-audit-judgments-v1 file"),
    ("judgments a string", lambda d: d.update(judgments="x"), "judged.json: `judgments` must be a list, not 'x'"),
    ("judgments null", lambda d: d.update(judgments=None), "judged.json: `judgments` must be a list, not None"),
    ("a judgment a number", lambda d: d.update(judgments=[5]), "judged.json: judgment 1: a judgment is an object, not int"),
    ("repeat a string", _judgment(repeat="0"), "judgment 1 (a0001): repeat must be an integer, not '0'"),
    ("repeat true", _judgment(repeat=True), "judgment 1 (a0001): repeat must be an integer, not True"),
    ("run missing", lambda d: d["judgments"][0].pop("run"), "judgment 1 (a0001): run must be a string, not None"),
    ("unit an object", _judgment(unit={"a": 1}), "judgment 1 (a0001): unit must be a string"),
    ("a 10 MB run name", _judgment(run=HUGE), "judgment 1 (a0001): run is 10,000,000 characters, more than 200"),
    ("a 10 MB note", _judgment(note=HUGE), "the note is 10,000,000 characters; a note holds at most 2,000"),
    ("judgment not a judgment", _judgment(judgment="maybe"), "judgment must be one of agree, disagree, unsure"),
    ("seed a string", lambda d: d.update(seed="5"), "judged.json: seed must be an integer, not '5'"),
    ("per_model zero", lambda d: d.update(per_model=0), "judged.json: per_model must be at least 1, not 0"),
    ("runs a list", lambda d: d.update(runs=["r"]), "judged.json: `runs` must be an object: model -> [run id]"),
    ("suite a path", lambda d: d.update(suite="../../x"), "judged.json: suite '../../x' is not a safe identifier"),
    ("a duplicate key", lambda d: json.dumps(d).replace('"format"', '"seed": 1, "format"', 1).encode(),
     "judged.json: not valid JSON: the key 'seed' appears twice"),
    ("NaN", lambda d: json.dumps(d).replace('"seed": 5', '"seed": NaN').encode(), "NaN is not a JSON number"),
]


@pytest.mark.parametrize("what, change, fragment", JSON_CASES, ids=[c[0] for c in JSON_CASES])
def test_malformed_judgment_files_are_one_clear_error(workspace, tmp_path, what, change, fragment):
    root, sample = workspace
    path = tmp_path / "judged.json"
    path.write_bytes(_doc(sample, change))
    _refused(tally("audit", "record", path, "--root", root, "--suite", "demo"), root, fragment)


CSV_HEADER = "id,run,model,item,repeat,unit,verdict,reason,judgment,right_verdict,note,checked_answer,response,document\n"


def _csv_row(sample: dict, **values) -> str:
    e = sample["entries"][0]
    row = {**{k: e[k] for k in KEYS}, "model": e["model"], "reason": "", "judgment": "agree", "right_verdict": "",
           "note": "", "checked_answer": "", "response": "", "document": ""} | values
    return ",".join(str(row[c]) for c in CSV_HEADER.strip().split(",")) + "\n"


CSV_CASES = [
    ("not UTF-8", lambda s: CSV_HEADER.encode() + b"\xff\n", "audit.csv:2: not UTF-8 text"),
    ("empty", lambda s: b"", "audit.csv: empty: the header row"),
    ("no judgment column", lambda s: b"id,run\n", "audit.csv:1: the header must name each of"),
    ("a 10 MB note", lambda s: (CSV_HEADER + _csv_row(s, note=HUGE)).encode(), "audit.csv:2: not a readable CSV row"),
    ("a long note", lambda s: (CSV_HEADER + _csv_row(s, note="n" * 3000)).encode(),
     "audit.csv:2: the note is 3,000 characters; a note holds at most 2,000"),
    ("repeat not a number", lambda s: (CSV_HEADER + _csv_row(s, repeat="x")).encode(),
     "audit.csv:2: repeat must be a whole number, not 'x'"),
    ("a column twice", lambda s: (CSV_HEADER.strip() + ",note\n").encode(), "audit.csv:1: the header must name each"),
]


@pytest.mark.parametrize("what, make, fragment", CSV_CASES, ids=[c[0] for c in CSV_CASES])
def test_malformed_judgment_csvs_are_one_clear_error(workspace, tmp_path, what, make, fragment):
    root, sample = workspace
    path = tmp_path / "audit.csv"
    path.write_bytes(make(sample))
    _refused(tally("audit", "record", path, "--root", root, "--suite", "demo", "--seed", "5", "--per-model", "1",
                   "--auditor", "Ann"), root, fragment)


def test_the_workspace_csv_takes_its_sample_from_the_sample_json_beside_it(workspace, tmp_path):
    root, sample = workspace
    path = tmp_path / "audit.csv"
    path.write_text(CSV_HEADER + _csv_row(sample))
    no_size = tally("audit", "record", path, "--root", root, "--suite", "demo", "--seed", "5", "--auditor", "Ann")
    _refused(no_size, root, "the sample's size is unknown: pass --per-model N")
    (tmp_path / "sample.json").write_text('{"format": "tally-audit-sample-v1", "seed": "5"}')
    _refused(tally("audit", "record", path, "--root", root, "--auditor", "Ann"), root,
             "sample.json: seed must be an integer, not '5'")
    (tmp_path / "sample.json").write_text(json.dumps(sample))
    recorded = tally("audit", "record", path, "--root", root, "--auditor", "Ann")
    assert recorded.exit_code == 0, recorded.output
    stored = next((root / "content/audits/demo").glob("*.json"))
    assert json.loads(stored.read_text())["per_model"] == 1
    stored.unlink()
    stored.parent.rmdir()
    stored.parent.parent.rmdir()


STORED_CASES = [
    ("not UTF-8", b"\xff", "seed1-x.json:1: not UTF-8 text"),
    ("empty", b"", "seed1-x.json:1: not valid JSON"),
    ("nested 100,000 deep", DEEP.encode(), "seed1-x.json: nested too deep"),
    ("an array", b"[]", "seed1-x.json: not a tally-audit-v1 file"),
    ("judgments a string", b'{"format": "tally-audit-v1", "auditor": "a", "judgments": "x"}', "`judgments` must be a list"),
    ("a judgment without its model", b'{"format": "tally-audit-v1", "auditor": "a", "judgments": [{"run": "r"}]}',
     "judgment 1: model must be a string, not None"),
    ("simulated a string", b'{"format": "tally-audit-v1", "auditor": "a", "simulated": "yes", "judgments": []}',
     "simulated must be true or false"),
    ("auditor missing", b'{"format": "tally-audit-v1", "judgments": []}', "auditor must be a string, not None"),
]


@pytest.mark.parametrize("what, data, fragment", STORED_CASES, ids=[c[0] for c in STORED_CASES])
def test_malformed_stored_audits_are_one_clear_error(tmp_path, what, data, fragment):
    folder = tmp_path / "content/audits/demo"
    folder.mkdir(parents=True)
    (folder / "seed1-x.json").write_bytes(data)
    with pytest.raises(AuditError) as info:
        load_audits(tmp_path, "demo")
    assert info.value.exit_code == 2 and fragment in str(info.value) and len(str(info.value)) < 1000


def test_one_guard_keeps_workspaces_outside_the_project_and_follows_no_link(workspace, tmp_path):
    """The audit workspace and the label sheets share one guard (generator/private_workspace.py)."""
    from generator.audit import sample as audit_sample
    from generator.labels import sheet, worksheet
    from generator.private_workspace import write_private

    assert audit_sample.write_private is write_private is sheet.write_private is worksheet.write_private
    root, _ = workspace
    with pytest.raises(AuditError, match="keep it outside the project"):
        write_private({"a.csv": "x"}, root / "ws", root, "the audit workspace", AuditError)
    out = tmp_path / "ws"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    (out / "a.csv").symlink_to(victim)
    with pytest.raises(AuditError, match="a symbolic link"):
        write_private({"a.csv": "x"}, out, root, "the audit workspace", AuditError)
    assert victim.read_text() == "keep" and not (root / "ws").exists()


def test_an_audits_folder_that_is_a_link_out_is_not_written_through(workspace, tmp_path):
    root, sample = workspace
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "content" / "audits").symlink_to(elsewhere)
    try:
        path = tmp_path / "judged.json"
        path.write_text(json.dumps(judged(sample)))
        result = tally("audit", "record", path, "--root", root)
        # refused by whichever check meets the link first: the inputs' (content/ is read from real folders
        # only) or the audit writer's own
        assert result.exit_code == 2 and "is a symbolic link" in result.output
        assert list(elsewhere.iterdir()) == []
    finally:
        (root / "content" / "audits").unlink()
