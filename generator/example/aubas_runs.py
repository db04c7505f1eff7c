"""Example results of the au-bas suite: the rules as a reference solver, a naive baseline that
submits raw column sums, and simulated models with documented error profiles.

Two rounds of its own: the current one (2026-aubas-r1, every run) and an earlier one
(2026-aubas-trial, a month before, two simulated models on cloudco), so the anchor comparison
across rounds has something to show. The earlier round's name sorts after the current one's on purpose: rounds are ordered by the date
their runs declare they started, not by name. Between the rounds cloudco silently swapped
abacus-slip-2 for a snapshot that slips more in the BAS roll-up; tenth-wit-1 did not change.
Every hosted run answers the anchor block (ANCHORS, written to anchors.toml) first.

Every draw comes from a Random seeded by sha256 of (seed, run, item, repeat): byte-identical output.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from ..suites.aubas.ledger import CENT, FAULT_CODES, LABELS, TAXABLE, answer_key
from .prompt import load_template

SUITE = "au-bas"


@dataclass(frozen=True)
class Profile:
    run_id: str
    model: str
    provider: str
    hosting: str
    simulated: bool
    description: str
    median_ms: float
    prices: tuple[str, str] | None  # (input, output) USD per million tokens
    round: str = "2026-aubas-r1"
    snapshot: str = ""  # "earlier": the model as its provider served it in the earlier round


PROFILES = (
    Profile("aubas-reference-solver", "tally-gst-rules", "local", "self-hosted", False,
            "Real reference solver, not a model: applies the suite's GST rules to the ledger, so it scores "
            "1 on every item. Latency and usage are nominal.", 1.0, None),
    Profile("aubas-naive-sums", "tally-column-sums", "local", "self-hosted", False,
            "Real naive baseline, not a model: submits the raw column sums as the BAS (every row, recorded GST) "
            "and flags nothing. Latency and usage are nominal.", 1.0, None),
    Profile("tenth-wit-1-cloudco", "tenth-wit-1", "cloudco", "hosted", True,
            "Simulated model, not a real one: takes GST to be 10% of the GST-inclusive price (the classic "
            "1/11 mistake), so it misses injected 10% errors, flags correct rows as miscalculated and rolls "
            "up a wrong BAS; finds other fault types with 90% recall.", 2400, ("1.00", "4.00")),
    Profile("flagall-3-budgetapi", "flagall-3", "budgetapi", "hosted", True,
            "Simulated model, not a real one: blanket flagging: reports every true fault and also one to three "
            "wrong codes on every row; the BAS is right half of the time.", 3100, ("0.30", "1.20")),
    Profile("abacus-slip-2-cloudco", "abacus-slip-2", "cloudco", "hosted", True,
            "Simulated model, not a real one: finds faults with 95% recall and 97% precision but slips in the "
            "roll-up: 60% of its BAS have one label off by a cent or by one row's GST.", 2900, ("2.50", "10.00")),
    Profile("muddle-mini-budgetapi", "muddle-mini", "budgetapi", "hosted", True,
            "Simulated model, not a real one: 35% of replies are unparseable (no answer block, broken JSON, "
            "faults as a list, prose inside the block); otherwise recall 60%, precision 70%, BAS right 20% "
            "of the time.", 1500, ("0.10", "0.40")),
)


CURRENT = ("2026-aubas-r1", dt.datetime(2026, 11, 3, 9, 0, tzinfo=dt.timezone.utc))
EARLIER = ("2026-aubas-trial", dt.datetime(2026, 10, 6, 9, 0, tzinfo=dt.timezone.utc))
STARTS = dict([CURRENT, EARLIER])  # round -> when its runs started

EARLIER_PROFILES = (
    Profile("abacus-slip-2-cloudco-2026-trial", "abacus-slip-2", "cloudco", "hosted", True,
            "Simulated model, not a real one: abacus-slip-2 as cloudco served it in the earlier round "
            "(2026-aubas-trial): the same fault finding (95% recall, 97% precision) but a steadier roll-up, its "
            "BAS right 95% of the time. Between the rounds cloudco changed the model behind the same name "
            "without saying so; the anchor items show it.", 2900, ("2.50", "10.00"), EARLIER[0], "earlier"),
    Profile("tenth-wit-1-cloudco-2026-trial", "tenth-wit-1", "cloudco", "hosted", True,
            "Simulated model, not a real one: tenth-wit-1 as cloudco served it in the earlier round "
            "(2026-aubas-trial), unchanged since: the same 1/11 mistake and 90% recall on other fault types.",
            2400, ("1.00", "4.00"), EARLIER[0]),
)

# The anchor block: four items per dataset and half, answered first by every hosted run of a round.
ANCHORS = {half: [f"aubas-{d}-{'pub' if half == 'public' else 'prv'}-{n:03d}" for d in ("default", "measured", "clean")
                  for n in (5, 12, 19, 26)] for half in ("public", "private")}


def anchors_toml() -> str:
    lines = ["# The anchor block of the au-bas suite: a fixed set of items that runs first in every round",
             "# (`tally run ... --anchors`), so that a silent change to a hosted model shows up. Written by",
             "# `tally example generate` (generator/example/aubas_runs.py). Changing this list starts a new",
             "# anchor series: do it only with a new suite version.", ""]
    for half, ids in ANCHORS.items():
        lines.append(f"{half} = [")
        lines += [f'  "{i}",' for i in ids]
        lines += ["]", ""]
    return "\n".join(lines)


def _rng(seed: int, *parts: object) -> random.Random:
    text = "|".join(str(p) for p in (seed, *parts))
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def _naive(ledger: dict) -> dict:
    rows = ledger["rows"]
    sales = [r for r in rows if r["kind"] == "sale"]
    a1 = sum((Decimal(r["gst"]) for r in sales), Decimal("0.00"))
    b1 = sum((Decimal(r["gst"]) for r in rows if r["kind"] == "purchase"), Decimal("0.00"))
    g1 = sum((Decimal(r["amount"]) for r in sales), Decimal("0.00"))
    return {"G1": f"{g1:.2f}", "1A": f"{a1:.2f}", "1B": f"{b1:.2f}", "net": f"{a1 - b1:.2f}", "faults": {}}


def _tenth(ledger: dict, rng: random.Random) -> dict:
    """What a model that believes GST = 10% of the inclusive price derives."""
    tenth = {**ledger, "rows": [dict(r) for r in ledger["rows"]]}
    for r in tenth["rows"]:  # rewrite each taxable row's "correct" GST as it believes it
        if r["category"] in TAXABLE:
            believed = (Decimal(r["amount"]) / 10).quantize(CENT, rounding=ROUND_HALF_UP)
            r["gst"] = f"{Decimal(r['gst']) - believed + _gst11(r['amount']):.2f}"
    key = answer_key(tenth)
    figures = {k: (Decimal(key[k]) * Decimal("1.1")).quantize(CENT) for k in ("1A", "1B")}
    faults = {t: [c for c in codes if c == "gst_miscalculated" or rng.random() < 0.9]
              for t, codes in key["faults"].items()}
    return {"G1": key["G1"], "1A": f"{figures['1A']:.2f}", "1B": f"{figures['1B']:.2f}",
            "net": f"{figures['1A'] - figures['1B']:.2f}", "faults": {t: c for t, c in faults.items() if c}}


def _gst11(amount: str) -> Decimal:
    return (Decimal(amount) / 11).quantize(CENT, rounding=ROUND_HALF_UP)


def _noisy(key: dict, ledger: dict, rng: random.Random, recall: float, precision: float, bas_ok: float) -> dict:
    true = [(t, c) for t, codes in key["faults"].items() for c in codes]
    found = [p for p in true if rng.random() < recall]
    n_false = round(len(found) * (1 - precision) / precision) if found else rng.random() < 0.2
    ids = [r["id"] for r in ledger["rows"]]
    found += [(rng.choice(ids), rng.choice(FAULT_CODES)) for _ in range(int(n_false))]
    faults: dict[str, list[str]] = {}
    for t, c in found:
        if c not in faults.setdefault(t, []):
            faults[t].append(c)
    answer = {k: key[k] for k in LABELS}
    if rng.random() >= bas_ok:
        label = rng.choice(LABELS)
        rows = [r for r in ledger["rows"] if r["category"] in TAXABLE]
        slip = Decimal("0.01") if rng.random() < 0.5 or not rows else _gst11(rng.choice(rows)["amount"])
        answer[label] = f"{Decimal(answer[label]) + slip * rng.choice((-1, 1)):.2f}"
    return {**answer, "faults": faults}


def _answer_json(answer: dict, rng: random.Random) -> str:
    figures = {k: (float(answer[k]) if rng.random() < 0.5 else answer[k]) for k in LABELS}
    if rng.random() < 0.2:
        figures = {k: f"${Decimal(v):,.2f}" for k, v in figures.items()}
    return json.dumps({**figures, "faults": answer["faults"]})


def content_for(profile: Profile, item: dict, rng: random.Random) -> str:
    key, ledger = item["key"], item["ledger"]
    if profile.run_id == "aubas-reference-solver":
        return "<answer>" + json.dumps(key) + "</answer>"
    if profile.run_id == "aubas-naive-sums":
        return "<answer>" + json.dumps(_naive(ledger)) + "</answer>"
    if profile.model == "tenth-wit-1":
        answer = _tenth(ledger, rng)
    elif profile.model == "flagall-3":
        answer = _noisy(key, ledger, rng, 1.0, 1.0, 0.5)
        for r in ledger["rows"]:
            for code in rng.sample(FAULT_CODES, rng.randint(1, 3)):
                if code not in answer["faults"].setdefault(r["id"], []):
                    answer["faults"][r["id"]].append(code)
    elif profile.model == "abacus-slip-2":
        answer = _noisy(key, ledger, rng, 0.95, 0.97, 0.95 if profile.snapshot == "earlier" else 0.4)
    else:
        answer = _noisy(key, ledger, rng, 0.6, 0.7, 0.2)
        if rng.random() < 0.35:
            return rng.choice((
                "I reviewed the ledger; the BAS figures are G1 " + key["G1"] + " and so on.",
                "<answer>{\"G1\": " + key["G1"] + ", \"1A\": </answer>",
                "<answer>" + json.dumps({**{k: key[k] for k in LABELS}, "faults": list(key["faults"])}) + "</answer>",
                "<answer>Here it is: " + json.dumps(answer) + "</answer>"))
    body = _answer_json(answer, rng)
    if rng.random() < 0.3:
        body = "```json\n" + body + "\n```"
    return "I checked every row against the GST rules.\n\n<answer>" + body + "</answer>"


def _record(profile: Profile, item: dict, repeat: int, messages: list, clock: dt.datetime, seed: int) -> tuple[dict, float]:
    rng = _rng(seed, profile.run_id, item["id"], "answer")
    content = content_for(profile, item, rng)
    timing = _rng(seed, profile.run_id, item["id"], repeat, "timing")
    latency = round(profile.median_ms * math.exp(timing.gauss(0, 0.35)), 1) if profile.simulated else 1.0
    prompt_tokens = sum(len(m["content"]) for m in messages) // 4 + 1
    completion_tokens = len(content) // 4 + 1
    usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
             "total_tokens": prompt_tokens + completion_tokens}
    body = {"id": "chatcmpl-" + hashlib.sha256(f"{profile.run_id}|{item['id']}|{repeat}".encode()).hexdigest()[:24],
            "object": "chat.completion", "created": int(clock.timestamp()), "model": profile.model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": usage}
    record = {"item": item["id"], "repeat": repeat,
              "request": {"model": profile.model, "messages": messages, "temperature": 0, "max_tokens": 4096},
              "attempts": [{"start": clock.isoformat().replace("+00:00", "Z"), "status": 200, "error": None,
                            "latency_ms": latency}],
              "response": body, "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
              "latency_ms": latency}
    return record, latency


def write_aubas_results(results_dir: Path, items: list[dict], suite_dir: Path, seed: int = 20260826) -> list[Path]:
    template = load_template(suite_dir)
    items = sorted(items, key=lambda i: i["id"])
    sample = {i["id"] for k, i in enumerate(items) if k % 10 == 0}
    jobs = [(i, 0) for i in items] + [(i, r) for i in items if i["id"] in sample for r in (1, 2)]
    jobs.sort(key=lambda j: (j[0]["id"], j[1]))
    anchors = [a for half in ("public", "private") for a in ANCHORS[half]]
    by_id = {i["id"]: i for i in items}
    first = [(by_id[a], 0) for a in anchors] + [j for j in jobs if j[1] or j[0]["id"] not in anchors]  # anchors first
    written = []
    for profile in PROFILES + EARLIER_PROFILES:
        run_dir = results_dir / SUITE / profile.run_id
        run_dir.mkdir(parents=True, exist_ok=True)
        hosted = profile.hosting == "hosted"
        clock = STARTS[profile.round]
        started = clock
        lines = []
        for item, repeat in first if hosted else jobs:
            messages = [{"role": "system", "content": template.system.strip()},
                        {"role": "user", "content": template.user.strip().format(ledger=item["document"]["text"])}]
            record, latency = _record(profile, item, repeat, messages, clock, seed)
            clock += dt.timedelta(milliseconds=latency)
            lines.append(json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":")))
        meta = {"format": 1, "suite": SUITE, "suite_version": "1", "run_id": profile.run_id, "model": profile.model,
                "provider": profile.provider, "hosting": profile.hosting, "simulated": profile.simulated,
                "description": profile.description, "harness_version": "0.1.0", "prompt_sha256": template.sha256(),
                "sampling": {"temperature": 0, "max_tokens": 4096}, "round": profile.round, "half": "both",
                "started": started.isoformat().replace("+00:00", "Z"),
                "finished": clock.replace(microsecond=0).isoformat().replace("+00:00", "Z")}
        if hosted:
            meta["anchors"] = anchors
        if profile.prices:
            meta["prices"] = {"currency": "USD", "input_per_mtok": profile.prices[0],
                              "output_per_mtok": profile.prices[1], "date": "2026-10-15"}
        (run_dir / "run.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        (run_dir / "responses.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        written += [run_dir / "run.json", run_dir / "responses.jsonl"]
    return written
