"""Shared helpers for the commitment tests: a small project with keys made in a temporary folder.

Nothing here uses the repository's example key (its private half does not exist anywhere).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import click
from click.testing import CliRunner

from generator.commit import commands

SUITE_TOML = 'name = "extracting"\ntitle = "Extracting"\nversion = "0.3"\nscorer = "extracting"\n'
PRINCIPAL = "test-a@tally.example"
NAMESPACE = "tally-commitments-v1@tally.example"


@click.group()
def cli() -> None:
    """The commitment commands on a group of their own, as generator/cli.py registers them."""


for _command in (commands.keys, commands.commit, commands.reveal, commands.verify):
    cli.add_command(_command)


def invoke(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


def item(i: int, half: str = "private") -> dict:
    return {"id": f"r-{half[:3]}-{i:04d}", "dataset": "receipts", "half": half, "strata": {"locale": "en-US"},
            "document": {"text": f"Total {i},234.56", "locale": "en-US", "currency": "USD",
                         "reference_date": "2026-10-20"},
            "fields": [{"name": "total", "type": "money", "kind": "printed", "answer": f"{i}234.56"},
                       {"name": "count", "type": "count", "kind": "printed", "answer": i},
                       {"name": "tax_id", "type": "identifier", "kind": "missing", "answer": None}]}


def make_project(base: Path, n_private: int = 9) -> tuple[Path, Path]:
    """A project with `n_private` private and two public items and one active key; returns (root, key)."""
    root = base / "proj"
    items = root / "content" / "suites" / "extracting" / "items"
    items.mkdir(parents=True)
    (items.parent / "suite.toml").write_text(SUITE_TOML, encoding="utf-8")
    for half, n in (("private", n_private), ("public", 2)):
        rows = [item(i, half) for i in range(1, n + 1)]
        (items / f"receipts.{half}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    key = base / "secret" / "test-a.key"
    result = invoke("keys", "new", "test-a", "--private-key", key, "--root", root)
    assert result.exit_code == 0, result.output
    return root, key


def items_dir(root: Path) -> Path:
    return root / "content" / "suites" / "extracting" / "items"


def round_dir(root: Path, name: str) -> Path:
    return root / "content" / "commitments" / name


def copy_project(root: Path, dest: Path) -> Path:
    shutil.copytree(root, dest / "proj", symlinks=True)
    return dest / "proj"


def sh(command: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """Run a reader's shell command with bash (for process substitution) in `cwd`."""
    return subprocess.run(["bash", "-c", command], cwd=cwd, input=stdin, capture_output=True, timeout=60)


def ssh_verify(round_path: Path, principal: str = PRINCIPAL, namespace: str = NAMESPACE) -> subprocess.CompletedProcess:
    keys = round_path.parents[1] / "keys"
    return sh(f"ssh-keygen -Y verify -f {keys}/allowed_signers -I {principal} -n {namespace} "
              f"-s SHA256SUMS.sig < SHA256SUMS", round_path)


def openssl_verify(round_path: Path, pem: Path) -> subprocess.CompletedProcess:
    return sh(f"base64 -d SHA256SUMS.ed25519 > s.bin && openssl pkeyutl -verify -pubin -inkey {pem} "
              f"-rawin -in SHA256SUMS -sigfile s.bin", round_path)


def failed_checks(root: Path, round_name: str | None = None) -> list[str]:
    from generator.commit.verify import verify

    return [str(c) for c in verify(root, round_name).failed()]


def test_support_project_builds(tmp_path):
    root, key = make_project(tmp_path, n_private=3)
    assert (key.stat().st_mode & 0o777) == 0o600
    assert failed_checks(root) == []
