"""`tally site build`: the command line over build_site (registered in generator/cli.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

EXIT_REFUSED = 3


@click.group("site")
def site() -> None:
    """The static site: every page a reader needs, built from content/, results/ and the statistics."""


@site.command("build")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True,
              help="Project folder holding content/ and results/.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Site folder. Default: ROOT/site.")
@click.option("--draft", is_flag=True,
              help="Build even when the scorers disagree or scorer B did not run; every page then says so.")
@click.option("--resamples", type=click.IntRange(min=100), default=None,
              help="Bootstrap resamples. Default: each suite's `resamples` setting, else 10000.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, help="Processes for rescoring.")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines.")
def build(root: Path, out: Path | None, draft: bool, resamples: int | None, jobs: int | None, quiet: bool) -> None:
    """Rescore with both scorers, compute the statistics and write the site (built aside, then swapped in).

    Exit status 3 when the site is refused: the scorers disagree or scorer B could not run (use
    --draft to build a marked draft); 2 on input errors. The previous site is then left as it was.
    """
    from .build import build_site
    from .gather import BuildError

    say = None if quiet else (lambda stage: stage and click.echo(f"{stage}...", err=True))
    try:
        report = build_site(root, out, draft, resamples, jobs or os.cpu_count() or 1, say)
    except BuildError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_REFUSED if str(exc).startswith("refusing") else 2)
    if report.draft:
        click.echo(f"warning: every page is marked \u201c{report.draft}\u201d", err=True)
    total = sum(report.seconds.values())
    click.echo(f"wrote {report.pages} pages, {report.files} files to {report.out} in {total:.1f} s")
