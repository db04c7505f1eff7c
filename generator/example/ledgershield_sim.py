"""What the local simulation server answers for the LedgerShield suite: the scripted agents (careful,
hasty, yielding; not models) answering through tool calls, one call per response.

A request is matched to its case by its first user message. The agent's steps are those of
`ledgershield_agents` (the careful one with the example's seeded slips); the n-th response of an
episode (n = tool calls already in the conversation) calls the n-th step, with
`submit_decision` last. The yielding agent reacts to what it is sent: once a pressure message is
in the conversation it submits the demanded decision. Faults are injected as for the other
simulated models (429, 500, hangs, dropped connections, malformed bodies...).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time

from ..harness.simulation import FAULT_STATUS, RETRY_AFTER_S, Faults, Reply, error_reply
from ..suites.ledgershield.replay import SUBMIT
from .ledgershield_agents import AGENTS, noisy
from .simmodels import usage_for

PROVIDER = "local"
SLIP_RATE = 0.15  # share of the careful agent's episodes with a seeded slip
RUN_IDS = {"careful": "ledgershield-careful-script", "hasty": "ledgershield-hasty-script",
           "yielding": "ledgershield-yielding-script"}
MODELS = {f"script-{agent}": agent for agent in AGENTS}


def slip_rng(seed: int, run_id: str, item_id: str):
    import random

    text = "|".join(str(p) for p in (seed, run_id, item_id))
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def scripted_episode(item: dict, agent: str, seed: int) -> dict:
    """The agent's planned episode for a case (the careful one slips on about SLIP_RATE of them; the
    yielding one plans the careful steps and changes its decision only when it hears pressure)."""
    rng = slip_rng(seed, RUN_IDS[agent], item["id"])
    if agent == "careful" and rng.random() < SLIP_RATE:
        return noisy(item, agent, rng)
    return AGENTS["careful" if agent == "yielding" else agent](item)


def _first_user(messages: list) -> str:
    users = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role") == "user"]
    text = users[0] if users and isinstance(users[0], str) else ""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _calls_made(messages: list) -> int:
    return sum(len(m["tool_calls"]) for m in messages if isinstance(m, dict) and m.get("role") == "assistant"
               and isinstance(m.get("tool_calls"), list))


def _pressure_demand(messages: list) -> str | None:
    for m in messages:
        if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"), str) \
                and m["content"].startswith("[pressure event") and "(demanded decision: " in m["content"]:
            return m["content"].rsplit("(demanded decision: ", 1)[1].rstrip(")")
    return None


class ScriptedAgents:
    """The SimModels interface (providers, reply, seen) for the LedgerShield scripted agents."""

    def __init__(self, items: list[dict], messages_of, seed: int, faults: Faults = Faults()):
        self.seed, self.faults = seed, faults
        self.items = {_first_user(messages_of(i)): i for i in items}
        self.seen: list[tuple[str, str, str, int, int]] = []
        self._plans: dict[tuple[str, str], dict] = {}
        self._attempts: dict[tuple, int] = {}
        self._lock = threading.Lock()

    def providers(self) -> dict[str, list[str]]:
        return {PROVIDER: sorted(MODELS)}

    def _plan(self, model: str, item: dict) -> dict:
        with self._lock:
            key = (model, item["id"])
            if key not in self._plans:
                self._plans[key] = scripted_episode(item, MODELS[model], self.seed)
            return self._plans[key]

    def reply(self, provider: str, raw: bytes, repeat: int | None, attempt: int | None) -> Reply:
        try:
            body = json.loads(raw.decode("utf-8"))
            model, messages = body["model"], body["messages"]
            if not isinstance(model, str) or not isinstance(messages, list):
                raise TypeError
        except (UnicodeDecodeError, ValueError, KeyError, TypeError):
            return error_reply(400, "the body must be a JSON object with model and messages", "invalid_request_error")
        if provider != PROVIDER or model not in MODELS:
            return error_reply(404, f"The model {model[:100]!r} does not exist on {provider[:50]!r}", "not_found_error")
        item = self.items.get(_first_user(messages))
        if item is None:
            return error_reply(400, "unknown case: this server serves the suite's cases only", "invalid_request_error")
        repeat = repeat or 0
        step = _calls_made(messages)
        key = (provider, model, item["id"], repeat, step)
        with self._lock:
            number = attempt if attempt is not None else self._attempts.get(key, 0)
            self._attempts[key] = number + 1
            if len(self.seen) < 2_000_000:
                self.seen.append((provider, model, item["id"], repeat, number))
        fault = self.faults.draw(number, self.seed, *key)
        if fault in FAULT_STATUS:
            status = FAULT_STATUS[fault]
            headers = {"retry-after": str(int(RETRY_AFTER_S))} if status == 429 else None
            return error_reply(status, f"injected fault: {fault}", fault, 0.0, headers)
        if fault in ("timeout", "disconnect"):
            return Reply("hang" if fault == "timeout" else "disconnect")
        message = self._message(model, item, messages, step)
        out = {"id": "chatcmpl-" + hashlib.sha256(f"{self.seed}|{model}|{item['id']}|{repeat}|{step}".encode())
               .hexdigest()[:24], "object": "chat.completion", "created": int(time.time()),
               "model": model + ("-fallback" if fault == "wrong_model" else ""),
               "choices": [{"index": 0, "message": message,
                            "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
               "usage": usage_for([m for m in messages if isinstance(m, dict)], json.dumps(message))}
        data = json.dumps(out, ensure_ascii=False).encode("utf-8")
        if fault == "malformed":
            data = data[: len(data) // 2]
        return Reply("send", 200, data)

    def _message(self, model: str, item: dict, messages: list, step: int) -> dict:
        trace = self._plan(model, item)["action_trace"]
        if step >= len(trace):
            return {"role": "assistant", "content": "The case is submitted."}
        planned = trace[step]
        payload = planned["payload"]
        if planned["tool_name"] == SUBMIT and MODELS[model] == "yielding":
            demand = _pressure_demand(messages)
            if demand is not None and isinstance(payload, dict):
                payload = dict(payload, decision=demand, confidence=0.6)
        call = {"id": f"call_{step}", "type": "function",
                "function": {"name": planned["tool_name"], "arguments": json.dumps(payload, ensure_ascii=False)}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
