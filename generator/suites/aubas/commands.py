"""`tally au-bas ...`: the seed's taskset is endless ("bound a run with -n"); `generate` writes N
ledgers of one configuration (the seed's arguments: transactions, fault rate, seed) as items."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ...errors import InputProblem


@click.group("au-bas")
def group() -> None:
    """The au-bas suite's own commands (the seed's taskset arguments)."""


@group.command("generate")
@click.option("-n", "n", type=click.IntRange(1), required=True, help="Number of ledgers.")
@click.option("--num-transactions", type=int, default=24, show_default=True, help="Rows per ledger (at least 4).")
@click.option("--fault-rate", type=float, default=0.25, show_default=True,
              help="Expected share of rows with an injected fault, 0.0 to 1.0 (0.0: clean quarters).")
@click.option("--seed", type=int, default=20260826, show_default=True, help="Seeds the generator.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The JSONL file to write (one item per line, the suite's item format).")
def generate(n: int, num_transactions: int, fault_rate: float, seed: int, out: Path) -> None:
    """Write ledgers 0 .. N-1 of (seed, transactions, fault rate) as items: deterministic, so the same
    arguments give the same bytes; each key is re-derived from its ledger by the rules."""
    from ...example.aubas_corpus import ledger_item
    from ...example.aubas_ledger import Config, ConfigError

    try:
        config = Config(num_transactions, fault_rate)
    except ConfigError as exc:
        raise InputProblem(f"au-bas generate: {exc}") from None
    if out.is_symlink() or (out.exists() and not out.is_file()):
        raise InputProblem(f"{out}: not a regular file; refusing to write it")
    tag = f"{num_transactions}-{fault_rate:g}-{seed}"
    lines = [json.dumps(ledger_item(f"aubas-{tag}-{k:04d}", "generated", "public", config, seed, k), sort_keys=True,
                        ensure_ascii=False) for k in range(n)]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    click.echo(f"wrote {n} ledgers ({num_transactions} rows, fault rate {fault_rate:g}, seed {seed}) to {out}")
