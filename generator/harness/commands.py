"""Click commands of the harness: `run`, `import` (import_cmd) and the `provider` group with `serve`.

generator/cli.py registers them; each is a thin wrapper over the library functions.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from .. import options
from ..errors import EXIT_INPUT as EXIT_INPUT_ERRORS

if TYPE_CHECKING:
    from .importer import ImportOutcome

_ROOT = options.ROOT


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_INPUT_ERRORS)


def _spec(root: Path, suite: str, model: str, provider_id: str, **kw):
    from .providers import ProviderError, get_provider
    from .runner import RunSpec

    try:
        provider = get_provider(root, provider_id)
        provider.model(model)
    except ProviderError as exc:
        _fail(str(exc))
    return RunSpec(root, suite, model, provider, **kw)


@click.command("run")
@click.argument("suite")
@click.option("--model", required=True, help="The model, as the provider names it (pinned).")
@click.option("--provider", "provider_id", required=True, help="A provider of content/providers.toml.")
@_ROOT
@click.option("--half", type=click.Choice(["public", "private", "both"]), default="public", show_default=True)
@click.option("--repeats", type=click.IntRange(1, 1000), default=1, show_default=True,
              help="Runs of each item of the repeat sample (repeat 0 covers every item).")
@click.option("--repeat-sample", default="every:10", show_default=True,
              help="Items run again: all, none, every:N (every N-th id) or @FILE (ids, one a line).")
@click.option("--anchors", is_flag=True, help="Run the suite's anchor block (anchors.toml) first.")
@click.option("--anchors-only", is_flag=True,
              help="Run the suite's anchor block and nothing else: a check of a hosted model between rounds.")
@click.option("--run-id", default=None, help="Default: MODEL-PROVIDER.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N items (a smoke test).")
@click.option("--concurrency", type=click.IntRange(1, 1024), default=None, help="Default: the provider's.")
@click.option("--timeout", "timeout_s", type=click.FloatRange(min=0.001), default=None,
              help="Seconds per attempt. Default: the provider's (180 s).")
@click.option("--base-url", default=None, help="Override the provider's base URL (a local server).")
@click.option("--round", "round_", default="adhoc", show_default=True, help="The round this run belongs to.")
@click.option("--description", default=None)
@click.option("--max-steps", type=click.IntRange(1, 500), default=40, show_default=True,
              help="Tool calls of one episode (suites whose answer is an episode of tool calls).")
@click.option("--input", "input_kind", type=click.Choice(["text", "image", "text+image"]), default="text",
              show_default=True, help="What the model is given: the document's text, its page images "
              "(as image parts of the request), or both.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def run(suite: str, model: str, provider_id: str, root: Path, half: str, repeats: int, repeat_sample: str,
        anchors: bool, anchors_only: bool, run_id: str | None, limit: int | None, concurrency: int | None, timeout_s: float | None,
        base_url: str | None, round_: str, description: str | None, max_steps: int, input_kind: str,
        quiet: bool) -> None:
    """Run MODEL on PROVIDER over SUITE and store every request and response.

    Rerunning the same command resumes: stored calls are skipped, a torn last line is repaired
    (its bytes kept in responses.jsonl.torn) and no call is stored twice.

    A suite whose answer is an episode (it offers a tool environment) is played with tool calling: every turn goes
    to the run's turns.jsonl as it happens, and an interrupted episode goes on from its last turn.
    """
    from .plan import PlanError
    from .progress import Progress
    from .providers import ProviderError
    from .runner import execute
    from .store import StoreError

    if anchors_only and limit is not None:
        _fail("--anchors-only runs the anchor block alone: leave out --limit")
    spec = _spec(root, suite, model, provider_id, run_id=run_id, half=half, repeats=repeats,
                 repeat_sample=repeat_sample, anchors=anchors or anchors_only, limit=0 if anchors_only else limit, concurrency=concurrency,
                 timeout_s=timeout_s, base_url=base_url, description=description, round=round_,
                 max_steps=max_steps, input=input_kind)
    bar = Progress(0, f"{spec.id} ", enabled=not quiet)
    try:
        outcome = asyncio.run(execute(spec, bar))
    except (PlanError, ProviderError, StoreError) as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: {bar.done - bar.skipped} new call(s) stored; rerun the same command to resume",
                   err=True)
        sys.exit(130)
    bar.close()
    if outcome.torn_bytes:
        click.echo(f"repaired a torn last line ({outcome.torn_bytes} bytes kept in responses.jsonl.torn)", err=True)
    click.echo(f"{outcome.run_id}: {outcome.stored} {outcome.unit}(s) stored, {outcome.skipped} already stored, "
               f"{outcome.failed} failed, {outcome.retried} retried -> {outcome.run_dir}")


IMPORT_KINDS = ("batch", "predictions", "inspect", "lm-eval")


@click.command("import")
@click.argument("batch_files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--suite", required=True)
@click.option("--model", required=True)
@click.option("--provider", "provider_id", required=True)
@_ROOT
@click.option("--half", type=click.Choice(["public", "private", "both"]), default="public", show_default=True)
@click.option("--requests", "requests_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The batch input file: store the requests exactly as sent.")
@click.option("--run-id", default=None, help="Default: MODEL-PROVIDER.")
@click.option("--round", "round_", default="adhoc", show_default=True)
@click.option("--description", default=None)
@click.option("--cases", "cases_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The suite's own cases file, imported as its items first (a suite that reads one says so).")
@click.option("--from", "kind", type=click.Choice(IMPORT_KINDS), default="batch", show_default=True,
              help="What wrote the files: OpenAI Batch API output, a folder of per-item prediction files, "
                   "inspect_ai eval logs, or lm-evaluation-harness --log_samples output.")
@click.option("--name-pattern", default=None,
              help="--from predictions: the file name, {item} for the item id, {repeat} for a repeat, * for any text.")
@click.option("--item-id", default="{item}", show_default=True,
              help="--from predictions: the suite's item id made from the {item} of the file name.")
@click.option("--id-field", default=None,
              help="--from lm-eval: the document field naming the item (default: id); --from inspect: the "
                   "sample metadata field naming it (default: the sample id).")
@click.option("--harness", "harness_name", default=None, help="--from predictions: the harness that wrote the files.")
@click.option("--harness-version", default=None, help="--from predictions: its version.")
def import_cmd(batch_files: tuple[Path, ...], suite: str, model: str, provider_id: str, root: Path, half: str,
               requests_file: Path | None, run_id: str | None, round_: str, description: str | None,
               cases_file: Path | None, kind: str, name_pattern: str | None, item_id: str, id_field: str | None,
               harness_name: str | None, harness_version: str | None) -> None:
    """Store another harness's output files (BATCH_FILES) as a run: by default OpenAI Batch API output.

    Batch output: each line's custom_id is ITEM or ITEM:REPEAT. With --from, a folder of per-item
    prediction files (--name-pattern), inspect_ai eval logs or lm-evaluation-harness samples files:
    another harness sent those requests, so none is stored. run.json records the harness, its version
    and each file's SHA-256. Errors are reported with file and line, and then nothing is written. A
    suite may read its own harness's files instead (its import_files).
    """
    from .importer import BatchImportError, import_batch
    from .plan import PlanError
    from .store import StoreError

    spec = _spec(root, suite, model, provider_id, run_id=run_id, half=half, description=description,
                 round=round_)
    files = list(batch_files)
    if kind == "predictions" and name_pattern is None:
        _fail("--from predictions needs --name-pattern (e.g. '{item}_ocr_gpt-5.5_predicted.json')")
    if kind != "batch" and (requests_file is not None or cases_file is not None):
        _fail(f"--requests and --cases are for Batch API output and a suite's own files, not --from {kind}")
    try:
        outcome: ImportOutcome | None = None
        if kind == "predictions":
            from .import_predictions import import_predictions
            outcome = import_predictions(spec, files, str(name_pattern), item_id, harness_name, harness_version)
        elif kind == "inspect":
            from .import_inspect import import_inspect
            outcome = import_inspect(spec, files, id_field)
        elif kind == "lm-eval":
            from .import_lmeval import import_lmeval
            outcome = import_lmeval(spec, files, id_field or "id")
        else:
            hook = _suite_import(root, suite)
            outcome = hook(spec, files, cases_file) if hook is not None else None
        if outcome is None and cases_file is not None:
            _fail(f"suite {suite!r} reads no cases file (--cases)")
        if outcome is None:
            outcome = import_batch(spec, files, requests_file)
        done = outcome
    except BatchImportError as exc:
        for error in exc.errors:
            click.echo(f"error: {error}", err=True)
        click.echo(f"{len(exc.errors)} error(s); nothing was written.", err=True)
        sys.exit(EXIT_INPUT_ERRORS)
    except (PlanError, StoreError) as exc:
        _fail(str(exc))
    click.echo(f"{done.run_id}: {done.stored} record(s) stored from {done.lines} line(s), "
               f"{done.skipped} already stored, {done.failed} failed -> {done.run_dir}")


def _suite_import(root: Path, suite: str):
    """The suite plugin's own import of its harness's files (`import_files`), or None."""
    from ..errors import ErrorLog, TallyError
    from ..inputs.content import load_suite
    from ..suite.plugins import load_registry

    config = load_suite(Path(root) / "content" / "suites" / suite, ErrorLog(root))
    if config is None:
        return None
    try:
        return load_registry(Path(root)).get(config.scorer).import_files
    except TallyError:
        return None


@click.group("provider")
def provider() -> None:
    """Providers: the local simulation server."""


@provider.command("serve")
@_ROOT
@click.option("--suite", required=True, help="The suite whose items the simulated models answer.")
@click.option("--port", type=click.IntRange(0, 65535), default=8788, show_default=True, help="0: a free port.")
@click.option("--scale", type=click.FloatRange(min=0), default=1.0, show_default=True,
              help="Sleep this share of each simulated latency (and of Retry-After).")
@click.option("--fault", "faults", multiple=True, metavar="KIND=RATE",
              help="Extra faults per attempt: rate_limit, server_error, request_timeout, timeout, "
                   "disconnect, malformed, wrong_model, slow (repeatable).")
@click.option("--seed", type=int, default=20261020, show_default=True)
@click.option("--hang", "hang_s", type=click.FloatRange(min=0), default=600.0, show_default=True,
              help="Longest a simulated timeout keeps the connection open, in seconds.")
@click.option("--require-key-env", default=None, metavar="NAME",
              help="Answer 401 unless the client sends the key held in this environment variable.")
def serve(root: Path, suite: str, port: int, scale: float, faults: tuple[str, ...], seed: int,
          hang_s: float, require_key_env: str | None) -> None:
    """Serve the example's simulated models and baselines on 127.0.0.1 (chat-completions API).

    POST /<provider>/v1/chat/completions, for the providers of content/providers.toml marked
    simulation_server. Stop with Ctrl-C.
    """
    import os

    from .localserver import ServerConfig, build_server
    from .plan import PlanError
    from .simulation import Faults

    key = os.environ.get(require_key_env, "") if require_key_env else None
    if require_key_env and not key:
        _fail(f"the environment variable {require_key_env} is not set")
    try:
        config = ServerConfig(root, suite, seed, scale, Faults.parse(faults), port=port, hang_s=hang_s,
                              api_key=key)
        server = build_server(config)
    except (ValueError, PlanError) as exc:
        _fail(str(exc))

    async def main() -> None:
        bound = await server.start()
        for pid, models in sorted(server.models.providers().items()):
            click.echo(f"http://127.0.0.1:{bound}/{pid}/v1  {', '.join(sorted(models))}")
        click.echo("serving; Ctrl-C stops", err=True)
        try:
            await asyncio.Event().wait()
        finally:
            await server.stop()

    try:
        asyncio.run(main())
    except OSError as exc:
        _fail(f"can't listen on 127.0.0.1:{port}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
