"""The committed example's preregistrations: the extracting and LedgerShield suites were preregistered before
their example results were made; the other suites are not, and their suite pages say so."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.commit.keyfiles import fingerprint, parse_pub_line
from generator.commit.prereg import STATEMENT, prereg_dir, prereg_folders, status
from generator.commit.sshsig import verify
from generator.errors import ErrorLog
from generator.inputs.content import load_suite

ROOT = Path(__file__).resolve().parents[1]
PREREGISTERED = ("extracting", "ledgershield")


def _version(suite: str) -> str:
    loaded = load_suite(ROOT / "content" / "suites" / suite, ErrorLog(ROOT))
    assert loaded is not None
    return loaded.version


def _time(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _statement(suite: str) -> dict:
    return json.loads((prereg_dir(ROOT, suite, _version(suite)) / STATEMENT).read_bytes())


def test_exactly_the_extracting_and_ledgershield_suites_are_preregistered_at_their_current_versions():
    found = [(p.parent.name, p.name) for p in prereg_folders(ROOT)]
    assert {suite for suite, _ in found} == set(PREREGISTERED)
    assert all((s, _version(s)) in found for s in PREREGISTERED)  # earlier versions' statements stay as history
    assert sorted(v for s, v in found if s == "ledgershield") == ["1", "2", "3", "4"]  # its rules changed thrice


def test_tally_verify_passes_and_reports_both_preregistrations():
    result = CliRunner().invoke(main, ["verify", "--root", str(ROOT)])
    assert result.exit_code == 0, result.output
    for suite in PREREGISTERED:
        lines = [line for line in result.output.splitlines() if f"prereg {suite} {_version(suite)}:" in line]
        checks = {line.split(":", 2)[1].strip(): line for line in lines}
        assert set(checks) >= {"statement", "signature", "files unchanged", "runs after it"}, lines
        assert all(line.startswith("ok") for line in lines), lines
        runs = len(list((ROOT / "results" / suite).iterdir()))
        assert f"{runs} run(s) of this version, all dated after it" in checks["runs after it"]


def test_the_statements_are_signed_by_the_current_key_and_a_changed_statement_does_not_verify():
    keys = {k["name"]: k for k in json.loads((ROOT / "content/keys/keys.json").read_bytes())["keys"]}
    for suite in PREREGISTERED:
        folder = prereg_dir(ROOT, suite, _version(suite))
        stmt = _statement(suite)
        signer = keys[stmt["signer"]["key"]]
        assert signer["status"] == "active" and signer["fingerprint"] == stmt["signer"]["fingerprint"]
        signature = (folder / "prereg.json.sig").read_text(encoding="ascii")
        pub = verify(signature, (folder / STATEMENT).read_bytes(), stmt["signer"]["namespace"])
        assert pub == parse_pub_line((ROOT / "content/keys" / f"{signer['name']}.pub").read_text(encoding="utf-8"))
        assert fingerprint(pub) == signer["fingerprint"]
        tampered = (folder / STATEMENT).read_bytes().replace(b'"registered_at":"2', b'"registered_at":"1', 1)
        assert tampered != (folder / STATEMENT).read_bytes()
        with pytest.raises(ValueError, match="does not match"):
            verify(signature, tampered, stmt["signer"]["namespace"])


def test_every_extracting_and_ledgershield_run_is_dated_after_its_preregistration():
    for suite in PREREGISTERED:
        registered = _time(_statement(suite)["registered_at"])
        run_dirs = sorted(p for p in (ROOT / "results" / suite).iterdir() if p.is_dir())
        assert len(run_dirs) >= 3
        for run_dir in run_dirs:
            meta = json.loads((run_dir / "run.json").read_bytes())
            assert meta["suite_version"] == _version(suite)
            assert _time(meta["started"]) > registered, run_dir.name
            imported = bool(meta.get("imported"))  # stored by `tally import` from another harness's files
            for line in (run_dir / "responses.jsonl").read_text(encoding="utf-8").splitlines():
                for attempt in json.loads(line)["attempts"]:
                    if attempt.get("start") is None:  # an imported episode: no request was sent by Tally
                        assert imported, (run_dir.name, line[:80])
                        continue
                    assert _time(attempt["start"]) > registered, (run_dir.name, line[:80])
        st = status(ROOT, prereg_dir(ROOT, suite, _version(suite)))
        assert st.changed == [] and st.runs_before == [] and st.problems == []
        assert sorted(st.runs_after) == [p.name for p in run_dirs]


def _suite_page(site: Path, suite: str) -> str:
    return (site / "suites" / suite / "index.html").read_text(encoding="utf-8")


def test_the_built_example_s_suite_pages_link_the_statements_and_the_others_say_there_is_none():
    from site_support import full_example_site

    site = full_example_site()
    suites = sorted(p.name for p in (ROOT / "content" / "suites").iterdir() if (p / "suite.toml").is_file())
    assert set(PREREGISTERED) < set(suites)
    for suite in suites:
        page = _suite_page(site, suite)
        para = html.unescape(re.search(r'<p id="prereg">(.*?)</p>', page, flags=re.DOTALL).group(1))
        if suite in PREREGISTERED:
            stmt = _statement(suite)
            href = re.search(r'href="([^"]+)"', para).group(1)
            target = (site / "suites" / suite / href).resolve()
            assert target == (site / "prereg" / suite / _version(suite) / STATEMENT).resolve()
            assert target.read_bytes() == (prereg_dir(ROOT, suite, _version(suite)) / STATEMENT).read_bytes()
            assert para.startswith("Preregistered:") and stmt["registered_at"] in para
            assert "Every run of this version is dated after it, under unchanged rules." in para
            assert 'class="flag"' not in page.split('<p id="prereg">', 1)[1].split("<nav", 1)[0]
        else:
            assert para.startswith(f"Not preregistered: no signed statement fixes the rules of version "
                                   f"{_version(suite)}"), para
            assert "href" not in para
