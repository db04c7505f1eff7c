"""The committed example: both rounds verify with `tally verify` and with the commands readers run."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from test_commit_support import invoke, sh

from generator.commit.page import commitments_context

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"


def test_tally_verify_passes_on_the_repository():
    result = invoke("verify", "--root", ROOT)
    assert result.exit_code == 0, result.output
    assert " 0 failed" in result.output


def test_the_example_has_a_retired_and_a_current_round():
    rounds = {r["round"]: r for r in commitments_context(ROOT)}
    assert list(rounds) == ["2026-r0", "2026-r1"]
    r0, r1 = rounds["2026-r0"], rounds["2026-r1"]
    assert (r0["status"], r0["item_count"], r0["signer"]["key"], r0["signer"]["key_status"]) == \
        ("revealed-and-verified", 60, "example-2026a", "retired")
    assert (r1["status"], r1["item_count"], r1["signer"]["key"], r1["signer"]["key_status"]) == \
        ("committed", 360, "example-2026b", "active")
    assert r1["previous"]["round"] == "2026-r0" and r0["previous"]["round"] is None
    assert len(r0["item_files"]) == 60 and r1["item_files"] == []
    assert all("claim" in r["committed_at_label"] for r in rounds.values())


def test_reader_commands_pass_on_a_copy_and_are_on_the_page(tmp_path):
    for folder in ("commitments", "keys"):
        shutil.copytree(CONTENT / folder, tmp_path / folder)
    page = (CONTENT / "pages" / "commitments.md").read_text(encoding="utf-8")
    for r in commitments_context(ROOT):
        script = " && ".join(c["command"] for c in r["commands"])
        done = sh(script, tmp_path)
        assert done.returncode == 0, (script, done.stdout, done.stderr)
        out = done.stdout.decode() + done.stderr.decode()
        assert "Good \"tally-commitments-v1@tally.example\" signature" in out
        assert "Signature Verified Successfully" in out
        assert r["signer"]["fingerprint"] in out
        for c in r["commands"]:
            assert c["command"] in page, c["command"]


def test_retired_items_are_the_suites_private_items():
    suite_items = {}
    for path in sorted((CONTENT / "suites/extracting/items").glob("*.private.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        suite_items.update({r["id"]: (r, i) for i, r in enumerate(rows)})
    revealed = [json.loads(p.read_bytes())["item"] for p in (CONTENT / "commitments/2026-r0/items").iterdir()]
    assert len(revealed) == 60
    for item in revealed:
        original, position = suite_items[item["id"]]
        assert item == original and position < 10
    manifest = json.loads((CONTENT / "commitments/2026-r1/manifest.json").read_bytes())
    assert manifest["item_count"] == len(suite_items) == 360


def test_no_private_key_is_published():
    for path in CONTENT.rglob("*"):
        if path.is_file():
            assert b"PRIVATE KEY" not in path.read_bytes(), path


def test_gitattributes_mark_commitment_files_binary_safe():
    lines = (ROOT / ".gitattributes").read_text(encoding="utf-8").splitlines()
    assert "content/commitments/** -text" in lines and "content/keys/** -text" in lines
    if (ROOT / ".git").exists():
        probe = subprocess.run(["git", "check-attr", "text", "content/commitments/2026-r1/SHA256SUMS",
                                "content/keys/allowed_signers"], cwd=ROOT, capture_output=True, text=True)
        assert probe.stdout.count("text: unset") == 2, probe.stdout
