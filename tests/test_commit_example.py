"""The committed example: both rounds verify with `tally verify` and with the commands readers run."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from test_commit_support import invoke, run_recipe

from generator.commit.page import commitments_context
from generator.commit.publish import publish_commitment_files
from generator.config import load_config

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"


def readme_values() -> dict[str, str]:
    """PIN, HEAD and SITE as the README publishes them for the example."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return dict(re.findall(r"^(PIN|HEAD|SITE)=(\S+)$", text, flags=re.MULTILINE))


def test_tally_verify_passes_on_the_repository_with_the_published_pin_and_head():
    values = readme_values()
    assert set(values) == {"PIN", "HEAD", "SITE"}
    result = invoke("verify", "--root", ROOT, "--trust", values["PIN"], "--head", values["HEAD"])
    assert result.exit_code == 0, result.output
    assert " 0 failed" in result.output and f"end at the published head {values['HEAD']}" in result.output
    assert invoke("verify", "--root", ROOT).exit_code == 0  # the pin from tally.toml


def test_the_pin_is_in_tally_toml_and_the_readme_and_once_on_the_site():
    values = readme_values()
    assert load_config(ROOT)["commitments"]["trust"] == values["PIN"]
    rounds = commitments_context(ROOT)
    assert rounds.trust["fingerprint"] == values["PIN"] and rounds.head == values["HEAD"]
    assert "README" in rounds.trust["where"]
    page = (CONTENT / "pages" / "commitments.md").read_text(encoding="utf-8")
    assert values["PIN"] not in page and values["HEAD"] not in page  # the site shows them in one place only
    assert "README" in page


def test_the_example_has_a_retired_and_a_current_round():
    rounds = {r["round"]: r for r in commitments_context(ROOT)}
    assert list(rounds) == ["2026-r0", "2026-r1"]
    r0, r1 = rounds["2026-r0"], rounds["2026-r1"]
    assert (r0["status"], r0["item_count"], r0["signer"]["key"], r0["signer"]["key_status"]) == \
        ("revealed-and-verified", 60, "example-2026a", "retired")
    assert (r1["status"], r1["item_count"], r1["signer"]["key"], r1["signer"]["key_status"]) == \
        ("committed", 412, "example-2026b", "active")
    assert r0["signer"]["pinned"] and not r1["signer"]["pinned"]
    assert r0["previous"] is None and r1["previous"]["path"] == "2026-r0/reveal.json"
    assert len(r0["item_files"]) == 60 and r1["item_files"] == []
    assert all("claim" in r["committed_at_label"] for r in rounds.values())


def test_the_page_recipe_passes_verbatim_on_the_published_example(tmp_path):
    values = readme_values()
    published = publish_commitment_files(ROOT, tmp_path)
    assert "keys/allowed_signers" in published and "commitments/2026-r0/reveal.json" in published
    assert not any(p.endswith("README.md") for p in published)
    done = run_recipe(tmp_path, values["PIN"], values["HEAD"], values["SITE"])
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("OK: 2 keys from the pinned key, 3 signed files")
    stale = run_recipe(tmp_path, values["PIN"], "0" * 64, values["SITE"])
    assert stale.returncode != 0 and b"was removed" in stale.stderr


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
    assert manifest["item_count"] == len(suite_items) == 412


def test_no_private_key_is_published():
    for path in CONTENT.rglob("*"):
        if path.is_file():
            assert b"PRIVATE KEY" not in path.read_bytes(), path


def test_gitattributes_mark_commitment_files_binary_safe():
    lines = (ROOT / ".gitattributes").read_text(encoding="utf-8").splitlines()
    assert "content/commitments/** -text" in lines and "content/keys/** -text" in lines
    if (ROOT / ".git").exists():
        probe = subprocess.run(["git", "check-attr", "text", "content/commitments/2026-r1/SHA256SUMS",
                                "content/keys/allowed_signers"], cwd=ROOT, capture_output=True, text=True, check=False)
        assert probe.stdout.count("text: unset") == 2, probe.stdout
