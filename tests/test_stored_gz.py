"""Compressed results and items: responses.jsonl.gz and items/<dataset>.<half>.jsonl.gz are read by every
command through one layer (generator/inputs/stored_files.py), with a cap on the inflated size, one error for a
run folder holding both forms, and the same site bytes whether a run is compressed or not."""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import ErrorLog
from generator.inputs.stored_files import StoredFileError, deflate_for, inflate, read_stored
from tests.conftest import GOOD, chat_record
from tests.site_support import build, make_project, missing_node

ITEMS = ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]
BAD = '{"total": 1, "date": "2026-03-14", "tax_id": "X-1"}'


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _gzip_file(path: Path) -> Path:
    """Replace a stored file by its gzip-compressed form (as an operator would: `gzip FILE`)."""
    target = path.with_name(path.name + ".gz")
    target.write_bytes(gzip.compress(path.read_bytes(), mtime=0))
    path.unlink()
    return target


def _runs(project) -> None:
    project.add_run("plain", [chat_record(i, GOOD) for i in ITEMS])
    d = project.add_run("packed", [chat_record(i, GOOD if i != "r-pub-2" else BAD) for i in ITEMS])
    _gzip_file(d / "responses.jsonl")


# ------------------------------------------------------------------ the reading layer


def test_inflate_reads_every_member_and_leaves_plain_files_alone(tmp_path):
    path = tmp_path / "responses.jsonl.gz"
    raw = gzip.compress(b'{"a": 1}\n', mtime=0) + gzip.compress(b'{"b": 2}\n', mtime=0)
    assert inflate(path, raw) == b'{"a": 1}\n{"b": 2}\n'
    assert inflate(tmp_path / "responses.jsonl", b"not gzip") == b"not gzip"
    path.write_bytes(deflate_for(path, b"x\n"))
    assert read_stored(path) == b"x\n"
    assert deflate_for(path, b"x\n") == deflate_for(path, b"x\n")  # no time in the header: same bytes


def test_a_gzip_bomb_is_one_error_naming_the_file(tmp_path):
    path = tmp_path / "responses.jsonl.gz"
    bomb = gzip.compress(b"\0" * (4 << 20), mtime=0)  # 4 MiB of zeros in about 4 KiB
    with pytest.raises(StoredFileError, match=r"responses\.jsonl\.gz: inflates to more than 1,048,576 bytes"):
        inflate(path, bomb, limit=1 << 20)
    assert len(inflate(path, bomb)) == 4 << 20  # under the default cap


@pytest.mark.parametrize("raw, why", [
    (b"plain text, not gzip\n", "not a readable gzip file"),
    (gzip.compress(b'{"a": 1}\n' * 1000, mtime=0)[:-30], "cut short"),
    (gzip.compress(b'{"a": 1}\n', mtime=0) + b"junk", "bytes after the end of the gzip data"),
    (b"", "cut short"),
])
def test_a_broken_gzip_file_is_an_error_naming_it(tmp_path, raw, why):
    with pytest.raises(StoredFileError, match=why) as exc:
        inflate(tmp_path / "r" / "responses.jsonl.gz", raw)
    assert str(tmp_path / "r" / "responses.jsonl.gz") in str(exc.value)


# ------------------------------------------------------------------ every command


@pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")
def test_rescore_reads_a_compressed_run_with_both_scorers(project, tmp_path):
    _runs(project)
    out = tmp_path / "out"
    result = _invoke("rescore", "--root", project.root, "-q", "--out", out)
    assert result.exit_code == 0, result.output
    agreement = json.loads((out / "extracting" / "agreement.json").read_text())
    assert agreement["status"] == "agree" and agreement["compared"] == 2 * len(ITEMS) * 3
    summary = json.loads((out / "extracting" / "summary.json").read_text())
    assert {"plain", "packed"} <= set(summary)
    verdicts = (out / "extracting" / "verdicts.csv").read_text()
    assert verdicts.count("packed,") == len(ITEMS) * 3
    assert "packed,r-pub-2,0,tax_id" in verdicts


def test_a_run_folder_with_both_forms_is_one_error_naming_it(project, tmp_path):
    d = project.add_run("twice", [chat_record(i, GOOD) for i in ITEMS])
    (d / "responses.jsonl.gz").write_bytes(gzip.compress((d / "responses.jsonl").read_bytes(), mtime=0))
    result = _invoke("rescore", "--root", project.root, "-q", "--skip-scorer-b", "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "twice: holds both responses.jsonl and responses.jsonl.gz" in result.output
    assert "Traceback" not in result.output


def test_a_bomb_in_results_is_an_input_error_not_a_crash(project, tmp_path, monkeypatch):
    import generator.inputs.stored_files as stored

    monkeypatch.setattr(stored, "MAX_INFLATED_BYTES", 4096)
    d = project.add_run("bomb", [chat_record(i, GOOD) for i in ITEMS])
    (d / "responses.jsonl").unlink()
    (d / "responses.jsonl.gz").write_bytes(gzip.compress(b" " * 100_000, mtime=0))
    result = _invoke("rescore", "--root", project.root, "-q", "--skip-scorer-b", "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "bomb/responses.jsonl.gz: inflates to more than 4,096 bytes" in result.output
    assert "Traceback" not in result.output


def test_compressed_items_are_read(project, tmp_path):
    _gzip_file(project.suite_dir / "items" / "receipts.public.jsonl")
    project.add_run("plain", [chat_record(i, GOOD) for i in ITEMS])
    result = _invoke("rescore", "--root", project.root, "-q", "--skip-scorer-b", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "r-pub-2" in (tmp_path / "out" / "extracting" / "verdicts.csv").read_text()


def test_seal_keeps_a_compressed_run_compressed_and_readable(project, tmp_path):
    from generator.sealing import read_run

    _runs(project)
    packed = project.run_dir("packed") / "responses.jsonl.gz"
    before = read_stored(packed)
    result = _invoke("results", "seal", "extracting", "--root", project.root)
    assert result.exit_code == 0, result.output
    assert not (project.run_dir("packed") / "responses.jsonl").exists()
    public = read_stored(packed)  # still gzip
    assert public != before and b'"sealed":{' in public and b'"request"' not in public.split(b"\n")[0]
    assert packed.read_bytes() == gzip.compress(public, compresslevel=9, mtime=0)  # deterministic bytes
    assert read_run(packed, ErrorLog(project.root)).data == before  # private storage gives the records back
    again = _invoke("results", "seal", "extracting", "--root", project.root)
    assert again.exit_code == 0 and "(0 moved now)" in again.output


def test_tally_run_does_not_append_to_a_compressed_run(tmp_path):
    from generator.harness.store import RunStore, StoreError

    d = tmp_path / "results" / "extracting" / "r"
    d.mkdir(parents=True)
    (d / "responses.jsonl.gz").write_bytes(gzip.compress(b"", mtime=0))
    with pytest.raises(StoreError, match="stored compressed"):
        RunStore(d).open({"run_id": "r"})
    assert not (d / "responses.jsonl").exists()


@pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")
def test_the_site_is_byte_identical_with_a_compressed_run_and_items():
    from tests.test_site_golden import digests

    sites = []
    for packed in (False, True):
        root = make_project(Path(tempfile.mkdtemp(prefix="tally-gz-site-")))
        if packed:
            runs = sorted((root / "results" / "mini").iterdir())
            _gzip_file(runs[0] / "responses.jsonl")
            _gzip_file(sorted((root / "content" / "suites" / "mini" / "items").glob("*.jsonl"))[0])
        build(root, root / "site")
        sites.append(digests(root / "site"))
    assert sites[0] == sites[1]


def test_a_private_key_inside_a_compressed_run_stops_publishing(project):
    from generator.commit import CommitError
    from generator.commit.publish import refuse_private_keys

    d = project.add_run("leaky", [chat_record(i, GOOD) for i in ITEMS])
    key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
    (d / "responses.jsonl").write_text(json.dumps(chat_record("i-pub-1", key)) + "\n", encoding="utf-8")
    packed = _gzip_file(d / "responses.jsonl")
    assert b"PRIVATE KEY" not in packed.read_bytes()  # hidden from a search of the stored bytes
    with pytest.raises(CommitError, match="results/extracting/leaky/responses.jsonl.gz holds a private key"):
        refuse_private_keys(project.root)
    packed.write_bytes(b"not gzip at all")  # read as it is; the loaders report it
    refuse_private_keys(project.root)


def test_a_compressed_run_is_sealed_committed_revealed_and_verified(tmp_path):
    from test_commit_responses import ROUND, _answers, _run, _suite_toml, tally
    from test_commit_support import failed_checks, fingerprint_of, items_dir
    from test_commit_support import make_project as commit_project

    from generator.commit.chain import walk
    from generator.commit.verify import verify

    root, key = commit_project(tmp_path, n_private=3)
    r = tally("commit", ROUND, "--items", items_dir(root), "--key", key, "--root", root,
              "--committed-at", "2026-10-01T09:00:00Z")
    assert r.exit_code == 0, r.output
    _suite_toml(root)
    _gzip_file(_run(root, "model-a", _answers(3)) / "responses.jsonl")
    _run(root, "model-b", list(reversed(_answers(3))))
    assert tally("results", "seal", "--all", "--root", root).exit_code == 0
    packed = root / "results" / "extracting" / "model-a" / "responses.jsonl.gz"
    assert packed.is_file() and read_stored(packed).count(b'"sealed":{') == 3
    r = tally("commit-responses", ROUND, "--key", key, "--root", root, "--committed-at", "2026-11-02T09:00:00Z")
    assert r.exit_code == 0 and "committed 6 private responses of 2 runs" in r.output, r.output
    trust = {"head": walk(root).head.sha256, "trust": fingerprint_of(root, "test-a")}
    assert failed_checks(root, **trust) == []
    r = tally("reveal", ROUND, "--from", root / "private" / "commitments" / ROUND, "--key", key, "--root", root,
              "--revealed-at", "2026-12-01T09:00:00Z")
    assert r.exit_code == 0, r.output
    assert failed_checks(root, head=walk(root).head.sha256, trust=trust["trust"]) == []
    assert any(c.name == "responses rescored" and c.ok and "all 6 revealed" in c.message for c in verify(root))
    # a sealed record changed inside the compressed file is caught
    packed.write_bytes(gzip.compress(read_stored(packed).replace(b'"sealed":{', b'"sealed":{"x":1,', 1), mtime=0))
    assert any("not the committed ones" in c for c in failed_checks(root, head=walk(root).head.sha256,
                                                                    trust=trust["trust"]))


def test_stats_and_the_audit_sample_read_a_compressed_run_alike(tmp_path):
    made = {}
    for packed in (False, True):
        root = tmp_path / f"proj-{packed}"
        assert _invoke("suite", "new", "demo", "--root", root).exit_code == 0
        if packed:
            for run in (root / "results" / "demo").iterdir():
                _gzip_file(run / "responses.jsonl")
        out = tmp_path / f"audit-{packed}"
        sample = _invoke("audit", "sample", "demo", "--per-model", "4", "--seed", "7", "--out", out, "--root", root)
        assert sample.exit_code == 0, sample.output
        stats = _invoke("stats", "--root", root, "-q", "--skip-scorer-b")
        assert stats.exit_code == 0, stats.output
        made[packed] = ((out / "sample.json").read_text(), (out / "audit.csv").read_text(),
                        json.loads((root / "build" / "stats" / "demo" / "stats.json").read_text()))
    assert made[False][0] == made[True][0] and made[False][1] == made[True][1]
    assert '"response"' in made[True][0] or "content" in made[True][0]
    assert made[False][2] == made[True][2]


def test_the_build_cache_keys_on_the_compressed_bytes_as_stored(tmp_path):
    from generator.pipeline.cache import Cache
    from generator.pipeline.outputs import write_outputs
    from generator.pipeline.stages import load_and_score

    root = make_project(tmp_path / "p")
    run = sorted((root / "results" / "mini").iterdir())[0]
    packed = _gzip_file(run / "responses.jsonl")

    def rescore(out: str) -> Cache:
        cache = Cache(root / "build" / "cache")
        write_outputs(tmp_path / out, load_and_score(root, None, 1, False, cache=cache, warn=lambda _w: None))
        return cache

    first = rescore("first")
    assert first.counts.hits == 0 and first.counts.written > 0
    again = rescore("again")
    assert again.counts.misses == 0 and again.counts.hits == first.counts.written  # the .gz run is cached too
    packed.write_bytes(gzip.compress(read_stored(packed), compresslevel=1, mtime=0))  # same records, other bytes
    changed = rescore("changed")
    assert changed.counts.misses == 1 and changed.counts.hits == first.counts.written - 1
    for name in ("verdicts.csv", "summary.json"):
        assert (tmp_path / "first" / "mini" / name).read_bytes() == (tmp_path / "changed" / "mini" / name).read_bytes()
