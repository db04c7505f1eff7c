"""Commitments to private responses: `tally commit-responses` signs a Merkle root per run over the
sealed private records; `tally reveal` publishes them; `tally verify` and the page's stock recipe
check them, and the revealed responses rescore to the published private scores."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_commit_support import failed_checks, fingerprint_of, items_dir, make_project, round_dir, run_recipe

from generator.cli import main
from generator.commit.chain import walk
from tests.conftest import chat_record, run_meta
from tests.sealed_support import edited, opened_record

GOOD = '{"total": %s, "count": %d, "tax_id": null}'
ROUND = "2026-r5"


def tally(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _answers(n_private: int):
    out = []
    for half, n in (("private", n_private), ("public", 2)):
        for i in range(1, n + 1):
            item = f"r-{half[:3]}-{i:04d}"
            right = GOOD % (f"{i}234.56", i)
            out.append(chat_record(item, right if i % 2 else GOOD % ("1.00", i)))
    return out


def _run(root: Path, run_id: str, records: list[dict], round_name: str = ROUND) -> Path:
    run_dir = root / "results" / "extracting" / run_id
    run_dir.mkdir(parents=True)
    (run_dir / "run.json").write_text(json.dumps(run_meta(run_id, round=round_name)), encoding="utf-8")
    (run_dir / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return run_dir


def publish_round_results(root: Path, round_name: str, key: Path, committed_at: str, n_private: int) -> None:
    """Two runs of `round_name` over every item, sealed, and their private responses committed."""
    _suite_toml(root)
    _run(root, "model-a", _answers(n_private), round_name)
    _run(root, "model-b", list(reversed(_answers(n_private))), round_name)
    r = tally("results", "seal", "--all", "--root", root)
    assert r.exit_code == 0, r.output
    r = tally("commit-responses", round_name, "--key", key, "--root", root, "--committed-at", committed_at)
    assert r.exit_code == 0, r.output
    assert f"committed {2 * n_private} private responses of 2 runs" in r.output


def _suite_toml(root: Path) -> None:
    (root / "content" / "suites" / "extracting" / "suite.toml").write_text(
        'name = "extracting"\ntitle = "Extracting"\nversion = "0.3"\nscorer = "extracting"\n'
        'reference_date = "2026-10-20"\n\n[[datasets]]\nid = "receipts"\ntitle = "Receipts"\n', encoding="utf-8")


@pytest.fixture
def committed(tmp_path):
    """A round committed, its results sealed and its private responses committed (not revealed)."""
    root, key = make_project(tmp_path, n_private=5)
    r = tally("commit", ROUND, "--items", items_dir(root), "--key", key, "--root", root,
              "--committed-at", "2026-10-01T09:00:00Z")
    assert r.exit_code == 0, r.output
    publish_round_results(root, ROUND, key, "2026-11-02T09:00:00Z", 5)
    return root, key


def _revealed(root, key):
    r = tally("reveal", ROUND, "--from", root / "private" / "commitments" / ROUND, "--key", key, "--root", root,
              "--revealed-at", "2026-12-01T09:00:00Z")
    assert r.exit_code == 0, r.output
    return root


def _recipe(root):
    pin = fingerprint_of(root, "test-a")
    return run_recipe(root / "content", pin, walk(root).head.sha256)


def _verify_failures(root):
    return failed_checks(root, head=walk(root).head.sha256, trust=fingerprint_of(root, "test-a"))


def test_sealed_records_name_their_item_commitment(committed):
    root, _ = committed
    salted = {json.loads(p.read_bytes())["item"]["id"]: hashlib.sha256(p.read_bytes()).hexdigest()
              for p in (root / "private" / "commitments" / ROUND / "items").glob("*.json")}
    stubs = [json.loads(line) for line in (root / "results/extracting/model-a/responses.jsonl").read_text().splitlines()
             if '"sealed"' in line]
    assert len(stubs) == 5 and all(s["sealed"]["item_commitment"] == salted[s["item"]] for s in stubs)


def test_committed_responses_verify_before_and_after_reveal(committed, tmp_path):
    root, key = committed
    assert _verify_failures(root) == []
    assert _recipe(root).returncode == 0, _recipe(root).stderr
    assert not (round_dir(root, ROUND) / "responses").exists()
    _revealed(root, key)
    assert _verify_failures(root) == []
    result = _recipe(root)
    assert result.returncode == 0, result.stderr
    files = sorted(p.name for p in (round_dir(root, ROUND) / "responses").iterdir())
    assert files == ["model-a.jsonl", "model-b.jsonl"]
    from generator.commit.verify import verify

    assert any(c.name == "responses rescored" and c.ok and "all 10 revealed" in c.message for c in verify(root))
    # without private storage, rescoring reads the revealed responses: the same figures as the sealed ones
    shutil.move(root / "private", tmp_path / "away")
    r = tally("rescore", "--root", root, "-q", "--out", tmp_path / "revealed")
    assert r.exit_code == 0, r.output and "sealed" not in r.output
    for f in (root / "content/commitments" / ROUND / "responses").iterdir():
        f.rename(f.with_suffix(".hidden"))
    r = tally("rescore", "--root", root, "-q", "--out", tmp_path / "sealed")
    assert r.exit_code == 0 and "stored verdicts of 5 sealed record(s)" in r.output
    a = json.loads((tmp_path / "revealed/extracting/summary.json").read_text())
    b = json.loads((tmp_path / "sealed/extracting/summary.json").read_text())
    assert all(b[run].pop("sealed_records") == 5 for run in b)
    assert a == b


def _edit_revealed(root):
    path = round_dir(root, ROUND) / "responses" / "model-a.jsonl"
    path.write_text(path.read_text().replace("1234.56", "1234.57", 1))


def _withhold_revealed(root):
    (round_dir(root, ROUND) / "responses" / "model-b.jsonl").unlink()


def _add_revealed(root):
    shutil.copy(round_dir(root, ROUND) / "responses" / "model-b.jsonl", round_dir(root, ROUND) / "responses" / "x.jsonl")


def _edit_stub(root, wanted, change):
    """The first sealed record of model-a whose opened fields `wanted` accepts, changed by `change` and
    closed again (as someone holding the item could)."""
    path = root / "results/extracting/model-a/responses.jsonl"
    lines = path.read_text().splitlines()
    for k, line in enumerate(lines):
        record = json.loads(line)
        if "sealed" in record and wanted(opened_record(record, root, "extracting")):
            lines[k] = json.dumps(edited(record, root, "extracting", change), sort_keys=True, separators=(",", ":"))
            path.write_text("\n".join(lines) + "\n")
            return
    raise AssertionError("no such sealed record")


def _changed_stub_verdict(root):
    def flip(view):
        row = next(r for r in view["verdicts"] if r[2] == "wrong")
        row[2], row[3] = "correct", 1
    _edit_stub(root, lambda view: any(r[2] == "wrong" for r in view["verdicts"]), flip)


def _changed_stub_figures(root):
    _edit_stub(root, lambda view: True, lambda view: view["figures"].__setitem__(0, 9 + view["figures"][0]))


def _dropped_stub(root):
    path = root / "results/extracting/model-a/responses.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(line for line in lines if '"r-pri-0003"' not in line) + "\n")


def _removed_commitment(root):
    for f in ("responses.json", "responses.json.sig"):
        (round_dir(root, ROUND) / f).unlink()


@pytest.mark.parametrize("tamper, revealed, by_verify, by_recipe", [
    (_edit_revealed, True, "revealed responses", True),
    (_withhold_revealed, True, "revealed responses", True),
    (_add_revealed, True, "revealed responses", True),
    (_changed_stub_verdict, True, "sealed results", False),
    (_changed_stub_verdict, False, "sealed results", False),
    (_changed_stub_figures, False, "sealed results", False),
    (_dropped_stub, False, "sealed results", False),
    (_removed_commitment, False, "head", True),
    (_removed_commitment, False, "responses commitment", True),
])
def test_tampering_with_private_responses_is_caught(committed, tamper, revealed, by_verify, by_recipe):
    root, key = committed
    if revealed:
        _revealed(root, key)
    head = walk(root).head.sha256
    tamper(root)
    failures = failed_checks(root, head=head, trust=fingerprint_of(root, "test-a"))
    assert any(f": {by_verify}:" in f for f in failures), failures
    recipe = run_recipe(root / "content", fingerprint_of(root, "test-a"), head)
    assert (recipe.returncode != 0) == by_recipe, recipe.stderr


def test_unsealed_results_are_refused(tmp_path):
    root, key = make_project(tmp_path, n_private=2)
    assert tally("commit", ROUND, "--items", items_dir(root), "--key", key, "--root", root).exit_code == 0
    _run(root, "model-a", _answers(2))
    r = tally("commit-responses", ROUND, "--key", key, "--root", root)
    assert r.exit_code == 2 and "no run of round" in r.output


def test_rescoring_revealed_responses_never_imports_the_project_s_plugins(committed, tmp_path):
    root, key = committed
    _revealed(root, key)
    marker = tmp_path / "ran"
    (root / "plugins").mkdir()
    (root / "plugins" / "trap.py").write_text(f"open({str(marker)!r}, 'w').write('imported')\n", encoding="utf-8")
    with (root / "tally.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[suites]\npaths = ["plugins"]\n')
    from generator.commit.verify import verify

    checks = verify(root, trust=fingerprint_of(root, "test-a"), head=walk(root).head.sha256)
    assert not marker.exists(), "tally verify imported a plugin of the project it checks"
    assert any(c.name == "responses rescored" and c.ok and "all 10 revealed" in c.message for c in checks)
    suite = root / "content/suites/extracting/suite.toml"
    suite.write_text(suite.read_text().replace('scorer = "extracting"', 'scorer = "trap"'), encoding="utf-8")
    checks = verify(root, trust=fingerprint_of(root, "test-a"), head=walk(root).head.sha256)
    assert not marker.exists()
    assert any(c.name == "responses rescored" and "not rescored" in c.message for c in checks)


def test_published_results_without_a_responses_commitment_fail(tmp_path):
    """A round whose runs publish sealed private records must commit to them."""
    root, key = make_project(tmp_path, n_private=2)
    assert tally("commit", ROUND, "--items", items_dir(root), "--key", key, "--root", root).exit_code == 0
    _suite_toml(root)
    _run(root, "model-a", _answers(2))
    assert tally("results", "seal", "--all", "--root", root).exit_code == 0
    failures = _verify_failures(root)
    assert any(": responses commitment:" in f and "model-a" in f for f in failures), failures
    assert tally("commit-responses", ROUND, "--key", key, "--root", root).exit_code == 0
    assert _verify_failures(root) == []


def test_a_round_revealed_with_its_responses_withheld(committed, tmp_path):
    """When the full private records were not kept, the round's items can be revealed with the signed
    reason; the sealed records stay covered by the commitment, and publishing responses/ then fails."""
    root, key = committed
    shutil.rmtree(root / "private" / "results")
    refused = tally("reveal", ROUND, "--from", root / "private" / "commitments" / ROUND, "--key", key, "--root", root)
    assert refused.exit_code != 0 and "--responses-withheld" in refused.output
    r = tally("reveal", ROUND, "--from", root / "private" / "commitments" / ROUND, "--key", key, "--root", root,
              "--revealed-at", "2026-12-01T09:00:00Z", "--responses-withheld", "the full records were not kept")
    assert r.exit_code == 0, r.output
    assert _verify_failures(root) == [] and _recipe(root).returncode == 0, _recipe(root).stderr
    (round_dir(root, ROUND) / "responses").mkdir()
    (round_dir(root, ROUND) / "responses" / "model-a.jsonl").write_text("{}\n")
    assert any(": revealed responses:" in f for f in _verify_failures(root))
    assert _recipe(root).returncode != 0


LATER = "2026-r6"


def _later_round_reuses_run_ids(root: Path, key: Path, commit_responses: bool = True) -> None:
    """The round retired and revealed with its responses; a later round committed over new items with the
    same ids and its runs made again under the same run ids, other answers, sealed and committed."""
    _revealed(root, key)
    private = items_dir(root) / "receipts.private.jsonl"  # a new private set under the same item ids
    private.write_text(private.read_text().replace('234.56"', '234.57"'), encoding="utf-8")
    r = tally("commit", LATER, "--items", items_dir(root), "--key", key, "--root", root,
              "--committed-at", "2026-12-02T09:00:00Z")
    assert r.exit_code == 0, r.output
    for run_id, records in (("model-a", _answers(5)[::-1]), ("model-b", _answers(5))):
        shutil.rmtree(root / "results" / "extracting" / run_id)
        shutil.rmtree(root / "private" / "results" / "extracting" / run_id)
        records = [dict(r, attempts=[dict(a, latency_ms=7.0) for a in r["attempts"]]) for r in records]
        _run(root, run_id, records, LATER)
    assert tally("results", "seal", "--all", "--root", root).exit_code == 0
    if commit_responses:
        r = tally("commit-responses", LATER, "--key", key, "--root", root, "--committed-at", "2026-12-03T09:00:00Z")
        assert r.exit_code == 0, r.output


def test_a_later_round_s_runs_with_the_same_run_ids_do_not_break_the_retired_round(committed):
    """The retired round is checked from its own data: its revealed responses match its commitment and,
    rescored with its own revealed items, give exactly the sealed records it committed to."""
    root, key = committed
    _later_round_reuses_run_ids(root, key)
    assert _verify_failures(root) == []
    assert _recipe(root).returncode == 0, _recipe(root).stderr
    from generator.commit.verify import verify

    checks = [c for c in verify(root) if c.subject == ROUND]
    assert any(c.name == "responses rescored" and c.ok and "all 10 revealed" in c.message and
               "committed Merkle roots" in c.message for c in checks)
    assert any(c.name == "sealed results" and c.ok and LATER in c.message for c in checks)


def test_a_retired_round_whose_revealed_responses_rescore_to_other_verdicts_fails(committed, monkeypatch):
    root, key = committed
    _later_round_reuses_run_ids(root, key)
    from generator.commit import rescored
    from generator.commit.verify import verify

    real = rescored._sealed_again

    def flipped(*args, **kw):
        lines = real(*args, **kw)
        return [lines[0].replace(b'"outcome":"', b'"outcome":"not ', 1)] + lines[1:]

    monkeypatch.setattr(rescored, "_sealed_again", flipped)  # as if the scorer gave another verdict
    failed = [str(c) for c in verify(root).failed()]
    assert any(f"{ROUND}: responses rescored:" in f and "do not give the sealed records" in f for f in failed), failed


def _escape(root: Path, new_round: str) -> None:
    """A sealed private verdict of model-a flipped to correct, and its run.json's round edited."""
    _changed_stub_verdict(root)
    meta_path = root / "results" / "extracting" / "model-a" / "run.json"
    meta = json.loads(meta_path.read_text())
    meta["round"] = new_round
    meta_path.write_text(json.dumps(meta))


@pytest.mark.parametrize("new_round, by_verify", [
    ("2026-r9", "sealed results"),  # no such round: still checked against the round that commits to it
    (LATER, "responses commitment"),  # a committed round with no responses commitment
    ("", "sealed results"),
])
def test_editing_a_run_s_round_does_not_escape_its_commitment(committed, new_round, by_verify):
    root, key = committed
    r = tally("commit", LATER, "--items", items_dir(root), "--key", key, "--root", root,
              "--committed-at", "2026-12-02T09:00:00Z")
    assert r.exit_code == 0, r.output
    assert _verify_failures(root) == []
    _escape(root, new_round)
    failures = _verify_failures(root)
    assert any(f": {by_verify}:" in f and "model-a" in f for f in failures), failures


def test_a_later_round_s_run_moved_back_to_the_retired_round_is_caught(committed):
    """A run of the later round whose run.json names the retired round again (same run id) is checked
    against the retired round's commitment, and differs from it."""
    root, key = committed
    _later_round_reuses_run_ids(root, key)
    meta_path = root / "results" / "extracting" / "model-a" / "run.json"
    meta_path.write_text(json.dumps(dict(json.loads(meta_path.read_text()), round=ROUND)))
    failures = _verify_failures(root)
    assert any(f"{ROUND}: sealed results:" in f and "model-a" in f for f in failures), failures
