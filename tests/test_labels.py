"""Label agreement: canonical answers, Cohen's kappa against scikit-learn and by hand, the second
labeller's sample, the blind adjudication sheet and its decisions, the adjudicated answer used for
scoring, and the example's labels."""

from __future__ import annotations

import csv
import io
import json
import math
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from generator.cli import main
from generator.labels.agreement import canon, kappa, summary
from generator.labels.files import LabelConfig, Labels
from generator.labels.sample import draw
from tests.site_support import make_project

REPO = Path(__file__).resolve().parents[1]


def tally(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_canonical_answers():
    assert canon("65.7", "money") == canon("65.70", "money") == canon("65.700", "money")
    assert canon("1,234.50", "money") == canon("1234.5", "money")
    assert canon("65.7", "money") != canon("65.71", "money")
    assert canon("  Restoran  WAN\tSheng ", "text") == canon("restoran wan sheng", "text")
    assert canon(None) != canon("") and canon(None) == canon(None)
    assert canon([{"amount": "3.0", "description": "Tea"}], "list") == canon([{"amount": "3.00", "description": "TEA"}], "list")


# A hand-made 2 x 2 table: first labeller rows, second labeller columns.
#               second: yes  no
# first: yes            20    5
# first: no             10   15
# observed agreement po = 35/50 = 0.7; chance pe = (25/50)(30/50) + (25/50)(20/50) = 0.5; kappa = 0.2/0.5 = 0.4
TABLE = {("yes", "yes"): 20, ("yes", "no"): 5, ("no", "yes"): 10, ("no", "no"): 15}


def _table_labels() -> tuple[list[str], list[str]]:
    a, b = [], []
    for (x, y), n in TABLE.items():
        a += [x] * n
        b += [y] * n
    return a, b


def test_kappa_equals_the_library_and_the_hand_computation():
    a, b = _table_labels()
    assert kappa(a, b) == pytest.approx(0.4, abs=1e-12)
    assert kappa(a, b) == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    assert kappa(["x"] * 5, ["x"] * 5) is None  # one category: undefined
    assert kappa(["x"] * 5, ["y"] * 5) == cohen_kappa_score(["x"] * 5, ["y"] * 5) == 0.0
    assert kappa([], []) is None


def _config(tmp_path: Path, share: float = 0.3) -> LabelConfig:
    return LabelConfig(tmp_path, "first", "second", "judge", share, 7, ("second", "judge"))


def test_summary_agreement_kappa_and_error_rate_from_label_files(tmp_path):
    """The hand-made table as 50 documents with one field each, every one in the random sample; the
    adjudicator overturns 3 of the 15 disagreements."""
    a, b = _table_labels()
    first, second, judge = Labels("first"), Labels("second"), Labels("judge")
    raw, requests = {}, []
    for k, (x, y) in enumerate(zip(a, b)):
        item = f"d{k:02d}"
        first.items[item] = second.items[item] = ("forms", "public")
        first.answers[(item, "answer")], second.answers[(item, "answer")] = x, y
        raw[item] = {"fields": [{"name": "answer", "type": "text", "kind": "printed", "answer": x}]}
        requests.append({"item": item, "dataset": "forms", "half": "public", "field": "answer", "type": "text",
                         "why": "sample"})
    disagreements = [r["item"] for r in requests if first.answers[(r["item"], "answer")] != second.answers[(r["item"], "answer")]]
    assert len(disagreements) == 15
    for n, item in enumerate(disagreements):
        judge.items[item] = ("forms", "public")
        judge.answers[(item, "answer")] = second.answers[(item, "answer")] if n < 3 else first.answers[(item, "answer")]
        if n < 3:
            raw[item]["fields"][0]["answer"] = second.answers[(item, "answer")]  # the item holds the adjudicated answer
    sample = {"documents": {"forms": sorted(raw)}, "requests": requests}
    s = summary(_config(tmp_path), sample, first, second, judge, [{"dataset": "forms", "origin": "x", "reasons": ["r"]}],
                raw, {"forms": "Forms"})
    t = s["types"][0]
    assert t["title"] == "Forms" and t["fields_compared"] == 50
    assert (t["agreement"]["k"], t["agreement"]["n"]) == (35, 50)
    assert t["kappa"] == pytest.approx(cohen_kappa_score(a, b)) and t["kappa"] == pytest.approx(0.4)
    assert (t["error_rate"]["k"], t["error_rate"]["n"]) == (3, 50)
    assert 0 < t["error_rate"]["low"] < 0.06 < t["error_rate"]["high"] < 0.2
    assert (t["flagged"]["k"], t["flagged"]["n"]) == (1, 51)
    assert s["mismatches"] == []
    # an item still holding the overturned first answer is reported: scoring must use the adjudicated one
    raw[disagreements[0]]["fields"][0]["answer"] = first.answers[(disagreements[0], "answer")]
    s = summary(_config(tmp_path), sample, first, second, judge, [], raw)
    assert len(s["mismatches"]) == 1 and disagreements[0] in s["mismatches"][0]
    raw["d00"] |= {"dataset": "forms", "half": "private"}  # labelled in the public file
    s = summary(_config(tmp_path), sample, first, second, judge, [], raw)
    assert len(s["mismatches"]) == 2 and "d00: in first's forms.public file but the item is of forms.private" in s["mismatches"]


def test_sample_draws_the_share_plus_every_missing_and_computed_field(tmp_path):
    first, raw = Labels("first"), {}
    for k in range(20):
        item = f"d{k:02d}"
        first.items[item] = ("forms", "public" if k % 2 else "private")
        fields = [{"name": "a", "type": "text", "kind": "printed", "answer": "x"},
                  {"name": "b", "type": "money", "kind": "missing", "answer": None},
                  {"name": "c", "type": "number", "kind": "computed", "answer": 3}]
        raw[item] = {"fields": fields}
        for f in fields:
            first.answers[(item, f["name"])] = f["answer"]
    doc = draw(_config(tmp_path), first, raw)
    assert doc == draw(_config(tmp_path), first, raw)  # seeded
    drawn = set(doc["documents"]["forms"])
    assert len(drawn) == math.ceil(0.3 * 20)
    got = {(r["item"], r["field"]): r["why"] for r in doc["requests"]}
    for item in raw:
        assert got.get((item, "a")) == ("sample" if item in drawn else None)
        assert got[(item, "b")] == ("sample" if item in drawn else "missing")
        assert got[(item, "c")] == ("sample" if item in drawn else "computed")
    assert all("answer" not in r and "first" not in r for r in doc["requests"])  # the second labeller sees no answer
    other = draw(LabelConfig(tmp_path, "first", "second", "judge", 0.3, 8), first, raw)
    assert set(other["documents"]["forms"]) != drawn


@pytest.fixture()
def mini(tmp_path) -> Path:
    """The site tests' fixture project with labels: the first labeller's answers are the items'."""
    root = make_project(tmp_path / "proj")
    suite = root / "content" / "suites" / "mini"
    (suite / "labels").mkdir()
    (suite / "labels" / "labels.toml").write_text('first = "ann"\nsecond = "bob"\nadjudicator = "cy"\nshare = 0.5\n'
                                                  'seed = 3\nsimulated = ["bob", "cy"]\n', encoding="utf-8")
    for path in sorted((suite / "items").glob("*.jsonl")):
        (suite / "labels" / "ann").mkdir(exist_ok=True)
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        (suite / "labels" / "ann" / path.name).write_text("".join(
            json.dumps({"item": r["id"], "fields": {f["name"]: f["answer"] for f in r["fields"]}}) + "\n" for r in rows),
            encoding="utf-8")
    (suite / "labels" / "ann" / "flagged.jsonl").write_text(
        json.dumps({"dataset": "receipts", "origin": "scan 17", "reasons": ["total <b>9.99</b> is not in the text"]}) + "\n",
        encoding="utf-8")
    return root


def test_sample_sheet_adjudicate_and_report_from_the_command_line(mini, tmp_path):
    folder = mini / "content" / "suites" / "mini" / "labels"
    assert tally("labels", "sample", "mini", "--out", mini / "ws", "--root", mini).exit_code != 0  # inside the project
    made = tally("labels", "sample", "mini", "--out", tmp_path / "ws", "--root", mini)
    assert made.exit_code == 0, made.output
    sample = json.loads((folder / "sample.json").read_text(encoding="utf-8"))
    requests = sample["requests"]
    assert {len(v) for v in sample["documents"].values()} == {2}  # half of each dataset's 4 documents
    # bob fills in the worksheet (it shows no answer); he reads one sampled total differently and misses one date
    ws = list(csv.DictReader(io.StringIO((tmp_path / "ws" / "second-labeller.csv").read_text(encoding="utf-8"))))
    assert [(w["item"], w["field"]) for w in ws] == [(r["item"], r["field"]) for r in requests]
    assert {w["answer"] for w in ws} == {""} and "Total 1,234.56" in ws[0]["document"]
    asked = [r for r in requests if r["why"] == "sample"]
    wrong_total = next(r for r in asked if r["field"] == "total")
    wrong_date = next(r for r in asked if r["field"] == "date" and r["item"] != wrong_total["item"])
    for w in ws:
        answer = {"total": "1234.56", "date": "2026-03-14", "tax_id": None}[w["field"]]
        if (w["item"], w["field"]) == (wrong_total["item"], "total"):
            answer = "1234.65"
        if (w["item"], w["field"]) == (wrong_date["item"], "date"):
            answer = None
        w["answer"] = json.dumps(answer)
    filled_ws = tmp_path / "ws-filled.csv"
    with filled_ws.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(ws[0]))
        writer.writeheader()
        writer.writerows(ws + [dict(ws[0], field="cashier", answer='"x"')])
    refused = tally("labels", "record", "mini", filled_ws, "--root", mini)
    assert refused.exit_code == 2 and "cashier was not requested" in refused.output
    with filled_ws.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(ws[0]))
        writer.writeheader()
        writer.writerows(ws)
    stored = tally("labels", "record", "mini", filled_ws, "--root", mini)
    assert stored.exit_code == 0, stored.output
    open_report = tally("labels", "report", "mini", "--root", mini)
    assert open_report.exit_code == 1 and "unsettled 2" in open_report.output

    assert tally("labels", "sheet", "mini", "--out", mini / "sheet", "--root", mini).exit_code != 0  # inside the project
    out = tmp_path / "private"
    sheet = tally("labels", "sheet", "mini", "--out", out, "--root", mini)
    assert sheet.exit_code == 0, sheet.output
    text = (out / "adjudication.csv").read_text(encoding="utf-8")
    page = (out / "adjudication.html").read_text(encoding="utf-8")
    for name in ("ann", "bob", "cy"):
        assert name not in {cell for row in csv.reader(io.StringIO(text)) for cell in row} and name not in page
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {(r["item"], r["field"]) for r in rows} == {(wrong_total["item"], "total"), (wrong_date["item"], "date")}
    # the judge sides with bob on the total (the first labeller overturned) and with ann on the date
    for r in rows:
        pick = "1234.65" if r["field"] == "total" else "2026-03-14"
        r["decision"] = "1" if json.loads(r["answer_1"]) == pick else "2"
    filled = tmp_path / "filled.csv"
    with filled.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    recorded = tally("labels", "adjudicate", "mini", filled, "--root", mini)
    assert recorded.exit_code == 0, recorded.output
    again = tally("labels", "adjudicate", "mini", filled, "--root", mini)
    assert again.exit_code == 2 and "not an unsettled disagreement" in again.output

    report = tally("labels", "report", "mini", "--json", "--root", mini)
    s = json.loads(report.output)
    assert report.exit_code == 1  # the item still holds the overturned answer
    assert s["mismatches"] == [f"{wrong_total['item']} total: the item's checked answer \"1234.56\" is not the labels' \"1234.65\""]
    receipts_or_invoices = {t["dataset"]: t for t in s["types"]}[wrong_total["dataset"]]
    assert receipts_or_invoices["error_rate"]["k"] == 1 and receipts_or_invoices["unsettled"] == 0
    assert {r["outcome"] for r in s["items"][wrong_date["item"]]} >= {"upheld"}

    from tests.site_support import build

    build(mini, mini / "site")
    suite_page = (mini / "site" / "suites" / "mini" / "index.html").read_text(encoding="utf-8")
    assert 'id="label-agreement"' in suite_page and "Example data: bob and cy are simulated" in suite_page
    assert "Checked answers that are not the labels' (adjudicated) answer: " + wrong_total["item"] in suite_page
    assert "1 document left out: its first labels failed a machine check" in suite_page
    assert "scan 17: total &lt;b&gt;9.99&lt;/b&gt; is not in the text" in suite_page
    public = wrong_total["item"] if wrong_total["half"] == "public" else wrong_date["item"]
    item_page = (mini / "site" / "suites" / "mini" / "items" / f"{public}.html").read_text(encoding="utf-8")
    assert 'id="label-check"' in item_page and "adjudicated: the first labeller" in item_page


@pytest.mark.slow
def test_the_example_labels_reproduce_and_agree_with_the_items(tmp_path):
    from generator.example.build import generate_corpus_files

    generate_corpus_files(tmp_path)
    mine, theirs = tmp_path / "content/suites/extracting/labels", REPO / "content/suites/extracting/labels"
    names = sorted(p.relative_to(theirs).as_posix() for p in theirs.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(mine).as_posix() for p in mine.rglob("*") if p.is_file())
    for name in names:
        assert (mine / name).read_bytes() == (theirs / name).read_bytes(), name
    report = tally("labels", "report", "extracting", "--json", "--root", REPO)
    assert report.exit_code == 0, report.output
    s = json.loads(report.output)
    assert s["simulated"] == ["second-labeller-sim", "adjudicator-sim"] and s["mismatches"] == []
    types = {t["dataset"]: t for t in s["types"]}
    assert set(types) == {"receipts", "tables", "govforms"}
    assert types["receipts"]["flagged"]["k"] == 3  # the SROIE receipts whose published labels failed a check
    assert all(0 < t["disagreements"] and t["agreement"]["estimate"] < 1 for t in types.values())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from("abcdef")), min_size=1, max_size=80))
def test_kappa_is_the_library_s_float_bit_for_bit(pairs):
    """Tally computes kappa itself (no scikit-learn at build time); scikit-learn is its reference."""
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    ours = kappa(first, second)
    if len(set(first) | set(second)) < 2:
        assert ours is None
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = float(cohen_kappa_score(first, second))
    assert (ours is None and math.isnan(theirs)) or ours == theirs
