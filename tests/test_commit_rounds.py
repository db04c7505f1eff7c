"""`tally commit`, `tally reveal` and `tally verify` end to end, checked with the stock tools too."""

from __future__ import annotations

import json
import os
import shutil
import socket

from test_commit_support import (
    failed_checks,
    fingerprint_of,
    invoke,
    item,
    items_dir,
    make_project,
    openssl_verify,
    round_dir,
    run_recipe,
    sh,
    ssh_verify,
)

from generator.commit import merkle
from generator.commit.canonical import canonical, parse_sums
from generator.commit.page import commitments_context


def commit(root, name, key, *extra):
    result = invoke("commit", name, "--items", items_dir(root), "--key", key, "--root", root, *extra)
    assert result.exit_code == 0, result.output
    return result


def test_commit_writes_salted_canonical_items_privately_and_a_signed_list_publicly(tmp_path):
    root, key = make_project(tmp_path, n_private=9)
    commit(root, "r1", key)
    public, private = round_dir(root, "r1"), root / "private" / "commitments" / "r1"
    assert sorted(p.name for p in public.iterdir()) == ["SHA256SUMS", "SHA256SUMS.ed25519", "SHA256SUMS.sig",
                                                       "manifest.json"]
    files = sorted((private / "items").iterdir())
    assert len(files) == 9  # private items only; the two public ones are not committed
    bodies = [json.loads(p.read_bytes()) for p in files]
    assert all(canonical(b) == p.read_bytes() and not p.read_bytes().endswith(b"\n") for b, p in zip(bodies, files))
    assert {b["item"]["id"] for b in bodies} == {f"r-pri-{i:04d}" for i in range(1, 10)}
    assert len({b["salt"] for b in bodies}) == 9 and all(len(b["salt"]) == 64 for b in bodies)
    assert all(b["id"] == p.stem and b["round"] == "r1" and b["benchmark"] == "extracting"
               for b, p in zip(bodies, files, strict=True))
    entries, problems = parse_sums((public / "SHA256SUMS").read_bytes())
    assert problems == [] and entries[0][0] == "manifest.json"
    manifest = json.loads((public / "manifest.json").read_bytes())
    digests = [bytes.fromhex(d) for _, d in entries[1:]]
    assert manifest["item_count"] == 9 and manifest["merkle"] == {**manifest["merkle"], "size": 9,
                                                                  "root": merkle.root(digests).hex()}
    assert manifest["previous"] is None
    assert all(oct(p.stat().st_mode & 0o777) == "0o600" for p in files)  # salted items: owner only
    assert manifest["scorer"]["suite_version"] == "0.3" and "claim" in manifest["committed_at_is"]
    assert failed_checks(root) == []


def test_stock_tools_before_and_after_reveal(tmp_path):
    root, key = make_project(tmp_path)
    commit(root, "r1", key)
    public = round_dir(root, "r1")
    assert ssh_verify(public).returncode == 0
    assert openssl_verify(public, root / "content/keys/test-a.pem").returncode == 0
    assert sh("sha256sum -c --ignore-missing SHA256SUMS", public).returncode == 0
    assert sh("sha256sum -c --strict SHA256SUMS", public).returncode != 0  # items not published yet
    result = invoke("reveal", "r1", "--from", root / "private/commitments/r1", "--key", key, "--root", root)
    assert result.exit_code == 0, result.output
    assert sh("sha256sum -c --strict SHA256SUMS", public).returncode == 0
    assert ssh_verify(public).returncode == 0
    assert failed_checks(root) == []


def test_the_page_recipe_passes_on_a_project_and_the_site_context_says_revealed(tmp_path):
    root, key = make_project(tmp_path)
    commit(root, "r1", key)
    commit(root, "r2", key)
    revealed = invoke("reveal", "r1", "--from", root / "private/commitments/r1", "--key", key, "--root", root)
    assert revealed.exit_code == 0, revealed.output
    rounds = commitments_context(root)
    assert [(r["round"], r["status"]) for r in rounds] == [("r1", "revealed-and-verified"), ("r2", "committed")]
    assert rounds.trust["fingerprint"] == fingerprint_of(root, "test-a") and len(rounds.head) == 64
    assert rounds[0]["signer"]["label"] == "the pinned key"
    done = run_recipe(root / "content", fingerprint_of(root, "test-a"), rounds.head)
    assert done.returncode == 0, done.stderr.decode()


def test_reveal_refuses_anything_but_the_exact_committed_files(tmp_path):
    root, key = make_project(tmp_path)
    commit(root, "r1", key)
    source = root / "private/commitments/r1"
    first = min((source / "items").iterdir())
    original = first.read_bytes()
    cases = {
        "differs from its commitment": lambda: first.write_bytes(original.replace(b'"salt":"', b'"salt":"0', 1)),
        "missing from": first.unlink,
        "not committed": lambda: (source / "items" / "0000000000000000.json").write_bytes(original),
    }
    for expected, damage in cases.items():
        damage()
        result = invoke("reveal", "r1", "--from", source, "--key", key, "--root", root)
        assert result.exit_code == 2 and expected in result.output and "nothing revealed" in result.output
        assert not (round_dir(root, "r1") / "items").exists()
        (source / "items" / "0000000000000000.json").unlink(missing_ok=True)
        first.write_bytes(original)


def test_commit_refusals(tmp_path):
    root, key = make_project(tmp_path)
    commit(root, "r1", key)
    again = invoke("commit", "r1", "--items", items_dir(root), "--key", key, "--root", root)
    assert again.exit_code == 2 and "never rewritten" in again.output
    inside = invoke("commit", "r2", "--items", items_dir(root), "--key", key, "--root", root,
                    "--private-dir", root / "content" / "private")
    assert inside.exit_code == 2 and "outside content/" in inside.output
    stranger = tmp_path / "stranger.key"
    other = make_project(tmp_path / "other")[1]
    shutil.copy(other, stranger)
    os.chmod(stranger, 0o600)
    unknown = invoke("commit", "r2", "--items", items_dir(root), "--key", stranger, "--root", root)
    assert unknown.exit_code == 2 and "not an active key" in unknown.output
    dated = invoke("commit", "r2", "--items", items_dir(root), "--key", key, "--root", root,
                   "--committed-at", "yesterday")
    assert dated.exit_code == 2 and "--committed-at" in dated.output
    big = tmp_path / "big"
    big.mkdir()
    (big / "x.private.jsonl").write_text(json.dumps({**item(1), "fields": [{"answer": 2 ** 60}]}) + "\n")
    result = invoke("commit", "r3", "--items", big, "--benchmark", "extracting", "--key", key, "--root", root)
    assert result.exit_code == 2 and "RFC 8785" in result.output
    assert sorted(p.name for p in (root / "content/commitments").iterdir()) == ["r1"]


def test_rounds_chain_and_rotation_keeps_old_rounds_verifying(tmp_path):
    root, key_a = make_project(tmp_path)
    commit(root, "r1", key_a, "--committed-at", "2026-05-01T00:00:00Z")
    key_b = tmp_path / "secret" / "test-b.key"
    assert invoke("keys", "new", "test-b", "--private-key", key_b, "--root", root).exit_code == 0
    rotated = invoke("keys", "rotate", "--old", key_a, "--new", key_b, "--date", "2026-06-01T00:00:00Z",
                     "--root", root)
    assert rotated.exit_code == 0, rotated.output
    refused = invoke("commit", "r2", "--items", items_dir(root), "--key", key_a, "--root", root)
    assert refused.exit_code == 2 and "not an active key" in refused.output
    commit(root, "r2", key_b, "--committed-at", "2026-07-01T00:00:00Z")
    m2 = json.loads((round_dir(root, "r2") / "manifest.json").read_bytes())
    assert m2["previous"]["path"] == "r1/SHA256SUMS"
    assert failed_checks(root) == []
    assert ssh_verify(round_dir(root, "r1")).returncode == 0  # signed by the retired key
    keys = root / "content/keys"
    for role, principal in (("old", "test-a"), ("new", "test-b")):
        done = sh(f"ssh-keygen -Y verify -f allowed_signers -I {principal}@tally.example "
                  f"-n tally-key-rotation-v1@tally.example -s rotations/test-a--test-b.{role}.sig "
                  f"< rotations/test-a--test-b.json", keys)
        assert done.returncode == 0, done.stderr
    # A round the retired key signs with a date after its rotation fails.
    registry = json.loads((keys / "keys.json").read_text())
    registry["keys"][0]["status"] = "active"
    (keys / "keys.json").write_text(json.dumps(registry))
    commit(root, "r3", key_a, "--committed-at", "2026-08-01T00:00:00Z")
    assert any("after key test-a was retired" in f for f in failed_checks(root, "r3"))


def test_verify_needs_no_private_key_and_no_network(tmp_path, monkeypatch):
    root, key = make_project(tmp_path)
    commit(root, "r1", key)
    revealed = invoke("reveal", "r1", "--from", root / "private/commitments/r1", "--key", key, "--root", root)
    assert revealed.exit_code == 0, revealed.output
    commit(root, "r2", key)
    reader = tmp_path / "reader"
    shutil.copytree(root / "content", reader / "content")
    shutil.rmtree(tmp_path / "secret")
    shutil.rmtree(root / "private")

    def no_network(*args, **kwargs):
        raise AssertionError("verify tried to use the network")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    unpinned = invoke("verify", "--root", reader)
    assert unpinned.exit_code == 1 and "no key is pinned" in unpinned.output
    result = invoke("verify", "--root", reader, "--trust", fingerprint_of(root, "test-a"))
    assert result.exit_code == 0, result.output
    assert "0 failed" in result.output


def test_verify_exit_codes(tmp_path):
    root, key = make_project(tmp_path)
    commit(root, "r1", key)
    assert invoke("verify", "r1", "--root", root).exit_code == 0
    missing = invoke("verify", "nope", "--root", root)
    assert missing.exit_code == 1 and "no such round" in missing.output
    (round_dir(root, "r1") / "SHA256SUMS.sig").write_text("garbage")
    broken = invoke("verify", "--root", root, "-q")
    assert broken.exit_code == 1 and "FAIL" in broken.output and "ok " not in broken.output
