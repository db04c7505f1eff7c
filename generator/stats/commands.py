"""`tally stats`: bootstrap intervals, pairwise calls and ranks of every suite (the orchestrator's
statistics: generator/pipeline/orchestrate.py), with the build cache the site build shares."""

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
@options.NO_CACHE
@options.SCHEDULER
@options.QUIET
def stats(root: Path, resamples: int | None, suites: tuple[str, ...], jobs: int | None, skip_scorer_b: bool,
          no_cache: bool, scheduler: str | None, quiet: bool) -> None:
    """Rescore (both scorers), then intervals, pairwise calls and rank ranges of every suite.

    Writes build/rescore/<suite>/ and build/stats/<suite>/stats.json. Runs and statistics whose inputs
    are unchanged come from the build cache (build/cache/, shared with `tally rescore` and `tally site
    build`). Exit status as `tally rescore`.
    """
    from ..errors import Disagreement
    from ..pipeline.orchestrate import Targets, run

    build = root / "build"
    outcome = run(root, options.options(jobs, skip_scorer_b, no_cache, scheduler, quiet, resamples),
                  Targets(build / "rescore", build / "stats", only=bool(suites)), list(suites) or None)
    for st in outcome.statistics:
        for run_id, inc in sorted(st.doc["incomplete_runs"].items()):
            if inc.get("anchor_check"):
                continue  # the anchor block alone, as asked
            click.echo(f"warning: run {run_id} covers {inc['items_covered']} of {inc['items']} items of its half: "
                       "incomplete, not ranked", err=True)
        click.echo(f"{st.result.suite.name}: {len(st.doc['runs'])} run group(s), {len(st.doc['strata'])} strata, "
                   f"{st.resamples} resamples; wrote {st.path}" + (" (from the build cache)" if st.cached else ""))
    if outcome.disagree:
        raise Disagreement("the scorers disagree: see build/rescore/<suite>/agreement.json")
