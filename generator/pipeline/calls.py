"""Operations figures of each stored call: outcome, error, attempts, latency, usage, refusal.

One row per (run, item, repeat) in `calls.csv`, for latency quantiles, cost and error rates.
"""

from __future__ import annotations

from ..parse.response import Outcome

CALL_COLUMNS = ("run", "item", "repeat", "outcome", "error", "status", "attempts", "retried", "latency_ms",
                "prompt_tokens", "completion_tokens", "finish_reason", "refusal")


def _int_or_blank(value: object) -> int | str:
    return value if type(value) is int and value >= 0 else ""


def call_row(run: str, record: dict, outcome: Outcome | str) -> tuple:
    """The row of one stored call; `outcome` is its Outcome or the Outcome's status."""
    attempts = record["attempts"]
    last = attempts[-1]
    error = last.get("error")
    status = last.get("status")
    latency = record.get("latency_ms")
    stored_usage = record.get("usage")
    usage: dict = stored_usage if isinstance(stored_usage, dict) else {}
    finish = ""
    refusal: int | str = ""
    body = record.get("response")
    if isinstance(body, dict) and isinstance(body.get("choices"), list) and body["choices"]:
        first = body["choices"][0]
        choice: dict = first if isinstance(first, dict) else {}
        reason = choice.get("finish_reason")
        finish = reason if isinstance(reason, str) else ""
        stored_message = choice.get("message")
        message: dict = stored_message if isinstance(stored_message, dict) else {}
        text = message.get("refusal")
        refusal = int(isinstance(text, str) and text.strip() != "")
    status_of = outcome if isinstance(outcome, str) else outcome.status
    return (run, record["item"], record["repeat"], status_of,
            str(error)[:80] if error not in (None, "") else "",
            status if type(status) is int else "", len(attempts), int(len(attempts) > 1),
            repr(float(latency)) if latency is not None else "",
            _int_or_blank(usage.get("prompt_tokens")), _int_or_blank(usage.get("completion_tokens")),
            finish[:40], refusal)


MISSING = "no stored response"  # the error of the call row of an item a run has no stored response for


def missing_row(run: str, item: str) -> tuple:
    return (run, item, 0, "failed_call", MISSING, "", 0, 0, "", "", "", "", "")
