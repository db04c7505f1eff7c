"""The extracting example's two rounds after `2026-r1` that run its anchor block, made by the harness.

The anchor block (content/suites/extracting/anchors.toml: two items of each document type and half)
is what a hosted model answers first in every round (`tally run --anchors`), so that a silent change
to the model a provider serves under a name shows up: the statistics compare each model's runs of two
rounds on the anchor items both scored (generator/stats/anchors.py), shown on its provider's page.

Two hosted models were checked twice after `2026-r1`, whose runs list no anchors:

- `2026-r2`: the public half's anchor block alone (`tally run --anchors-only`), the cheap periodic
  check (public items only: it needs no commitment);
- `2026-r3`: a full run (both halves, three repeats of every tenth item, as in `2026-r1`), the anchor
  block first. Its private items are committed as round `2026-r3` (content/commitments/README.md).

Between the two, cloudco silently served acme-lynx-1 from another snapshot (more false nulls, misread
digits and slips), which the anchor block flags; owlworks served owl-careful-1 unchanged. Every
response is a real `tally run` against the local simulation server, as `2026-r1`'s
(generator/example/harness_runs.py); the simulated draws are seeded by each run's own id.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from ..harness.localserver import ServerConfig, ServerProcess
from ..harness.plan import jobs, load_plan
from ..harness.progress import Progress
from ..harness.providers import load_providers
from ..harness.runner import RunOutcome, RunSpec, execute_many
from .harness_runs import REPEAT_SAMPLE, REPEATS, SUITE, TIME_SCALE, TIMEOUT_S, profile_description, workers
from .profiles import PROFILES, Profile

EARLIER, CURRENT = "2026-r2", "2026-r3"
MODELS = ("acme-lynx-1-cloudco", "owl-careful-1-owlworks")  # the 2026-r1 runs whose models were checked again
SEED = 20261020

CHANGE_NOTE = (" Round 2026-r3: cloudco served acme-lynx-1 from a different snapshot under the same name, "
               "without saying so (simulated: false nulls 20%, misread digits 12%, slips on computed fields 30%); "
               "the anchor block shows it.")


def profiles(round_name: str) -> list[Profile]:
    """The checked models as the server serves them in a round (run ids named after the round)."""
    out = []
    for p in PROFILES:
        if p.run_id not in MODELS:
            continue
        p = dataclasses.replace(p, run_id=f"{p.run_id}-{round_name}")
        if round_name == CURRENT and p.model == "acme-lynx-1":
            p = dataclasses.replace(p, false_null=0.20, misread_digit=0.12, computed_slip=0.30)
        out.append(p)
    return out


def specs(root: Path, base_url: str, round_name: str) -> list[RunSpec]:
    providers = load_providers(root)
    full = round_name == CURRENT
    plan = load_plan(root, SUITE, "both" if full else "public")
    todo = jobs(plan, REPEATS, REPEAT_SAMPLE, anchors=True, limit=None if full else 0)
    out = []
    for p in profiles(round_name):
        description = profile_description(p) + (CHANGE_NOTE if p.run_id.startswith(MODELS[0]) and full else "")
        if not full:
            description += " This run answered the suite's anchor block only (tally run --anchors-only)."
        out.append(RunSpec(Path(root), SUITE, p.model, providers[p.provider], run_id=p.run_id,
                           half="both" if full else "public", repeats=REPEATS if full else 1,
                           repeat_sample=REPEAT_SAMPLE, anchors=True, limit=None if full else 0,
                           concurrency=workers(p, todo, SEED), timeout_s=TIMEOUT_S / TIME_SCALE,
                           base_url=f"{base_url}/{p.provider}/v1", description=description, round=round_name,
                           time_scale=TIME_SCALE))
    return out


def run_round(root: Path, round_name: str, progress: bool = True) -> list[RunOutcome]:
    """The round's runs into ROOT/results/extracting/ (runs already stored are resumed)."""
    config = ServerConfig(Path(root), SUITE, SEED, TIME_SCALE, profiles=tuple(profiles(round_name)))
    with ServerProcess(config) as port:
        bar = Progress(0, f"{round_name} runs ", enabled=progress)
        outcomes = asyncio.run(execute_many(specs(root, f"http://127.0.0.1:{port}", round_name), bar))
        bar.close()
    return outcomes
