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
ROUND = "2026-ls-r2"  # its own round: the signed commitment to its private items covers its runs
SEED = 20260401  # of the careful agent's slips
CONCURRENCY = 1  # one episode at a time: the order the run stores them, which carries the state, is the cases' order
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


IMPORTED = ("ledgershield-imported-script", "script-imported",
            "Scripted baseline, not a model: episodes written by Tally's example generator in the file format of "
            "LedgerShield's own harness (one JSON document per episode, the action under action_type; the careful, "
            "hasty and yielding scripts in turn on the public cases; every tenth ends in a simulated harness error, a "
            "failed episode) and stored by tally import, as an operator imports LedgerShield's episodes. They carry no "
            "final_info: no LedgerShield grade exists for Tally's own cases.")


def harness_file(item: dict, agent: str, k: int) -> dict:
    """The agent's episode on a case as LedgerShield's harness writes it."""
    from .ledgershield_agents import AGENTS

    episode = AGENTS[agent](item)
    trace = [{"phase": "submit" if s["tool_name"] == "submit_decision" else "investigation", "step": n,
              "action_type": s["tool_name"], "payload": s["payload"], "reward": 0.0,
              "done": s["tool_name"] == "submit_decision", "tool_name": s["tool_name"]}
             for n, s in enumerate(episode["action_trace"], start=1)]
    error = "simulated harness error: the episode timed out" if k % 10 == 9 else ""
    return {"model": IMPORTED[1], "case_id": item["id"], "task_type": f"task_{item['task'].lower()}",
            "action_trace": [] if error else trace, "final_submission": {} if error else episode["final_submission"],
            "error": error}


def write_imported(root: Path, items: list[dict]) -> list[Path]:
    """The imported example run: harness files written to a scratch folder, then `tally import`ed."""
    import json
    import tempfile

    from ..suites.ledgershield.episode_import import import_files

    provider = load_providers(root)["local"]
    public = [i for i in items if i["half"] == "public"]
    with tempfile.TemporaryDirectory() as scratch:
        files = []
        for k, item in enumerate(public):
            path = Path(scratch) / f"{item['id']}.json"
            path.write_text(json.dumps(harness_file(item, ("careful", "hasty", "yielding")[k % 3], k), indent=2,
                                       sort_keys=True), encoding="utf-8")
            files.append(path)
        spec = RunSpec(Path(root), SUITE, IMPORTED[1], provider, run_id=IMPORTED[0], half="public",
                       description=IMPORTED[2], round=ROUND)
        outcome = import_files(spec, files, None)
    return [outcome.run_dir / name for name in ("run.json", "responses.jsonl")]


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
    made = [o.run_dir / name for o in outcomes for name in ("run.json", "responses.jsonl", "turns.jsonl")]
    return made + write_imported(root, items)
