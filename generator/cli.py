"""The `tally` command line: a thin wrapper over library functions, importing stages lazily.

Every command's errors are TallyError subclasses; they are turned into a message and an exit status
here, in one place (generator/errors.py lists the statuses).
"""

from __future__ import annotations

from pathlib import Path

import click

from . import options
from .errors import TallyError


class _Tally(click.Group):
    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """A built-in command, else the command group of the suite plugin so named (`Suite.commands`;
        plugins found as `tally suite list` finds them, from the current folder's project)."""
        found = super().get_command(ctx, cmd_name)
        return found if found is not None else _suite_commands(cmd_name)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except TallyError as exc:
            click.echo(f"error: {exc}" if not str(exc).startswith("error: ") else str(exc), err=True)
            ctx.exit(exc.exit_code)


def _suite_commands(name: str) -> click.Command | None:
    from .suite.plugins import load_registry

    try:
        plugin = load_registry(Path.cwd()).suites.get(name)
    except TallyError:
        return None
    group = plugin.commands() if plugin is not None else None
    return group if isinstance(group, click.Command) else None


@click.group(cls=_Tally, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tally")
def main() -> None:
    """Tally: leaderboards for document extraction and financial audit benchmarks.

    A suite may bring its own commands (its generator, its baselines): `tally SUITE --help`."""


@main.command()
@options.ROOT
@options.SUITES
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder. Default: ROOT/build/rescore.")
@options.JOBS
@options.SKIP_B
@options.NO_CACHE
@options.SCHEDULER
@options.QUIET
def rescore(root: Path, suites: tuple[str, ...], out: Path | None, jobs: int | None, skip_scorer_b: bool,
            no_cache: bool, scheduler: str | None, quiet: bool) -> None:
    """Rescore stored responses offline with both scorers; write verdicts, figures and metrics.

    Exit status: 0 when both scorers agree on every verdict, 2 on input errors (nothing is
    written), 3 when the scorers disagree (outputs are written, with the differences in
    agreement.json), 4 when scorer B cannot run (Node.js missing or too old), 5 when scorer B
    ran and failed (each record it could not score named by run, file and line).
    """
    from .errors import Disagreement
    from .pipeline.orchestrate import Targets, run
    from .pipeline.report import print_agreement, print_summary

    out = out or root / "build" / "rescore"
    outcome = run(root, options.options(jobs, skip_scorer_b, no_cache, scheduler, quiet), Targets(out, only=bool(suites)),
                  list(suites) or None)
    for res in outcome.scored:
        click.echo(print_summary(res))
        click.echo(print_agreement(res.agreement))
    click.echo(f"wrote {out}")
    if outcome.disagree:
        raise Disagreement("the scorers disagree: see agreement.json of each suite")


@main.group()
def example() -> None:
    """The example corpus and example results (all example models are simulated or baselines)."""


@example.command("generate")
@options.ROOT
@click.option("--seed", type=int, default=20261020, show_default=True)
def example_generate(root: Path, seed: int) -> None:
    """Write the example corpus, its balance report and the example results."""
    from .example.build import generate_example

    for path in generate_example(root, seed):
        click.echo(f"wrote {path}")


def _register() -> None:
    """Commands that live next to their stage; each imports its heavy modules only when it runs."""
    from .audit.commands import audit
    from .commit.commands import commit, commit_responses, keys, prereg, reveal, verify
    from .harness.commands import import_cmd, provider, run
    from .labels.commands import labels
    from .render.commands import site
    from .results_commands import results
    from .stats.commands import stats
    from .suite.commands import suite

    for command in (site, stats, run, import_cmd, provider, keys, commit, commit_responses, reveal, verify, prereg, audit, suite,
                    results):
        main.add_command(command)
    main.add_command(labels)


_register()
