"""`tally example generate`: the example corpus, its balance report and the example results."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

SUITE = "extracting"


def load_generated_items(items_dir: Path) -> list[dict]:
    items = []
    for path in sorted(items_dir.glob("*.jsonl")):
        items += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return sorted(items, key=lambda i: i["id"])


def generate_example(root: Path, seed: int = 20261020) -> list[Path]:
    """Rewrite content/suites/extracting/{items,balance.json} and results/extracting/ from the seed."""
    import tomllib

    from .balance import write_balance
    from .corpus import write_corpus
    from .runs import write_example_results

    suite_dir = root / "content" / "suites" / SUITE
    reference_date = tomllib.loads((suite_dir / "suite.toml").read_text(encoding="utf-8"))["reference_date"]
    items_dir = suite_dir / "items"
    shutil.rmtree(items_dir, ignore_errors=True)
    written = list(write_corpus(items_dir, seed=seed))
    items = load_generated_items(items_dir)
    balance = suite_dir / "balance.json"
    write_balance(balance, items)
    written.append(balance)
    results_dir = root / "results"
    shutil.rmtree(results_dir / SUITE, ignore_errors=True)
    written += list(write_example_results(results_dir, items, reference_date, seed=seed))
    return written
