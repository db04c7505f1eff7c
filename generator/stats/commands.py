"""`tally stats`: bootstrap intervals, pairwise calls and ranks, computed in memory from a rescore."""

from __future__ import annotations

from pathlib import Path

import click

from .. import options


@click.command("stats")
@options.ROOT
@options.RESAMPLES
@options.SUITES
@options.JOBS
@options.SKIP_B
@options.QUIET
def stats(root: Path, resamples: int | None, suites: tuple[str, ...], jobs: int | None, skip_scorer_b: bool,
          quiet: bool) -> None:
    """Rescore (both scorers), then intervals, pairwise calls and rank ranges of every suite.

    Writes build/rescore/<suite>/ and build/stats/<suite>/stats.json. Exit status as `tally rescore`.
    """
    from ..errors import Disagreement
    from ..folders import check_project_outputs
    from ..outputs import write_outputs
    from ..pipeline import load_and_score
    from .engine import compute, planned_rows, write_stats
    from .inputs import suite_data

    check_project_outputs(root, root / "build" / "rescore", root / "build" / "stats")
    progress = options.progress_factory(quiet)
    scored = load_and_score(root, list(suites) or None, options.jobs_or_cpus(jobs), not skip_scorer_b, progress)
    write_outputs(root / "build" / "rescore", scored, only=bool(suites))
    for res in scored:
        count = resamples or res.suite.resamples
        data = suite_data(res)
        if progress is None:
            doc = compute(data, count)
        else:
            with progress(planned_rows(data, count), f"resampling {res.suite.name}") as bar:
                doc = compute(data, count, bar.update)
        path = write_stats(doc, root / "build" / "stats")
        for run_id, inc in sorted(doc["incomplete_runs"].items()):
            click.echo(f"warning: run {run_id} covers {inc['items_covered']} of {inc['items']} items of its half: "
                       "incomplete, not ranked", err=True)
        click.echo(f"{res.suite.name}: {len(data.runs)} run group(s), {len(doc['strata'])} strata, {count} resamples; "
                   f"wrote {path}")
    if any(res.agreement.get("status") == "disagree" for res in scored):
        raise Disagreement("the scorers disagree: see build/rescore/<suite>/agreement.json")
