"""Hostile and malformed label files on a copy of the example project: recording merges into a
labeller's files (never replaces them), a forged sample.json writes nothing outside the project, and
every malformed labels.toml, label file, flagged list, sample.json, worksheet or adjudication sheet is
one clear error naming the file (exit status 2, no traceback, nothing written)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

REPO = Path(__file__).resolve().parents[1]
SUITE = "extracting"
LABELS = Path("content/suites/extracting/labels")
SECOND = "second-labeller-sim"
HUGE = "x" * 10_000_000
DEEP = "[" * 100_000


def tally(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """One copy of the example's content (no results: the labels commands need the items only)."""
    root = tmp_path_factory.mktemp("example") / "proj"
    root.mkdir()
    shutil.copytree(REPO / "content", root / "content")
    shutil.copy(REPO / "tally.toml", root / "tally.toml")
    shutil.copytree(REPO / "plugins", root / "plugins")  # the plugin folders tally.toml names
    return root


@pytest.fixture()
def example(pristine, tmp_path) -> Path:
    """A copy of the example project for one test, inside a folder of its own (to see writes outside)."""
    root = tmp_path / "proj"
    root.mkdir()
    # items and pages hard-linked (no test writes them), the labels folder copied
    shutil.copytree(pristine / "content", root / "content", copy_function=os.link,
                    ignore=lambda d, names: ["labels"] if d.endswith("extracting") else [])
    shutil.copytree(pristine / LABELS, root / LABELS)
    shutil.copy(pristine / "tally.toml", root / "tally.toml")
    shutil.copytree(pristine / "plugins", root / "plugins", copy_function=os.link)
    return root


def snapshot(base: Path) -> dict[str, object]:
    """Every file under `base`: the SHA-256 of small ones, size, time and inode of the others (a
    command may change none of them)."""
    out: dict[str, object] = {}
    for p in sorted(base.rglob("*")):
        if p.is_file():
            st = p.stat()
            small = st.st_size < 1_000_000
            out[p.relative_to(base).as_posix()] = (hashlib.sha256(p.read_bytes()).hexdigest() if small else None,
                                                   st.st_size, st.st_mtime_ns, st.st_ino)
    return out


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def worksheet(rows: list[dict]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=["item", "dataset", "half", "field", "type", "answer", "document"],
                       lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


def _request(root: Path, dataset: str, half: str) -> dict:
    sample = json.loads((root / LABELS / "sample.json").read_text(encoding="utf-8"))
    return next(r for r in sample["requests"] if (r["dataset"], r["half"]) == (dataset, half))


def test_recording_merges_answers_into_the_second_labellers_files(example, tmp_path):
    """The attack of the review: a worksheet with one answer replaced a 13-line file by one line."""
    path = example / LABELS / SECOND / "govforms.public.jsonl"
    before = lines(path)
    assert len(before) == 13
    r = _request(example, "govforms", "public")
    old = next(row for row in before if row["item"] == r["item"])["fields"][r["field"]]
    others = {p: p.read_bytes() for p in (example / LABELS / SECOND).glob("*.jsonl") if p != path}
    sheet = tmp_path / "filled.csv"
    sheet.write_text(worksheet([{**r, "answer": json.dumps("a corrected answer"), "document": ""}]), encoding="utf-8")
    result = tally("labels", "record", SUITE, sheet, "--root", example)
    assert result.exit_code == 0, result.output
    after = lines(path)
    assert len(after) == 13  # merged, not replaced
    changed = [(b, a) for b, a in zip(before, after) if b != a]
    assert len(changed) == 1 and changed[0][1]["fields"][r["field"]] == "a corrected answer"
    assert {k: v for k, v in changed[0][1]["fields"].items() if k != r["field"]} == \
        {k: v for k, v in changed[0][0]["fields"].items() if k != r["field"]}
    assert {p: p.read_bytes() for p in others} == others  # the other files are not touched
    assert f"changed {r['item']} {r['field']}: {json.dumps(old)} -> \"a corrected answer\"" in result.output
    assert "0 answer(s) added, 1 changed, 0 the same as recorded" in result.output

    # an answer the second labeller has not given yet is added; one recorded again unchanged is said so
    field = next(f for f in sorted(after[0]["fields"]) if (after[0]["item"], f) != (r["item"], r["field"]))
    gone = dict(after[0], fields={k: v for k, v in after[0]["fields"].items() if k != field})
    path.write_text("".join(json.dumps(x) + "\n" for x in [gone, *after[1:]]), encoding="utf-8")
    again = [{**r, "answer": json.dumps("a corrected answer"), "document": ""},
             {"item": after[0]["item"], "field": field, "answer": json.dumps(after[0]["fields"][field]),
              "dataset": "govforms", "half": "public", "type": "text", "document": ""}]
    sheet.write_text(worksheet(again), encoding="utf-8")
    result = tally("labels", "record", SUITE, sheet, "--root", example)
    assert result.exit_code == 0, result.output
    assert "1 answer(s) added, 0 changed, 1 the same as recorded" in result.output
    assert lines(path)[0] == after[0] and len(lines(path)) == 13


def test_a_forged_sample_writes_nothing_outside_the_project(example, tmp_path):
    """sample.json is content of the project (a clone's file): its dataset becomes a file name."""
    sample_path = example / LABELS / "sample.json"
    sample = json.loads(sample_path.read_text(encoding="utf-8"))
    escape = "../../../../../../escape"  # labels/<second>/ and six levels up: the test's folder
    sample["requests"][0]["dataset"] = escape
    sample_path.write_text(json.dumps(sample), encoding="utf-8")
    r = sample["requests"][0]
    sheet = tmp_path / "filled.csv"
    sheet.write_text(worksheet([{**r, "answer": '"x"', "document": ""}]), encoding="utf-8")
    outside, inside = snapshot(tmp_path), snapshot(example)
    result = tally("labels", "record", SUITE, sheet, "--root", example)
    assert result.exit_code == 2, result.output
    assert "sample.json: request 1: dataset '../../../../../../escape' is not a safe identifier" in result.output
    assert not (tmp_path / "escape.public.jsonl").exists() and not (tmp_path / "escape.private.jsonl").exists()
    assert snapshot(tmp_path) == outside and snapshot(example) == inside


@pytest.mark.parametrize("linked", [LABELS / SECOND, LABELS])
def test_a_label_folder_that_is_a_link_out_is_not_written_through(example, tmp_path, linked):
    elsewhere = tmp_path / "elsewhere"
    shutil.move(example / linked, elsewhere)
    (example / linked).symlink_to(elsewhere)
    r = _request(example, "govforms", "public")
    sheet = tmp_path / "filled.csv"
    sheet.write_text(worksheet([{**r, "answer": '"x"', "document": ""}]), encoding="utf-8")
    before = snapshot(elsewhere)
    result = tally("labels", "record", SUITE, sheet, "--root", example)
    assert result.exit_code == 2 and "symbolic link" in result.output, result.output
    assert snapshot(elsewhere) == before


def _set(rel: str, data: bytes | str):
    def change(root: Path) -> None:
        path = root / LABELS / rel
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return change


def _line(rel: str, data: str):
    """Replace the first line of a label file."""
    def change(root: Path) -> None:
        path = root / LABELS / rel
        rest = path.read_text(encoding="utf-8").splitlines()[1:]
        path.write_text("\n".join([data, *rest]) + "\n", encoding="utf-8")
    return change


CONFIG = 'first = "published-and-rules"\nsecond = "second-labeller-sim"\nadjudicator = "adjudicator-sim"\n'

# (what is broken, how, the message's file and words); each read by `tally labels report`
REPORT_CASES = [
    ("labels.toml not UTF-8", _set("labels.toml", CONFIG.encode() + b"note = \"\xff\xfe\"\n"),
     "labels.toml:4: not UTF-8 text"),
    ("labels.toml nested 100,000 deep", _set("labels.toml", CONFIG + "x = " + DEEP + "\n"), "labels.toml: not valid TOML"),
    ("labels.toml first is a number", _set("labels.toml", CONFIG.replace('"published-and-rules"', "3")),
     "labels.toml: `first` (a labeller's name, a folder) must be a string"),
    ("labels.toml empty", _set("labels.toml", ""), "labels.toml: `first` (a labeller's name, a folder) must be a string"),
    ("labels.toml seed is a string", _set("labels.toml", CONFIG + 'seed = "7"\n'), "labels.toml: `seed` must be an integer"),
    ("labels.toml huge note", _set("labels.toml", CONFIG + f'note = "{HUGE}"\n'), "labels.toml: 10,000"),
    ("label line: fields a string", _line(f"{SECOND}/govforms.public.jsonl", '{"item": "x", "fields": "x"}'),
     f"{SECOND}/govforms.public.jsonl:1: a label line is"),
    ("label line: an array", _line(f"{SECOND}/govforms.public.jsonl", "[1, 2]"),
     f"{SECOND}/govforms.public.jsonl:1: a label line is"),
    ("label line: null", _line(f"{SECOND}/govforms.public.jsonl", "null"), "govforms.public.jsonl:1: a label line is"),
    ("label line: truncated", _line(f"{SECOND}/govforms.public.jsonl", '{"item": "govforms-pub-0001", "fie'),
     "govforms.public.jsonl:1: not valid JSON"),
    ("label line: duplicate key", _line(f"{SECOND}/govforms.public.jsonl",
                                        '{"item": "a", "item": "b", "fields": {}}'),
     "govforms.public.jsonl:1: not valid JSON: the key 'item' appears twice"),
    ("label line: nested 100,000 deep", _line(f"{SECOND}/govforms.public.jsonl", DEEP), "govforms.public.jsonl:1: "),
    ("label line: a 10 MB answer", _line(f"{SECOND}/govforms.public.jsonl",
                                         json.dumps({"item": "govforms-pub-0001", "fields": {"name": HUGE}})),
     "govforms.public.jsonl:1: the answer of 'name' is 10,000,002 characters"),
    ("label line: item id a path", _line(f"{SECOND}/govforms.public.jsonl", '{"item": "../x", "fields": {}}'),
     "govforms.public.jsonl:1: item '../x' is not a safe identifier"),
    ("label file not UTF-8", _set(f"{SECOND}/govforms.public.jsonl", b'{"item": "\xc3\x28", "fields": {}}\n'),
     "govforms.public.jsonl:1: not UTF-8 text"),
    ("label file empty", _set(f"{SECOND}/govforms.public.jsonl", b""), None),  # allowed: no labels yet
    ("an answer holding U+2028", _line(f"{SECOND}/govforms.public.jsonl", json.dumps(
        {"item": "govforms-pub-nws-0001", "fields": {"damage_estimate": "a\u2028b"}}, ensure_ascii=False)), None),
    ("flagged: reasons a number", _line("published-and-rules/flagged.jsonl",
                                        '{"dataset": "receipts", "origin": "o", "reasons": 5}'),
     "flagged.jsonl:1: `reasons` must be a list of texts"),
    ("flagged: missing dataset", _line("published-and-rules/flagged.jsonl", '{"origin": "o", "reasons": []}'),
     "flagged.jsonl:1: a flagged line is"),
    ("sample.json: requests a string", lambda root: _edit_sample(root, requests="x"),
     "sample.json: `requests` must be a list"),
    ("sample.json: a request a number", lambda root: _edit_sample(root, requests=[5]), "sample.json: request 1: a request is"),
    ("sample.json: a request without its half", lambda root: _edit_sample(root, drop="half"), "sample.json: request 1: a request is"),
    ("sample.json: documents null", lambda root: _edit_sample(root, documents=None), "sample.json: `documents` must be an object"),
    ("sample.json empty", _set("sample.json", b""), "sample.json:1: not valid JSON"),
    ("sample.json an array", _set("sample.json", "[]"), "sample.json: not a tally-label-sample-v1 file"),
    ("sample.json nested 100,000 deep", _set("sample.json", DEEP), "sample.json: nested too deep"),
    ("sample.json not UTF-8", _set("sample.json", b"\xff{}"), "sample.json:1: not UTF-8 text"),
    ("sample.json truncated", lambda root: _truncate(root / LABELS / "sample.json"), "sample.json:"),
]


def _edit_sample(root: Path, drop: str | None = None, **values) -> None:
    path = root / LABELS / "sample.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    if drop:
        del doc["requests"][0][drop]
    doc |= values
    path.write_text(json.dumps(doc), encoding="utf-8")


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:1000])


def _refused(result, fragment: str, before: dict, root: Path) -> None:
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # an error, not a crash
    assert "Traceback" not in result.output and fragment in result.output, result.output
    assert len(result.output) < 2000  # one clear error, not a 10 MB echo
    assert snapshot(root) == before


@pytest.mark.parametrize("what, change, fragment", REPORT_CASES, ids=[c[0] for c in REPORT_CASES])
def test_malformed_label_files_are_one_clear_error(example, what, change, fragment):
    change(example)
    before = snapshot(example)
    result = tally("labels", "report", SUITE, "--json", "--root", example)
    if fragment is None:
        assert result.exit_code in (0, 1) and isinstance(result.exception, (SystemExit, type(None))), result.output
        return
    _refused(result, fragment, before, example)


WORKSHEET = "item,dataset,half,field,type,answer,document\n"

# (what is broken, the worksheet's bytes (None: from the request), the message's words)
WORKSHEET_CASES = [
    ("not UTF-8", WORKSHEET.encode() + b"a,b,c,d,e,\"\xff\",f\n", ":2: not UTF-8 text"),
    ("empty", b"", ": empty: the header row"),
    ("no answer column", b"item,field\nx,y\n", ":1: the header must name each of item, field, answer once"),
    ("a 10 MB answer", "answer:" + json.dumps(HUGE), ":2: not a readable CSV row"),
    ("an answer nested 100,000 deep", "answer:" + DEEP, ":2: nested too deep"),
    ("a truncated answer", 'answer:{"a": ', ":2: not valid JSON"),
    ("an answer with a duplicate key", 'answer:{"a": 1, "a": 2}', ":2: not valid JSON: the key 'a' appears twice"),
    ("a NaN answer", "answer:NaN", ":2: not valid JSON: NaN is not a JSON number"),
    ("a field not requested", "field:cashier", "was not requested"),
    ("one field answered twice", "twice", "is answered twice (lines 2 and 3)"),
    ("more cells than the header", "extra", ":2: 8 cells, more than the header's 7"),
]


def _worksheet(root: Path, spec: bytes | str) -> bytes:
    if isinstance(spec, bytes):
        return spec
    r = _request(root, "govforms", "public")
    row = {**r, "answer": '"x"', "document": ""}
    if spec == "twice":
        return worksheet([row, row]).encode()
    if spec == "extra":
        return (worksheet([row]).rstrip("\n") + ",more\n").encode()
    key, value = spec.split(":", 1)
    return worksheet([{**row, key: value}]).encode()


@pytest.mark.parametrize("what, spec, fragment", WORKSHEET_CASES, ids=[c[0] for c in WORKSHEET_CASES])
def test_malformed_worksheets_are_one_clear_error(example, tmp_path, what, spec, fragment):
    sheet = tmp_path / "filled.csv"
    sheet.write_bytes(_worksheet(example, spec))
    before = snapshot(example)
    result = tally("labels", "record", SUITE, sheet, "--root", example)
    _refused(result, fragment, before, example)
    assert "filled.csv" in result.output


ADJUDICATION = "case,item,dataset,field,type,answer_1,answer_2,decision,other,note,document\n"
ADJUDICATION_CASES = [
    ("not UTF-8", ADJUDICATION.encode() + b"c1,\xff\n", ":2: not UTF-8 text"),
    ("empty", b"", ": empty: the header row"),
    ("no decision column", b"item,field\n", ":1: the header must name each of"),
    ("a 10 MB cell", (ADJUDICATION + "c1,x,d,f,t,1,2,1,," + HUGE + ",\n").encode(), ":2: not a readable CSV row"),
    ("a case that is not open", (ADJUDICATION + "c1,x,d,f,t,1,2,1,,,\n").encode(), "line 2: x f is not an unsettled"),
]


@pytest.mark.parametrize("what, data, fragment", ADJUDICATION_CASES, ids=[c[0] for c in ADJUDICATION_CASES])
def test_malformed_adjudication_sheets_are_one_clear_error(example, tmp_path, what, data, fragment):
    sheet = tmp_path / "adjudication.csv"
    sheet.write_bytes(data)
    before = snapshot(example)
    result = tally("labels", "adjudicate", SUITE, sheet, "--root", example)
    _refused(result, fragment, before, example)
    assert "adjudication.csv" in result.output


def _reopen(root: Path) -> tuple[Path, list[dict], dict]:
    """Take back the adjudicator's first decision: that disagreement is open again."""
    path = root / LABELS / "adjudicator-sim" / "govforms.public.jsonl"
    rows = lines(path)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows[1:]), encoding="utf-8")
    item, field = rows[0]["item"], next(iter(rows[0]["fields"]))
    answers = [next(r for r in lines(root / LABELS / who / "govforms.public.jsonl") if r["item"] == item)["fields"][field]
               for who in ("published-and-rules", SECOND)]
    case = {"case": "c0001", "item": item, "dataset": "govforms", "field": field, "type": "text",
            "answer_1": json.dumps(answers[0]), "answer_2": json.dumps(answers[1]), "decision": "", "other": "",
            "note": "", "document": ""}
    return path, rows, case


def _sheet(rows: list[dict]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


@pytest.mark.parametrize("other, fragment", [(DEEP, "nested too deep"), ('{"a": ', "not valid JSON"),
                                             ('{"a": 1, "a": 2}', "the key 'a' appears twice"),
                                             (json.dumps(HUGE[:200_000]), "200,002 characters, more than 100,000")])
def test_a_malformed_decision_is_refused_and_nothing_recorded(example, tmp_path, other, fragment):
    _, _, case = _reopen(example)
    sheet = tmp_path / "adjudication.csv"
    sheet.write_text(_sheet([case | {"other": other}]), encoding="utf-8")
    before = snapshot(example)
    result = tally("labels", "adjudicate", SUITE, sheet, "--root", example)
    _refused(result, "line 2: `other` must be an answer written as JSON", before, example)
    assert fragment in result.output


def test_a_decision_is_merged_into_the_adjudicators_files(example, tmp_path):
    path, rows, case = _reopen(example)
    sheet = tmp_path / "adjudication.csv"
    sheet.write_text(_sheet([case | {"decision": "2"}]), encoding="utf-8")
    result = tally("labels", "adjudicate", SUITE, sheet, "--root", example)
    assert result.exit_code == 0, result.output
    assert "1 answer(s) added, 0 changed" in result.output
    after = lines(path)
    assert len(after) == len(rows) and after[1:] == rows[1:]  # the other decisions are kept
    assert after[0] == {"item": case["item"], "fields": {case["field"]: json.loads(case["answer_2"])}}
