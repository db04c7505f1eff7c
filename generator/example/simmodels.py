"""What the local simulation server answers: the example's simulated models and baselines.

A request is matched to its suite item by its user message (an image request by the SHA-256 of its
page images, and answered with the model's worse image profile: `image_profiles`; the OCR
baseline, `ocr`, reads the images it is sent); the call's repeat and attempt numbers
come from the X-Tally-Repeat and X-Tally-Attempt headers the harness sends to simulation servers
(without them: repeat 0, and attempts counted by the server). A simulated model answers what
`generator.example.simulate.simulate_call` draws for (profile, item, repeat, seed): the content,
and per attempt the HTTP status (429 with Retry-After, 500/503, or a hang the client times out
on) and the latency, slept scaled by `scale`. The baselines run their real code.

`Faults` (generator/harness/simulation.py) injects further faults at fixed rates per attempt,
drawn from their own seeded stream, on top of the profiles: 429 with Retry-After, 500, 408, hangs,
dropped connections, malformed bodies, a wrong model name, slow responses.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from typing import Callable, TypeVar, cast

from generator.example.image_profiles import image_profile
from generator.example.ocr import OCR_BASELINE, OcrError, ocr_answer
from generator.example.profiles import BASELINES, PROFILES, Profile
from generator.example.prompt import Template, build_messages, encode_value, to_json
from generator.example.simulate import SimCall, estimate_tokens, simulate_call
from generator.harness.images import image_bytes, image_hashes
from generator.harness.simulation import DEFAULT_SEED, FAULT_STATUS, RETRY_AFTER_S, SLOW_FACTOR, Faults, Reply, error_reply

__all__ = ["DEFAULT_SEED", "RETRY_AFTER_S", "SLOW_FACTOR", "Faults", "Reply", "SimModels", "error_reply",
           "null_answer", "rules_answer", "usage_for"]  # the server's parts, kept importable from here
_T = TypeVar("_T")

def null_answer(item: dict) -> str:
    return to_json({f["name"]: None for f in item["fields"]})


def rules_answer(extract: Callable[[dict], dict]) -> Callable[[dict], str]:
    def answer(item: dict) -> str:
        found = extract(item)
        return to_json({f["name"]: encode_value(f, found.get(f["name"])) for f in item["fields"]})
    return answer


IMAGE_TOKENS = 1000  # nominal prompt tokens of one page image


def usage_for(messages: list[dict], text: str) -> dict:
    prompt_chars = sum(len(_text_of(m.get("content"))) for m in messages)
    images = len(image_hashes(messages))
    usage = {"prompt_tokens": math.ceil(prompt_chars / 4) + 3 * len(messages) + IMAGE_TOKENS * images,
             "completion_tokens": estimate_tokens(text)}
    return {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]}


class SimModels:
    """The models of every simulated provider, keyed by (provider, model)."""

    def __init__(self, items: list[dict], reference_date: str, seed: int = DEFAULT_SEED,
                 scale: float = 1.0, faults: Faults = Faults(), template: Template | None = None,
                 extract: Callable[[dict], dict] | None = None, profiles: list[Profile] | None = None):
        self.seed, self.scale, self.faults = seed, scale, faults
        self.items = {_user_key(build_messages(i, reference_date, template)): i for i in items}
        self.by_pages = {tuple(p["sha256"] for p in i["document"]["pages"]): i
                         for i in items if i["document"].get("pages")}
        profiles = PROFILES if profiles is None else profiles
        self.profiles: dict[tuple[str, str], Profile] = {(p.provider, p.model): p for p in profiles}
        if extract is None:
            from generator.example.extractor import extract as rule_based

            extract = rule_based
        answers = {"baseline-rules": rules_answer(extract), "baseline-null": null_answer}
        self.baselines = {(b["provider"], b["model"]): (b["run_id"], answers[b["run_id"]]) for b in BASELINES}
        self.image_baselines = {(OCR_BASELINE["provider"], OCR_BASELINE["model"]): OCR_BASELINE["run_id"]}
        self._attempts: dict[tuple, int] = {}
        self.seen: list[tuple[str, str, str, int, int]] = []  # (provider, model, item, repeat, attempt)
        self._cache: dict[tuple, object] = {}
        self._lock = threading.Lock()

    def providers(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for provider, model in [*self.profiles, *self.baselines]:
            out.setdefault(provider, []).append(model)
        return out

    def _cached(self, key: tuple, make: Callable[[], _T]) -> _T:
        with self._lock:
            if key not in self._cache:
                if len(self._cache) > 50_000:
                    self._cache.clear()
                self._cache[key] = make()
            # a key's first element (the run id) fixes what `make` returns: an answer or a SimCall
            return cast(_T, self._cache[key])

    def _attempt_number(self, key: tuple, given: int | None) -> int:
        with self._lock:
            if given is not None:
                return given
            n = self._attempts.get(key, 0)
            self._attempts[key] = n + 1
            return n

    def reply(self, provider: str, raw: bytes, repeat: int | None, attempt: int | None) -> Reply:
        try:
            body = json.loads(raw.decode("utf-8"))
            model, messages = body["model"], body["messages"]
            if not isinstance(model, str) or not isinstance(messages, list):
                raise TypeError
        except (UnicodeDecodeError, ValueError, KeyError, TypeError):
            return error_reply(400, "the body must be a JSON object with model and messages", "invalid_request_error")
        key = (provider, model)
        if key not in self.profiles and key not in self.baselines:
            return error_reply(404, f"The model {model[:100]!r} does not exist on {provider[:50]!r}", "not_found_error")
        hashes = tuple(image_hashes(messages))
        item = self.by_pages.get(hashes) if hashes else self.items.get(_user_key(messages))
        if item is None:
            return error_reply(400, "unknown document: this server serves the suite's items only",
                               "invalid_request_error")
        image_only = bool(hashes) and self.items.get(_user_key(messages)) is not item
        if image_only and key in self.baselines and key not in self.image_baselines:
            return error_reply(400, "this baseline reads text only", "invalid_request_error")
        repeat = repeat or 0
        number = self._attempt_number((provider, model, item["id"], repeat), attempt)
        if len(self.seen) < 2_000_000:
            self.seen.append((provider, model, item["id"], repeat, number))
        fault = self.faults.draw(number, self.seed, provider, model, item["id"], repeat)
        if fault in FAULT_STATUS:
            status = FAULT_STATUS[fault]
            headers = self._retry_after(RETRY_AFTER_S * 1000) if status == 429 else None
            return error_reply(status, f"injected fault: {fault}", fault, 0.0, headers)
        if fault in ("timeout", "disconnect"):
            return Reply("hang" if fault == "timeout" else "disconnect")
        if image_only and key in self.image_baselines:  # the rule extractor reading pixels through OCR
            run_id = self.image_baselines[key]
            try:
                content = self._cached((run_id, item["id"]), lambda: ocr_answer(item, image_bytes(messages)))
            except OcrError as exc:
                return error_reply(500, str(exc), "server_error")
            call = SimCall([], content)
            delay_s = 0.0
        elif key in self.baselines:
            run_id, answer = self.baselines[key]
            content = self._cached((run_id, item["id"]), lambda: answer(item))
            call = SimCall([], content)
            delay_s = 0.0
        else:
            profile = self.profiles[key]
            if image_only:
                profile = image_profile(profile, photo=item["dataset"] == "receipts")
            run_id = profile.run_id
            call = self._cached((run_id, item["id"], repeat),
                                lambda: simulate_call(profile, item, repeat, self.seed))
            sim = call.attempts[min(number, len(call.attempts) - 1)]
            delay_s = sim.latency_ms / 1000 * self.scale
            if sim.error == "timeout" or sim.status is None:  # no status: no answer came
                return Reply("hang")
            if sim.status != 200:
                headers = self._retry_after(sim.wait_after_ms) if sim.status == 429 else None
                return error_reply(sim.status, f"simulated HTTP {sim.status}", "server_error"
                                   if sim.status >= 500 else "rate_limit_error", delay_s, headers)
        if fault == "slow":
            delay_s *= SLOW_FACTOR
        out = self._body(model if fault != "wrong_model" else model + "-fallback", run_id, item, repeat,
                         messages, call)
        if fault == "malformed":
            out = out[: len(out) // 2]
        return Reply("send", 200, out, None, delay_s)

    def _retry_after(self, wait_ms: float) -> dict[str, str]:
        return {"retry-after": str(max(1, math.ceil(wait_ms / 1000))),
                "retry-after-ms": f"{wait_ms * self.scale:.1f}"}

    def _body(self, model: str, run_id: str, item: dict, repeat: int, messages: list[dict],
              call: SimCall) -> bytes:
        key = f"{self.seed}|{run_id}|{item['id']}|{repeat}"
        text = call.content if call.content is not None else call.refusal or ""
        body = {"id": "chatcmpl-" + hashlib.sha256(key.encode()).hexdigest()[:24],
                "object": "chat.completion", "created": int(time.time()), "model": model,
                "choices": [{"index": 0, "finish_reason": call.finish_reason,
                             "message": {"role": "assistant", "content": call.content,
                                         "refusal": call.refusal}}],
                "usage": usage_for(messages, text)}
        return json.dumps(body, ensure_ascii=False).encode("utf-8")


def _text_of(content: object) -> str:
    """A message's text: its content string, or the text of its first text part."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
                return part["text"]
    return ""


def _user_key(messages: list) -> str:
    users = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role") == "user"]
    text = _text_of(users[-1]) if users else ""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
