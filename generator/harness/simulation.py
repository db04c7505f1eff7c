"""What a local simulation server's answers are made of, whatever it simulates: a `Reply` (send a
status and body after a delay, hang, or drop the connection), error bodies as the chat-completions
API writes them, and `Faults`, the extra faults injected per attempt at fixed rates, drawn from
their own seeded stream (429 with Retry-After, 500, 408, 400, hangs, dropped connections, malformed
bodies, a wrong model name, slow answers).

The simulations themselves (the example's simulated models, a suite's `local_simulation`) build on
these; the server (server.py) and `tally provider serve` need nothing else.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, fields

DEFAULT_SEED = 20261020
FAULT_STATUS = {"rate_limit": 429, "server_error": 500, "request_timeout": 408, "bad_request": 400}
SLOW_FACTOR = 10.0  # a `slow` fault: the answer this many times slower
RETRY_AFTER_S = 1.0  # what the server asks for on an injected 429


def seeded_rng(*parts: object) -> random.Random:
    """A random stream determined by `parts` (their text joined by U+001F, hashed)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


@dataclass(frozen=True)
class Faults:
    """Extra faults per attempt (rates from 0 to 1, drawn in this order from one number)."""

    rate_limit: float = 0.0  # 429 with Retry-After
    server_error: float = 0.0  # 500
    request_timeout: float = 0.0  # 408
    timeout: float = 0.0  # no answer until the client gives up
    disconnect: float = 0.0  # the connection closed without an answer
    malformed: float = 0.0  # 200 with the body cut short
    wrong_model: float = 0.0  # 200 naming another model
    slow: float = 0.0  # the answer, SLOW_FACTOR times slower
    bad_request: float = 0.0  # 400
    script: tuple[str | None, ...] = ()  # attempt n gets script[n] instead of a draw (tests)

    @classmethod
    def parse(cls, specs: list[str] | tuple[str, ...]) -> Faults:
        """From "kind=rate" strings, e.g. ["malformed=0.01", "timeout=0.002"]."""
        names = {f.name for f in fields(cls)} - {"script"}
        values: dict[str, float] = {}
        for spec in specs:
            kind, _, rate = spec.partition("=")
            if kind not in names:
                raise ValueError(f"unknown fault {kind!r}; known: {', '.join(sorted(names))}")
            try:
                values[kind] = float(rate)
            except ValueError:
                raise ValueError(f"fault {kind!r} needs a rate, as in {kind}=0.01") from None
            if not 0 <= values[kind] <= 1:
                raise ValueError(f"fault {kind!r}: the rate must be from 0 to 1")
        faults = cls(**values)  # type: ignore[arg-type]  # rates only: "script" is not a kind
        if sum(values.values()) > 1:
            raise ValueError("the fault rates add up to more than 1")
        return faults

    def draw(self, attempt: int, *key: object) -> str | None:
        """The fault of this attempt of the call named by `key`, or None."""
        if attempt < len(self.script):
            return self.script[attempt]
        u = seeded_rng(*key, attempt, "fault").random()
        for f in fields(self):
            if f.name == "script":
                continue
            u -= getattr(self, f.name)
            if u < 0:
                return f.name
        return None


@dataclass
class Reply:
    """What the server does: send `status` with `body` after `delay_s`, hang, or disconnect."""

    action: str  # "send" | "hang" | "disconnect"
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] | None = None
    delay_s: float = 0.0


def error_reply(status: int, message: str, kind: str, delay_s: float = 0.0,
                headers: dict[str, str] | None = None) -> Reply:
    """An error answer with the chat-completions API's error body."""
    body = json.dumps({"error": {"message": message, "type": kind}}).encode("utf-8")
    return Reply("send", status, body, headers, delay_s)
