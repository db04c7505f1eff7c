"""The example results, made by the harness: every example run is a real `tally run` against the
local simulation server, so its stored requests, attempts and responses are genuine harness
output and its latencies are measured.

To keep the regeneration short, every duration is scaled by TIME_SCALE: the server sleeps
TIME_SCALE x each simulated latency and asks for TIME_SCALE x its Retry-After, and the harness
backs off TIME_SCALE x as long. The per-attempt timeout is TIMEOUT_S (the simulated timeouts are
hangs the harness gives up on); it is far above any scaled latency, so a busy machine doesn't
turn an answer into a timeout. The nine runs go at once. Each simulated run gets enough workers
to finish in about TARGET_S seconds (from the latencies and timeouts the simulation will draw),
and the baselines, which answer at once, BASELINE_CONCURRENCY: few enough calls in flight that
the machine's CPU is not the bottleneck and the measured latencies follow the simulated ones.
"""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

from generator.example.image_profiles import image_profile
from generator.example.ocr import OCR_BASELINE
from generator.example.profiles import BASELINES, PROFILES, Profile
from generator.example.simulate import simulate_call

from ..harness.localserver import ServerConfig, ServerProcess
from ..harness.plan import jobs, load_plan
from ..harness.progress import Progress
from ..harness.providers import load_providers
from ..harness.runner import RunOutcome, RunSpec, execute_many

SUITE = "extracting"
ROUND = "2026-r1"
TIME_SCALE = 0.1
TIMEOUT_S = 10.0
TARGET_S = 25.0
BASELINE_CONCURRENCY = 2  # they answer at once: more would only queue on the CPU
REPEATS = 3
REPEAT_SAMPLE = "every:10"
IMAGE_PROFILES = ("acme-lynx-1-cloudco", "orbit-medium-3-orbitai", "pebble-mini-budgetapi")
IMAGE_CONCURRENCY = 8
OCR_TIMEOUT_S = 60.0  # one OCR call reads every page of a document
IMAGE_NOTE = (" This run was given the page images of the public half instead of the text (tally run --input "
              "image); the image reading is simulated like the rest.")

MEASURED = (
    " The responses were produced by the Tally harness (tally run) calling the local simulation "
    "server (tally provider serve) over HTTP on the loopback interface. To keep the example quick "
    "to regenerate, the server sleeps 1/10 of each simulated latency and the harness waits 1/10 of "
    "each backoff, with a per-attempt timeout of 10 s: the stored latencies are measured by the "
    "harness, so they are about 1/10 of the simulated ones, plus local overhead."
)
BASELINE_DESCRIPTIONS = {
    "baseline-rules": (
        "Real, not simulated: a deterministic rule-based extractor (generator.example.extractor) "
        "that reads the document text with regular expressions and returns what it finds, null "
        "otherwise. The local simulation server runs it for each request and answers in the shape "
        "of a chat-completions response; token counts are estimates (4 characters a token)."
    ),
    "baseline-null": (
        "Real, not simulated: returns null for every requested field of every item, the floor for "
        "accuracy and the ceiling for null honesty. The local simulation server answers it for each "
        "request; token counts are estimates (4 characters a token)."
    ),
}
BASELINE_MEASURED = (
    " Called through the Tally harness (tally run) over HTTP on the loopback interface; the stored "
    "latencies are measured (the server adds no delay) and the retries come from the same harness "
    "rules as every other run."
)


def profile_description(profile: Profile) -> str:
    return profile.description + MEASURED


def workers(profile: Profile, todo: list[tuple[dict, int]], seed: int) -> int:
    """Workers for `profile` to spend about TARGET_S seconds on `todo` (2 to 32)."""
    busy = 0.0
    for item, repeat in todo:
        attempts = simulate_call(profile, item, repeat, seed).attempts
        if attempts[-1].status != 200:  # tried 1 + 3 times
            attempts = attempts + [attempts[-1]] * (4 - len(attempts))
        busy += sum(TIMEOUT_S if a.error == "timeout" else a.latency_ms / 1000 * TIME_SCALE for a in attempts)
        busy += 1.5 * TIME_SCALE * (len(attempts) - 1)  # backoff, about
    return max(2, min(32, math.ceil(busy / TARGET_S)))


def example_specs(root: Path, base_url: str, seed: int = 20261020) -> list[RunSpec]:
    """One RunSpec per example run; `base_url` is the server's root (http://127.0.0.1:PORT)."""
    providers = load_providers(root)
    plan = load_plan(root, SUITE, "both")
    todo = jobs(plan, REPEATS, REPEAT_SAMPLE)
    runs = [(b["run_id"], b["provider"], b["model"], BASELINE_DESCRIPTIONS[b["run_id"]] + BASELINE_MEASURED,
             BASELINE_CONCURRENCY) for b in BASELINES]
    runs += [(p.run_id, p.provider, p.model, profile_description(p), workers(p, todo, seed)) for p in PROFILES]
    return [RunSpec(Path(root), SUITE, model, providers[provider], run_id=run_id, half="both",
                    repeats=REPEATS, repeat_sample=REPEAT_SAMPLE, concurrency=concurrency,
                    timeout_s=TIMEOUT_S / TIME_SCALE,  # the spec's timeout is scaled by time_scale
                    base_url=f"{base_url}/{provider}/v1", description=description, round=ROUND,
                    time_scale=TIME_SCALE)
            for run_id, provider, model, description, concurrency in runs]


def image_specs(root: Path, base_url: str) -> list[RunSpec]:
    """The image-input runs (public half, the half with page images; one repeat): IMAGE_PROFILES on
    their simulated image profiles, then the real OCR baseline."""
    providers = load_providers(root)
    by_id = {p.run_id: p for p in PROFILES}
    out = []
    for run_id in IMAGE_PROFILES:
        p = by_id[run_id]
        description = image_profile(p, photo=False).description + IMAGE_NOTE + MEASURED
        out.append(RunSpec(Path(root), SUITE, p.model, providers[p.provider], run_id=run_id + "-image", half="public",
                           concurrency=IMAGE_CONCURRENCY, timeout_s=TIMEOUT_S / TIME_SCALE,
                           base_url=f"{base_url}/{p.provider}/v1", description=description, round=ROUND,
                           time_scale=TIME_SCALE, input="image"))
    ocr = OCR_BASELINE
    out.append(RunSpec(Path(root), SUITE, ocr["model"], providers[ocr["provider"]], run_id=ocr["run_id"], half="public",
                       concurrency=1, timeout_s=OCR_TIMEOUT_S / TIME_SCALE, base_url=f"{base_url}/{ocr['provider']}/v1",
                       description=ocr_description(), round=ROUND, time_scale=TIME_SCALE, input="image"))
    return out


def ocr_description() -> str:
    from generator.example.ocr import version

    return (f"Real, not simulated: {version()} (Debian's tesseract-ocr with its eng, deu, fra, spa and jpn "
            "data) reads the page images sent in each request, after the usual preparation (crop, deskew, "
            "enlarge, threshold: generator.example.ocr), and the rule-based extractor of baseline-rules reads "
            "its text. It is told the document's locale (the OCR language), the reference date and the "
            "requested fields, never the item's text. Token counts are estimates (a nominal 1,000 a page "
            "image)." + BASELINE_MEASURED)


def run_example(root: Path, seed: int = 20261020, progress: bool = True,
                only: list[str] | None = None) -> list[RunOutcome]:
    """Run every example run (or the run ids in `only`) into ROOT/results/extracting/.

    The text runs go at once, then the simulated image runs, then the OCR baseline alone (its
    server-side OCR takes the CPU: run beside the others it would stretch their measured latencies).
    Runs already stored are resumed: remove their folders first for a fresh regeneration.
    """
    config = ServerConfig(Path(root), SUITE, seed, TIME_SCALE)
    outcomes = []
    with ServerProcess(config) as port:
        url = f"http://127.0.0.1:{port}"
        images = image_specs(root, url)
        for specs in (example_specs(root, url, seed), images[:-1], images[-1:]):
            if only is not None:
                specs = [s for s in specs if s.id in only]
            if not specs:
                continue
            bar = Progress(0, "example runs ", enabled=progress)
            outcomes += asyncio.run(execute_many(specs, bar))
            bar.close()
    return outcomes
