"""No single reply stops a rescore ("Reading a reply", rule 9, content/pages/methodology.md): hostile numbers
in LedgerShield and RA-Bench replies through `tally rescore` with both scorers; a reply a suite's scorer
cannot handle (a suite method forced to raise, in both scorers) is that reply's unparseable with a
warning naming file and line; a failure of scorer B itself has exit status 5 and names run, file and
line."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import EXIT_SCORER_B_FAILED
from tests.conftest import chat_record, run_meta, write_jsonl
from tests.site_support import missing_node

ROOT = Path(__file__).resolve().parents[1]
EXP20 = "1e99999999999999999999"
needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


def tally(*args: str):
    return CliRunner().invoke(main, list(args))


def _suite_copy(tmp_path: Path, suite: str, items: str) -> Path:
    root = tmp_path / "project"
    (root / "content" / "suites" / suite / "items").mkdir(parents=True)
    shutil.copyfile(ROOT / "content" / "suites" / suite / "suite.toml", root / "content" / "suites" / suite / "suite.toml")
    shutil.copyfile(ROOT / "content" / "suites" / suite / "items" / items,
                    root / "content" / "suites" / suite / "items" / items)
    if (ROOT / "content" / "suites" / suite / "items" / "pages").is_dir():  # the items' page images
        shutil.copytree(ROOT / "content" / "suites" / suite / "items" / "pages",
                        root / "content" / "suites" / suite / "items" / "pages")
    return root


def _add_run(root: Path, suite: str, run_id: str, records: list[dict]) -> Path:
    d = root / "results" / suite / run_id
    d.mkdir(parents=True)
    (d / "run.json").write_text(json.dumps(run_meta(run_id, suite=suite)), encoding="utf-8")
    write_jsonl(d / "responses.jsonl", records)
    return d


def _vector_content(suite: str, case_id: str) -> tuple[str, str]:
    doc = json.loads((ROOT / "tests" / "vectors" / f"{suite}.json").read_text(encoding="utf-8"))
    case = next(c for c in doc["cases"] if c["id"] == case_id)
    return case["item"]["id"], case["record"]["response"]["choices"][0]["message"]["content"]


@needs_node
def test_ledgershield_twenty_digit_exponents_and_an_out_of_range_confidence_are_scored(tmp_path):
    root = _suite_copy(tmp_path, "ledgershield", "curated.public.jsonl")
    item, content = _vector_content("ledgershield", "TLY-A-001:careful")
    assert '"confidence": 0.95' in content
    unread = content.replace('{"case_id"', '{"zz": ' + EXP20 + ', "case_id"', 1)
    confidence = content.replace('"confidence": 0.95', '"confidence": ' + EXP20)
    deep = content.replace('{"case_id"', '{"zz": ' + "[" * 3000 + "]" * 3000 + ', "case_id"', 1)
    _add_run(root, "ledgershield", "hostile", [chat_record(item, unread, 0), chat_record(item, confidence, 1),
                                               chat_record(item, deep, 2)])
    done = tally("rescore", "--root", str(root), "-q", "-j", "1", "--no-cache")
    assert done.exit_code == 0, done.output + done.stderr
    rows = (root / "build" / "rescore" / "ledgershield" / "verdicts.csv").read_text(encoding="utf-8").splitlines()
    calibration = [(c[2], c[5], c[8]) for r in rows if (c := r.split(","))[1] == item and c[3] == "dim:calibration"]
    # 0.95 on a right PAY (calibration is LedgerShield's proper score, rule page section 4): p_safe = 0.95 and the
    # other 0.05 spread over the eleven risky hypotheses by the posterior (near evenly: nothing risky observed), so
    # Brier B = 1 - 0.05^2 - sum p_h^2 ~ 0.99727, log part 1 + log10(1/0.95)/9 ~ 1.00248, penalized = B:
    # 0.7 B + 0.3 x 1.00248 ~ 0.9988 = 9988 basis points; a confidence with no value: 0; nested too deep
    assert calibration == [("0", "wrong", "9988"), ("1", "wrong", "0"), ("2", "unparseable", "")]


@needs_node
def test_ra_bench_out_of_range_risk_is_no_risk(tmp_path):
    root = _suite_copy(tmp_path, "ra-bench", "receipts.public.jsonl")
    first = json.loads((root / "content/suites/ra-bench/items/receipts.public.jsonl").read_text().splitlines()[0])
    answer = '{"fields": {}, "risk": ' + EXP20 + ', "zz": ' + EXP20 + "}"
    _add_run(root, "ra-bench", "hostile", [chat_record(first["id"], answer, 0)])
    done = tally("rescore", "--root", str(root), "-q", "-j", "1", "--no-cache")
    assert done.exit_code == 0, done.output + done.stderr
    rows = (root / "build" / "rescore" / "ra-bench" / "verdicts.csv").read_text(encoding="utf-8").splitlines()
    (decision,) = [c for r in rows if (c := r.split(","))[1] == first["id"] and c[3] == "decision"]
    assert decision[5] == ("missed" if first["label"]["fake"] else "cleared") and decision[8] == ""  # no risk
    assert json.loads((root / "build/rescore/ra-bench/agreement.json").read_text())["status"] == "agree"


def _scaffold(tmp_path: Path) -> tuple[Path, Path, Path]:
    root = tmp_path / "fresh"
    root.mkdir()
    made = tally("suite", "new", "demo", "--root", str(root))
    assert made.exit_code == 0, made.output
    plugin = next(p for p in (root / "plugins").rglob("__init__.py"))
    script = next(p for p in (root / "plugins").rglob("scorer.js"))
    return root, plugin, script


def _demo_run(root: Path, contents: dict[str, str]) -> Path:
    items = [json.loads(line) for line in next((root / "content" / "suites" / "demo" / "items").glob("*.jsonl"))
             .read_text(encoding="utf-8").splitlines() if line.strip()]
    shutil.rmtree(root / "results" / "demo")
    records = [chat_record(i["id"], contents.get(i["id"], json.dumps(i["expected"]))) for i in items]
    return _add_run(root, "demo", "forced", records)


@needs_node
def test_a_reply_the_suite_cannot_handle_is_unparseable_with_a_warning_in_both_scorers(tmp_path):
    root, plugin, script = _scaffold(tmp_path)
    text = plugin.read_text(encoding="utf-8")
    marker = "        answer = outcome.answer or {}\n"
    assert marker in text
    plugin.write_text(text.replace(marker, marker + '        if "boom" in answer:\n'
                                              '            raise RuntimeError("forced failure")\n'), encoding="utf-8")
    js = script.read_text(encoding="utf-8")
    marker_js = "    return keys.map(function (k) {\n      var got"
    assert marker_js in js
    script.write_text(js.replace(marker_js, "    if (C.hasOwn(answer, 'boom')) throw new Error('forced failure');\n"
                                 + marker_js), encoding="utf-8")
    run = _demo_run(root, {"demo-1": '{"boom": 1}'})
    done = tally("rescore", "--root", str(root), "-q", "-j", "1", "--no-cache")
    assert done.exit_code == 0, done.output + done.stderr
    where = "results/demo/forced/responses.jsonl:1"
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert any(where in w and "forced failure" in w and "scorer B" not in w for w in warnings), warnings  # scorer A
    assert any(where in w and "forced failure" in w and "scorer B" in w for w in warnings), warnings  # scorer B
    rows = (root / "build" / "rescore" / "demo" / "verdicts.csv").read_text(encoding="utf-8").splitlines()
    assert {r.split(",")[5] for r in rows if r.split(",")[1] == "demo-1"} == {"unparseable"}
    agreement = json.loads((root / "build" / "rescore" / "demo" / "agreement.json").read_text())
    assert agreement["status"] == "agree"
    assert run.is_dir()


@needs_node
def test_a_failure_of_scorer_b_has_its_own_exit_status_and_names_run_file_and_line(tmp_path):
    root, _plugin, script = _scaffold(tmp_path)
    js = script.read_text(encoding="utf-8")
    marker_js = "  function scoreItem(item, record, run, repeat) {\n"
    script.write_text(js.replace(marker_js, marker_js + "    if (item.id === 'demo-1') throw new Error('broken script');\n"),
                      encoding="utf-8")
    _demo_run(root, {})
    done = tally("rescore", "--root", str(root), "-q", "-j", "1", "--no-cache")
    assert done.exit_code == EXIT_SCORER_B_FAILED == 5, done.output + done.stderr
    said = done.output + done.stderr
    assert re.search(r"results/demo/forced/responses\.jsonl:1: scorer B failed on run 'forced'.*broken script", said), said
    assert "Node.js is missing" not in said


def test_a_huge_bounding_box_number_is_decided_fast_and_by_the_bounded_rule():
    """LedgerShield's evidence IoU (rule page, section 4): a coordinate counts when it is 0 or has at most
    30 significant digits with its first at 10^-9..10^9; otherwise the array is not a box (IoU 0). So a
    coordinate of 1e999999 (or a tiny 1e-999999) never becomes a rational of a million digits."""
    import time
    from decimal import Decimal
    from fractions import Fraction

    from generator.suites.ledgershield.grading import box_coordinate, box_iou, target_score

    assert box_coordinate(Decimal("0")) == 0 and box_coordinate(Decimal("1e9")) == 10**9
    assert box_coordinate(Decimal("9.99e9")) == Fraction(999, 100) * 10**9
    assert box_coordinate(Decimal("1e10")) is None and box_coordinate(Decimal("1e-10")) is None
    assert box_coordinate(Decimal("1e-9")) == Fraction(1, 10**9)
    assert box_coordinate(Decimal("1." + "0" * 28 + "1")) is not None  # 30 significant digits
    assert box_coordinate(Decimal("1." + "0" * 29 + "1")) is None  # 31
    assert box_coordinate(Decimal("12.5000000000000000000000000000000000")) == Fraction(25, 2)  # trailing zeros
    assert box_coordinate(10**10) is None and box_coordinate(True) is None
    assert box_iou([0, 0, 10, 10], [5, 0, 15, 10]) == Fraction(50, 150)
    target = {"doc_id": "d", "page": 1, "token_ids": [], "bbox": [10, 10, 20, 20]}
    start = time.monotonic()
    for bbox in (["0", "0", "1e999999", "1e999999"], ["10", "10", "20", "1e999999"], ["-1e999999", "9", "20", "20"],
                 ["10", "10", "20", "1.2345e-999999"]):
        # doc_id and page right (35 + 15 hundredths), no box, no tokens
        assert target_score({"doc_id": "d", "page": 1, "bbox": [Decimal(x) for x in bbox]}, target) == Fraction(1, 2)
    assert time.monotonic() - start < 5


@needs_node
def test_scorer_b_stopping_mid_run_has_exit_status_5_and_names_the_run(tmp_path):
    root, _plugin, script = _scaffold(tmp_path)
    js = script.read_text(encoding="utf-8")
    marker_js = "  function scoreItem(item, record, run, repeat) {\n"
    script.write_text(js.replace(marker_js, marker_js + "    if (run === 'forced') process.exit(9);\n"), encoding="utf-8")
    _demo_run(root, {})
    done = tally("rescore", "--root", str(root), "-q", "-j", "1", "--no-cache")
    assert done.exit_code == 5, done.output + done.stderr
    said = done.output + done.stderr
    assert "results/demo/forced/responses.jsonl: scorer B stopped on suite demo (exit status 9) while reading run 'forced'" \
        in said, said
