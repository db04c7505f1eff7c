"""Example results of CortifyBench: three real baselines (empty answer, the seed's naive auditor, the
oracle = reference solver) and simulated models with error profiles, marked simulated.

Every draw comes from a Random seeded by (seed, run, item): byte-identical output. The example writer
sends no request: each record stores the hash of the messages `tally run` would send, not the
messages themselves (they are rebuilt from the prompt and the item)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import random
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from ..inputs.prompts import load_template
from ..suites.cortify import SUITE as PLUGIN
from ..suites.cortify.baselines import naive
from ..suites.cortify.patterns import PATTERNS, family
from ..suites.cortify.solver import solve

SUITE = "cortifybench"
ROUND = "2026-cortify-r2"  # its blind private seed range (round 2026-cortify-r1 held seeds now revealed)


@dataclass(frozen=True)
class Profile:
    run_id: str
    model: str
    provider: str
    hosting: str
    simulated: bool
    description: str
    median_ms: float
    recall: tuple[float, float, float]  # per family: documento, cruce, agregacion
    false_rate: float  # false findings per true finding
    unparseable: float


PROFILES = (
    Profile("cortify-oracle", "tally-cortify-solver", "local", "self-hosted", False,
            "Real reference solver, not a model: applies the audit manual's rules to the files, so it scores 1 "
            "on every item.", 1.0, (1, 1, 1), 0, 0),
    Profile("cortify-naive", "tally-naive-auditor", "local", "self-hosted", False,
            "Real naive baseline, not a model: the seed's naive auditor: reads the files as the manual says and "
            "reports identical log rows, invoices whose folio no row cites, and every cash row without a photo.", 1.0, (0, 0, 0), 0, 0),
    Profile("cortify-empty", "tally-empty-answer", "local", "self-hosted", False,
            "Real baseline, not a model: answers an empty list of findings.", 1.0, (0, 0, 0), 0, 0),
    Profile("skim-audit-1-cloudco", "skim-audit-1", "cloudco", "hosted", True,
            "Simulated model, not a real one: gets single-invoice checks right (95%) and fails what needs matching "
            "(30%) or weekly aggregation (5%) across the files; one false finding per four true.", 2600,
            (0.95, 0.30, 0.05), 0.25, 0.03),
    Profile("ponder-2-budgetapi", "ponder-2", "budgetapi", "hosted", True,
            "Simulated model, not a real one: a slower reasoner: single-invoice checks 100%, matching 75%, weekly "
            "aggregation 50%, with amounts sometimes just outside the tolerance; 8% of replies are unparseable.",
            9100, (1.0, 0.75, 0.50), 0.10, 0.08),
)


def _rng(seed: int, *parts: object) -> random.Random:
    text = "|".join(str(p) for p in (seed, *parts))
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def _simulated(p: Profile, item: dict, rng: random.Random) -> str:
    truth = item["hallazgos"]
    fam = {"documento": 0, "cruce": 1, "agregacion": 2}
    out = []
    for h in truth:
        if rng.random() < p.recall[fam[family(h["patron"])]]:
            monto = Decimal(h["monto"])
            if rng.random() < 0.1:  # an amount just outside the tolerance
                monto += max(Decimal("1.01"), monto * Decimal("0.011"))
            out.append({**h, "monto": f"{monto:.2f}" if rng.random() < 0.7 else float(monto)})
    for _ in range(round(len(truth) * p.false_rate + rng.random() - 0.5)):
        h = rng.choice(truth)
        out.append({**h, "patron": rng.choice(sorted(PATTERNS)), "fecha": h["fecha"][:8] + f"{rng.randint(1, 28):02d}"})
    rng.shuffle(out)
    if rng.random() < p.unparseable:
        return rng.choice(("Encontré varios hallazgos: " + json.dumps(out, ensure_ascii=False),
                           json.dumps({"hallazgos": out})[:-7], "```JSON\n" + json.dumps(out) + "\n```"))
    body = json.dumps({"hallazgos": out}, ensure_ascii=False, indent=rng.choice((None, 1)))
    return "```json\n" + body + "\n```" if rng.random() < 0.3 else body


def content_for(p: Profile, item: dict, rng: random.Random) -> str:
    text = item["document"]["text"]
    if p.run_id == "cortify-oracle":
        return json.dumps({"hallazgos": solve(text, item["dataset"])}, ensure_ascii=False)
    if p.run_id == "cortify-naive":
        return json.dumps({"hallazgos": naive(text, item["dataset"])}, ensure_ascii=False)
    if p.run_id == "cortify-empty":
        return '{"hallazgos": []}'
    return _simulated(p, item, rng)


def write_results(results_dir: Path, items: list[dict], suite_dir: Path, seed: int = 20261101) -> list[Path]:
    template = load_template(suite_dir)
    written = []
    for p in PROFILES:
        run_dir = results_dir / SUITE / p.run_id
        run_dir.mkdir(parents=True, exist_ok=True)
        clock = started = dt.datetime(2026, 11, 4, 9, 0, tzinfo=dt.timezone.utc)
        lines = []
        for item in sorted(items, key=lambda i: i["id"]):
            messages = PLUGIN.messages(item, "", template)
            content = content_for(p, item, _rng(seed, p.run_id, item["id"]))
            timing = _rng(seed, p.run_id, item["id"], "timing")
            latency = round(p.median_ms * math.exp(timing.gauss(0, 0.35)), 1) if p.simulated else 1.0
            prompt_tokens = sum(len(m["content"]) for m in messages) // 4 + 1
            usage = {"prompt_tokens": prompt_tokens, "completion_tokens": len(content) // 4 + 1}
            body = {"id": "chatcmpl-" + hashlib.sha256(f"{p.run_id}|{item['id']}".encode()).hexdigest()[:24],
                    "object": "chat.completion", "created": int(clock.timestamp()), "model": p.model,
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                 "finish_reason": "stop"}],
                    "usage": usage | {"total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]}}
            digest = hashlib.sha256(json.dumps(messages, ensure_ascii=False).encode()).hexdigest()
            record = {"item": item["id"], "repeat": 0,
                      "request": {"model": p.model, "messages_sha256": digest, "temperature": 0, "max_tokens": 8192},
                      "attempts": [{"start": clock.isoformat().replace("+00:00", "Z"), "status": 200, "error": None,
                                    "latency_ms": latency}],
                      "response": body, "usage": usage, "latency_ms": latency}
            clock += dt.timedelta(milliseconds=latency)
            lines.append(json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":")))
        meta = {"format": 1, "suite": SUITE, "suite_version": "1", "run_id": p.run_id, "model": p.model,
                "provider": p.provider, "hosting": p.hosting, "simulated": p.simulated, "description": p.description,
                "harness_version": "0.1.0", "prompt_sha256": template.sha256(),
                "sampling": {"temperature": 0, "max_tokens": 8192}, "round": ROUND, "half": "both",
                "started": started.isoformat().replace("+00:00", "Z"),
                "finished": clock.replace(microsecond=0).isoformat().replace("+00:00", "Z")}
        (run_dir / "run.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        (run_dir / "responses.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        written += [run_dir / "run.json", run_dir / "responses.jsonl"]
    return written

