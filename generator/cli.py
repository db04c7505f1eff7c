"""The `tally` command line: a thin wrapper over library functions, importing stages lazily."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

EXIT_INPUT_ERRORS = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tally")
def main() -> None:
    """Tally: leaderboards for document extraction and financial audit benchmarks."""


def _progress_factory(quiet: bool):
    if quiet:
        return None

    def factory(total: int, label: str):
        return click.progressbar(length=max(total, 1), label=label, file=sys.stderr, show_eta=True)

    return factory


@main.command()
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True,
              help="Project folder holding content/ and results/.")
@click.option("--suite", "suites", multiple=True, help="Only this suite (repeatable). Default: every suite.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder. Default: ROOT/build/rescore.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Processes to score runs on. Default: the number of CPUs.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def rescore(root: Path, suites: tuple[str, ...], out: Path | None, jobs: int | None, quiet: bool) -> None:
    """Rescore stored responses offline: verdicts, per-item figures and metrics per run."""
    from .errors import ErrorLog
    from .rescore import rescore as run_rescore
    from .rescore import write_outputs
    from .report import print_summary

    log = ErrorLog(root)
    results = run_rescore(root, list(suites) or None, log, _progress_factory(quiet), jobs or os.cpu_count() or 1)
    if log.errors:
        for error in log.errors:
            click.echo(f"error: {error}", err=True)
        click.echo(f"{len(log.errors)} input error(s); nothing was written.", err=True)
        sys.exit(EXIT_INPUT_ERRORS)
    out = out or root / "build" / "rescore"
    write_outputs(out, results)
    for res in results:
        click.echo(print_summary(res))
    click.echo(f"wrote {out}")


@main.group()
def example() -> None:
    """The example corpus and example results (all example models are simulated or baselines)."""


@example.command("generate")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
@click.option("--seed", type=int, default=20261020, show_default=True)
def example_generate(root: Path, seed: int) -> None:
    """Write the example corpus, its balance report and the example results."""
    from .example.build import generate_example

    for path in generate_example(root, seed):
        click.echo(f"wrote {path}")
