"""Example results of RA-Bench: the engine target (real code, `rabench_engine`) and three DIY targets
(SIMULATED models with documented error profiles, not real ones), written as stored response records.

Every draw comes from a Random seeded by sha256 of (seed, run, case, repeat): byte-identical output.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from ..inputs.prompts import load_template
from .rabench_corpus import rng_for
from .rabench_engine import Engine

SUITE = "ra-bench"
ROUND = "2026-rabench-r1"  # its own round: the signed commitment to its private items covers its runs
ALL_TASKS = ["extraction", "checks", "authenticity", "duplicates", "decisions", "evidence", "operations"]
DIY_TASKS = ["extraction", "authenticity", "decisions", "operations"]


@dataclass(frozen=True)
class Target:
    run_id: str
    model: str
    provider: str
    hosting: str
    kind: str  # "self" or "diy"
    description: str
    median_ms: float
    field_acc: float = 1.0
    risk_fake: float = 0.5  # mean risk given to a fake (genuine: 0.3)
    name_rate: float = 0.0  # share of flagged fakes whose first reason names the edited field
    fail_rate: float = 0.0
    prices: tuple[str, str] | None = None


TARGETS = (
    Target("ra-engine-self", "receipt-audit-engine", "local", "self-hosted", "self",
           "Real code, not a model: the example engine (generator/example/rabench_engine.py) reads the printed "
           "text and the file facts, runs the arithmetic check, keeps a duplicate index for one repetition and "
           "returns verifiable findings. Latency is nominal (a fixed cost model), not measured.", 40.0),
    Target("diy-lumen-2-cloudco", "lumen-2", "cloudco", "hosted", "diy",
           "Simulated model, not a real one: a strong plain-prompt model: 95% of fields right, mean risk 0.58 on "
           "fakes and 0.35 on genuine receipts, names the edited field in 45% of flagged fakes, 3% failed calls.",
           5200, 0.95, 0.58, 0.45, 0.03, ("2.50", "10.00")),
    Target("diy-quartz-mini-budgetapi", "quartz-mini", "budgetapi", "hosted", "diy",
           "Simulated model, not a real one: a small plain-prompt model: 82% of fields right, mean risk 0.45 on "
           "fakes (barely above genuine, 0.35), names the edited field in 15% of flagged fakes, 6% failed calls.",
           1900, 0.82, 0.45, 0.15, 0.06, ("0.15", "0.60")),
    Target("diy-heron-open-8b-on-prem", "heron-open-8b", "on-prem", "self-hosted", "diy",
           "Simulated model, not a real one: an open 8B model served locally: 88% of fields right, mean risk 0.5 "
           "on fakes (0.35 on genuine), names the edited field in 25% of flagged fakes, 4% failed calls.",
           3300, 0.88, 0.5, 0.25, 0.04, ("0.05", "0.05")),
)
KEYWORD_OF = {"total": "total", "subtotal": "subtotal", "tax_total": "tax", "date": "date", "merchant": "logo",
              "line_items": "price"}


def _perturb(name: str, value: str | None, rng) -> str | None:
    if value is None:
        return rng.choice(("0.00", "N/A")) if name in ("tax_total", "receipt_number") else "unknown"
    if name in ("subtotal", "tax_total", "total"):
        return f"{Decimal(value) + Decimal(rng.choice((-100, -10, 9, 100, 1000))) / 100:.2f}"
    if name == "date":
        return value[8:10] + "/" + value[5:7] + "/" + value[0:4]
    if name == "merchant":
        return value.split(" ")[0]
    if name == "currency":
        return rng.choice(("$", "usd", "EURO"))
    return value + "7"


def diy_answer(t: Target, case: dict, rng) -> dict:
    label = case["label"]
    fields = {k: (v if rng.random() < t.field_acc else _perturb(k, v, rng)) for k, v in label["fields"].items()}
    lines = [dict(x) for x in label.get("line_items", []) if rng.random() < t.field_acc]
    if rng.random() > t.field_acc:
        lines.append({"description": "Service charge", "total": "1.00"})
    mean = t.risk_fake + (0.1 if label["provenance"] == "intact" and label["fake_class"] == "ai_full" else 0) \
        if label["fake"] else 0.35
    risk = min(1.0, max(0.0, rng.gauss(mean, 0.22)))
    reasons = ["fonts and spacing look consistent"] if risk < 0.5 else ["the print looks digitally retouched"]
    if label["fake"] and label["edited_field"] and rng.random() < t.name_rate:
        reasons.insert(0, f"the {KEYWORD_OF[label['edited_field']]} area looks altered")
    return {"fields": fields, "line_items": lines, "risk": round(risk, 2), "reasons": reasons}


def _content_or_failure(t: Target, case: dict, repeat: int, seed: int) -> tuple[str | None, dict]:
    """The message content, or None with the way the call failed ({"status", "error", "refusal"})."""
    rng = rng_for(seed, t.run_id, case["id"], repeat)
    roll = rng.random()
    if roll < t.fail_rate:
        return None, rng.choice(({"status": 429, "error": None}, {"status": None, "error": "timeout"},
                                 {"status": 503, "error": None}))
    if roll < t.fail_rate + 0.015:
        return None, {"status": 200, "error": None, "refusal": "I can't help assess whether documents are forged."}
    answer = diy_answer(t, case, rng)
    if rng.random() < 0.02:
        return "The receipt looks genuine to me; the total is " + str(answer["fields"].get("total")), {}
    text = json.dumps(answer, ensure_ascii=False)
    return ("```json\n" + text + "\n```" if rng.random() < 0.3 else text), {}


def _body(model: str, content: str | None, refusal: str | None, usage: dict) -> dict:
    message = {"role": "assistant", "content": content}
    if refusal:
        message["refusal"] = refusal
    return {"object": "chat.completion", "model": model, "usage": usage,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}


def write_results(results_dir: Path, cases: list[dict], suite_dir: Path, seed: int = 20261102,
                  targets: tuple[Target, ...] = TARGETS, repeat_all: bool = False) -> list[Path]:
    """The example's runs; a bench may pass other targets and run every case three times (`repeat_all`)."""
    template = load_template(suite_dir)
    cases = sorted(cases, key=lambda c: c["id"])  # submission order: originals before their transforms
    repeated = {c["id"] for k, c in enumerate(cases)
                if repeat_all or (c["label"]["lineage"] is None and k % 4 == 0)}
    written = []
    for t in targets:
        clock = dt.datetime(2026, 11, 3, 9, 0, tzinfo=dt.timezone.utc)
        started = clock
        records = []
        for repeat in (0, 1, 2):
            engine = Engine()  # an empty in-memory duplicate backend for each repetition
            for case in cases:
                if repeat and case["id"] not in repeated:
                    continue
                timing = rng_for(seed, t.run_id, case["id"], repeat, "timing")
                attempts = []
                content: str | None
                failure: dict
                if t.kind == "self":
                    content, failure = json.dumps(engine.check(case["id"], case["document"]), ensure_ascii=False), {}
                    latency = round(t.median_ms + len(case["document"]["text"]) / 20, 1)
                    request = {"engine": t.model, "case": case["id"]}
                    usage = {"prompt_tokens": 0, "completion_tokens": 0}
                else:
                    content, failure = _content_or_failure(t, case, repeat, seed)
                    latency = round(t.median_ms * math.exp(timing.gauss(0, 0.4)), 1)
                    messages = [{"role": "system", "content": template.system.strip()},
                                {"role": "user", "content": template.user.strip().replace("{document}",
                                                                                          case["document"]["text"])}]
                    request = {"model": t.model, "messages": messages, "temperature": 0}
                    usage = {"prompt_tokens": sum(len(m["content"]) for m in messages) // 4 + 1105,
                             "completion_tokens": len(content or "") // 4 + 1}
                if failure.get("status") != 200 and failure:
                    for k in range(3):  # transport failures are retried, then the last attempt stands
                        attempts.append({"start": clock.isoformat().replace("+00:00", "Z"), "status": failure["status"],
                                         "error": failure["error"], "latency_ms": 180000.0 if failure["error"] else 300.0})
                    attempts.append(dict(attempts[-1]))
                    body, latency = None, attempts[-1]["latency_ms"]
                else:
                    attempts.append({"start": clock.isoformat().replace("+00:00", "Z"), "status": 200, "error": None,
                                     "latency_ms": latency})
                    body = _body(t.model, content, failure.get("refusal"), usage)
                record = {"item": case["id"], "repeat": repeat, "request": request, "attempts": attempts,
                          "latency_ms": latency}
                if body is not None:
                    record |= {"response": body, "usage": usage}
                records.append(record)
                clock += dt.timedelta(milliseconds=latency)
        records.sort(key=lambda r: (r["item"], r["repeat"]))
        run_dir = results_dir / SUITE / t.run_id
        run_dir.mkdir(parents=True, exist_ok=True)
        meta: dict[str, Any] = {"format": 1, "suite": SUITE, "suite_version": "0.2.0", "run_id": t.run_id, "model": t.model,
                "provider": t.provider, "hosting": t.hosting, "simulated": t.kind != "self",
                "description": t.description, "harness_version": "0.1.0",
                "prompt_sha256": template.sha256() if t.kind == "diy" else "",
                "sampling": {"temperature": 0}, "round": ROUND, "half": "both",
                "started": started.isoformat().replace("+00:00", "Z"),
                "finished": clock.replace(microsecond=0).isoformat().replace("+00:00", "Z"),
                "target": {"kind": t.kind, "tasks": ALL_TASKS if t.kind == "self" else DIY_TASKS}}
        # neither is timed by the harness, so no latency is compared (rule page 5.9): the engine's is a
        # fixed cost model, the simulated models' a draw from their profile
        meta["target"]["latency"] = "nominal" if t.kind == "self" else "simulated"
        if t.prices:
            meta["prices"] = {"currency": "USD", "input_per_mtok": t.prices[0], "output_per_mtok": t.prices[1],
                              "date": "2026-10-15"}
        else:
            meta["price_per_check"] = "0.05"
        (run_dir / "run.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        (run_dir / "responses.jsonl").write_text(
            "".join(json.dumps(r, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records),
            encoding="utf-8")
        written += [run_dir / "run.json", run_dir / "responses.jsonl"]
    return written
