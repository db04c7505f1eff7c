"""The client against a real local server: what is retried, how long it waits, pinning, timeouts."""

from __future__ import annotations

import asyncio
import datetime as dt
import socket

import httpx
import pytest
from test_harness_support import CLEAN, LiveServer, harness_project  # noqa: F401

from generator.example.profiles import Profile
from generator.example.simmodels import Faults
from generator.harness.client import ChatClient, RetryPolicy, retry_after_s
from generator.parse.response import UNPARSEABLE, read_outcome

FAST = RetryPolicy(timeout_s=5.0, backoff_base_s=0.02, backoff_max_s=1.0)


def call(server: LiveServer, policy: RetryPolicy = FAST, model: str = "clean-1", item: int = 0,
         accepted: tuple[str, ...] | None = None, url: str | None = None):
    body = {"model": model, "messages": server.plan.messages(server.plan.items[item]), "temperature": 0}

    async def go():
        async with ChatClient(url or server.url(), None, accepted or (model,), policy, 4, True) as client:
            return await client.call(body, 0)
    return asyncio.run(go())


def kinds(result) -> list[tuple]:
    return [(a["status"], a["error"]) for a in result.attempts]


def _t(stamp: str) -> dt.datetime:
    return dt.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ")


def test_a_clean_call_is_one_attempt_with_its_measured_latency(harness_project):
    with LiveServer(harness_project, scale=10.0) as server:  # the server sleeps about 50 ms
        result = call(server)
    assert kinds(result) == [(200, None)] and not result.retried and not result.failed
    assert result.response["model"] == "clean-1"
    assert result.latency_ms == result.attempts[-1]["latency_ms"] >= 30


def test_429_is_retried_after_the_wait_the_server_asks_for(harness_project):
    faults = Faults(script=("rate_limit", None))
    with LiveServer(harness_project, faults=faults, scale=0.3) as server:  # Retry-After 1 s x 0.3
        result = call(server)
    assert kinds(result) == [(429, None), (200, None)]
    assert result.waits_s == [pytest.approx(0.3)]
    first, second = result.attempts
    gap = (_t(second["start"]) - _t(first["start"])).total_seconds() * 1000 - first["latency_ms"]
    assert gap >= 295
    assert "injected fault" in first["body"]


def test_retry_after_header_forms():
    assert retry_after_s(httpx.Headers({"retry-after": "2"}), 60) == 2
    assert retry_after_s(httpx.Headers({"retry-after": "2", "retry-after-ms": "150"}), 60) == 0.15
    assert retry_after_s(httpx.Headers({"retry-after": "3600"}), 60) == 60  # capped
    assert retry_after_s(httpx.Headers({"retry-after": "soon"}), 60) is None
    assert retry_after_s(httpx.Headers({}), 60) is None
    when = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=30)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert 25 <= retry_after_s(httpx.Headers({"retry-after": when}), 60) <= 31


def test_5xx_and_408_are_retried_with_exponential_backoff(harness_project):
    faults = Faults(script=("server_error", "request_timeout", None))
    with LiveServer(harness_project, faults=faults) as server:
        result = call(server, RetryPolicy(timeout_s=5, backoff_base_s=0.1, backoff_max_s=10))
    assert kinds(result) == [(500, None), (408, None), (200, None)]
    assert 0.05 <= result.waits_s[0] <= 0.1 and 0.1 <= result.waits_s[1] <= 0.2


def test_three_retries_then_the_call_is_a_failed_call(harness_project):
    with LiveServer(harness_project, faults=Faults(server_error=1.0)) as server:
        result = call(server)
    assert kinds(result) == [(500, None)] * 4 and result.response is None and result.failed


def test_network_errors_are_retried(harness_project):
    with LiveServer(harness_project, faults=Faults(script=("disconnect", None))) as server:
        result = call(server)
    assert result.attempts[0]["status"] is None and result.attempts[0]["error"].startswith("network")
    assert kinds(result)[1:] == [(200, None)]
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with LiveServer(harness_project) as server:
        result = call(server, url=f"http://127.0.0.1:{port}/testprov/v1")
    assert kinds(result) == [(None, "connect")] * 4 and result.failed


def test_timeouts_are_retried_and_timed(harness_project):
    with LiveServer(harness_project, faults=Faults(script=("timeout", None))) as server:
        result = call(server, RetryPolicy(timeout_s=0.3, backoff_base_s=0.01))
    assert kinds(result) == [(None, "timeout"), (200, None)]
    assert 290 <= result.attempts[0]["latency_ms"] < 3000


def test_a_400_is_not_retried(harness_project):
    with LiveServer(harness_project, faults=Faults(script=("bad_request", None))) as server:
        result = call(server)
    assert kinds(result) == [(400, None)] and result.response is None and result.failed


def test_a_wrong_answer_is_a_result_not_retried(harness_project):
    broken = Profile(run_id="broken-testprov", model="broken-1", provider="testprov", summary="cut short.",
                     started="2026-11-01T00:00:00Z", latency_median_ms=5, truncated=1.0)
    with LiveServer(harness_project, profiles=[broken]) as server:
        result = call(server, model="broken-1")
    assert kinds(result) == [(200, None)] and not result.failed
    assert result.response["choices"][0]["finish_reason"] == "length"
    record = {"attempts": result.attempts, "response": result.response}
    assert read_outcome(record).status == UNPARSEABLE


def test_a_response_naming_another_model_is_an_error_never_accepted(harness_project):
    with LiveServer(harness_project, faults=Faults(script=("wrong_model", None))) as server:
        result = call(server)
        accepted = call(server, accepted=("clean-1", "clean-1-fallback"))
    (attempt,) = result.attempts  # not retried
    assert attempt["status"] == 200 and attempt["error"] == "wrong model: 'clean-1-fallback'"
    assert result.response is None and result.failed and '"clean-1-fallback"' in attempt["body"]
    assert accepted.response["model"] == "clean-1-fallback"  # a served_as name is the same pinned model


def test_a_malformed_body_is_an_error_not_retried(harness_project):
    with LiveServer(harness_project, faults=Faults(script=("malformed", None))) as server:
        result = call(server)
    assert kinds(result) == [(200, "malformed body")] and result.response is None
    assert result.attempts[0]["body"].startswith('{"id": "chatcmpl-')


def test_slow_answers_are_measured(harness_project):
    with LiveServer(harness_project, faults=Faults(script=("slow",)), scale=10.0) as server:
        result = call(server)
    assert kinds(result) == [(200, None)] and result.latency_ms >= 300  # about 50 ms x 10
