"""A stored response record to an outcome: a failed call, an unparseable answer, or an answer object."""

from __future__ import annotations

from dataclasses import dataclass

from .jsonfind import first_object

FAILED = "failed_call"
UNPARSEABLE = "unparseable"
ANSWER = "answer"


@dataclass(frozen=True)
class Outcome:
    status: str  # FAILED | UNPARSEABLE | ANSWER
    answer: dict | None
    reason: str


def _success_status(status: object) -> bool:
    if isinstance(status, bool) or not isinstance(status, (int, float)):
        return False
    return 200 <= status <= 299 and status == int(status)


def _call_failed(record: dict) -> str | None:
    attempts = record.get("attempts")
    if not isinstance(attempts, list) or not attempts or not isinstance(attempts[-1], dict):
        return "no attempt recorded"
    last = attempts[-1]
    error = last.get("error")
    if error is not None and error != "":
        return f"last attempt failed: {str(error)[:80]}"
    status = last.get("status")
    if not _success_status(status):
        return f"last attempt returned HTTP status {status!r}"
    if not isinstance(record.get("response"), dict):
        return "no response body"
    return None


def message_content(body: dict) -> str | None:
    """choices[0].message.content when it is a string, else None."""
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message")
    if not isinstance(message, dict):
        return None
    content = message.get("content")
    return content if isinstance(content, str) else None


def read_content(record: dict) -> str | Outcome:
    """The message content of a successful call, or the outcome when there is no content to read (a
    failed call, no message content): everything of the record an outcome depends on."""
    failure = _call_failed(record)
    if failure is not None:
        return Outcome(FAILED, None, failure)
    content = message_content(record["response"])
    if content is None:
        return NO_CONTENT
    return content


NO_CONTENT = Outcome(UNPARSEABLE, None, "no message content")


def content_outcome(content: str, extract=first_object, what: str = "complete JSON object") -> Outcome:
    """The outcome of a message content: `extract(content)` is the suite's rule for finding the answer
    object (None: there is none)."""
    answer = extract(content)
    if answer is None:
        return Outcome(UNPARSEABLE, None, f"no {what} in the content")
    return Outcome(ANSWER, answer, "")


def read_outcome(record: dict, extract=first_object, what: str = "complete JSON object") -> Outcome:
    """`extract(content)` is the suite's rule for finding the answer object (None: there is none)."""
    got = read_content(record)
    return got if isinstance(got, Outcome) else content_outcome(got, extract, what)
