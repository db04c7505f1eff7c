"""Keys and SSHSIG: what Tally writes is what ssh-keygen and openssl write and accept."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from nacl.signing import SigningKey
from test_commit_support import PRINCIPAL, invoke, items_dir, make_project

from generator.commit import CommitError, sshsig
from generator.commit.keyfiles import (
    fingerprint,
    load_private_key,
    parse_private_key,
    private_key_text,
    pub_line,
)

NS = "tally-commitments-v1@tally.example"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], input=stdin, capture_output=True, timeout=60, check=False)


def test_keys_new_publishes_what_the_stock_tools_read(tmp_path):
    root, key = make_project(tmp_path)
    keys = root / "content" / "keys"
    record = json.loads((keys / "keys.json").read_text())["keys"][0]
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    assert not any("PRIVATE" in p.read_text() for p in keys.iterdir())
    listed = run("ssh-keygen", "-lf", keys / "test-a.pub").stdout.decode().split()
    assert listed[1] == record["fingerprint"] and record["fingerprint"].startswith("SHA256:")
    derived = run("ssh-keygen", "-y", "-f", key).stdout.decode().split()[:2]
    assert " ".join(derived) == record["public_key"] == " ".join((keys / "test-a.pub").read_text().split()[:2])
    pem = run("openssl", "pkey", "-pubin", "-in", keys / "test-a.pem", "-outform", "DER")
    assert pem.returncode == 0 and pem.stdout[-32:] == bytes(load_private_key(key).verify_key)
    signers = (keys / "allowed_signers").read_text()
    assert (f'{PRINCIPAL} namespaces="{NS},tally-key-rotation-v1@tally.example,tally-reveal-v1@tally.example" '
            f'{record["public_key"]}\n') in signers
    assert record["status"] == "active" and record["principal"] == PRINCIPAL


def test_private_key_never_inside_content_and_never_overwritten(tmp_path):
    root, key = make_project(tmp_path)
    inside = invoke("keys", "new", "test-b", "--private-key", root / "content" / "b.key", "--root", root)
    assert inside.exit_code == 2 and "inside" in inside.output
    assert not (root / "content" / "b.key").exists() and not (root / "content/keys/test-b.pub").exists()
    again = invoke("keys", "new", "test-c", "--private-key", key, "--root", root)
    assert again.exit_code == 2 and "already exists" in again.output
    bad = invoke("keys", "new", "Bad Name", "--private-key", tmp_path / "x.key", "--root", root)
    assert bad.exit_code == 2 and "safe identifier" in bad.output


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620, 0o660])
def test_a_key_file_others_may_access_is_refused(tmp_path, mode):
    root, key = make_project(tmp_path)
    os.chmod(key, mode)
    with pytest.raises(CommitError, match="accessible by group or others"):
        load_private_key(key)
    result = invoke("commit", "r1", "--items", items_dir(root), "--key", key, "--root", root,
                    "--private-dir", tmp_path / "private")
    assert result.exit_code == 2 and "chmod 600" in result.output
    assert not (root / "content" / "commitments").exists() and not (tmp_path / "private").exists()


@pytest.mark.parametrize("mode", [0o600, 0o400])
def test_owner_only_key_files_are_read(tmp_path, mode):
    _, key = make_project(tmp_path)
    os.chmod(key, mode)
    assert len(bytes(load_private_key(key))) == 32


def test_private_key_format_round_trips_and_ssh_keygen_signs_with_it(tmp_path):
    sk = SigningKey(bytes(range(32)))
    assert bytes(parse_private_key(private_key_text(sk, "c"))) == bytes(sk)
    path = tmp_path / "k"
    path.write_text(private_key_text(sk, "c"))
    os.chmod(path, 0o600)
    message = b"SHA256 (manifest.json) = " + b"0" * 64 + b"\n"
    ours = sshsig.sign(sk, message, NS)
    theirs = run("ssh-keygen", "-Y", "sign", "-f", path, "-n", NS, stdin=message)
    assert theirs.returncode == 0, theirs.stderr
    assert theirs.stdout.decode() == ours  # Ed25519 is deterministic: byte-identical signatures
    assert sshsig.verify(theirs.stdout.decode(), message, NS) == bytes(sk.verify_key)


def test_ssh_keygen_verifies_and_rejects_as_sshsig_verify_does(tmp_path):
    sk = SigningKey.generate()
    (tmp_path / "allowed").write_text(f"{PRINCIPAL} {pub_line(bytes(sk.verify_key))}")
    (tmp_path / "msg").write_bytes(b"hello\n")
    (tmp_path / "sig").write_text(sshsig.sign(sk, b"hello\n", NS))

    def stock(principal: str, namespace: str, message: bytes) -> int:
        return run("ssh-keygen", "-Y", "verify", "-f", tmp_path / "allowed", "-I", principal, "-n", namespace,
                   "-s", tmp_path / "sig", stdin=message).returncode

    assert stock(PRINCIPAL, NS, b"hello\n") == 0
    assert stock(PRINCIPAL, NS, b"hello\r\n") != 0
    assert stock(PRINCIPAL, "other@tally.example", b"hello\n") != 0
    assert stock("someone@else", NS, b"hello\n") != 0
    sig = (tmp_path / "sig").read_text()
    assert sshsig.verify(sig, b"hello\n", NS) == bytes(sk.verify_key)
    for message, namespace in ((b"hello\r\n", NS), (b"hello\n", "other@tally.example")):
        with pytest.raises(ValueError):
            sshsig.verify(sig, message, namespace)


def test_allowed_signers_rules():
    sk, other = SigningKey.generate(), SigningKey.generate()
    pub = bytes(sk.verify_key)
    text = ("# comment\n\n"
            f'{PRINCIPAL} namespaces="{NS}" {pub_line(pub)}'
            f'old@tally.example valid-before="20200101" {pub_line(pub)}'
            f'"*@corp.example,!bad@corp.example" {pub_line(pub)}'
            f'ca@tally.example cert-authority {pub_line(pub)}')
    entries = sshsig.parse_allowed_signers(text)
    assert [e.line for e in entries] == [3, 4, 5, 6]
    assert sshsig.check_allowed(entries, PRINCIPAL, NS, pub) is None
    assert "namespace" in sshsig.check_allowed(entries, PRINCIPAL, "tally-other@x", pub)
    assert "expired" in sshsig.check_allowed(entries, "old@tally.example", NS, pub)
    assert sshsig.check_allowed(entries, "ann@corp.example", NS, pub) is None
    assert sshsig.check_allowed(entries, "bad@corp.example", NS, pub) is not None
    assert "certificate authority" in sshsig.check_allowed(entries, "ca@tally.example", NS, pub)
    assert "no allowed_signers entry" in sshsig.check_allowed(entries, PRINCIPAL, NS, bytes(other.verify_key))
    assert fingerprint(pub).startswith("SHA256:") and "=" not in fingerprint(pub)
