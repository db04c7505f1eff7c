"""The committed example: both rounds verify with `tally verify` and with the commands readers run."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from test_commit_support import invoke, run_recipe

from generator.commit.page import commitments_context
from generator.commit.publish import publish_commitment_files
from generator.inputs.config import load_config

ROOT = Path(__file__).resolve().parents[1]


def invoke_main(*args):
    from click.testing import CliRunner

    from generator.cli import main

    return CliRunner().invoke(main, [str(a) for a in args])
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


def test_the_example_has_retired_and_current_rounds():
    rounds = {r["round"]: r for r in commitments_context(ROOT)}
    assert list(rounds) == ["2026-r0", "2026-r1", "2026-cortify-r1", "2026-cortify-r2", "2026-aubas-trial",
                            "2026-aubas-r1", "2026-rabench-r1", "2026-ls-r1", "2026-ls-r2", "2026-r3"]
    r0, r1 = rounds["2026-r0"], rounds["2026-r1"]
    assert (r0["status"], r0["item_count"], r0["signer"]["key"], r0["signer"]["key_status"]) == \
        ("revealed-and-verified", 60, "example-2026a", "retired")
    assert (r1["status"], r1["item_count"], r1["signer"]["key"], r1["signer"]["key_status"]) == \
        ("revealed-and-verified", 412, "example-2026b", "active")
    assert r0["signer"]["pinned"] and not r1["signer"]["pinned"]
    assert r0["previous"] is None and r1["previous"]["path"] == "2026-r0/reveal.json"
    assert len(r0["item_files"]) == 60 and len(r1["item_files"]) == 412
    assert all("claim" in r["committed_at_label"] for r in rounds.values())
    cortify = rounds["2026-cortify-r1"]
    assert (cortify["status"], cortify["item_count"], cortify["signer"]["key"]) == \
        ("revealed-and-verified", 15, "example-2026b")
    assert cortify["previous"]["path"] == "2026-r1/SHA256SUMS"
    current = rounds["2026-cortify-r2"]  # CortifyBench's new private seeds, 800,000-800,011: 12 per version
    assert (current["status"], current["item_count"], current["signer"]["key"]) == ("committed", 36, "example-2026b")
    assert current["previous"]["path"] == "2026-r1/reveal.json"
    for run_dir in sorted((ROOT / "results" / "cortifybench").iterdir()):
        assert json.loads((run_dir / "run.json").read_bytes())["round"] == "2026-cortify-r2"
    statement = json.loads((CONTENT / "commitments" / "2026-cortify-r2" / "responses.json").read_bytes())
    assert statement["records"] == 180 and len(statement["runs"]) == 5
    # au-bas's, RA-Bench's and LedgerShield's runs name rounds of their own suite, each committed with its
    # responses (LedgerShield's imported run holds public cases only)
    own = {"2026-aubas-trial": ("au-bas", 90, 2, 216), "2026-aubas-r1": ("au-bas", 90, 6, 648),
           "2026-rabench-r1": ("ra-bench", 192, 4, 768), "2026-ls-r2": ("ledgershield", 50, 3, 150),
           "2026-r3": ("extracting", 412, 2, 992)}  # the extracting runs of its anchor rounds
    # LedgerShield's version 3 round: its committed run ids now hold version 4's runs (round 2026-ls-r2)
    statement = json.loads((CONTENT / "commitments" / "2026-ls-r1" / "responses.json").read_bytes())
    assert rounds["2026-ls-r1"]["status"] == "committed" and statement["records"] == 150
    for name, (suite, items, runs, records) in own.items():
        assert (rounds[name]["status"], rounds[name]["item_count"]) == ("committed", items)
        statement = json.loads((CONTENT / "commitments" / name / "responses.json").read_bytes())
        assert statement["records"] == records and len(statement["runs"]) == runs
        named = [r for r in sorted((ROOT / "results" / suite).iterdir())
                 if json.loads((r / "run.json").read_bytes())["round"] == name
                 and b'"sealed"' in (r / "responses.jsonl").read_bytes()]
        assert sorted(r["run"] for r in statement["runs"]) == [r.name for r in named]


def test_the_retired_round_s_revealed_responses_rescore_to_the_published_private_scores(tmp_path):
    """CortifyBench's retired round: its private responses, committed when its results were published and
    revealed with its items, rescore with its own revealed items to exactly the sealed records it
    committed to, though results/ now holds the later round's runs under the same run ids (and today's
    items under the same ids are other tasks)."""
    from generator.commit.verify import verify

    folder = CONTENT / "commitments" / "2026-cortify-r1"
    statement = json.loads((folder / "responses.json").read_bytes())
    assert statement["records"] == 75 and len(statement["runs"]) == 5
    assert sorted(p.name for p in (folder / "responses").iterdir()) == sorted(f"{r['run']}.jsonl"
                                                                               for r in statement["runs"])
    revealed = {json.loads(p.read_bytes())["item"]["id"]: json.loads(p.read_bytes())["item"]
                for p in (folder / "items").glob("*.json")}
    today = {}
    for path in (CONTENT / "suites" / "cortifybench" / "items").glob("*.private.jsonl"):
        today.update({json.loads(line)["id"]: json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()})
    assert set(revealed) <= set(today) and all(revealed[i] != today[i] for i in revealed)
    checks = {c.name: c for c in verify(ROOT, "2026-cortify-r1")}
    assert all(c.ok for c in checks.values()), [str(c) for c in checks.values() if not c.ok]
    assert "all 75 revealed private responses rescore" in checks["responses rescored"].message
    assert "committed Merkle roots" in checks["responses rescored"].message
    assert "2026-cortify-r2" in checks["sealed results"].message
    # Without the later round's commitment, the runs under these ids are checked against this round again:
    # editing `round` in run.json never takes a run out of every commitment.
    project = tmp_path / "proj"
    shutil.copytree(CONTENT, project / "content")
    shutil.copytree(ROOT / "results" / "cortifybench", project / "results" / "cortifybench")
    shutil.copy(ROOT / "tally.toml", project / "tally.toml")
    shutil.copytree(ROOT / "plugins", project / "plugins")  # the plugin folders tally.toml names
    shutil.rmtree(project / "content" / "commitments" / "2026-cortify-r2")
    failed = {c.name for c in verify(project, "2026-cortify-r1").failed()}
    assert "sealed results" in failed


def test_the_current_round_s_private_responses_are_not_in_the_repository():
    for run_dir in sorted((ROOT / "results" / "extracting").iterdir()):
        for line in (run_dir / "responses.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "-prv-" in record["item"]:
                assert "sealed" in record and "request" not in record and "response" not in record
                assert record["sealed"]["item_commitment"] is None or len(record["sealed"]["item_commitment"]) == 64
    assert not (CONTENT / "commitments" / "2026-r1" / "responses").exists()


def test_the_page_recipe_passes_verbatim_on_the_published_example(tmp_path):
    values = readme_values()
    published = publish_commitment_files(ROOT, tmp_path)
    assert "keys/allowed_signers" in published and "commitments/2026-r0/reveal.json" in published
    assert not any(p.endswith("README.md") for p in published)
    done = run_recipe(tmp_path, values["PIN"], values["HEAD"], values["SITE"])
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("OK: 2 keys from the pinned key, 22 signed files")
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


def test_the_current_round_s_sealed_records_are_committed_and_its_exposed_items_retired():
    """2026-r1: a signed responses commitment covers every sealed record in results/extracting/ (verdicts
    included); its items, exposed in the project's history, are revealed with the responses withheld."""
    folder = CONTENT / "commitments" / "2026-r1"
    statement = json.loads((folder / "responses.json").read_bytes())
    assert statement["format"] == "tally-response-commitment-v2" and statement["records"] == 4464
    reveal = json.loads((folder / "reveal.json").read_bytes())
    assert "four commits" in reveal["responses_withheld"] and reveal["item_count"] == 412
    from generator.commit.verify import verify

    checks = verify(ROOT, "2026-r1")
    assert any(c.name == "sealed results" and c.ok and "verdicts and all" in c.message for c in checks)
    assert not checks.failed(), checks.failed()
