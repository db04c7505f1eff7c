"""One chat-completions call with the harness's retry and pinning rules, every attempt recorded.

- Transport failures are retried up to `max_retries` times (so at most 1 + 3 attempts): network
  errors, timeouts, HTTP 408, 429 and 5xx. Nothing else is retried: a 4xx, a malformed body, a
  response naming another model and a wrong answer are all results.
- Before a retry the harness waits what the provider asked for (`retry-after-ms`, else
  `Retry-After` in seconds or as an HTTP date, capped at `retry_after_max_s`), else an
  exponential backoff with jitter: half of min(backoff_max_s, backoff_base_s * 2**n) plus a
  uniform draw up to the other half. The waits of one call add up to at most `wait_total_max_s`
  (300 s): a retry whose wait would go past it is not made, and the call is a failed call.
- A response body is read as a stream and never beyond `MAX_BODY_BYTES` (the most a stored record
  may hold, which `tally rescore` enforces): a longer one is an error ("response too large"),
  recorded without its body and not retried. A declared Content-Length above it is refused unread.
- Models are pinned: a 2xx body whose `model` is neither the requested model nor one of its
  `served_as` names is recorded as an error ("wrong model: ...") and never accepted.
- Each attempt has a wall-time limit (`timeout_s`, 180 s by default). Latency is the wall time of
  the final attempt, from sending the request to reading the whole body.
- The API key goes only into the Authorization header. The texts of a failed attempt (its error and
  the excerpt of a rejected body, which may echo the header) have it redacted (`scrub`); an accepted
  body is never rewritten: one that holds a key of KEY_ECHO_MIN_CHARS or more (a provider echoing
  the header) is not accepted but recorded as an error, its excerpt redacted. A shorter key (such as
  the placeholder a local server ignores: `ollama`) is no secret in a response.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import email.utils
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from ..inputs.results import MAX_RECORD_BYTES
from .store import record_line

BODY_KEEP_CHARS = 8000  # of a rejected body kept in its attempt
MAX_BODY_BYTES = MAX_RECORD_BYTES  # a longer response body is not read (read at each call: tests lower it)
KEY_ECHO_MIN_CHARS = 16  # a key this long is a secret: an accepted body holding it is refused
POOL_SIZE = 8  # connections per httpx pool: its bookkeeping grows with the square of the pool size


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 3
    timeout_s: float = 180.0
    backoff_base_s: float = 1.0
    backoff_max_s: float = 60.0
    retry_after_max_s: float = 300.0
    wait_total_max_s: float = 300.0  # all the waits of one call together

    def scaled(self, scale: float) -> "RetryPolicy":
        """Every duration multiplied by `scale` (the example runs against a sped-up simulation)."""
        return RetryPolicy(self.max_retries, self.timeout_s * scale, self.backoff_base_s * scale,
                           self.backoff_max_s * scale, self.retry_after_max_s * scale,
                           self.wait_total_max_s * scale)


@dataclass
class CallResult:
    attempts: list[dict]
    response: dict | None
    latency_ms: float | None
    waits_s: list[float] = field(default_factory=list)

    @property
    def retried(self) -> bool:
        return len(self.attempts) > 1

    @property
    def failed(self) -> bool:
        last = self.attempts[-1]
        return self.response is None or last["error"] is not None


def retryable(status: int | None, error: str | None) -> bool:
    if error is not None:
        return error == "timeout" or error.startswith(("network", "connect"))
    return status is not None and (status in (408, 429) or 500 <= status <= 599)


def now_stamp() -> str:
    t = dt.datetime.now(dt.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def retry_after_s(headers: httpx.Headers, cap_s: float) -> float | None:
    """The wait the provider asked for, in seconds, or None."""
    value: float | None = None
    if (ms := headers.get("retry-after-ms")) is not None:
        try:
            value = float(ms) / 1000
        except ValueError:
            value = None
    if value is None and (text := headers.get("retry-after")) is not None:
        try:
            value = float(text)
        except ValueError:
            try:
                when = email.utils.parsedate_to_datetime(text)
                value = (when - dt.datetime.now(dt.timezone.utc)).total_seconds()
            except (TypeError, ValueError):
                value = None
    if value is None or value != value:  # absent, unreadable or NaN
        return None
    return min(max(value, 0.0), cap_s)


def pinning_error(body: dict, accepted: tuple[str, ...]) -> str | None:
    """Why a 2xx body can't be accepted for a model pinned to `accepted[0]`, or None."""
    named = body.get("model")
    if not isinstance(named, str) or not named:
        return "wrong model: the response names no model"
    if named not in accepted:
        return f"wrong model: {named[:100]!r}"
    return None


def parse_body(raw: bytes) -> dict | None:
    """The JSON object of a response body, or None when it is not one."""
    def reject(name: str):
        raise ValueError(name)
    try:
        value = json.loads(raw.decode("utf-8"), parse_constant=reject)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


class TooLarge(Exception):
    """The response body is longer than the cap."""


async def read_capped(response: httpx.Response, limit: int) -> bytes:
    """The whole (decoded) body of a streamed response, or TooLarge as soon as it passes `limit` bytes."""
    declared = response.headers.get("content-length", "")
    if declared.strip().isdigit() and int(declared) > limit and "content-encoding" not in response.headers:
        raise TooLarge
    raw = bytearray()
    async for chunk in response.aiter_bytes():
        raw += chunk
        if len(raw) > limit:
            raise TooLarge
    return bytes(raw)


class ChatClient:
    """Calls one provider's /chat/completions with the retry and pinning rules above."""

    def __init__(self, base_url: str, api_key: str | None, accepted_models: tuple[str, ...],
                 policy: RetryPolicy = RetryPolicy(), concurrency: int = 8,
                 simulation_headers: bool = False, rng: random.Random | None = None,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self._key = api_key
        self.accepted = accepted_models
        self.policy = policy
        self.simulation_headers = simulation_headers
        self.rng = rng or random.Random()
        self.sleep = sleep
        headers = {"content-type": "application/json"}
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        # one pool per POOL_SIZE workers ("lanes"), so a worker never waits for a connection
        lanes = max(1, -(-concurrency // POOL_SIZE))
        limits = httpx.Limits(max_connections=POOL_SIZE, max_keepalive_connections=POOL_SIZE)
        self._pools = [httpx.AsyncClient(headers=headers, limits=limits, trust_env=False,
                                         timeout=httpx.Timeout(policy.timeout_s + 5.0)) for _ in range(lanes)]

    async def __aenter__(self) -> "ChatClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        for pool in self._pools:
            await pool.aclose()

    def _key_forms(self) -> list[str]:
        """The API key as it is and in each form JSON may escape it to, longest first."""
        if not self._key or len(self._key) < 4:
            return []
        forms = {self._key, json.dumps(self._key, ensure_ascii=False)[1:-1], json.dumps(self._key)[1:-1]}
        return sorted(forms, key=lambda f: (-len(f), f))

    def scrub(self, text: str) -> str:
        """`text` (an error text or the excerpt of a rejected body: never a stored request or accepted
        body) with the API key replaced, in every form JSON may escape it to."""
        for form in self._key_forms():
            text = text.replace(form, "[redacted]")
        return text

    def echoes_key(self, body: dict) -> bool:
        """Whether an accepted body holds the key, when the key is long enough to be a secret."""
        if not self._key or len(self._key) < KEY_ECHO_MIN_CHARS:
            return False
        text = record_line(body).decode("utf-8")  # as the store would write it
        return any(form in text for form in self._key_forms())

    def _backoff_s(self, retry: int) -> float:
        cap = min(self.policy.backoff_max_s, self.policy.backoff_base_s * 2 ** retry)
        return cap / 2 + self.rng.uniform(0, cap / 2)

    async def _attempt(self, http: httpx.AsyncClient, content: bytes, repeat: int,
                       number: int) -> tuple[dict, dict | None, float | None]:
        """One attempt: (attempt record, accepted body or None, Retry-After seconds or None)."""
        headers = {}
        if self.simulation_headers:
            headers = {"x-tally-repeat": str(repeat), "x-tally-attempt": str(number)}
        attempt: dict[str, Any] = {"start": now_stamp(), "status": None, "error": None, "latency_ms": None}
        started = time.perf_counter()
        body: dict | None = None
        wait: float | None = None
        raw: bytes | None = None
        try:
            async with asyncio.timeout(self.policy.timeout_s):
                async with http.stream("POST", self.url, content=content, headers=headers) as response:
                    try:
                        raw = await read_capped(response, MAX_BODY_BYTES)
                    except TooLarge:
                        attempt["error"] = (f"response too large: more than {MAX_BODY_BYTES:,} bytes, the most a "
                                            "stored record may hold (not read further, not stored)")
        except (TimeoutError, httpx.TimeoutException):
            attempt["error"] = "timeout"
        except httpx.ConnectError:
            attempt["error"] = "connect"
        except httpx.TransportError as exc:
            attempt["error"] = f"network: {type(exc).__name__}"
        else:
            attempt["status"] = response.status_code
            if raw is not None and 200 <= response.status_code <= 299:
                body = parse_body(raw)
                problem = "malformed body" if body is None else pinning_error(body, self.accepted)
                if body is not None and problem is None and self.echoes_key(body):
                    problem = "the response holds the API key (redacted in its excerpt; not accepted)"
                if problem is not None:
                    attempt["error"], body = problem, None
            if body is None and raw is not None:  # redacted before it is cut, so no part of a key survives the cut
                window = BODY_KEEP_CHARS * 4 + 24 * len(self._key or "")
                attempt["body"] = self.scrub(raw[:window].decode("utf-8", "replace"))[:BODY_KEEP_CHARS]
            wait = retry_after_s(response.headers, self.policy.retry_after_max_s)
        attempt["latency_ms"] = round((time.perf_counter() - started) * 1000, 1)
        if attempt["error"] is not None:
            attempt["error"] = self.scrub(attempt["error"])
        return attempt, body, wait

    async def call(self, body: dict, repeat: int = 0, lane: int = 0) -> CallResult:
        """POST `body` (the request exactly as stored), retrying transport failures. Worker n
        calls with lane=n, so that at most POOL_SIZE workers share a connection pool."""
        content = json.dumps(body, ensure_ascii=False).encode("utf-8")
        http = self._pools[(lane // POOL_SIZE) % len(self._pools)]
        result = CallResult([], None, None)
        for number in range(self.policy.max_retries + 1):
            attempt, accepted, wait = await self._attempt(http, content, repeat, number)
            result.attempts.append(attempt)
            result.latency_ms, result.response = attempt["latency_ms"], accepted
            if not retryable(attempt["status"], attempt["error"]) or number == self.policy.max_retries:
                break
            delay = wait if wait is not None else self._backoff_s(number)
            if sum(result.waits_s) + delay > self.policy.wait_total_max_s:
                break  # the call has waited (or would wait) all it may: a failed call
            result.waits_s.append(delay)
            await self.sleep(delay)
        return result
