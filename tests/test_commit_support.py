"""Shared helpers for the commitment tests: a small project with keys made in a temporary folder.

Nothing here uses the repository's example key (its private half does not exist anywhere).
"""

from __future__ import annotations

import json
import os
import re
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
    pin(root, fingerprint_of(root, "test-a"))
    return root, key


def fingerprint_of(root: Path, name: str) -> str:
    return next(k["fingerprint"] for k in json.loads((root / "content/keys/keys.json").read_text())["keys"]
                if k["name"] == name)


def pin(root: Path, fp: str) -> None:
    """Pin the root key in the project's tally.toml, as an operator does after the first `tally keys new`."""
    (root / "tally.toml").write_text(f'[commitments]\ntrust = "{fp}"\n', encoding="utf-8")


def items_dir(root: Path) -> Path:
    return root / "content" / "suites" / "extracting" / "items"


def round_dir(root: Path, name: str) -> Path:
    return root / "content" / "commitments" / name


def copy_project(root: Path, dest: Path) -> Path:
    shutil.copytree(root, dest / "proj", symlinks=True)
    return dest / "proj"


def sh(command: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """Run a reader's shell command with bash (for process substitution) in `cwd`."""
    return subprocess.run(["bash", "-c", command], cwd=cwd, input=stdin, capture_output=True, timeout=60, check=False)


def ssh_verify(round_path: Path, principal: str = PRINCIPAL, namespace: str = NAMESPACE) -> subprocess.CompletedProcess:
    keys = round_path.parents[1] / "keys"
    return sh(f"ssh-keygen -Y verify -f {keys}/allowed_signers -I {principal} -n {namespace} "
              f"-s SHA256SUMS.sig < SHA256SUMS", round_path)


def openssl_verify(round_path: Path, pem: Path) -> subprocess.CompletedProcess:
    return sh(f"base64 -d SHA256SUMS.ed25519 > s.bin && openssl pkeyutl -verify -pubin -inkey {pem} "
              f"-rawin -in SHA256SUMS -sigfile s.bin", round_path)


def failed_checks(root: Path, round_name: str | None = None, **kw) -> list[str]:
    from generator.commit.verify import verify

    return [str(c) for c in verify(root, round_name, **kw).failed()]


PAGE = Path(__file__).resolve().parents[1] / "content" / "pages" / "commitments.md"


def page_recipe() -> str:
    """The shell code blocks of the commitments page, verbatim and in order."""
    text = PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"^```sh\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)
    assert blocks, "no ```sh block on the commitments page"
    return "".join(blocks)


def run_recipe(folder: Path, pin: str, head: str | None, site: str = "tally.example") -> subprocess.CompletedProcess:
    """Run the page's recipe with POSIX sh in `folder` (holding commitments/ and keys/), with the values a
    reader takes from outside the site."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "PIN": pin, "HEAD": head or "",
           "SITE": site}
    return subprocess.run(["sh", "-c", page_recipe()], cwd=folder, env=env, capture_output=True, timeout=120,
                          check=False)


def test_support_project_builds(tmp_path):
    root, key = make_project(tmp_path, n_private=3)
    assert (key.stat().st_mode & 0o777) == 0o600
    assert failed_checks(root) == []
