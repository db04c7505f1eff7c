"""`tally example generate`: the example corpus, its balance report and the example results.

The corpus and balance report are byte-reproducible from the seed. The results are made by the
harness against the local simulation server (`generator.example.harness_runs`): their answers,
statuses, attempts and usage are reproducible, their times and latencies are measured.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..inputs.jsonl import jsonl_values

SUITE = "extracting"


def load_generated_items(items_dir: Path) -> list[dict]:
    items = []
    for path in sorted(items_dir.glob("*.jsonl")):
        items += jsonl_values(path.read_bytes(), path)
    return sorted(items, key=lambda i: i["id"])


def generate_corpus_files(root: Path, seed: int = 20261020) -> list[Path]:
    """Rewrite content/suites/extracting/{items,balance.json,real_labels.json,labels/} from the seed and the
    repository's copy of the real documents (data/real-documents/), with every document's page
    images (items/pages/)."""
    from .balance import write_balance
    from .corpus import write_corpus
    from .labels_sim import write_example_labels
    from .real_corpus import write_report

    suite_dir = root / "content" / "suites" / SUITE
    items_dir = suite_dir / "items"
    shutil.rmtree(items_dir, ignore_errors=True)
    written = list(write_corpus(items_dir, seed=seed, pages=True))
    items = load_generated_items(items_dir)
    balance = suite_dir / "balance.json"
    write_balance(balance, items)
    written.append(balance)
    written.append(write_report(suite_dir / "real_labels.json", items))
    written += write_example_labels(suite_dir, items)
    return written


def generate_aubas(root: Path) -> list[Path]:
    """Rewrite the au-bas suite's items, anchor block and example results (all byte-reproducible).

    Its results are written offline by the example writer, not through the harness: the local
    simulation server serves the extracting suite's simulated models only.
    """
    from .aubas_corpus import write_items
    from .aubas_runs import SUITE as AUBAS
    from .aubas_runs import anchors_toml, write_aubas_results

    suite_dir = root / "content" / "suites" / AUBAS
    shutil.rmtree(suite_dir / "items", ignore_errors=True)
    written = write_items(suite_dir / "items")
    (suite_dir / "anchors.toml").write_text(anchors_toml(), encoding="utf-8")
    written.append(suite_dir / "anchors.toml")
    shutil.rmtree(root / "results" / AUBAS, ignore_errors=True)
    return written + write_aubas_results(root / "results", load_generated_items(suite_dir / "items"), suite_dir)


def generate_rabench(root: Path) -> list[Path]:
    """Rewrite RA-Bench's items, their balance report and its example results (all byte-reproducible)."""
    from ..suites.rabench.balance import balance_report
    from .rabench_corpus import write_items
    from .rabench_runs import SUITE as RABENCH
    from .rabench_runs import write_results

    suite_dir = root / "content" / "suites" / RABENCH
    shutil.rmtree(suite_dir / "items", ignore_errors=True)
    written = write_items(suite_dir / "items")
    balance = suite_dir / "balance.json"
    report = balance_report(load_generated_items(suite_dir / "items"))
    balance.write_text(json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    written.append(balance)
    shutil.rmtree(root / "results" / RABENCH, ignore_errors=True)
    return written + write_results(root / "results", load_generated_items(suite_dir / "items"), suite_dir)


def generate_cortify(root: Path) -> list[Path]:
    """Rewrite CortifyBench's prompt (from its Spanish manual), items and example results
    (all byte-reproducible, written offline like au-bas's)."""
    from .cortify_corpus import write_items, write_prompt
    from .cortify_runs import SUITE as CORTIFY
    from .cortify_runs import write_results

    suite_dir = root / "content" / "suites" / CORTIFY
    written = [write_prompt(suite_dir, root / "content" / "pages")]
    shutil.rmtree(suite_dir / "items", ignore_errors=True)
    written += write_items(suite_dir / "items")
    shutil.rmtree(root / "results" / CORTIFY, ignore_errors=True)
    return written + write_results(root / "results", load_generated_items(suite_dir / "items"), suite_dir)


def generate_example(root: Path, seed: int = 20261020, progress: bool = True) -> list[Path]:
    """Rewrite the corpus from the seed, then results/extracting/ by running the harness; then
    the other suites' items and results; then seal every suite's results (`tally results seal --all`)."""
    from generator.example.harness_runs import run_example

    written = generate_corpus_files(root, seed)
    shutil.rmtree(root / "results" / SUITE, ignore_errors=True)
    for outcome in run_example(root, seed, progress):
        written += [outcome.run_dir / "run.json", outcome.run_dir / "responses.jsonl"]
    if (root / "content" / "suites" / "au-bas" / "suite.toml").is_file():
        written += generate_aubas(root)
    if (root / "content" / "suites" / "ra-bench" / "suite.toml").is_file():
        written += generate_rabench(root)
    if (root / "content" / "suites" / "ledgershield" / "suite.toml").is_file():
        written += generate_ledgershield(root)
    if (root / "content" / "suites" / "cortifybench" / "suite.toml").is_file():
        written += generate_cortify(root)
    from .audit import write_example_audit

    written.append(write_example_audit(root))
    from ..pipeline.stages import suite_names
    from ..seal_command import seal_suite

    for name in suite_names(root):  # private-item records to private storage, sealed records in results/
        seal_suite(root, name)
    return written


def generate_ledgershield(root: Path) -> list[Path]:
    """Rewrite the LedgerShield suite's items, shared cases and example results (byte-reproducible)."""
    from .ledgershield_cases import write_items
    from .ledgershield_runs import SUITE as LEDGER
    from .ledgershield_runs import write_ledgershield_results
    from .ledgershield_vectors import write_vectors

    suite_dir = root / "content" / "suites" / LEDGER
    shutil.rmtree(suite_dir / "items", ignore_errors=True)
    written = write_items(suite_dir / "items")
    items = load_generated_items(suite_dir / "items")
    written.append(write_vectors(root / "tests" / "vectors" / "ledgershield.json", items))
    shutil.rmtree(root / "results" / LEDGER, ignore_errors=True)
    return written + write_ledgershield_results(root / "results", items, suite_dir)
