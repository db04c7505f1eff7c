"""`tally prereg`: a signed statement of a suite version's rules before any run; `tally verify` checks it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.commit.prereg import prereg_dir, status
from generator.commit.publish import publishable


def tally(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def project(tmp_path: Path) -> tuple[Path, Path]:
    """A scaffolded suite `demo` (version from the scaffold) with no run yet, and a pinned key."""
    root = tmp_path / "proj"
    assert tally("suite", "new", "demo", "--root", root).exit_code == 0
    shutil.move(root / "results" / "demo", tmp_path / "scaffold-results")  # its example run, kept aside
    key = tmp_path / "secret" / "k.key"
    made = tally("keys", "new", "k1", "--private-key", key, "--root", root)
    assert made.exit_code == 0, made.output
    fp = json.loads((root / "content/keys/keys.json").read_text())["keys"][0]["fingerprint"]
    with (root / "tally.toml").open("a", encoding="utf-8") as fh:
        fh.write(f'\n[commitments]\ntrust = "{fp}"\n')
    return root, key


def version(root: Path) -> str:
    import tomllib

    return tomllib.loads((root / "content/suites/demo/suite.toml").read_text())["version"]


def add_run(root: Path, run_id: str, started: str) -> None:
    folder = root / "results" / "demo" / run_id
    folder.mkdir(parents=True)
    meta = {"format": 1, "suite": "demo", "suite_version": version(root), "run_id": run_id, "model": run_id,
            "provider": "example", "hosting": "self-hosted", "simulated": True, "started": started,
            "finished": started, "half": "public", "round": "example"}
    (folder / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    (folder / "responses.jsonl").write_text("", encoding="utf-8")


def test_prereg_signs_then_verify_reports_a_changed_rule_page_and_early_runs(tmp_path):
    root, key = project(tmp_path)
    made = tally("prereg", "demo", "--key", key, "--registered-at", "2026-11-01T09:00:00Z", "--root", root)
    assert made.exit_code == 0, made.output
    folder = prereg_dir(root, "demo", version(root))
    stmt = json.loads((folder / "prereg.json").read_text())
    names = set(stmt["files"]["sha256"])
    assert {"content/pages/scoring-demo.md", "content/suites/demo/suite.toml", "content/suites/demo/prompt.toml",
            "project/plugins/demo/__init__.py", "project/plugins/demo/scorer.js", "scorer-b/core.js"} <= names
    assert stmt["statistics"]["resamples"] >= 100 and stmt["signer"]["namespace"].startswith("tally-prereg-v1@")

    add_run(root, "after", "2026-11-02T09:00:00Z")
    ok = tally("verify", "--root", root)
    assert ok.exit_code == 0, ok.output
    assert "prereg demo" in ok.output and "1 run(s) of this version, all dated after it" in ok.output

    again = tally("prereg", "demo", "--key", key, "--root", root)
    assert again.exit_code != 0 and "already exists" in again.output

    page = root / "content/pages/scoring-demo.md"
    page.write_text(page.read_text() + "\nA rule added after the preregistration.\n", encoding="utf-8")
    add_run(root, "before", "2026-10-01T09:00:00Z")
    bad = tally("verify", "--root", root)
    assert bad.exit_code == 1
    assert "content/pages/scoring-demo.md: changed" in bad.output
    assert "dated before the preregistration: before" in bad.output
    st = status(root, folder)
    assert st.changed == ["content/pages/scoring-demo.md: changed"] and st.runs_before == ["before"]


def test_prereg_is_refused_once_a_run_of_the_version_exists(tmp_path):
    root, key = project(tmp_path)
    add_run(root, "early", "2026-10-01T09:00:00Z")
    refused = tally("prereg", "demo", "--key", key, "--root", root)
    assert refused.exit_code == 2 and "already exist" in refused.output
    assert not prereg_dir(root, "demo", version(root)).exists()


def test_a_tampered_statement_fails_its_signature(tmp_path):
    root, key = project(tmp_path)
    assert tally("prereg", "demo", "--key", key, "--root", root).exit_code == 0
    path = prereg_dir(root, "demo", version(root)) / "prereg.json"
    path.write_bytes(path.read_bytes().replace(b'"registered_at":"2', b'"registered_at":"1'))
    bad = tally("verify", "--root", root)
    assert bad.exit_code == 1 and "FAIL  prereg demo" in bad.output and "signature" in bad.output


def test_the_site_publishes_statements_only():
    assert publishable(("prereg", "demo", "0.1", "prereg.json"))
    assert publishable(("prereg", "demo", "0.1", "prereg.json.sig"))
    assert not publishable(("prereg", "demo", "0.1", "notes.txt"))


def test_the_suite_page_links_the_statement_and_marks_early_runs_and_changed_rules(tmp_path):
    root, key = project(tmp_path)
    assert tally("prereg", "demo", "--key", key, "--registered-at", "2026-11-01T09:00:00Z", "--root", root).exit_code == 0
    run = root / "results" / "demo" / "example-echo"
    shutil.copytree(tmp_path / "scaffold-results" / "example-echo", run)
    meta = json.loads((run / "run.json").read_text()) | {"suite_version": version(root),
                                                          "started": "2026-10-01T00:00:00Z"}
    (run / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    page = root / "content/pages/scoring-demo.md"
    page.write_text(page.read_text() + "\nChanged.\n", encoding="utf-8")
    built = tally("site", "build", "--root", root, "--resamples", "200")
    assert built.exit_code == 0, built.output
    html = (root / "site/suites/demo/index.html").read_text()
    v = version(root)
    assert f'href="../../prereg/demo/{v}/prereg.json"' in html
    assert "Made before the preregistration: example-echo" in html
    assert "content/pages/scoring-demo.md: changed" in html
    assert (root / f"site/prereg/demo/{v}/prereg.json.sig").is_file()


def test_verify_never_imports_the_project_s_plugins(tmp_path):
    """A plugin is code of the project being checked: verify hashes its files as bytes, never runs them."""
    root, key = project(tmp_path)
    assert tally("prereg", "demo", "--key", key, "--root", root).exit_code == 0
    marker = tmp_path / "ran"
    init = root / "plugins" / "demo" / "__init__.py"
    folder = prereg_dir(root, "demo", version(root))
    trap = f"open({str(marker)!r}, 'w').write('imported')\n"
    init.write_text(trap + init.read_text(), encoding="utf-8")
    (root / "plugins" / "other.py").write_text(trap + "raise SystemExit(3)\n", encoding="utf-8")
    fp = json.loads((root / "content/keys/keys.json").read_text())["keys"][0]["fingerprint"]
    result = tally("verify", "--root", root, "--trust", fp)
    assert not marker.exists(), "tally verify imported a plugin of the project it checks"
    assert result.exit_code == 1 and "project/plugins/demo/__init__.py: changed" in result.output
    assert "project/plugins/other.py: added" in result.output
    assert status(root, folder).changed == ["project/plugins/demo/__init__.py: changed",
                                            "project/plugins/other.py: added"]


def _bump(root: Path, new: str) -> None:
    toml = root / "content/suites/demo/suite.toml"
    old = version(root)
    toml.write_text(toml.read_text().replace(f'version = "{old}"', f'version = "{new}"'), encoding="utf-8")


def test_raising_the_version_with_changed_rules_is_reported(tmp_path):
    """Runs are scored by today's files whatever version they name: the old statement must still match
    while its runs are stored, and a version with no statement is reported."""
    root, key = project(tmp_path)
    assert tally("prereg", "demo", "--key", key, "--registered-at", "2026-11-01T09:00:00Z", "--root", root).exit_code == 0
    old = version(root)
    add_run(root, "after", "2026-11-02T09:00:00Z")
    page = root / "content/pages/scoring-demo.md"
    page.write_text(page.read_text() + "\nA changed rule.\n", encoding="utf-8")
    _bump(root, old + "9")
    bad = tally("verify", "--root", root)
    assert bad.exit_code == 1, bad.output
    assert f"version {old}9 (current) has no statement" in bad.output
    assert "content/pages/scoring-demo.md: changed" in bad.output  # the runs of the old version use it


def test_the_shared_scoring_code_is_hashed(tmp_path, monkeypatch):
    """generator/score/, generator/parse/ and scorer B's runner decide verdicts too: a change is reported."""
    import generator.commit.prereg as prereg

    root, key = project(tmp_path)
    shared = {name: p for name, p in prereg.shared_files().items()}
    assert {"tally/generator/score/verdicts.py", "tally/generator/parse/response.py", "tally/scorer-js/cli.js"} <= set(shared)
    copy = tmp_path / "verdicts.py"
    copy.write_bytes(shared["tally/generator/score/verdicts.py"].read_bytes())
    monkeypatch.setattr(prereg, "shared_files", lambda: shared | {"tally/generator/score/verdicts.py": copy})
    assert tally("prereg", "demo", "--key", key, "--root", root).exit_code == 0
    stmt = json.loads((prereg_dir(root, "demo", version(root)) / "prereg.json").read_text())
    assert stmt["format"] == "tally-prereg-v2" and "tally/generator/score/verdicts.py" in stmt["files"]["sha256"]
    assert tally("verify", "--root", root).exit_code == 0
    copy.write_text(copy.read_text() + "\n# a change\n")
    bad = tally("verify", "--root", root)
    assert bad.exit_code == 1 and "tally/generator/score/verdicts.py: changed" in bad.output


def test_a_v1_statement_still_verifies_and_resign_keeps_its_date(tmp_path, monkeypatch):
    import generator.commit.prereg as prereg

    root, key = project(tmp_path)
    monkeypatch.setattr(prereg, "PREREG_FORMAT", prereg.PREREG_FORMAT_V1)
    assert tally("prereg", "demo", "--key", key, "--registered-at", "2026-11-01T09:00:00Z", "--root", root).exit_code == 0
    monkeypatch.undo()
    folder = prereg_dir(root, "demo", version(root))
    assert json.loads((folder / "prereg.json").read_text())["format"] == "tally-prereg-v1"
    add_run(root, "after", "2026-11-02T09:00:00Z")
    ok = tally("verify", "--root", root)
    assert ok.exit_code == 0 and "does not hash the shared scoring code" in ok.output
    page = root / "content/pages/scoring-demo.md"
    page.write_text(page.read_text() + "\nChanged.\n", encoding="utf-8")
    assert tally("verify", "--root", root).exit_code == 1
    assert tally("prereg", "demo", "--key", key, "--root", root).exit_code == 2  # exists, runs exist
    again = tally("prereg", "demo", "--key", key, "--resign", "--root", root)
    assert again.exit_code == 0, again.output
    stmt = json.loads((folder / "prereg.json").read_text())
    assert stmt["format"] == "tally-prereg-v2" and stmt["registered_at"] == "2026-11-01T09:00:00Z"
    assert stmt["resigned_at"] > "2026-11-02"
    ok = tally("verify", "--root", root)
    assert ok.exit_code == 0 and "signed again on" in ok.output


def _manual_check(folder: Path, pub: Path, site: str) -> int:
    """The by-hand check of docs/formats.md, verbatim, with the statement's signing key's .pub."""
    import re
    import subprocess

    docs = (Path(__file__).resolve().parents[1] / "docs" / "formats.md").read_text(encoding="utf-8")
    block = re.search(r"Check it by hand, pinning the signer.*?```sh\n(.*?)```", docs, flags=re.DOTALL).group(1)
    (folder / "keys").mkdir(exist_ok=True)
    shutil.copy(pub, folder / "keys" / "example-2026b.pub")
    done = subprocess.run(["sh", "-c", "set -e\n" + block], cwd=folder, env={"PATH": "/usr/bin:/bin", "SITE": site},
                          capture_output=True, check=False)
    return done.returncode


def test_the_manual_check_pins_the_signer(tmp_path):
    from nacl.signing import SigningKey

    from generator.commit import sshsig

    root, key = project(tmp_path)
    assert tally("prereg", "demo", "--key", key, "--root", root).exit_code == 0
    folder = prereg_dir(root, "demo", version(root))
    pub = next((root / "content/keys").glob("*.pub"))
    stmt = json.loads((folder / "prereg.json").read_text())
    site = stmt["signer"]["namespace"].split("@", 1)[1]
    assert _manual_check(folder, pub, site) == 0
    redated = (folder / "prereg.json").read_bytes().replace(b'"registered_at":"2', b'"registered_at":"1')
    (folder / "prereg.json").write_bytes(redated)
    (folder / "prereg.json.sig").write_text(sshsig.sign(SigningKey.generate(), redated, stmt["signer"]["namespace"]))
    assert _manual_check(folder, pub, site) != 0  # a fresh key's signature is not "Good"


def test_prereg_version_signs_an_older_versions_statement_again(tmp_path):
    """`tally prereg --version V`: an older version's statement is signed again over its own file hashes
    (today's files are another version's), keeping its claimed date and recording when; a version with no
    statement cannot be signed (its files are gone); the current version signs as without the option."""
    root, key = project(tmp_path)
    old = version(root)
    assert tally("prereg", "demo", "--key", key, "--registered-at", "2026-11-01T09:00:00Z", "--root", root).exit_code == 0
    folder = prereg_dir(root, "demo", old)
    before = json.loads((folder / "prereg.json").read_text())
    _bump(root, old + "9")
    page = root / "content/pages/scoring-demo.md"
    page.write_text(page.read_text() + "\nThe new version's rule.\n", encoding="utf-8")
    made = tally("prereg", "demo", "--key", key, "--version", old + "9", "--root", root)
    assert made.exit_code == 0, made.output
    assert (prereg_dir(root, "demo", old + "9") / "prereg.json").is_file()
    again = tally("prereg", "demo", "--key", key, "--version", old, "--root", root)
    assert again.exit_code == 0, again.output
    after = json.loads((folder / "prereg.json").read_text())
    assert after["files"] == before["files"] and after["statistics"] == before["statistics"]  # not today's files
    assert after["registered_at"] == "2026-11-01T09:00:00Z" and after["suite_version"] == old
    assert after["resigned_at"] > "2026-11-02" and "resigned_at" not in before
    ok = tally("verify", "--root", root)  # both statements' signatures verify; no run of the old version
    assert ok.exit_code == 0 and "signed again on" in ok.output, ok.output
    tampered = (folder / "prereg.json").read_bytes().replace(b"2026-11-01T09:00:00Z", b"2026-10-01T09:00:00Z")
    (folder / "prereg.json").write_bytes(tampered)
    assert tally("verify", "--root", root).exit_code == 1  # a changed body fails the new signature
    missing = tally("prereg", "demo", "--key", key, "--version", "0.0.1", "--root", root)
    assert missing.exit_code == 2 and "does not exist" in missing.output
