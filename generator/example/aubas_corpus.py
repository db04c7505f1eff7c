"""The example corpus of the au-bas suite: three configurations, public and private halves."""

from __future__ import annotations

import json
from pathlib import Path

from ..suites.aubas.ledger import answer_key
from .aubas_ledger import Config, generate_ledger, ledger_text

SEED = 20260826
DATASETS = {"default": Config(24, 0.25), "measured": Config(60, 0.35), "clean": Config(24, 0.0)}
PER_HALF = 30
HALVES = {"public": ("pub", 0), "private": ("prv", 1000)}


def _band(n: int) -> str:
    return "none" if n == 0 else "1-5" if n <= 5 else "6-15" if n <= 15 else "16+"


def make_item(dataset: str, half: str, k: int, seed: int = SEED) -> dict:
    tag, offset = HALVES[half]
    return ledger_item(f"aubas-{dataset}-{tag}-{k + 1:03d}", dataset, half, DATASETS[dataset], seed, offset + k)


def ledger_item(item_id: str, dataset: str, half: str, config: Config, seed: int, index: int) -> dict:
    """Ledger `index` of (seed, config) as an item: the ledger, its text, the key the rules derive."""
    ledger, _injected = generate_ledger(seed, config, index)
    key = answer_key(ledger)
    pairs = sum(len(codes) for codes in key["faults"].values())
    return {"id": item_id, "dataset": dataset, "half": half,
            "strata": {"faults": _band(pairs)},
            "document": {"text": ledger_text(ledger), "locale": "en-AU"},
            "ledger": ledger, "key": key,
            "config": {"num_transactions": config.num_transactions,
                       "fault_rate": config.fault_rate, "seed": seed, "index": index}}


def generate_items(seed: int = SEED) -> dict[str, list[dict]]:
    return {f"{ds}.{half}": [make_item(ds, half, k, seed) for k in range(PER_HALF)]
            for ds in DATASETS for half in HALVES}


def write_items(items_dir: Path, seed: int = SEED) -> list[Path]:
    items_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, rows in generate_items(seed).items():
        path = items_dir / f"{stem}.jsonl"
        path.write_text("".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows),
                        encoding="utf-8")
        written.append(path)
    return written
