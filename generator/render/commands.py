"""`tally site build`: the command line over build_site (registered in generator/cli.py)."""

from __future__ import annotations

from pathlib import Path

import click

from .. import options


@click.group("site")
def site() -> None:
    """The static site: every page a reader needs, built from content/, results/ and the statistics."""


@site.command("build")
@options.ROOT
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Site folder. Default: ROOT/site.")
@click.option("--draft", is_flag=True,
              help="Build even when the scorers disagree (or with --skip-scorer-b); every page then says so.")
@click.option("--accept-sealed", is_flag=True,
              help="Without private storage, publish the private half's sealed verdicts as stored instead of "
                   "building a draft; every page then says they were not re-checked.")
@options.RESAMPLES
@options.JOBS
@options.SKIP_B
@options.NO_CACHE
@options.SCHEDULER
@options.QUIET
def build(root: Path, out: Path | None, draft: bool, accept_sealed: bool, resamples: int | None, jobs: int | None,
          skip_scorer_b: bool, no_cache: bool, scheduler: str | None, quiet: bool) -> None:
    """Rescore with both scorers, compute the statistics and write the site (built aside, then swapped in).

    When nothing the site is made from changed since the last build into the same folder, and that
    site is as the build left it, it says so and writes nothing (--no-cache always builds).

    Exit status 3 when the site is refused because the scorers disagree (--draft builds a marked
    draft), 4 when scorer B can't run (Node.js missing: --draft --skip-scorer-b builds a draft
    without it), 5 when scorer B ran and failed (each record it could not score named by run, file
    and line), 2 on input errors (among them a sealed private record that is not what both scorers
    give its full record from private storage). The previous site is then left as it was.

    Without private storage, the sealed private records are scored from their stored verdicts, which
    no scorer re-checks: the site is then built as a draft that says why (exit status 0), unless
    --accept-sealed publishes them as stored, every page saying so.
    """
    from .build import build_site

    report = build_site(root, out, draft, resamples, options.jobs_or_cpus(jobs), options.progress_factory(quiet),
                        skip_scorer_b, cache=not no_cache, scheduler=scheduler, accept_sealed=accept_sealed)
    for w in report.warnings:
        click.echo(w, err=True)
    if report.draft:
        click.echo(f"warning: every page is marked \u201c{report.draft}\u201d", err=True)
    if report.private_note:
        click.echo(f"warning: {report.private_note}", err=True)
    total = sum(report.seconds.values())
    if not quiet:  # where the time went, stage by stage
        for stage, seconds in report.seconds.items():
            click.echo(f"  {seconds:7.1f} s  {stage}", err=True)
    if report.up_to_date:
        click.echo(f"{report.out} is up to date: nothing it is built from changed since the last build "
                   f"({report.files} files; checked in {total:.1f} s; --no-cache builds it again)")
        return
    click.echo(f"wrote {report.pages} pages, {report.files} files to {report.out} in {total:.1f} s "
               f"({report.files - report.unchanged} changed; {report.reused} pages from the build cache)")
