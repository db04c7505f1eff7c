"""The `tally` command line: a thin wrapper over library functions, importing stages lazily."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

EXIT_INPUT_ERRORS = 2
EXIT_DISAGREE = 3
EXIT_NO_SCORER_B = 4


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
@click.option("--skip-scorer-b", is_flag=True,
              help="Don't run the agreement gate (scorer B). The outputs then say it did not run, "
                   "and the site refuses to publish them.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def rescore(root: Path, suites: tuple[str, ...], out: Path | None, jobs: int | None, skip_scorer_b: bool,
            quiet: bool) -> None:
    """Rescore stored responses offline with both scorers; write verdicts, figures and metrics.

    Exit status: 0 when both scorers agree on every verdict, 2 on input errors (nothing is
    written), 3 when the scorers disagree (outputs are written, with the differences in
    agreement.json), 4 when scorer B cannot run (Node.js missing or too old).
    """
    from .crosscheck import ScorerBUnavailable, crosscheck
    from .errors import ErrorLog
    from .report import print_agreement, print_summary
    from .rescore import rescore as run_rescore
    from .rescore import write_outputs

    log = ErrorLog(root)
    results = run_rescore(root, list(suites) or None, log, _progress_factory(quiet), jobs or os.cpu_count() or 1)
    if log.errors:
        for error in log.errors:
            click.echo(f"error: {error}", err=True)
        click.echo(f"{len(log.errors)} input error(s); nothing was written.", err=True)
        sys.exit(EXIT_INPUT_ERRORS)
    if not skip_scorer_b:
        for res in results:
            try:
                res.agreement = _run_gate(res, crosscheck, quiet)
            except ScorerBUnavailable as exc:
                click.echo(f"error: {exc}", err=True)
                click.echo("Run with --skip-scorer-b to rescore with scorer A alone (the site will not publish it).",
                           err=True)
                sys.exit(EXIT_NO_SCORER_B)
    out = out or root / "build" / "rescore"
    write_outputs(out, results)
    for res in results:
        click.echo(print_summary(res))
        click.echo(print_agreement(res.agreement))
    click.echo(f"wrote {out}")
    if any(res.agreement and res.agreement["status"] == "disagree" for res in results):
        sys.exit(EXIT_DISAGREE)


def _run_gate(res, crosscheck, quiet: bool) -> dict:
    total = sum(r.responses for r in res.runs)
    factory = _progress_factory(quiet)
    if factory is None:
        return crosscheck(res).to_json()
    with factory(total, f"scorer B on {res.suite.name}") as bar:
        return crosscheck(res, on_record=bar.update).to_json()


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


def _register() -> None:
    """Commands that live next to their stage; each imports its heavy modules only when it runs."""
    from .commit.commands import commit, keys, reveal, verify
    from .harness.commands import import_cmd, provider, run
    from .render.commands import site
    from .stats.commands import stats

    for command in (site, stats, run, import_cmd, provider, keys, commit, reveal, verify):
        main.add_command(command)


_register()
