"""The trust anchor: tally.toml's [commitments] trust and `tally verify --trust`; keys count only when
reached from the pinned root through signed rotations, whatever keys.json and allowed_signers say."""

from __future__ import annotations

import json
import shutil

import pytest
from nacl.signing import SigningKey
from test_commit_support import (
    failed_checks,
    fingerprint_of,
    invoke,
    items_dir,
    make_project,
    pin,
)

from generator.commit.keyfiles import fingerprint, spki_pem
from generator.inputs.config import ConfigError, commitments_settings, load_config


def commit(root, name, key, date):
    result = invoke("commit", name, "--items", items_dir(root), "--key", key, "--root", root, "--committed-at", date)
    assert result.exit_code == 0, result.output


def test_load_config_reads_and_checks_the_commitments_section(tmp_path):
    assert load_config(tmp_path) == {} and commitments_settings({}) == {"trust": None}
    fp = "SHA256:" + "A" * 43
    (tmp_path / "tally.toml").write_text(f'[commitments]\ntrust = "{fp}"\n\n[other]\nx = 1\n')
    config = load_config(tmp_path)
    assert config["other"] == {"x": 1} and commitments_settings(config) == {"trust": fp}
    bad = {
        "[commitments\n": "cannot read it",
        "commitments = 3\n": "must be a table",
        '[commitments]\ntrusted = "x"\n': "unknown key(s) ['trusted']",
        '[commitments]\ntrust = "MD5:aa:bb"\n': "must be an SSH key fingerprint",
        "[commitments]\ntrust = 5\n": "must be an SSH key fingerprint",
    }
    for text, message in bad.items():
        (tmp_path / "tally.toml").write_text(text)
        with pytest.raises(ConfigError) as err:
            load_config(tmp_path)
        assert str(tmp_path / "tally.toml") in str(err.value) and message in str(err.value), text


def test_bad_settings_and_options_are_usage_errors(tmp_path):
    root, _ = make_project(tmp_path)
    bad_trust = invoke("verify", "--root", root, "--trust", "not-a-fingerprint")
    assert bad_trust.exit_code == 2 and "--trust" in bad_trust.output
    bad_head = invoke("verify", "--root", root, "--head", "abc")
    assert bad_head.exit_code == 2 and "--head" in bad_head.output
    (root / "tally.toml").write_text("[commitments]\ntrust = 1\n")
    bad_file = invoke("verify", "--root", root)
    assert bad_file.exit_code == 2 and "tally.toml" in bad_file.output


def test_without_a_pin_nothing_is_trusted(tmp_path):
    root, key = make_project(tmp_path)
    commit(root, "r1", key, "2026-05-01T00:00:00Z")
    (root / "tally.toml").unlink()
    result = invoke("verify", "--root", root)
    assert result.exit_code == 1 and "no key is pinned" in result.output
    pinned = invoke("verify", "--root", root, "--trust", fingerprint_of(root, "test-a"))
    assert pinned.exit_code == 0, pinned.output


def test_a_pin_on_the_command_line_must_agree_with_tally_toml(tmp_path):
    root, _ = make_project(tmp_path)
    other = fingerprint(bytes(SigningKey.generate().verify_key))
    failures = failed_checks(root, trust=other)
    assert any("tally.toml pins" in f and other in f for f in failures)
    assert any("no .pub file in content/keys/ holds the pinned key" in f for f in failures)


def test_replaced_keys_fail_even_when_every_file_agrees(tmp_path):
    root, key = make_project(tmp_path / "real")
    commit(root, "r1", key, "2026-05-01T00:00:00Z")
    real_pin = fingerprint_of(root, "test-a")
    evil, evil_key = make_project(tmp_path / "evil")
    commit(evil, "r1", evil_key, "2026-05-01T00:00:00Z")
    for folder in ("keys", "commitments"):
        shutil.rmtree(root / "content" / folder)
        shutil.copytree(evil / "content" / folder, root / "content" / folder)
    assert failed_checks(evil) == []  # self-consistent: only the pin tells them apart
    assert any("holds the pinned key" in f for f in failed_checks(root, trust=real_pin))
    pin(root, fingerprint_of(evil, "test-a"))  # an attacker who can also edit tally.toml ...
    assert invoke("verify", "--root", root, "--trust", real_pin).exit_code == 1  # ... is caught by --trust


def test_a_new_key_needs_a_signed_rotation(tmp_path):
    root, key_a = make_project(tmp_path)
    key_b = tmp_path / "secret" / "test-b.key"
    made = invoke("keys", "new", "test-b", "--private-key", key_b, "--root", root)
    assert made.exit_code == 0 and "Not trusted yet" in made.output
    failures = failed_checks(root)
    assert any("test-b.pub holds key" in f and "not reached from the pinned key" in f for f in failures)
    assert any("allowed_signers" in f and "not reached" in f for f in failures)
    rotated = invoke("keys", "rotate", "--old", key_a, "--new", key_b, "--date", "2026-06-01T00:00:00Z",
                     "--root", root)
    assert rotated.exit_code == 0, rotated.output
    assert failed_checks(root) == []
    commit(root, "r1", key_b, "2026-07-01T00:00:00Z")
    assert failed_checks(root) == []
    early = invoke("commit", "r2", "--items", items_dir(root), "--key", key_b, "--root", root,
                   "--committed-at", "2026-05-01T00:00:00Z")
    assert early.exit_code == 0
    assert any("before the rotation of 2026-06-01T00:00:00Z that hands over" in f for f in failed_checks(root))


def test_edited_keys_json_and_a_stray_pem_fail(tmp_path):
    root, _ = make_project(tmp_path)
    keys = root / "content" / "keys"
    stray = bytes(SigningKey.generate().verify_key)
    (keys / "extra.pem").write_text(spki_pem(stray))
    assert any("extra.pem holds key" in f for f in failed_checks(root))
    (keys / "extra.pem").unlink()
    registry = json.loads((keys / "keys.json").read_text())
    registry["keys"][0]["status"] = "retired"
    (keys / "keys.json").write_text(json.dumps(registry))
    assert any("keys.json says 'retired'" in f for f in failed_checks(root))
