"""Private keys stay private: the site publishes an allow-list of key and round files and refuses to build
when a private key is under content/ or results/; private keys are never written or read inside the
project's git work tree (or inside --root when it is not in one)."""

from __future__ import annotations

import os
import subprocess
from types import SimpleNamespace

import pytest
from nacl.signing import SigningKey
from test_commit_support import invoke, items_dir, make_project

from generator.commit import CommitError
from generator.commit.keyfiles import private_key_text
from generator.commit.publish import publish_commitment_files, refuse_private_keys

PEM_KEY = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n"


def ssh_key() -> str:
    return private_key_text(SigningKey.generate(), "stray")


def test_only_key_and_round_files_are_published(tmp_path):
    root, key = make_project(tmp_path)
    assert invoke("commit", "r1", "--items", items_dir(root), "--key", key, "--root", root).exit_code == 0
    keys, r1 = root / "content/keys", root / "content/commitments/r1"
    (keys / "notes.txt").write_text("not for the site")
    (keys / "test-a.pub~").write_text("an editor's backup")
    (r1 / "draft.json").write_text("{}")
    (root / "content/commitments/README.md").write_text("about the rounds")
    out = tmp_path / "site"
    published = publish_commitment_files(root, out)
    assert sorted(published) == ["commitments/r1/SHA256SUMS", "commitments/r1/SHA256SUMS.ed25519",
                                 "commitments/r1/SHA256SUMS.sig", "commitments/r1/manifest.json",
                                 "keys/allowed_signers", "keys/keys.json", "keys/test-a.pem", "keys/test-a.pub"]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == sorted(published)


@pytest.mark.parametrize("where", ["content/keys/test-b.key", "content/keys/test-b.pub", "content/pages/x.md",
                                   "results/extracting/run/k.txt"])
@pytest.mark.parametrize("text", [ssh_key(), PEM_KEY])
def test_a_private_key_anywhere_in_content_or_results_stops_the_build(tmp_path, where, text):
    root, _ = make_project(tmp_path)
    (root / where).parent.mkdir(parents=True, exist_ok=True)
    (root / where).write_text(text)
    with pytest.raises(CommitError, match=f"refusing to publish: {where} holds a private key"):
        refuse_private_keys(root)
    from generator.render.build import _static
    from generator.render.gather import BuildError

    with pytest.raises(BuildError, match="holds a private key"):
        _static(tmp_path / "site", SimpleNamespace(root=root, suites=[]))
    assert not (tmp_path / "site" / "keys").exists()


def test_a_symbolic_link_is_never_published(tmp_path):
    root, _ = make_project(tmp_path)
    (tmp_path / "outside.txt").write_text("secret")
    (root / "content/keys/linked.pub").symlink_to(tmp_path / "outside.txt")
    with pytest.raises(CommitError, match="symbolic link"):
        publish_commitment_files(root, tmp_path / "site")


def _git_init(folder):
    subprocess.run(["git", "init", "-q", str(folder)], check=True, capture_output=True, timeout=60)


def test_private_keys_are_refused_anywhere_in_the_git_work_tree(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    root, key = make_project(repo)
    _git_init(repo)  # the work tree holds the project (and more)
    for path in (root / "k.key", root / "results" / "k.key", root / "templates" / "k.key", repo / "other" / "k.key",
                 root / "site" / "k.key", root / "content" / ".." / "k2.key"):
        result = invoke("keys", "new", "test-b", "--private-key", path, "--root", root)
        assert result.exit_code == 2 and "git work tree" in result.output, (path, result.output)
        assert not path.exists()
    monkeypatch.chdir(root / "content")  # `cd content && tally keys new ...`: --root is "." there
    result = invoke("keys", "new", "t9", "--private-key", "t9.key")
    assert result.exit_code == 2 and "git work tree" in result.output
    assert not (root / "content" / "t9.key").exists() and not (root / "content" / "content").exists()
    monkeypatch.chdir(tmp_path)
    inside = root / "k.key"
    inside.write_text(key.read_text())
    os.chmod(inside, 0o600)
    used = invoke("commit", "r1", "--items", items_dir(root), "--key", inside, "--root", root)
    assert used.exit_code == 2 and "git work tree" in used.output
    rotated = invoke("keys", "rotate", "--old", inside, "--new", key, "--root", root)
    assert rotated.exit_code == 2 and "git work tree" in rotated.output
    outside = invoke("keys", "new", "test-b", "--private-key", tmp_path / "keys" / "b.key", "--root", root)
    assert outside.exit_code == 0, outside.output


def test_without_git_the_project_folder_is_refused(tmp_path):
    root, _ = make_project(tmp_path)
    for path in (root / "k.key", root / "results" / "k.key", root / "templates" / "k.key"):
        result = invoke("keys", "new", "test-b", "--private-key", path, "--root", root)
        assert result.exit_code == 2 and "project folder" in result.output, result.output
        assert not path.exists()
