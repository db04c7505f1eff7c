"""An attacker's test: no private answer can be read from what the example publishes.

The attacker reads `results/` (the sealed records), `content/audits/` and the built site, and tries the
recoveries that work on the earlier sealed formats: au-bas (transaction, fault) pairs and each ledger's
fault codes, RA-Bench totals and fake/genuine labels, LedgerShield gold decisions (pay or not),
CortifyBench finding patterns, extracting field values and fields the key leaves empty, and each private
document's length (`prompt_tokens`). Every attack must recover nothing from today's files; each is also
run on the same records turned back into format v2 (their box opened with the item, as sealing published
them before), where it must recover answers: so the attacks are real. The truth comes from the example's
private item files, which a real benchmark does not publish (docs/formats.md).
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pytest

from generator.sealed_record import ATTEMPT_FIELDS, opened
from generator.suites.aubas.ledger import FAULT_CODES
from generator.suites.ledgershield.scoring import FIGURES as LSB_FIGURES
from generator.suites.rabench import FIGURES as RAB_FIGURES
from tests.sealed_support import item_lines

ROOT = Path(__file__).resolve().parents[1]
# what a sealed record of format v3 shows in the clear: the call's figures, nothing per item
CLEAR = {"item", "repeat", "attempts", "latency_ms", "sealed", "outcome", "finish_reason", "refusal", "box"}
CORTIFY_PATTERNS = ("hueco_compras", "semana_atipica", "alza_precio", "compra_duplicada", "efectivo_sin_comprobante")


def _private_items(suite: str, root: Path = ROOT) -> dict[str, dict]:
    folder = root / "content" / "suites" / suite / "items"
    return {i["id"]: i for p in sorted(folder.glob("*.private.jsonl"))
            for i in map(json.loads, p.read_text(encoding="utf-8").splitlines())}


def _published(suite: str, root: Path = ROOT) -> dict[str, list[dict]]:
    """Per private item, its sealed records in results/, as published."""
    out: dict[str, list[dict]] = {}
    for path in sorted((root / "results" / suite).glob("*/responses.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "sealed" in record:
                out.setdefault(record["item"], []).append(record)
    return out


def _as_v2(view: dict[str, list[dict]], suite: str, root: Path = ROOT) -> dict[str, list[dict]]:
    """The same records as format v2 published them: the box's fields in the clear."""
    lines = item_lines(root, suite)
    return {item: [opened(r, lines[item])[0] for r in records] for item, records in view.items()}


def _rows(records: list[dict]):
    for r in records:
        yield from r.get("verdicts", [])


def _number(text: object) -> Decimal | None:
    try:
        return Decimal(str(text))
    except (InvalidOperation, TypeError):
        return None


# ---------------------------------------------------------------- the attacks: per private item, from its records

def aubas_codes(view: dict[str, list[dict]]) -> set[tuple[str, str]]:
    """(item, fault code) for every code named anywhere in the item's published records."""
    return {(item, code) for item, records in view.items() for code in FAULT_CODES if code in json.dumps(records)}


def aubas_pairs(view: dict[str, list[dict]]) -> set[tuple[str, str, str]]:
    """(item, transaction, code) from rows found or missed whose unit names the transaction (format v1)."""
    out = set()
    for item, records in view.items():
        for unit, _kind, verdict, _points, _order in _rows(records):
            m = re.fullmatch(r"([^:#]+):(.+)", unit)
            if m and verdict in ("found", "missed"):
                out.add((item, m.group(1), m.group(2)))
    return out


def rabench_classes(view: dict[str, list[dict]]) -> set[tuple[str, bool]]:
    """(item, fake?) from the per-item figures `fake` and `genuine`."""
    fake, genuine = RAB_FIGURES.index("fake"), RAB_FIGURES.index("genuine")
    out = set()
    for item, records in view.items():
        for r in records:
            figures = r.get("figures") or []
            if len(figures) == len(RAB_FIGURES) and figures[fake] + figures[genuine] == 1:
                out.add((item, figures[fake] == 1))
    return out


def rabench_totals(view: dict[str, list[dict]]) -> set[tuple[str, Decimal | None]]:
    """(item, total) from correct `field:total` rows that quote the value (format v1)."""
    return {(item, _number(order)) for item, records in view.items()
            for unit, _k, verdict, _p, order in _rows(records) if unit == "field:total" and verdict == "correct"}


def ledgershield_pay(view: dict[str, list[dict]]) -> set[tuple[str, bool]]:
    """(item, gold decision is PAY?): an unsafe payment is only possible when the gold decision is not
    PAY; an item no run paid unsafely is read as PAY."""
    unsafe = LSB_FIGURES.index("unsafe_pay")
    out = set()
    for item, records in view.items():
        figures = [r["figures"] for r in records if len(r.get("figures") or []) == len(LSB_FIGURES)]
        if any(f[unsafe] == 1 for f in figures):
            out.add((item, False))
        elif figures:
            out.add((item, True))
    return out


def cortify_patterns(view: dict[str, list[dict]]) -> set[tuple[str, str]]:
    """(item, finding pattern) for every pattern named in the item's published records."""
    return {(item, p) for item, records in view.items() for p in CORTIFY_PATTERNS if p in json.dumps(records)}


def prompt_sizes(view: dict[str, list[dict]]) -> set[tuple[str, int]]:
    """(item, prompt_tokens): the length of the item's document, as the call's usage counts it."""
    return {(item, r["usage"]["prompt_tokens"]) for item, records in view.items() for r in records
            if isinstance(r.get("usage"), dict) and isinstance(r["usage"].get("prompt_tokens"), int)}


# ---------------------------------------------------------------- the truth

def _truth(suite: str, root: Path = ROOT) -> dict[str, set]:
    items = _private_items(suite, root)
    if suite == "au-bas":
        return {"codes": {(i, c) for i, x in items.items() for codes in x["key"]["faults"].values() for c in codes},
                "pairs": {(i, t, c) for i, x in items.items() for t, codes in x["key"]["faults"].items() for c in codes}}
    if suite == "ra-bench":
        return {"classes": {(i, bool(x["label"]["fake"])) for i, x in items.items()},
                "totals": {(i, _number(x["label"]["fields"]["total"])) for i, x in items.items()}}
    if suite == "ledgershield":
        return {"pay": {(i, x["gold"]["decision"] == "PAY") for i, x in items.items()}}
    if suite == "cortifybench":
        return {"patterns": {(i, h["patron"]) for i, x in items.items() for h in x["hallazgos"]}}
    raise AssertionError(suite)


ATTACKS = {
    "au-bas": {"codes": aubas_codes, "pairs": aubas_pairs},
    "ra-bench": {"classes": rabench_classes, "totals": rabench_totals},
    "ledgershield": {"pay": ledgershield_pay},
    "cortifybench": {"patterns": cortify_patterns},
}
# what each attack recovers from the records as format v2 published them (measured on the example)
V2_RECOVERED = {("au-bas", "codes"): 250, ("ra-bench", "classes"): 150, ("ledgershield", "pay"): 50,
                ("cortifybench", "patterns"): 80}


@pytest.mark.parametrize("suite", sorted(ATTACKS))
def test_no_private_answer_can_be_recovered_from_results(suite):
    view = _published(suite)
    truth = _truth(suite)
    assert len(view) >= 20, "the example publishes sealed private records of this suite"
    for name, attack in ATTACKS[suite].items():
        assert not attack(view) & truth[name], f"{suite}: {name} recovered from today's sealed records"
    assert not prompt_sizes(view), "a private document's length (prompt_tokens) is published"
    for records in view.values():  # nothing per item in the clear: the call's figures and the box only
        for r in records:
            assert set(r) <= CLEAR and r["sealed"]["format"] == "tally-sealed-record-v3", sorted(set(r) - CLEAR)
            assert all(set(a) <= set(ATTEMPT_FIELDS) for a in r["attempts"])
    # the same attacks on the same records in format v2 (before this change): they work
    old = _as_v2(view, suite)
    for name, attack in ATTACKS[suite].items():
        at_least = V2_RECOVERED.get((suite, name))
        if at_least is not None:
            assert len(attack(old) & truth[name]) >= at_least, f"{suite}: {name} should be recoverable from v2"
    assert len(prompt_sizes(old)) >= len(view)


def test_a_box_opens_only_with_the_exact_item():
    """The box's key is the item's whole line: one guessed answer-key field (a genuine receipt called
    fake, a PAY called HOLD) gives another key, and the box does not open."""
    for suite, field in (("ra-bench", ("label", "fake")), ("ledgershield", ("gold", "decision"))):
        lines = item_lines(ROOT, suite)
        item, records = next(iter(_published(suite).items()))
        assert opened(records[0], lines[item])[0] is not None
        raw = json.loads(lines[item])
        value = raw[field[0]][field[1]]
        raw[field[0]][field[1]] = (not value) if isinstance(value, bool) else ("HOLD" if value != "HOLD" else "PAY")
        view, problem = opened(records[0], json.dumps(raw).encode())
        assert view is None and "does not open" in problem


def extracting_values(v):
    """(item, value) from rows whose `order` quotes a field's value."""
    return {(item, str(order)) for item, records in v.items() for _u, _k, _v, _p, order in _rows(records) if order}


def extracting_empty_fields(v):
    """(item, field) from rows of kind `missing`: the fields the key leaves empty."""
    return {(item, unit) for item, records in v.items() for unit, kind, *_ in _rows(records) if kind == "missing"}


def test_the_example_s_extracting_and_longlistbench_private_halves():
    """extracting: the private records of round 2026-r1, which is revealed (its items are public in
    content/commitments/2026-r1/items/), stay as committed in format v2; those of its anchor round
    2026-r3 (the same items, committed again) are sealed in format v3 and show nothing per item;
    2026-r2 ran public items only. LongListBench has no private half."""
    metas = [json.loads(p.read_text()) for p in (ROOT / "results" / "extracting").glob("*/run.json")]
    assert {m.get("round") for m in metas} == {"2026-r1", "2026-r2", "2026-r3"}
    assert (ROOT / "content" / "commitments" / "2026-r1" / "reveal.json").is_file()
    r3 = {m["run_id"] for m in metas if m["round"] == "2026-r3"}
    view: dict[str, list[dict]] = {}
    for run in sorted(r3):
        for line in (ROOT / "results" / "extracting" / run / "responses.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "sealed" in record:
                view.setdefault(record["item"], []).append(record)
    assert len(view) == 412
    assert all(set(r) <= CLEAR and r["sealed"]["format"] == "tally-sealed-record-v3" for rs in view.values() for r in rs)
    assert not extracting_values(view) and not extracting_empty_fields(view) and not prompt_sizes(view)
    old = _as_v2(view, "extracting")
    assert extracting_empty_fields(old) and prompt_sizes(old)  # format v2 would show them: the attacks are real
    assert not _private_items("longlistbench") and not _published("longlistbench")


def test_a_sealed_extracting_run_gives_no_field_value_nor_empty_field(project):
    """The extracting attacks on a freshly sealed run: the field values quoted by `order`, the fields the
    key leaves empty (a row of kind `missing`), the document's length."""
    from click.testing import CliRunner

    from generator.cli import main
    from tests.conftest import GOOD, chat_record

    items = ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]
    project.add_run("m", [chat_record(i, GOOD) for i in items])
    assert CliRunner().invoke(main, ["results", "seal", "--all", "--root", str(project.root)]).exit_code == 0
    view = _published("extracting", project.root)
    assert set(view) == {"i-prv-1", "r-prv-1"}

    old = _as_v2(view, "extracting", project.root)
    assert extracting_empty_fields(old) and prompt_sizes(old)  # format v2 showed them
    assert not extracting_values(view) and not extracting_empty_fields(view) and not prompt_sizes(view)
    assert all(set(r) <= CLEAR for records in view.values() for r in records)


def test_no_private_answer_in_the_published_audits():
    """content/audits/: a judgment of a private item stores its unit and verdict sealed, unless the item
    is public already (revealed: its committed file is in content/commitments/<round>/items/). The
    example's audit is of the extracting suite, whose private round 2026-r1 is revealed."""
    revealed = {json.loads(p.read_text(encoding="utf-8"))["item"]["id"]
                for p in (ROOT / "content" / "commitments").glob("*/items/*.json")}
    checked = 0
    for path in sorted((ROOT / "content" / "audits").glob("*/*.json")):
        private = _private_items(path.parent.name)
        for j in json.loads(path.read_text(encoding="utf-8"))["judgments"]:
            if j["item"] in private:
                checked += 1
                sealed = j["unit"].startswith("sealed:") and j["verdict"].startswith("sealed:")
                assert sealed or j["item"] in revealed, j
                assert j["note"] == "", j
    assert checked >= 200, "the example's audit judges private items"


def test_a_recorded_audit_of_a_private_item_names_neither_its_unit_nor_its_verdict(project, tmp_path_factory):
    """`tally audit record` stores a private judgment's unit, verdict and right verdict sealed with the
    item: the stored file names none of them, the error rate still counts it, a changed verdict still
    makes it stale, and the suite page shows it as sealed. A public judgment is stored as judged."""
    from click.testing import CliRunner

    from generator.audit.record import load_audits, summary
    from generator.cli import main
    from generator.pipeline.stages import load_and_score
    from tests.conftest import GOOD, chat_record

    def tally(*args: object):
        return CliRunner().invoke(main, [str(a) for a in args])

    wrong_total = '{"total": 99.0, "date": "2026-03-14", "tax_id": null}'
    items = ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]
    run = project.add_run("m", [chat_record(i, wrong_total if i == "r-prv-1" else GOOD) for i in items])
    tmp_path = tmp_path_factory.mktemp("auditor")  # the workspace and the judgments: outside the project
    ws = tmp_path / "ws"
    made = tally("audit", "sample", "extracting", "--per-model", "50", "--seed", "3", "--out", ws,
                 "--root", project.root)
    assert made.exit_code == 0, made.output
    sample = json.loads((ws / "sample.json").read_text())
    judged = [{k: e[k] for k in ("id", "run", "item", "repeat", "unit", "verdict")} | {
        "judgment": "agree", "right_verdict": None, "note": ""} for e in sample["entries"]]
    target = next(j for j in judged if j["item"] == "r-prv-1" and j["verdict"] == "wrong")
    target.update(judgment="disagree", right_verdict="correct", note="the total reads 1,234.56")
    public = next(j for j in judged if j["item"] == "r-pub-1")
    public.update(judgment="disagree", right_verdict="wrong", note="seen on a public item")
    path = tmp_path / "judged.json"
    path.write_text(json.dumps({"format": "tally-audit-judgments-v1", "suite": "extracting", "seed": 3,
                                "per_model": 50, "auditor": "Ann Example", "judgments": judged}))
    recorded = tally("audit", "record", path, "--root", project.root)
    assert recorded.exit_code == 0, recorded.output

    stored = load_audits(project.root, "extracting")[0]["judgments"]
    units = {j["unit"] for j in judged}
    kinds = set(sample["verdict_kinds"]) | {"correct", "wrong"}
    assert {j["item"] for j in stored} == set(items)
    for j in stored:
        if j["half"] == "private":  # nothing the attacker can read: no unit, no verdict, no note
            assert j["unit"].startswith("sealed:") and j["unit"] not in units, j
            assert j["verdict"].startswith("sealed:") and j["verdict"] not in kinds, j
            assert j["note"] == "" and (j["right_verdict"] is None or j["right_verdict"].startswith("sealed:"))
        else:
            assert j["unit"] in units and j["verdict"] in kinds
    sealed_target = next(j for j in stored if j["item"] == "r-prv-1" and j["judgment"] == "disagree")
    assert sealed_target["right_verdict"].startswith("sealed:")
    assert next(j for j in stored if j["item"] == "r-pub-1" and j["judgment"] == "disagree")["right_verdict"] == "wrong"
    # the two private items' same units (both judged) are sealed apart: the key is the item's own line
    sealed_units = {i: {j["unit"] for j in stored if j["item"] == i} for i in ("i-prv-1", "r-prv-1")}
    assert len(sealed_units["i-prv-1"]) == len(sealed_units["r-prv-1"]) == 3
    assert not sealed_units["i-prv-1"] & sealed_units["r-prv-1"]

    scored = load_and_score(project.root, ["extracting"], 1, False)[0]
    now = summary(project.root, scored)
    assert now is not None
    assert (now["suite"]["n"], now["suite"]["k"], now["suite"]["stale"]) == (len(judged), 2, 0)

    assert tally("site", "build", "--root", project.root, "--resamples", "200").exit_code == 0
    html = (project.root / "site/suites/extracting/index.html").read_text(encoding="utf-8")
    assert "(sealed: private item)" in html and "seen on a public item" in html
    assert sealed_target["unit"] not in html and "the total reads" not in html

    # the private item's answer changes: its judgment, sealed, is stale (the public ones are not)
    write = [chat_record(i, GOOD) for i in items]
    (run / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in write), encoding="utf-8")
    later = summary(project.root, load_and_score(project.root, ["extracting"], 1, False)[0])
    assert later is not None and (later["suite"]["stale"], later["suite"]["k"]) == (1, 1)



def _fake_from_item_stats(path: Path, private: set[str]) -> set[tuple[str, bool]]:
    """The attack on item_stats.csv: a private item's per-run figures `fake` and `genuine`."""
    import csv

    with path.open(encoding="utf-8", newline="") as fh:
        return {(r["item"], float(r["fake"]) > 0) for r in csv.DictReader(fh)
                if r["item"] in private and float(r["fake"]) + float(r["genuine"]) > 0}


def test_no_private_answer_from_the_built_site_s_downloads():
    """The attacker's third source: the RA-Bench example site's downloads. From what the build computes
    (and the downloads gave before) most private receipts' class, fake or genuine, is read from
    item_stats.csv; the published one has no private item's figures, stats.json and item-analysis list
    no private item (each one's mean over the runs, and whether it has a value at all, follow its
    answers), and calls.csv gives no private item's token counts."""
    import csv

    from tests.site_support import full_example_site

    root = full_example_site().parent  # the whole example, built once per test session for the site tests
    downloads = root / "site" / "downloads" / "ra-bench"
    items = _private_items("ra-bench")
    private = set(items)
    truth = {(i, bool(x["label"]["fake"])) for i, x in items.items()}
    built = json.loads((root / "build" / "stats" / "ra-bench" / "stats.json").read_text(encoding="utf-8"))
    assert set(built["item_analysis"]["items"]) & private  # the build analyses them: only not published
    from_stats = _fake_from_item_stats(root / "build" / "rescore" / "ra-bench" / "item_stats.csv", private)
    assert len(from_stats) >= 150 and from_stats <= truth, (len(from_stats), len(truth))

    published = json.loads((downloads / "stats.json").read_text(encoding="utf-8"))
    assert not set(published["item_analysis"]["items"]) & private
    assert not set(published["item_analysis"]["not_separating"] + published["item_analysis"]["against_order"]) & private
    assert {k: v for k, v in published.items() if k != "item_analysis"} == \
        {k: v for k, v in built.items() if k != "item_analysis"}
    listed = {r["item"] for r in json.loads((downloads / "item-analysis.json").read_text(encoding="utf-8"))["rows"]}
    assert listed and not listed & private
    assert not _fake_from_item_stats(downloads / "item_stats.csv", private)
    with (downloads / "item_stats.csv").open(encoding="utf-8", newline="") as fh:
        stats_items = {r["item"] for r in csv.DictReader(fh)}
    assert stats_items and not stats_items & private
    with (downloads / "calls.csv").open(encoding="utf-8", newline="") as fh:
        calls = [r for r in csv.DictReader(fh) if r["item"] in private]
    assert calls and all(r["prompt_tokens"] == r["completion_tokens"] == "" for r in calls)
    page = (root / "site" / "suites" / "ra-bench" / "index.html").read_text(encoding="utf-8")
    assert "private items among them are counted, never listed" in page


def test_a_scorer_difference_on_a_private_item_shows_neither_its_unit_nor_its_value(tmp_path):
    """agreement.json in the downloads (and the agreement page, through the same function): a difference
    on a private item keeps its run, item and both verdicts; its unit (au-bas: a transaction and its
    fault) and the model's value are hidden. With no private difference the file is copied as it is."""
    from generator.render.downloads import _agreement_without_private

    private = {"run": "m", "item": "a-prv-1", "repeat": 0, "unit": "T09:outside_period", "scorer_a": "found",
               "scorer_b": "missed", "value": "T09 outside_period"}
    public = private | {"item": "a-pub-1", "unit": "T02:wrong_rate", "value": "T02"}
    doc = {"compared": 40, "differences": [private, public], "differing": 2, "status": "differ", "suite": "au-bas"}
    src, dst = tmp_path / "agreement.json", tmp_path / "out.json"
    src.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    _agreement_without_private(src, dst, {"a-pub-1"})
    out = json.loads(dst.read_text(encoding="utf-8"))
    assert out["differences"] == [private | {"unit": "(private item)", "value": "(private item)"}, public]
    assert "outside_period" not in dst.read_text(encoding="utf-8")
    assert {k: v for k, v in out.items() if k != "differences"} == {k: v for k, v in doc.items() if k != "differences"}
    src.write_text(json.dumps(doc | {"differences": [public]}, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    _agreement_without_private(src, dst, {"a-pub-1"})
    assert dst.read_bytes() == src.read_bytes()
