"""Private results stay private: `tally results seal` moves private-item records to private storage,
and rescore works from both parts (full rescoring, both scorers) or from the public part alone (the
stored verdicts, said so)."""

from __future__ import annotations

import gzip
import json
import shutil
import stat
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from tests.conftest import GOOD, chat_record
from tests.sealed_support import opened_record

PRIVATE = ["i-prv-1", "r-prv-1"]
ALL_ITEMS = ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]
BAD = '{"total": 1, "date": "2026-03-14", "tax_id": "X-1"}'


def _invoke(*args):
    return CliRunner().invoke(main, list(args))


def _project(project):
    records = [chat_record(i, GOOD if i != "r-prv-1" else BAD) for i in ALL_ITEMS]
    records += [chat_record("r-prv-1", GOOD, repeat=1), chat_record("r-prv-1", BAD, repeat=2)]
    project.add_run("mixed", records)
    return project.root / "results" / "extracting" / "mixed" / "responses.jsonl"


def _rescore(root, out):
    result = _invoke("rescore", "--root", str(root), "-q", "--out", str(out))
    assert result.exit_code == 0, result.output
    return result.output, json.loads((out / "extracting" / "summary.json").read_text())


def test_seal_keeps_private_requests_out_of_results(project):
    public = _project(project)
    before = public.read_bytes()
    result = _invoke("results", "seal", "extracting", "--root", str(project.root))
    assert result.exit_code == 0, result.output
    assert "4 private records sealed (4 moved now)" in result.output
    private = project.root / "private" / "results" / "extracting" / "mixed" / "responses.jsonl"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert stat.S_IMODE(private.parent.stat().st_mode) == 0o700
    stored = [json.loads(line) for line in public.read_text().splitlines()]
    for record in stored:
        if record["item"] in PRIVATE:
            assert "request" not in record and "response" not in record
            assert record["sealed"]["format"] == "tally-sealed-record-v3"
            assert not {"verdicts", "figures", "answers", "usage"} & set(record)  # in the box
            view = opened_record(record, project.root, "extracting")
            assert all(len(v) == 5 for v in view["verdicts"]) and view["usage"]["prompt_tokens"] > 0
        else:
            assert "request" in record and "sealed" not in record
    full = [json.loads(line) for line in private.read_text().splitlines()]
    assert sorted((r["item"], r["repeat"]) for r in full) == [("i-prv-1", 0), ("r-prv-1", 0), ("r-prv-1", 1),
                                                              ("r-prv-1", 2)]
    assert all("request" in r for r in full)
    # the sealed file and the private file give back the exact bytes before sealing
    from generator.errors import ErrorLog
    from generator.sealing import read_run

    assert read_run(public, ErrorLog(project.root)).data == before
    # idempotent
    again = _invoke("results", "seal", "--all", "--root", str(project.root))
    assert again.exit_code == 0 and "(0 moved now)" in again.output
    assert read_run(public, ErrorLog(project.root)).data == before


def test_rescore_from_both_parts_and_from_the_public_part_alone(project, tmp_path):
    _project(project)
    _, unsealed = _rescore(project.root, tmp_path / "a")
    verdicts = (tmp_path / "a" / "extracting" / "verdicts.csv").read_bytes()
    assert _invoke("results", "seal", "extracting", "--root", str(project.root)).exit_code == 0
    out, both = _rescore(project.root, tmp_path / "b")
    assert both == unsealed  # full rescoring: the same figures, by both scorers
    assert (tmp_path / "b" / "extracting" / "verdicts.csv").read_bytes() == verdicts
    assert "sealed" not in out
    shutil.move(project.root / "private", tmp_path / "elsewhere")
    out, public_only = _rescore(project.root, tmp_path / "c")
    assert public_only["mixed"].pop("sealed_records") == 4
    assert public_only == unsealed  # the stored verdicts give the same private scores
    assert "private half from the stored verdicts of 4 sealed record(s), not rescored" in out
    assert "4 sealed private record(s) not compared" in out
    agreement = json.loads((tmp_path / "c" / "extracting" / "agreement.json").read_text())
    assert agreement["sealed"] == 4 and agreement["status"] == "agree"
    calls = (tmp_path / "c" / "extracting" / "calls.csv").read_text()
    assert calls == (tmp_path / "a" / "extracting" / "calls.csv").read_text()


def test_a_changed_private_record_is_an_error_not_a_fallback(project, tmp_path):
    _project(project)
    assert _invoke("results", "seal", "extracting", "--root", str(project.root)).exit_code == 0
    private = project.root / "private" / "results" / "extracting" / "mixed" / "responses.jsonl"
    private.write_text(private.read_text().replace("2026-03-14", "2026-03-15", 1))
    result = _invoke("rescore", "--root", str(project.root), "-q", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert "sealed record whose full record is not in private storage" in result.output


def test_a_sealed_public_item_is_refused(project, tmp_path):
    public = _project(project)
    assert _invoke("results", "seal", "extracting", "--root", str(project.root)).exit_code == 0
    shutil.rmtree(project.root / "private")
    lines = public.read_text().splitlines()
    stub = json.loads(next(line for line in lines if '"sealed"' in line))
    stub["item"] = "i-pub-1"
    lines = [line for line in lines if json.loads(line)["item"] != "i-pub-1"]
    public.write_text("\n".join(lines + [json.dumps(stub)]) + "\n")
    result = _invoke("rescore", "--root", str(project.root), "-q", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2 and "is public: it is never sealed" in result.output



def test_regenerated_results_replace_an_older_private_store(project, tmp_path):
    public = _project(project)
    full = public.read_bytes()
    assert _invoke("results", "seal", "extracting", "--root", str(project.root)).exit_code == 0
    public.write_bytes(full.replace(b"2026-03-14", b"2026-03-15"))  # regenerated, full again
    result = _invoke("rescore", "--root", str(project.root), "-q", "--out", str(tmp_path / "o"))
    assert result.exit_code == 0 and "the ones in results/ are used" in result.output
    assert _invoke("results", "seal", "extracting", "--root", str(project.root)).exit_code == 0
    private = project.root / "private" / "results" / "extracting" / "mixed" / "responses.jsonl"
    assert b"2026-03-15" in private.read_bytes() and b"2026-03-14" not in private.read_bytes()


def test_a_rejected_response_body_is_not_kept_in_a_sealed_record(project):
    """A rejected attempt's body (up to 8,000 characters, e.g. a reply quoting the private document)
    stays in private storage only."""
    rejected = chat_record("i-prv-1", GOOD)
    rejected["attempts"].insert(0, {"start": "2026-11-01T00:00:00Z", "status": 200, "error": "wrong model",
                                    "latency_ms": 90.0, "body": "THE PRIVATE DOCUMENT QUOTED"})
    project.add_run("rejected", [rejected, chat_record("i-pub-1", GOOD)])
    assert _invoke("results", "seal", "--all", "--root", str(project.root)).exit_code == 0
    public = project.root / "results" / "extracting" / "rejected" / "responses.jsonl"
    assert "THE PRIVATE DOCUMENT QUOTED" not in public.read_text()
    stub = json.loads(public.read_text().splitlines()[0])
    assert [sorted(a) for a in stub["attempts"]] == [["error", "latency_ms", "start", "status"]] * 2


def test_a_v1_sealed_record_is_upgraded_without_its_private_record(project, tmp_path):
    """Records sealed before format v2 lose their units naming item parts, their `order`s quoting the key
    and rejected bodies, in place and without private storage; the private scores stay the same."""
    from generator.sealed_record import SEALED_FORMAT

    public = _project(project)
    assert _invoke("results", "seal", "--all", "--root", str(project.root)).exit_code == 0
    shutil.move(project.root / "private", tmp_path / "away")
    _, before = _rescore(project.root, tmp_path / "before")
    lines = public.read_text().splitlines()
    old = []
    for line in lines:
        record = json.loads(line)
        if "sealed" in record:
            record = opened_record(record, project.root, "extracting")
            record.pop("figures")
            record["sealed"]["format"] = "tally-sealed-record-v1"
            record["attempts"][0]["body"] = "quoted"
        old.append(json.dumps(record, sort_keys=True, separators=(",", ":")))
    public.write_text("\n".join(old) + "\n")
    assert _invoke("results", "seal", "--all", "--root", str(project.root)).exit_code == 0
    upgraded = [json.loads(line) for line in public.read_text().splitlines()]
    assert all(r["sealed"]["format"] == SEALED_FORMAT and "figures" not in r and "box" in r
               for r in upgraded if "sealed" in r)
    assert "quoted" not in public.read_text()
    _, after = _rescore(project.root, tmp_path / "after")
    assert after == before


ROOT = Path(__file__).resolve().parents[1]


def _sealed(suite: str, root: Path = ROOT):
    for path in sorted((root / "results" / suite).glob("*/responses.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "sealed" in record:
                yield record


def _private_items(suite: str) -> dict[str, dict]:
    folder = ROOT / "content" / "suites" / suite / "items"
    return {i["id"]: i for p in sorted(folder.glob("*.private.jsonl"))
            for i in map(json.loads, p.read_text(encoding="utf-8").splitlines())}


def _published_rows(suite: str):
    """(item, unit, verdict, order) of every private verdict row that results/ and content/audits/ publish
    in the clear (a sealed record of format v3 keeps its rows in its box: tests/test_private_answers.py
    runs these attacks on the same records opened, where they recover answers)."""
    for record in _sealed(suite):
        for unit, _kind, verdict, _points, order in record.get("verdicts", []):
            yield record["item"], unit, verdict, order
    for path in sorted((ROOT / "content" / "audits").glob(f"{suite}/*.json")):
        for j in json.loads(path.read_text(encoding="utf-8")).get("judgments", []):
            yield j.get("item"), j.get("unit", ""), j.get("verdict"), j.get("order", "")


def test_no_private_answer_can_be_recovered_from_the_published_files():
    """An attacker reads the sealed records in results/ and the audits in content/audits/ and tries the
    recoveries that worked on format v1: au-bas (transaction, fault) pairs from found/missed rows,
    RA-Bench totals from correct `field:total` rows, LedgerShield gold decisions from correct
    `decision` rows. Each must recover nothing (the key comes from the example's private item files,
    which a real benchmark does not publish)."""
    from decimal import Decimal, InvalidOperation

    aubas = _private_items("au-bas")
    true_pairs = {(i, t, c) for i, item in aubas.items() for t, codes in item["key"]["faults"].items() for c in codes}
    got = {(item, unit.split(":")[0], unit.split(":", 1)[1]) for item, unit, verdict, _ in _published_rows("au-bas")
           if ":" in unit and verdict in ("found", "missed")}
    assert len(true_pairs) > 800 and not got & true_pairs

    rabench = _private_items("ra-bench")

    def amount(text):
        try:
            return Decimal(text)
        except (InvalidOperation, TypeError):
            return None

    totals = {(i, amount(item["label"]["fields"]["total"])) for i, item in rabench.items()}
    got = {(item, amount(order)) for item, unit, verdict, order in _published_rows("ra-bench")
           if unit == "field:total" and verdict == "correct"}
    assert len(totals) > 100 and not got & totals

    ledger = _private_items("ledgershield")
    gold = {(i, item["gold"]["decision"]) for i, item in ledger.items()}
    got = {(item, order) for item, unit, verdict, order in _published_rows("ledgershield")
           if unit == "decision" and verdict == "correct"}
    assert len(gold) > 20 and not got & gold
    for suite in ("au-bas", "ra-bench", "ledgershield", "extracting"):
        assert all("body" not in a for r in _sealed(suite) for a in r["attempts"])


def test_downloaded_calls_do_not_give_a_private_item_s_prompt_size(tmp_path):
    """calls.csv in the downloads: a private item's prompt_tokens would tell its document's length, its
    completion_tokens how much the reply found in it (a sealed record keeps both in its box)."""
    from generator.render.downloads import blank_private_sizes, public_rows_of

    header = b"run,item,repeat,prompt_tokens,completion_tokens\n"
    rows = b"m,a-pub-1,0,433,89\nm,a-prv-1,0,1306,87\n"
    assert public_rows_of(header, rows, blank_private_sizes, {"a-pub-1"}, with_header=True) == \
        header + b"m,a-pub-1,0,433,89\nm,a-prv-1,0,,\n"


def test_no_au_bas_pair_or_private_prompt_size_in_the_built_site_s_downloads():
    """The attacker's second source: every download of the au-bas example site. No line that names a
    private item names one of its (transaction, fault) pairs, and calls.csv gives no private prompt size."""
    import csv

    from tests.site_support import aubas_site

    downloads = aubas_site() / "downloads"
    private = _private_items("au-bas")
    pairs = {i: {f"{t}:{c}" for t, codes in item["key"]["faults"].items() for c in codes} for i, item in private.items()}
    found = []
    data = (".csv", ".json", ".jsonl")
    gzipped = lambda p: p.suffix == ".gz" and p.with_suffix("").suffix in data  # noqa: E731 (.csv.gz, .jsonl.gz)
    for path in sorted(p for p in downloads.rglob("*") if p.is_file() and (p.suffix in data or gzipped(p))):
        raw = gzip.decompress(path.read_bytes()) if gzipped(path) else path.read_bytes()
        for line in raw.decode("utf-8", errors="replace").splitlines():
            for item in (i for i in private if i in line):
                found += [(path.name, item, pair) for pair in pairs[item] if pair in line]
    assert not found, found[:5]
    with (downloads / "au-bas" / "calls.csv").open(encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["item"] in private]
    assert rows and all(r["prompt_tokens"] == "" for r in rows)
