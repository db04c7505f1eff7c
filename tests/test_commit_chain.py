"""A complete chain: every folder is a round, the chain ends at the published head, reveals are signed
statements on the chain, and salts are 32 random bytes, one per item."""

from __future__ import annotations

import hashlib
import json

import pytest
from test_commit_support import (
    failed_checks,
    invoke,
    items_dir,
    make_project,
    round_dir,
)

from generator.commit import rounds
from generator.commit.salts import salt_problem, salt_problems

GOOD = bytes(range(0, 256, 8)).hex()  # 32 distinct bytes


def commit(root, name, key, *extra):
    result = invoke("commit", name, "--items", items_dir(root), "--key", key, "--root", root, *extra)
    assert result.exit_code == 0, result.output
    return result


def test_a_folder_without_a_valid_manifest_is_an_error(tmp_path):
    root, key = make_project(tmp_path)
    commit(root, "r1", key)
    stray = round_dir(root, "r9")
    stray.mkdir()
    assert any("r9: manifest" in f and "is missing" in f for f in failed_checks(root))
    (stray / "manifest.json").write_text("{}")
    assert any("r9: manifest" in f and "not a tally-commitment-manifest-v2" in f for f in failed_checks(root))


def test_the_chain_must_end_at_the_published_head(tmp_path):
    root, key = make_project(tmp_path)
    commit(root, "r1", key, "--committed-at", "2026-05-01T00:00:00Z")
    first = hashlib.sha256((round_dir(root, "r1") / "SHA256SUMS").read_bytes()).hexdigest()
    commit(root, "r2", key, "--committed-at", "2026-06-01T00:00:00Z")
    head = hashlib.sha256((round_dir(root, "r2") / "SHA256SUMS").read_bytes()).hexdigest()
    manifest = json.loads((round_dir(root, "r2") / "manifest.json").read_bytes())
    assert manifest["previous"] == {"path": "r1/SHA256SUMS", "sha256": first}
    plain = invoke("verify", "--root", root)
    assert plain.exit_code == 0 and f"head {head}" in plain.output and "pass --head" in plain.output
    assert invoke("verify", "--root", root, "--head", head).exit_code == 0
    stale = invoke("verify", "--root", root, "--head", first)
    assert stale.exit_code == 1 and "goes on after the published head" in stale.output
    import shutil

    shutil.rmtree(round_dir(root, "r2"))
    removed = invoke("verify", "--root", root, "--head", head)
    assert removed.exit_code == 1 and "the newest round or reveal statement was removed" in removed.output
    assert invoke("verify", "--root", root).exit_code == 0  # without the head, nothing shows it


def test_a_reveal_is_a_signed_statement_on_the_chain(tmp_path):
    root, key = make_project(tmp_path)
    commit(root, "r1", key, "--committed-at", "2026-05-01T00:00:00Z")
    source = root / "private/commitments/r1"
    done = invoke("reveal", "r1", "--from", source, "--key", key, "--root", root,
                  "--revealed-at", "2026-06-01T00:00:00Z")
    assert done.exit_code == 0, done.output
    folder = round_dir(root, "r1")
    statement = json.loads((folder / "reveal.json").read_bytes())
    assert statement["previous"]["path"] == "r1/SHA256SUMS" and statement["round"] == "r1"
    assert statement["sha256sums_sha256"] == hashlib.sha256((folder / "SHA256SUMS").read_bytes()).hexdigest()
    assert statement["signer"]["namespace"] == "tally-reveal-v1@tally.example"
    again = invoke("reveal", "r1", "--from", source, "--key", key, "--root", root)
    assert again.exit_code == 2 and "was revealed" in again.output
    for item in (folder / "items").iterdir():
        item.unlink()
    assert any("withheld, though the signed reveal statement says" in f for f in failed_checks(root))


def test_items_without_a_reveal_statement_fail(tmp_path):
    root, key = make_project(tmp_path)
    commit(root, "r1", key)
    (round_dir(root, "r1") / "items").mkdir()
    source = root / "private/commitments/r1/items"
    for path in source.iterdir():
        (round_dir(root, "r1") / "items" / path.name).write_bytes(path.read_bytes())
    assert any("no signed reveal statement" in f for f in failed_checks(root))


def test_salt_rules():
    assert salt_problem(GOOD) is None
    assert "16 bytes" in salt_problem("ab" * 16)
    assert "repeats one byte" in salt_problem("00" * 32)
    assert "distinct byte values" in salt_problem("0102" * 16)
    assert "hex" in salt_problem("ZZ" * 32) and "hex" in salt_problem(None)
    assert any("the same salt as" in p for p in salt_problems({"a": GOOD,
                                                               "b": GOOD}))


@pytest.mark.parametrize("salts, message", [
    (lambda: "00" * 32, "repeats one byte"),
    (lambda: "ab" * 16, "salt is 16 bytes"),
    (lambda: GOOD, "the same salt as"),
])
def test_commit_refuses_bad_salts_and_writes_nothing(tmp_path, monkeypatch, salts, message):
    root, key = make_project(tmp_path)
    monkeypatch.setattr(rounds, "new_salt", salts)
    result = invoke("commit", "r1", "--items", items_dir(root), "--key", key, "--root", root)
    assert result.exit_code == 2 and "refusing to write" in result.output and message in result.output
    assert not round_dir(root, "r1").exists() and not (root / "private").exists()
