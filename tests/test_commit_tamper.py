"""Tamper cases on the files themselves, caught by `tally verify` and by ssh-keygen, sha256sum and openssl
(the cases of the page's table, with its recipe, are in test_commit_recipe.py)."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess

import pytest
from nacl.signing import SigningKey
from test_commit_support import (
    NAMESPACE,
    copy_project,
    failed_checks,
    invoke,
    items_dir,
    make_project,
    openssl_verify,
    round_dir,
    sh,
    ssh_verify,
)

from generator.commit import sshsig
from generator.commit.canonical import canonical, parse_sums, render_sums, sha256_hex
from generator.commit.keyfiles import load_private_key

STRICT = "sha256sum -c --strict SHA256SUMS"
SAME_SET = ("diff <(sed -n 's/^SHA256 (\\(items\\/[^)]*\\)) = .*/\\1/p' SHA256SUMS) "
            "<(find items -type f | LC_ALL=C sort)")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """r1 committed and revealed, r2 committed after it; returns (root, key)."""
    root, key = make_project(tmp_path_factory.mktemp("base"), n_private=7)
    for name, date in (("r1", "2026-05-01T00:00:00Z"), ("r2", "2026-10-01T00:00:00Z")):
        done = invoke("commit", name, "--items", items_dir(root), "--key", key, "--root", root,
                      "--committed-at", date)
        assert done.exit_code == 0, done.output
    revealed = invoke("reveal", "r1", "--from", root / "private/commitments/r1", "--key", key, "--root", root)
    assert revealed.exit_code == 0, revealed.output
    assert failed_checks(root) == []
    return root, key


@pytest.fixture
def proj(base, tmp_path):
    return copy_project(base[0], tmp_path), base[1]


def pem(root):
    return root / "content/keys/test-a.pem"


def resign(folder, key: SigningKey, sums: bytes) -> None:
    (folder / "SHA256SUMS").write_bytes(sums)
    (folder / "SHA256SUMS.sig").write_text(sshsig.sign(key, sums, NAMESPACE))
    (folder / "SHA256SUMS.ed25519").write_bytes(base64.b64encode(key.sign(sums).signature) + b"\n")


def first_item(folder):
    return min((folder / "items").iterdir())


def test_edited_revealed_item(proj):
    root, _ = proj
    r1 = round_dir(root, "r1")
    path = first_item(r1)
    path.write_bytes(path.read_bytes().replace(b'"answer":"1234.56"', b'"answer":"1234.57"').replace(
        b'"kind":"printed"', b'"kind":"computed"', 1))
    assert any("revealed items" in f and "differ" in f for f in failed_checks(root))
    assert sh(STRICT, r1).returncode != 0


def test_swapped_lines_in_sha256sums(proj):
    root, _ = proj
    r2 = round_dir(root, "r2")
    lines = (r2 / "SHA256SUMS").read_bytes().split(b"\n")
    lines[1], lines[2] = lines[2], lines[1]
    (r2 / "SHA256SUMS").write_bytes(b"\n".join(lines))
    failures = failed_checks(root)
    assert any("SSHSIG" in f for f in failures) and any("not sorted" in f for f in failures)
    assert ssh_verify(r2).returncode != 0
    assert openssl_verify(r2, pem(root)).returncode != 0


def test_swapped_commitments_between_two_items(proj):
    root, _ = proj
    r1 = round_dir(root, "r1")
    entries, _ = parse_sums((r1 / "SHA256SUMS").read_bytes())
    (a, da), (b, db) = entries[1], entries[2]
    entries[1], entries[2] = (a, db), (b, da)
    (r1 / "SHA256SUMS").write_bytes(render_sums(entries))
    failures = failed_checks(root)
    assert any("SSHSIG" in f for f in failures) and any("Merkle root" in f for f in failures)
    assert ssh_verify(r1).returncode != 0
    assert sh(STRICT, r1).returncode != 0


def test_withheld_item(proj):
    root, _ = proj
    r1 = round_dir(root, "r1")
    first_item(r1).unlink()
    assert any("withheld" in f for f in failed_checks(root))
    assert sh(STRICT, r1).returncode != 0
    assert ssh_verify(r1).returncode == 0  # the list itself is intact


def test_extra_uncommitted_item(proj):
    root, _ = proj
    r1 = round_dir(root, "r1")
    shutil.copy(first_item(r1), r1 / "items" / "ffffffffffffffff.json")
    assert any("not in SHA256SUMS" in f for f in failed_checks(root))
    assert sh(STRICT, r1).returncode == 0  # sha256sum does not notice extra files ...
    assert sh(SAME_SET, r1).returncode != 0  # ... which is why readers also compare the sets


def _redate(folder, date: str) -> bytes:
    manifest = json.loads((folder / "manifest.json").read_bytes())
    manifest["committed_at"] = date
    data = canonical(manifest)
    (folder / "manifest.json").write_bytes(data)
    return data


def test_back_dated_manifest_edited(proj):
    root, _ = proj
    r2 = round_dir(root, "r2")
    _redate(r2, "2026-01-01T00:00:00Z")
    assert any("manifest hash" in f for f in failed_checks(root))
    assert sh("sha256sum -c --ignore-missing SHA256SUMS", r2).returncode != 0


def test_re_signing_a_round_breaks_the_chain_after_it(proj):
    root, key_path = proj
    key = load_private_key(key_path)
    # r1 committed, r2 committed, r1 revealed: each signed file names the SHA-256 of the one before it.
    for name, later in (("r2", "r1/reveal.json"), ("r1", "r2/SHA256SUMS")):
        folder = round_dir(root, name)
        entries, _ = parse_sums((folder / "SHA256SUMS").read_bytes())
        entries[0] = ("manifest.json", sha256_hex(_redate(folder, "2026-04-01T00:00:00Z")))
        resign(folder, key, render_sums(entries))
        assert ssh_verify(folder).returncode == 0  # the key holder's signature holds ...
        failures = failed_checks(root)  # ... but the file after it in the chain fixed the old hash
        assert any(f"{later} names {name}/SHA256SUMS" in f and "removed or changed" in f for f in failures), failures


def test_signature_by_a_key_not_in_allowed_signers(proj):
    root, _ = proj
    r2 = round_dir(root, "r2")
    resign(r2, SigningKey.generate(), (r2 / "SHA256SUMS").read_bytes())
    failures = failed_checks(root)
    assert any("SSHSIG" in f and "neither the pinned key nor reached from it" in f for f in failures)
    assert any("Ed25519" in f for f in failures)
    assert ssh_verify(r2).returncode != 0
    assert openssl_verify(r2, pem(root)).returncode != 0


def test_crlf_line_endings(proj):
    root, _ = proj
    r2 = round_dir(root, "r2")
    (r2 / "SHA256SUMS").write_bytes((r2 / "SHA256SUMS").read_bytes().replace(b"\n", b"\r\n"))
    failures = failed_checks(root)
    assert any("CRLF" in f for f in failures) and any("SSHSIG" in f for f in failures)
    assert ssh_verify(r2).returncode != 0
    assert openssl_verify(r2, pem(root)).returncode != 0
    signers = root / "content/keys/allowed_signers"
    signers.write_bytes(signers.read_bytes().replace(b"\n", b"\r\n"))
    assert any("allowed_signers" in f and "CRLF" in f for f in failed_checks(root))


def _git(cwd, *args):
    subprocess.run(["git", "-c", "core.autocrlf=true", "-c", "user.name=t", "-c", "user.email=t@example.org",
                    *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.mark.parametrize("with_attributes", [True, False])
def test_gitattributes_keep_a_crlf_checkout_verifiable(proj, with_attributes):
    root, _ = proj
    if with_attributes:
        shutil.copy(__import__("pathlib").Path(__file__).resolve().parents[1] / ".gitattributes", root)
    shutil.rmtree(root / "private")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "x")
    shutil.rmtree(root / "content")
    _git(root, "checkout", "--", ".")
    assert (failed_checks(root) == []) is with_attributes
    assert (ssh_verify(round_dir(root, "r2")).returncode == 0) is with_attributes


def test_listed_paths_are_never_followed_outside_the_round(proj):
    root, _ = proj
    r1 = round_dir(root, "r1")
    sums = (r1 / "SHA256SUMS").read_bytes() + f"SHA256 (../../keys/allowed_signers) = {'0' * 64}\n".encode()
    (r1 / "SHA256SUMS").write_bytes(sums)
    failures = failed_checks(root, "r1")
    assert any("is not an item path" in f for f in failures)
    assert any("SSHSIG" in f for f in failures)


@pytest.mark.parametrize("name", ["manifest.json", "SHA256SUMS", "SHA256SUMS.sig", "SHA256SUMS.ed25519"])
@pytest.mark.parametrize("garbage", [b"", b"\x00\xff garbage", b'{"signer": 5, "merkle": [], "previous": "x"}'])
def test_garbage_files_fail_cleanly(proj, name, garbage):
    root, _ = proj
    (round_dir(root, "r1") / name).write_bytes(garbage)
    assert failed_checks(root)
    assert invoke("verify", "--root", root, "-q").exit_code == 1
