"""`tally run`: one model on one provider over a suite, every request and response stored.

`execute(spec)` plans the jobs (`plan.py`), opens the run's store (resuming what is stored),
calls the provider with `concurrency` workers and appends each finished call as one record.
Several specs can run at once in one event loop (`execute_many`), as the example regeneration
does. A spec's `time_scale` multiplies the timeout and backoff (for a sped-up simulation server
only; real runs use 1).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from generator.inputs.ids import id_problem

from ..folders import refuse_links
from ..sealing import private_file
from .agent_loop import DEFAULT_MAX_STEPS, run_episode
from .client import CallResult, ChatClient, RetryPolicy
from .images import stored_request
from .plan import ANCHORS_FILE, PlanError, jobs, load_plan
from .progress import Progress
from .providers import Provider, ProviderError, url_problem
from .store import RunStore
from .turnlog import TurnLog

SAMPLING = {"temperature": 0, "max_tokens": 2048}


@dataclass
class RunSpec:
    root: Path
    suite: str
    model: str
    provider: Provider
    run_id: str | None = None
    half: str = "public"
    repeats: int = 1
    repeat_sample: str = "every:10"
    anchors: bool = False
    limit: int | None = None
    concurrency: int | None = None
    timeout_s: float | None = None
    base_url: str | None = None
    description: str | None = None
    round: str = "adhoc"
    input: str = "text"  # text | image | text+image (images.py)
    time_scale: float = 1.0
    sampling: dict = field(default_factory=lambda: dict(SAMPLING))
    max_steps: int = DEFAULT_MAX_STEPS  # tool calls of one episode (suites with a tool environment)

    @property
    def id(self) -> str:
        kind = "" if self.input == "text" else "-" + self.input.replace("+", "-")
        return self.run_id or f"{self.model}-{self.provider.id}{kind}"


@dataclass
class RunOutcome:
    run_id: str
    run_dir: Path
    planned: int
    skipped: int
    stored: int = 0
    failed: int = 0
    retried: int = 0
    torn_bytes: int = 0
    unit: str = "call"  # what one record is: a call, or an episode of several calls (tool calling)


def harness_version() -> str:
    try:
        return metadata.version("tally")
    except metadata.PackageNotFoundError:  # pragma: no cover - not installed
        return "0+unknown"


def run_meta(spec: RunSpec, prompt_sha256: str, suite_version: str, anchors: list[str]) -> dict:
    provider, model = spec.provider, spec.provider.model(spec.model)
    description = spec.description or (f"{spec.model} on {provider.title}, run by the Tally harness "
                                       f"{harness_version()}.")
    meta = {"format": 1, "suite": spec.suite, "suite_version": suite_version, "run_id": spec.id,
            "model": spec.model, "provider": provider.id, "hosting": provider.hosting,
            "simulated": model.simulated, "description": description,
            "harness_version": harness_version(), "prompt_sha256": prompt_sha256,
            "sampling": dict(spec.sampling), "round": spec.round, "half": spec.half,
            "started": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    prices = provider.prices(spec.model)
    if prices is not None and provider.hosting == "hosted":
        meta["prices"] = prices
    if spec.anchors:
        meta["anchors"] = anchors
    if spec.input != "text":  # absent means text, as in every run stored before input kinds
        meta["input"] = spec.input
    return meta


def usage_of(body: dict | None) -> dict | None:
    usage = body.get("usage") if isinstance(body, dict) else None
    if not isinstance(usage, dict):
        return None
    keys = ("prompt_tokens", "completion_tokens")
    if not all(type(usage.get(k)) is int and usage[k] >= 0 for k in keys):
        return None
    return {k: usage[k] for k in keys}


async def execute(spec: RunSpec, progress: Progress | None = None) -> RunOutcome:
    if (problem := id_problem(spec.id, "run id")) is not None:
        raise PlanError(problem + " (choose one with --run-id)")
    model = spec.provider.model(spec.model)  # the provider must serve it
    if spec.base_url is not None and (problem := url_problem(spec.base_url)) is not None:
        raise ProviderError(f"--base-url {problem}")
    plan = load_plan(spec.root, spec.suite, spec.half)
    todo = jobs(plan, spec.repeats, spec.repeat_sample, spec.anchors, spec.limit, spec.root)
    if not todo:
        raise PlanError(f"nothing to run: the suite {spec.suite} has no anchor block ({ANCHORS_FILE}) in the "
                        f"{spec.half} half" if spec.limit == 0 else f"nothing to run: no items of the {spec.half} half")
    plan.check_input(spec.input, [item for item, _ in todo])
    api_key = spec.provider.api_key()
    private_items = frozenset(i["id"] for i in plan.items if i.get("half") == "private")
    private_path = private_file(Path(spec.root), spec.suite, spec.id) if private_items else None
    run_dir = Path(spec.root) / "results" / spec.suite / spec.id
    refuse_links(run_dir, "run folder", Path(spec.root))  # appended to: never through a committed link
    if private_path is not None:
        refuse_links(private_path.parent, "private storage", Path(spec.root))
    store = RunStore(run_dir, private_path, private_items)
    environment = plan.plugin.tool_environment
    meta = run_meta(spec, plan.template.sha256(), plan.suite.version, plan.anchors)
    if environment is not None:
        meta["tools"] = {"sha256": environment.tools_sha256(), "max_steps": spec.max_steps}
    done = store.open(meta)
    # the state the environment carries between episodes, rebuilt from the stored ones (resume)
    carrier = environment.carrier(plan.items, [p for p in (store.path, private_path) if p is not None]) \
        if environment is not None else None
    log = TurnLog(store.dir, private_path.parent if private_path else None, private_items)
    try:
        if environment is not None:
            log.open()
        pending = [(item, repeat) for item, repeat in todo if (item["id"], repeat) not in done]
        outcome = RunOutcome(spec.id, store.dir, len(todo), len(todo) - len(pending),
                             torn_bytes=store.torn_bytes + log.torn_bytes,
                             unit="call" if environment is None else "episode")
        if progress is None:
            progress = Progress(len(todo), f"{spec.id} ", enabled=False)
        else:
            progress.add_total(len(todo))
        progress.skip(outcome.skipped)
        concurrency = spec.concurrency or spec.provider.concurrency
        policy = RetryPolicy(timeout_s=spec.timeout_s or spec.provider.timeout_s).scaled(spec.time_scale)
        accepted = (spec.model, *model.served_as)
        async with ChatClient(spec.base_url or spec.provider.base_url, api_key, accepted, policy,
                              concurrency, spec.provider.simulation_server) as client:
            queue: asyncio.Queue = asyncio.Queue()
            for job in pending:
                queue.put_nowait(job)

            async def worker(lane: int) -> None:
                while True:
                    try:
                        item, repeat = queue.get_nowait()
                    except asyncio.QueueEmpty:
                        return
                    request = {"model": spec.model, "messages": plan.messages(item, spec.input), **spec.sampling}
                    if environment is not None:
                        request["tools"] = list(environment.TOOL_DEFINITIONS)
                        record = await run_episode(client, environment, log, item, repeat, request,
                                                   spec.max_steps, lane)
                        result = CallResult(record["attempts"], record["response"], record["latency_ms"])
                    else:
                        result = await client.call(request, repeat, lane)
                        record = {"item": item["id"], "repeat": repeat, "request": stored_request(request),
                                  "attempts": result.attempts, "response": result.response,
                                  "usage": usage_of(result.response), "latency_ms": result.latency_ms}
                    if carrier is not None:
                        record = carrier.stamp(record)
                    too_large = store.append(record)
                    outcome.stored += 1
                    outcome.failed += result.failed or too_large
                    outcome.retried += result.retried
                    progress.update(result.failed, result.retried)

            try:
                async with asyncio.TaskGroup() as group:  # a failing worker stops the others
                    for lane in range(min(concurrency, max(len(pending), 1))):
                        group.create_task(worker(lane))
            except BaseExceptionGroup as group_error:
                raise group_error.exceptions[0] from None
        store.finish()
        return outcome
    finally:
        log.close()
        store.close()


async def execute_many(specs: list[RunSpec], progress: Progress | None = None) -> list[RunOutcome]:
    """Several runs at once (each with its own store and connection pool)."""
    return list(await asyncio.gather(*(execute(s, progress) for s in specs)))


def run(spec: RunSpec, progress: Progress | None = None) -> RunOutcome:
    return asyncio.run(execute(spec, progress))
