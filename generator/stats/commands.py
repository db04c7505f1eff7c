"""`tally stats`: bootstrap intervals, pairwise calls and ranks from the rescore outputs."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import click

DEFAULT_RESAMPLES = 10_000
EXIT_INPUT_ERRORS = 2


def _suite_names(root: Path, chosen: tuple[str, ...]) -> list[str]:
    base = root / "content" / "suites"
    known = sorted(p.name for p in base.iterdir() if (p / "suite.toml").is_file()) if base.is_dir() else []
    unknown = [s for s in chosen if s not in known]
    if unknown:
        raise click.ClickException(f"no suite named {', '.join(map(repr, unknown))}; known: {', '.join(known)}")
    return list(chosen) or known


def suite_resamples(root: Path, suite: str) -> int:
    """The suite's own `resamples` setting in suite.toml, else 10,000."""
    try:
        raw = tomllib.loads((root / "content" / "suites" / suite / "suite.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return DEFAULT_RESAMPLES
    value = raw.get("resamples", DEFAULT_RESAMPLES)
    return value if type(value) is int and value > 0 else DEFAULT_RESAMPLES


@click.command("stats")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True,
              help="Project folder holding content/, results/ and build/rescore/.")
@click.option("--resamples", type=click.IntRange(min=100), default=None,
              help="Bootstrap resamples. Default: the suite's `resamples` setting, else 10000.")
@click.option("--suite", "suites", multiple=True, help="Only this suite (repeatable). Default: every suite.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def stats(root: Path, resamples: int | None, suites: tuple[str, ...], quiet: bool) -> None:
    """Intervals, pairwise calls and rank ranges from build/rescore/ (run `tally rescore` first).

    Writes build/stats/<suite>/stats.json.
    """
    from .engine import compute, planned_rows, write_stats
    from .inputs import StatsInputError, load_suite_data

    names = _suite_names(root, suites)
    if not names:
        raise click.ClickException(f"no suites under {root / 'content' / 'suites'}")
    for name in names:
        count = resamples or suite_resamples(root, name)
        try:
            data = load_suite_data(root, name, root / "build" / "rescore")
        except StatsInputError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_INPUT_ERRORS)
        if quiet:
            doc = compute(data, count)
        else:
            with click.progressbar(length=planned_rows(data, count), label=f"resampling {name}",
                                   file=sys.stderr) as bar:
                doc = compute(data, count, bar.update)
        path = write_stats(doc, root / "build" / "stats")
        click.echo(f"{name}: {len(data.runs)} run(s), {len(doc['strata'])} strata, {count} resamples; wrote {path}")
