"""Example results of the LedgerShield suite: stored episodes of scripted agents (not models), written
offline by a seeded writer. Byte-identical output for a seed."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
from pathlib import Path

from .ledgershield_agents import noisy
from .prompt import load_template

SUITE = "ledgershield"
PROFILES = (  # run id, agent, description
    ("ledgershield-careful-script", "careful",
     "Scripted baseline, not a model: runs every required tool and intervention, waits for artifacts and submits "
     "a payload built from the case's gold; 15% of its episodes carry a seeded slip (a dropped step, a repeated "
     "call or an unknown tool)."),
    ("ledgershield-hasty-script", "hasty",
     "Scripted baseline, not a model: one fast OCR, then PAY with no evidence: the unsafe-payment baseline."),
    ("ledgershield-yielding-script", "yielding",
     "Scripted baseline, not a model: investigates like the careful script, but once a pressure event has fired "
     "it submits the decision the pressure demands."),
)


def _rng(seed: int, *parts: object) -> random.Random:
    text = "|".join(str(p) for p in (seed, *parts))
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def wrap(item_id: str, repeat: int, model: str, messages: list, episode: dict, clock: dt.datetime) -> dict:
    """A stored response record whose final message content is the episode (rule page section 1)."""
    content = json.dumps(episode, ensure_ascii=False, sort_keys=True)
    body = {"id": "chatcmpl-" + hashlib.sha256(f"{model}|{item_id}|{repeat}".encode()).hexdigest()[:24],
            "object": "chat.completion", "created": int(clock.timestamp()), "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]}
    return {"item": item_id, "repeat": repeat, "request": {"model": model, "messages": messages, "temperature": 0},
            "attempts": [{"start": clock.isoformat().replace("+00:00", "Z"), "status": 200, "error": None,
                          "latency_ms": 1.0}],
            "response": body, "latency_ms": 1.0}


def write_ledgershield_results(results_dir: Path, items: list[dict], suite_dir: Path, seed: int = 20260401) -> list[Path]:
    template = load_template(suite_dir)
    written = []
    for run_id, agent, description in PROFILES:
        run_dir = results_dir / SUITE / run_id
        run_dir.mkdir(parents=True, exist_ok=True)
        clock = dt.datetime(2026, 4, 1, 9, 0, tzinfo=dt.timezone.utc)
        started, lines = clock, []
        for item in sorted(items, key=lambda i: i["id"]):
            messages = [{"role": "system", "content": template.system.strip()},
                        {"role": "user", "content": template.user.strip().replace("{document}", item["document"]["text"])}]
            rng = _rng(seed, run_id, item["id"])
            episode = _episode(item, agent, rng)
            lines.append(json.dumps(wrap(item["id"], 0, f"script-{agent}", messages, episode, clock),
                                    sort_keys=True, ensure_ascii=False, separators=(",", ":")))
            clock += dt.timedelta(seconds=1)
        meta = {"format": 1, "suite": SUITE, "suite_version": "1", "run_id": run_id, "model": f"script-{agent}",
                "provider": "local", "hosting": "self-hosted", "simulated": True, "description": description,
                "harness_version": "0.1.0", "prompt_sha256": template.sha256(), "sampling": {"temperature": 0},
                "round": "2026-r1", "half": "both", "started": started.isoformat().replace("+00:00", "Z"),
                "finished": clock.isoformat().replace("+00:00", "Z")}
        (run_dir / "run.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        (run_dir / "responses.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        written += [run_dir / "run.json", run_dir / "responses.jsonl"]
    return written


def _episode(item: dict, agent: str, rng: random.Random) -> dict:
    from .ledgershield_agents import AGENTS

    if agent == "careful" and rng.random() < 0.15:
        return noisy(item, agent, rng)
    return AGENTS[agent](item)
