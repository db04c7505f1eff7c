"""The API key is read from the environment and never written: every stored byte is scanned for it."""

from __future__ import annotations

import secrets

from click.testing import CliRunner
from test_harness_support import LiveServer, harness_project, records  # noqa: F401

from generator.example.simmodels import Faults
from generator.harness.commands import run


def _scan(root, key: str) -> list[str]:
    hits = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and "content" not in path.relative_to(root).parts:
            data = path.read_bytes()
            if key.encode() in data or key[8:].encode() in data:
                hits.append(str(path))
    return hits


def _args(root, url, *extra):
    return ["extracting", "--model", "clean-1", "--provider", "keyed", "--root", str(root), "--limit", "30",
            "--base-url", url, *extra]


def test_the_key_is_sent_but_never_stored(harness_project, monkeypatch):
    root = harness_project
    key = "sk-test-" + secrets.token_hex(20)
    monkeypatch.setenv("TALLY_TEST_API_KEY", key)
    faults = Faults(rate_limit=0.2, malformed=0.1, wrong_model=0.1, timeout=0.05)
    with LiveServer(root, faults=faults, scale=0.0, api_key=key) as server:  # 401 without the key
        result = CliRunner().invoke(run, _args(root, server.url(), "--timeout", "0.5"), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    stored = records(root / "results" / "extracting" / "clean-1-keyed")
    assert len(stored) == 30 and all(a["status"] != 401 for r in stored for a in r["attempts"])
    assert any(r["response"] for r in stored)
    # a torn tail kept aside by a resume is scanned too
    with (root / "results" / "extracting" / "clean-1-keyed" / "responses.jsonl").open("ab") as fh:
        fh.write(b'{"item": "x", "req')
    with LiveServer(root, scale=0.0, api_key=key) as server:
        again = CliRunner().invoke(run, _args(root, server.url()), catch_exceptions=False)
    assert (root / "results" / "extracting" / "clean-1-keyed" / "responses.jsonl.torn").exists()
    assert _scan(root, key) == []
    assert key not in result.output + result.stderr + again.output + again.stderr
    text = "".join(p.read_text() for p in (root / "results").rglob("*") if p.is_file()).lower()
    assert "authorization" not in text and "bearer" not in text


def test_a_key_echoed_back_by_the_provider_is_redacted(harness_project, monkeypatch):
    root = harness_project
    key = "sk-test-" + secrets.token_hex(20)
    monkeypatch.setenv("TALLY_TEST_API_KEY", key)
    with LiveServer(root, scale=0.0, api_key="another-key-entirely") as server:  # 401 echoing the key sent
        result = CliRunner().invoke(run, _args(root, server.url(), "-q"), catch_exceptions=False)
    assert result.exit_code == 0
    stored = records(root / "results" / "extracting" / "clean-1-keyed")
    (attempt,) = stored[0]["attempts"]  # 401 is not retried
    assert attempt["status"] == 401 and "Incorrect API key provided: [redacted]" in attempt["body"]
    assert _scan(root, key) == []


def test_a_key_full_of_json_metacharacters_is_redacted_in_every_form():
    import json

    from generator.harness.client import BODY_KEEP_CHARS, ChatClient

    key = 'sk-"quoted"\\back\\slash</script>/\'{}'  # header values are ASCII; JSON escapes " and \\
    client = ChatClient("http://127.0.0.1:9/v1", key, ("m",))
    record = {"body": f"echo {key} and again {key}", "note": [key]}
    for line in (json.dumps(record), json.dumps(record, ensure_ascii=False)):
        scrubbed = client.scrub(line)
        for form in (key, json.dumps(key)[1:-1], json.dumps(key, ensure_ascii=False)[1:-1]):
            assert form not in scrubbed
        assert scrubbed.count("[redacted]") == 3
    # a key straddling the cut of a rejected body: redacted before the body is cut
    body = "x" * (BODY_KEEP_CHARS - 5) + key + "tail"
    kept = client.scrub(body[:BODY_KEEP_CHARS * 4 + 24 * len(key)])[:BODY_KEEP_CHARS]
    assert key[:5] not in kept and kept == "x" * (BODY_KEEP_CHARS - 5) + "[reda"
