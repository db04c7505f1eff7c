"""`tally run` against a hostile or odd provider: oversized bodies, keys that are common words, a key
echoed in an accepted body, keys and base URLs that can't be used, and Retry-After waits without end."""

from __future__ import annotations

import asyncio
import json
import secrets

import httpx
import pytest
from click.testing import CliRunner
from test_harness_support import ScriptedServer, chat_body, harness_project, records  # noqa: F401

from generator.cli import main
from generator.harness import client as client_module
from generator.harness import store as store_module
from generator.harness.client import ChatClient, RetryPolicy
from generator.harness.commands import run
from generator.inputs.results import MAX_RECORD_BYTES

RUN_DIR = ("results", "extracting", "clean-1-testprov")


def _run(root, url: str, *extra: str, provider: str = "testprov"):
    args = ["extracting", "--model", "clean-1", "--provider", provider, "--root", str(root), "--base-url", url,
            "--concurrency", "1", "-q", *extra]
    return CliRunner().invoke(run, args, catch_exceptions=False)


def _texts(value: object):
    """Every string of a JSON value, its object keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v)


def _rescore(root):
    return CliRunner().invoke(main, ["rescore", "--root", str(root), "-q", "--out", str(root / "out")])


def test_the_body_cap_is_the_cap_rescore_enforces():
    assert client_module.MAX_BODY_BYTES == store_module.MAX_RECORD_BYTES == MAX_RECORD_BYTES


def test_a_body_over_the_cap_is_a_failed_attempt_never_read_whole(harness_project, monkeypatch):
    root = harness_project
    monkeypatch.setattr(client_module, "MAX_BODY_BYTES", 64 * 1024, raising=False)
    total = 48 * 2**20  # chunked, no length given: read as a stream and cut
    chunk = b"x" * 65536
    ok = json.dumps(chat_body()).encode()

    def reply(headers, request):
        number = server.requests
        if number == 2:
            head = b'{"model": "clean-1", "choices": [{"message": {"content": "'
            return 200, {"content-type": "application/json"}, iter([head] + [chunk] * (total // len(chunk)))
        if number == 4:  # a declared length over the cap: refused before reading
            return 200, {"content-length": str(2**31)}, b'{"model": "clean-1"}'
        return 200, {"content-type": "application/json"}, ok

    with ScriptedServer(reply) as server:
        result = _run(root, server.url(), "--limit", "6")
        sent = server.sent
    assert result.exit_code == 0, result.output
    assert "6 call(s) stored" in result.output and "2 failed" in result.output
    assert sent < 16 * 2**20  # the client stopped reading: the server could not write the 48 MiB
    stored = records(root.joinpath(*RUN_DIR))
    big = [r for r in stored if r["response"] is None]
    assert len(big) == 2 and len(stored) == 6
    for r in big:
        (attempt,) = r["attempts"]  # not retried
        assert attempt["status"] == 200 and attempt["error"].startswith("response too large: more than 65,536 bytes")
        assert "body" not in attempt
    assert root.joinpath(*RUN_DIR, "responses.jsonl").stat().st_size < 200_000
    rescored = _rescore(root)
    assert rescored.exit_code == 0, rescored.output


def test_a_record_over_the_rescore_cap_is_stored_without_its_response(harness_project, monkeypatch):
    root = harness_project
    monkeypatch.setattr(store_module, "MAX_RECORD_BYTES", 20_000, raising=False)  # the body passes the body cap
    # 1e5 is 3 bytes as sent but 100000.0 as stored: the stored record grows past the cap
    big = json.dumps(chat_body(numbers=[1e5] * 2000)).replace("100000.0", "1e5").encode()
    ok = json.dumps(chat_body()).encode()
    assert len(big) < 20_000

    with ScriptedServer(lambda h, r: (200, {}, big if server.requests == 1 else ok)) as server:
        result = _run(root, server.url(), "--limit", "3")
    assert result.exit_code == 0, result.output
    assert "3 call(s) stored" in result.output and "1 failed" in result.output
    lines = root.joinpath(*RUN_DIR, "responses.jsonl").read_bytes().splitlines()
    assert all(len(line) <= 20_000 for line in lines)
    first = json.loads(lines[0])
    assert first["response"] is None and first["usage"] is None
    assert first["attempts"][-1]["error"].startswith("response too large: its record would be ")
    assert _rescore(root).exit_code == 0


@pytest.mark.parametrize("key", ["null", "acme", "ollama"])
def test_a_key_that_is_a_common_word_never_rewrites_a_record(harness_project, monkeypatch, key):
    root = harness_project
    monkeypatch.setenv("TALLY_TEST_API_KEY", key)
    body = chat_body(content='{"vendor": "acme-lynx-1", "total": null, "via": "ollama"}', id="chatcmpl-null",
                     system_fingerprint="fp_ollama", note=None, service="acme-lynx-1")
    seen = []

    def reply(headers, request):
        seen.append(headers.get("authorization"))
        return 200, {"content-type": "application/json"}, json.dumps(body).encode()

    with ScriptedServer(reply) as server:
        result = _run(root, server.url("keyed"), "--limit", "3", provider="keyed")
    assert result.exit_code == 0, result.output
    assert seen == [f"Bearer {key}"] * 3  # the key was sent
    run_dir = root / "results" / "extracting" / "clean-1-keyed"
    lines = (run_dir / "responses.jsonl").read_text(encoding="utf-8").splitlines()
    stored = [json.loads(line) for line in lines]  # every line is valid JSON
    assert len(stored) == 3 and all(r["response"] == body for r in stored)  # the body as the provider sent it
    assert all(r["attempts"][0]["error"] is None for r in stored)
    for path in [p for p in run_dir.rglob("*") if p.is_file()]:
        text = path.read_text(encoding="utf-8")
        assert "[redacted]" not in text and f"Bearer {key}" not in text and "authorization" not in text.lower()
    for r in stored:  # no text the harness wrote holds the key (the provider's body and the suite's request may)
        assert not [t for t in _texts({k: v for k, v in r.items() if k not in ("response", "request")}) if key in t]
    if key == "null":  # the key that made invalid JSON: the run is scorable
        assert _rescore(root).exit_code == 0


@pytest.mark.parametrize("escaped", [False, True])
def test_an_accepted_body_echoing_a_secret_key_is_refused_not_rewritten(harness_project, monkeypatch, escaped):
    root = harness_project
    key = "sk-test-" + secrets.token_hex(20)
    monkeypatch.setenv("TALLY_TEST_API_KEY", key)

    def reply(headers, request):
        echoed = headers["authorization"].removeprefix("Bearer ")
        text = json.dumps(chat_body(id=echoed))
        if escaped:  # \\u escapes: not in the bytes, but in the parsed body
            text = text.replace(echoed, "".join(f"\\u{ord(c):04x}" for c in echoed))
            assert key not in text
        return 200, {}, text.encode()

    with ScriptedServer(reply) as server:
        result = _run(root, server.url("keyed"), "--limit", "2", provider="keyed")
    assert result.exit_code == 0, result.output
    stored = records(root / "results" / "extracting" / "clean-1-keyed")
    for r in stored:
        (attempt,) = r["attempts"]
        assert r["response"] is None and attempt["error"].startswith("the response holds the API key")
        assert "[redacted]" in attempt["body"] or escaped
    for path in [p for p in root.rglob("*") if p.is_file() and "content" not in p.relative_to(root).parts]:
        data = path.read_bytes()
        assert key.encode() not in data and key[8:].encode() not in data


@pytest.mark.parametrize("key", ["sk-tëst-123456", "sk-test 123", "sk-test\t123", "sk-test-123\n", "ключ"])
def test_a_key_an_http_header_cannot_carry_is_a_clear_error(harness_project, monkeypatch, key):
    root = harness_project
    monkeypatch.setenv("TALLY_TEST_API_KEY", key)
    result = _run(root, "http://127.0.0.1:9/keyed/v1", "--limit", "1", provider="keyed")
    assert result.exit_code == 2
    assert "TALLY_TEST_API_KEY" in result.stderr and "not printable ASCII" in result.stderr
    assert key.strip() not in result.output + result.stderr and "Traceback" not in result.output
    assert not (root / "results").exists()


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/v1", "gopher://x", "http://", "http:///v1",
                                 "127.0.0.1:9/v1", "http://exa mple.com/v1", "http://127.0.0.1:99999/v1",
                                 "http://127.0.0.1:9/\x1b[31m", "javascript:alert(1)", ""])
def test_a_base_url_that_is_not_http_is_refused(harness_project, url):
    root = harness_project
    result = _run(root, url, "--limit", "1")
    assert result.exit_code == 2, result.output
    assert "--base-url" in result.stderr and "Traceback" not in result.output
    assert not (root / "results").exists()


def _call_against(url: str, policy: RetryPolicy, slept: list[float]):
    async def fake_sleep(seconds: float) -> None:
        slept.append(seconds)

    async def go():
        async with ChatClient(url, None, ("clean-1",), policy, 1, sleep=fake_sleep) as client:
            return await client.call({"model": "clean-1", "messages": []})
    return asyncio.run(go())


@pytest.mark.parametrize("asked, waits", [("300", [300.0]), ("120", [120.0, 120.0]), ("99", [99.0, 99.0, 99.0]),
                                          ("86400", [300.0])])
def test_retry_after_waits_add_up_to_at_most_the_total_budget(asked, waits):
    slept: list[float] = []
    with ScriptedServer(lambda h, r: (429, {"retry-after": asked}, b'{"error": "slow down"}')) as server:
        result = _call_against(server.url(), RetryPolicy(timeout_s=5), slept)
    assert slept == result.waits_s == waits and sum(slept) <= 300
    assert len(result.attempts) == len(waits) + 1 and result.failed
    assert all(a["status"] == 429 for a in result.attempts)


def test_the_wait_budget_is_scaled_with_the_other_durations():
    assert RetryPolicy().wait_total_max_s == 300 and RetryPolicy().scaled(0.5).wait_total_max_s == 150
    slept: list[float] = []
    with ScriptedServer(lambda h, r: (503, {}, b"busy")) as server:  # backoff waits count too
        result = _call_against(server.url(), RetryPolicy(timeout_s=5, backoff_base_s=40, backoff_max_s=200,
                                                         wait_total_max_s=100), slept)
    assert sum(slept) <= 100 and len(result.attempts) == len(slept) + 1 < 4


def test_a_streamed_body_is_read_whole_below_the_cap():
    async def go():
        transport = httpx.MockTransport(lambda request: httpx.Response(200, content=b"y" * 5000))
        async with httpx.AsyncClient(transport=transport) as http:
            async with http.stream("GET", "http://x/") as response:
                return await client_module.read_capped(response, 5000)
    assert asyncio.run(go()) == b"y" * 5000
