"""An offline writer of example-shaped results: one folder per run under `results/extracting/`.

The committed example results are not written here: `tally example generate` makes them by
running the harness against the local simulation server (`generator.example.harness_runs`), so their
latencies are measured. This writer makes the same runs without any HTTP, byte-identical for a
seed, for tests and benchmarks that need many runs quickly (`bench/rescore_throughput.py`).

Every run covers all items (both halves) with repeat 0, and a fixed sample (every
`REPEAT_EVERY`-th item by sorted id) again with repeats 1 and 2. The simulated runs come from
`generator.example.profiles.PROFILES`; the two baselines are real code that makes no API call.
Output is byte-identical for the same items, reference date and seed: times come from a
simulated clock that starts at each run's `started` and advances by the simulated latencies.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
from pathlib import Path
from typing import Callable

from generator.example.profiles import BASELINES, PROFILES, Profile
from generator.example.prompt import build_messages, encode_value, prompt_sha256, to_json
from generator.example.simulate import Attempt, SimCall, estimate_tokens, simulate_call

SUITE = "extracting"
HARNESS_VERSION = "0.1.0"
ROUND = "2026-r1"
SAMPLING = {"temperature": 0, "max_tokens": 2048}
DEFAULT_SEED = 20261020  # the example corpus seed
REPEAT_EVERY = 10
REPEATS = (1, 2)
GAP_MS = 25.0  # harness time between the end of one call and the start of the next
BASELINE_LATENCY_MS = 1.0  # nominal: the baselines run in-process and are not timed


def sample_ids(items: list[dict]) -> list[str]:
    """The items run three times: every REPEAT_EVERY-th id in sorted order, from the first."""
    return sorted(item["id"] for item in items)[::REPEAT_EVERY]


def jobs(items: list[dict]) -> list[tuple[dict, int]]:
    """(item, repeat) in the order the harness runs them: a full pass, then each repeat pass."""
    ordered = sorted(items, key=lambda item: item["id"])
    sample = set(sample_ids(items))
    out = [(item, 0) for item in ordered]
    for repeat in REPEATS:
        out += [(item, repeat) for item in ordered if item["id"] in sample]
    return out


def _parse_time(text: str) -> dt.datetime:
    return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)


def _stamp(start: dt.datetime, tenths: int) -> str:
    t = start + dt.timedelta(microseconds=tenths * 100)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def _tenths(ms: float) -> int:
    return int(round(ms * 10))


def _baseline_call(content: str) -> SimCall:
    return SimCall([Attempt(200, None, BASELINE_LATENCY_MS)], content)


def _null_answer(item: dict) -> str:
    return to_json({f["name"]: None for f in item["fields"]})


def _rules_answer(extract: Callable[[dict], dict]) -> Callable[[dict], str]:
    def answer(item: dict) -> str:
        found = extract(item)
        return to_json({f["name"]: encode_value(f, found.get(f["name"])) for f in item["fields"]})
    return answer


class _Run:
    """One run being written: its metadata, simulated clock and records."""

    def __init__(self, meta: dict, seed: int):
        self.meta, self.seed = meta, seed
        self.start = _parse_time(meta["started"])
        self.clock = 0  # tenths of a millisecond since `start`
        self.records: list[dict] = []

    def add(self, item: dict, repeat: int, messages: list[dict], call: SimCall) -> None:
        attempts = []
        for attempt in call.attempts:
            attempts.append({"start": _stamp(self.start, self.clock), "status": attempt.status,
                             "error": attempt.error, "latency_ms": attempt.latency_ms})
            self.clock += _tenths(attempt.latency_ms)
            end = self.clock
            self.clock += _tenths(attempt.wait_after_ms)
        self.clock += _tenths(GAP_MS)
        record = {"item": item["id"], "repeat": repeat,
                  "request": {"model": self.meta["model"], "messages": messages, **SAMPLING},
                  "attempts": attempts, "response": None, "usage": None,
                  "latency_ms": call.attempts[-1].latency_ms}
        if call.ok:
            prompt_chars = sum(len(m["content"]) for m in messages)
            usage = {"prompt_tokens": math.ceil(prompt_chars / 4) + 3 * len(messages),
                     "completion_tokens": estimate_tokens(call.content if call.content is not None
                                                          else call.refusal or "")}
            key = f"{self.seed}|{self.meta['run_id']}|{item['id']}|{repeat}"
            created = self.start + dt.timedelta(microseconds=end * 100)
            record["response"] = {
                "id": "chatcmpl-" + hashlib.sha256(key.encode()).hexdigest()[:24],
                "object": "chat.completion",
                "created": int(created.timestamp()),
                "model": self.meta["model"],
                "choices": [{"index": 0, "finish_reason": call.finish_reason,
                             "message": {"role": "assistant", "content": call.content,
                                         "refusal": call.refusal}}],
                "usage": {**usage, "total_tokens": usage["prompt_tokens"]
                          + usage["completion_tokens"]},
            }
            record["usage"] = usage
        self.records.append(record)

    def write(self, folder: Path) -> list[Path]:
        folder.mkdir(parents=True, exist_ok=True)
        finished = self.start + dt.timedelta(seconds=math.ceil(self.clock / 10000))
        meta = {**self.meta, "finished": finished.strftime("%Y-%m-%dT%H:%M:%SZ")}
        run_path, responses_path = folder / "run.json", folder / "responses.jsonl"
        run_path.write_text(json.dumps(meta, sort_keys=True, indent=2, ensure_ascii=False)
                            + "\n", encoding="utf-8")
        records = sorted(self.records, key=lambda r: (r["item"], r["repeat"]))
        lines = [json.dumps(r, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
                 for r in records]
        responses_path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        return [run_path, responses_path]


def _meta(run_id: str, model: str, provider: str, hosting: str, simulated: bool,
          description: str, started: str, suite_version: str,
          prices: dict | None = None) -> dict:
    meta = {"format": 1, "suite": SUITE, "suite_version": suite_version, "run_id": run_id,
            "model": model, "provider": provider, "hosting": hosting, "simulated": simulated,
            "description": description, "harness_version": HARNESS_VERSION,
            "prompt_sha256": prompt_sha256(), "sampling": dict(SAMPLING), "round": ROUND,
            "half": "both", "started": started}
    if prices is not None:
        meta["prices"] = prices
    return meta


def profile_meta(profile: Profile, suite_version: str) -> dict:
    prices = None
    if profile.prices is not None:
        prices = {"currency": "USD", "input_per_mtok": profile.prices[0],
                  "output_per_mtok": profile.prices[1], "date": profile.price_date}
    return _meta(profile.run_id, profile.model, profile.provider, profile.hosting, True,
                 profile.description, profile.started, suite_version, prices)


def write_example_results(results_dir: Path, items: list[dict], reference_date: str,
                          seed: int = DEFAULT_SEED, *, suite_version: str = "0.3",
                          profiles: list[Profile] | None = None,
                          extract: Callable[[dict], dict] | None = None,
                          baselines: bool = True) -> list[Path]:
    """Write every example run under `results_dir/extracting/`; return the files written.

    `profiles` (default: all of PROFILES), `extract` (default: the corpus's rule-based
    extractor) and `baselines` exist so tests can write a subset quickly.
    """
    base = Path(results_dir) / SUITE
    todo = jobs(items)
    messages = {item["id"]: build_messages(item, reference_date) for item in items}
    written: list[Path] = []
    if baselines:
        if extract is None:
            from generator.example.extractor import extract as rule_based

            extract = rule_based
        answers = {"baseline-rules": _rules_answer(extract), "baseline-null": _null_answer}
        for spec in BASELINES:
            run = _Run(_meta(spec["run_id"], spec["model"], spec["provider"], spec["hosting"],
                             False, spec["description"], spec["started"], suite_version), seed)
            answer = answers[spec["run_id"]]
            cache: dict[str, str] = {}
            for item, repeat in todo:
                if item["id"] not in cache:
                    cache[item["id"]] = answer(item)
                run.add(item, repeat, messages[item["id"]], _baseline_call(cache[item["id"]]))
            written += run.write(base / spec["run_id"])
    for profile in PROFILES if profiles is None else profiles:
        run = _Run(profile_meta(profile, suite_version), seed)
        for item, repeat in todo:
            run.add(item, repeat, messages[item["id"]], simulate_call(profile, item, repeat, seed))
        written += run.write(base / profile.run_id)
    return written
