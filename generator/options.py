"""Command-line options shared by every command, defined once, and the progress bars they show."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

ROOT = click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
                    show_default=True, help="Project folder holding content/ and results/ (and tally.toml).")
SUITES = click.option("--suite", "suites", multiple=True, help="Only this suite (repeatable). Default: every suite.")
JOBS = click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
                    help="Processes to score runs on. Default: the number of CPUs.")
QUIET = click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
SKIP_B = click.option("--skip-scorer-b", is_flag=True,
                      help="Don't run the agreement gate (scorer B, on Node.js). The outputs then say it did not "
                           "run, and the site refuses to publish them (only a --draft is built).")
SCHEDULER = click.option("--scheduler", metavar="ADDRESS", default=None,
                         help="Score (and compute the statistics' strata, render the item pages) on this Dask distributed "
                              "cluster (e.g. tcp://10.0.0.5:8786); its workers need the same Tally version and "
                              "Node.js. Needs `pip install 'dask[distributed]'`.")
NO_CACHE = click.option("--no-cache", is_flag=True,
                        help="Score and compute everything afresh: don't read or write the build cache (build/cache/).")
RESAMPLES = click.option("--resamples", type=click.IntRange(min=100), default=None,
                         help="Bootstrap resamples. Default: each suite's `resamples` setting, else 10000.")


def jobs_or_cpus(jobs: int | None) -> int:
    return jobs or os.cpu_count() or 1


def progress_factory(quiet: bool):
    """progress(total, label) -> a click progress bar on stderr, or None when quiet."""
    if quiet:
        return None

    def factory(total: int, label: str):
        return click.progressbar(length=max(total, 1), label=label, file=sys.stderr, show_eta=True)

    return factory


def options(jobs: int | None, skip_scorer_b: bool, no_cache: bool, scheduler: str | None, quiet: bool,
            resamples: int | None = None, draft: bool = False):
    """The orchestrator's options (orchestrate.Options) from the command line's."""
    from .pipeline.orchestrate import Options

    return Options(cache=not no_cache, scheduler=scheduler, jobs=jobs_or_cpus(jobs), resamples=resamples,
                   skip_scorer_b=skip_scorer_b, draft=draft, progress=progress_factory(quiet))
