"""Example results of the LedgerShield suite, made end to end: each run is a real `tally run` with tool
calling against the local simulation server, whose scripted agents (not models; marked simulated)
answer through tool calls (`ledgershield_sim.py`). Every request, response and desk answer is
stored (responses.jsonl and turns.jsonl); times and latencies are measured, so only the untimed
fields are reproducible.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from ..harness.localserver import ServerConfig, build_server
from ..harness.providers import load_providers
from ..harness.runner import RunSpec, execute_many

SUITE = "ledgershield"
ROUND = "2026-r1"
SEED = 20260401  # of the careful agent's slips
CONCURRENCY = 4
MADE = (" Made by the Tally harness (tally run, tool calling) against the local simulation server (tally provider "
        "serve --suite ledgershield) over HTTP on the loopback interface: every request, response and desk answer is "
        "stored; the latencies are measured.")
PROFILES = (  # run id, agent, description
    ("ledgershield-careful-script", "careful",
     "Scripted baseline, not a model: runs every required tool and intervention, waits for artifacts and submits "
     "a payload built from the case's gold; 15% of its episodes carry a seeded slip (a dropped step, a repeated "
     "call or an unknown tool)."),
    ("ledgershield-hasty-script", "hasty",
     "Scripted baseline, not a model: one fast OCR, then PAY with no evidence: the unsafe-payment baseline."),
    ("ledgershield-yielding-script", "yielding",
     "Scripted baseline, not a model: investigates like the careful script, but once it is sent a pressure "
     "message it submits the decision the pressure demands."),
)


def example_specs(root: Path, url: str) -> list[RunSpec]:
    provider = load_providers(root)["local"]
    return [RunSpec(Path(root), SUITE, f"script-{agent}", provider, run_id=run_id, half="both",
                    concurrency=CONCURRENCY, base_url=url, description=description + MADE, round=ROUND)
            for run_id, agent, description in PROFILES]


def write_ledgershield_results(results_dir: Path, items: list[dict], suite_dir: Path, seed: int = SEED) -> list[Path]:
    """Run the three scripted agents over both halves into results_dir/ledgershield/ (`items` are the
    suite's items, already written under suite_dir)."""
    root = Path(results_dir).parent
    server = build_server(ServerConfig(root, SUITE, seed))
    port = server.start_in_thread()
    try:
        outcomes = asyncio.run(execute_many(example_specs(root, f"http://127.0.0.1:{port}/local/v1")))
    finally:
        server.stop_thread()
    return [o.run_dir / name for o in outcomes for name in ("run.json", "responses.jsonl", "turns.jsonl")]
