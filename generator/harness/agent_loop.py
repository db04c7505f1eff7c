"""One tool-calling episode: a model works a case through a suite's tool environment (such as an AP desk).

The request carries the environment's tool definitions (`tools`); every tool call of a response
is one step: the desk's answer goes back as a `role: tool` message (with the call's id), and a
pressure event due after that step as a user message. The episode ends at the first
`submit_decision` call, when a response has no tool call, after `max_steps` steps, or when a call
fails for good (transport failures are retried by the client, nothing else is).

A malformed tool call is never a crash: a name that is not a string is no tool (`unknown_tool`),
arguments that are not a JSON object go into the trace as they are (`bad_payload`), exactly as the
replay grades them. Every turn is appended to turns.jsonl before the next one starts (resume goes
on from the last stored turn); the episode's record in responses.jsonl holds the episode the
harness assembled from the tool calls as the content of its `response` (object "tally.episode"),
which is what rescoring reads and replays.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .client import ChatClient
from .turnlog import TurnLog

SUBMIT = "submit_decision"
DEFAULT_MAX_STEPS = 40


class Environment(Protocol):
    """What the loop needs from a suite (its `tool_environment`): the tool definitions, the desk's
    answer to the last step of a trace, and the pressure events due after n steps (with their text)."""

    TOOL_DEFINITIONS: tuple[dict, ...]

    def answer(self, env: object, trace: list) -> dict: ...

    def answer_text(self, reply: dict) -> str: ...

    def pressure_due(self, env: object, steps_done: int) -> list[dict]: ...

    def pressure_text(self, event: dict) -> str: ...

    def tools_sha256(self) -> str: ...

    def carrier(self, items: list[dict], stored: list[Path]) -> Carrier: ...


class Carrier(Protocol):
    """What an environment carries from one stored episode to the next (a suite's rule page says what):
    `stamp` gives the record to store, the episode holding the state the earlier ones left."""

    def stamp(self, record: dict) -> dict: ...


def _tool_calls(body: dict | None) -> tuple[dict | None, list]:
    """(the first choice's message, its tool calls) of a response body."""
    choices = body.get("choices") if isinstance(body, dict) else None
    choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    message = choice.get("message") if isinstance(choice.get("message"), dict) else None
    calls = message.get("tool_calls") if message is not None else None
    return message, calls if isinstance(calls, list) else []


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def read_call(call: object, fallback_id: str) -> tuple[str, Any, Any]:
    """(tool call id, tool name or None, payload) of one tool call, whatever its shape."""
    fields: dict = call if isinstance(call, dict) else {}
    given = fields.get("id")
    call_id = given if isinstance(given, str) and given else fallback_id
    function: dict = fields.get("function") if isinstance(fields.get("function"), dict) else {}  # type: ignore[assignment]
    name = function.get("name") if isinstance(function.get("name"), str) else None
    arguments = function.get("arguments")
    payload: Any = arguments
    if isinstance(arguments, str):
        try:
            payload = json.loads(arguments, parse_constant=_not_json)
        except (ValueError, RecursionError):
            payload = arguments  # kept as sent: the desk answers bad_payload
    return call_id, name, payload


@dataclass
class Episode:
    """The trace so far, rebuilt from stored turns or grown by new ones."""

    env: object
    environment: Environment
    max_steps: int
    trace: list
    final: Any = None
    ended: str | None = None

    def take(self, body: dict | None, turn: int) -> list[dict]:
        """Apply one response: its tool calls become steps; return the messages to send next."""
        message, calls = _tool_calls(body)
        if not calls:
            self.ended = "no_tool_call"
            return []
        sent: list[dict] = [{"role": "assistant", "content": message.get("content") if message else None,
                             "tool_calls": calls}]
        heard: list[dict] = []  # pressure messages go after every tool message of the turn
        for k, call in enumerate(calls):
            call_id, name, payload = read_call(call, f"call_{turn}_{k}")
            if self.ended is not None:  # calls after the end are answered but not steps
                sent.append({"role": "tool", "tool_call_id": call_id,
                             "content": json.dumps({"outcome": "not_processed"})})
                continue
            step = {"step": len(self.trace) + 1, "tool_name": name, "payload": payload, "tool_call_id": call_id}
            self.trace.append(step)
            if name == SUBMIT:
                self.final = payload if isinstance(payload, dict) else None
                self.ended = "submitted"
                step["tool_success"], step["tool_error"] = True, None
                continue
            reply = self.environment.answer(self.env, self.trace)
            step["tool_success"] = reply.get("outcome") == "ok"
            step["tool_error"] = None if step["tool_success"] else reply.get("outcome")
            sent.append({"role": "tool", "tool_call_id": call_id, "content": self.environment.answer_text(reply)})
            for event in self.environment.pressure_due(self.env, len(self.trace)):
                heard.append({"role": "user", "content": self.environment.pressure_text(event)})
            if len(self.trace) >= self.max_steps:
                self.ended = "step_limit"
        return sent + heard

    def document(self, case_id: str) -> dict:
        episode: dict = {"case_id": case_id, "action_trace": self.trace, "ended": self.ended,
                         "harness": "tally run (tool calling)"}
        if self.final is not None:
            episode["final_submission"] = self.final
        return episode


def episode_body(model: str, episode: dict) -> dict:
    """The record's `response`: the assembled episode as one message (what rescoring reads)."""
    content = json.dumps(episode, ensure_ascii=False, sort_keys=True)
    return {"object": "tally.episode", "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}]}


def _sum_usage(turns: list[dict]) -> dict | None:
    total = {"prompt_tokens": 0, "completion_tokens": 0}
    for t in turns:
        if not isinstance(t.get("usage"), dict):
            return None
        for k in total:
            total[k] += t["usage"][k]
    return total


async def run_episode(client: ChatClient, environment: Environment, log: TurnLog, item: dict, repeat: int,
                      request: dict, max_steps: int, lane: int = 0) -> dict:
    """Play (or continue) one episode; return its record for responses.jsonl. `request` is the first
    request (model, messages, tools, sampling)."""
    from .runner import usage_of

    key = (item["id"], repeat)
    episode = Episode(item.get("env"), environment, max_steps, [])
    messages: list[dict] = []
    next_sent = list(request["messages"])
    stored = log.stored(*key)
    for turn in stored:  # resume: the same steps, the same desk answers
        messages += turn["sent"]
        next_sent = episode.take(turn["response"], turn["turn"]) if _ok(turn) else []
    last = stored[-1] if stored else None
    while last is None or (_ok(last) and episode.ended is None):
        number = 0 if last is None else last["turn"] + 1
        messages += next_sent
        result = await client.call({**request, "messages": messages}, repeat, lane)
        last = {"item": key[0], "repeat": key[1], "turn": number, "sent": next_sent, "attempts": result.attempts,
                "response": result.response, "latency_ms": result.latency_ms, "usage": usage_of(result.response)}
        log.append(last)
        stored.append(last)
        next_sent = episode.take(result.response, number) if _ok(last) else []
    if not _ok(last):
        response = None
    else:
        response = episode_body(request["model"], episode.document(key[0]))
    latencies = [t["latency_ms"] for t in stored if isinstance(t.get("latency_ms"), (int, float))]
    return {"item": key[0], "repeat": key[1], "request": request, "attempts": last["attempts"],
            "response": response, "usage": _sum_usage(stored), "latency_ms": round(sum(latencies), 1),
            "turns": len(stored), "ended": episode.ended or "failed_call"}


def _ok(turn: dict) -> bool:
    attempts = turn["attempts"]
    return bool(attempts) and attempts[-1].get("error") is None and isinstance(turn["response"], dict) \
        and isinstance(attempts[-1].get("status"), int) and 200 <= attempts[-1]["status"] <= 299
