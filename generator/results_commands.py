"""`tally results seal`: keep private-item records out of results/ (see generator/seal_command.py)."""

from __future__ import annotations

from pathlib import Path

import click

from . import options
from .errors import InputProblem


@click.group("results")
def results() -> None:
    """Stored results: seal the private half into private storage."""


@results.command("seal")
@click.argument("suite_names", nargs=-1, metavar="SUITE...")
@click.option("--all", "all_suites", is_flag=True, help="Every suite of the project.")
@options.ROOT
def seal(suite_names: tuple[str, ...], all_suites: bool, root: Path) -> None:
    """Move each run's private-item records to ROOT/private/results/ (mode 0600) and leave in results/
    a sealed record in their place: the call's figures, the per-unit verdicts and the record's SHA-256,
    with the item's commitment hash instead of the request. Idempotent: run it again after results
    are regenerated."""
    from .folders import refuse_links
    from .pipeline.stages import suite_names as known
    from .seal_command import seal_suite
    from .sealing import PRIVATE_RESULTS, private_file

    if bool(suite_names) == all_suites:
        raise click.UsageError("name the suites to seal, or pass --all")
    names = known(root) if all_suites else list(suite_names)
    refuse_links(root.joinpath(*PRIVATE_RESULTS), "private storage", root)
    unknown = [n for n in names if n not in known(root)]
    if unknown:
        raise InputProblem(f"no suite named {', '.join(map(repr, unknown))}; known: {', '.join(known(root))}")
    for name in names:
        for r in seal_suite(root, name):
            where = private_file(root, name, r.run).relative_to(root).as_posix()
            note = "" if r.private == 0 or r.commitments else (
                " (item commitment hashes missing: the salted item files of the round named in run.json are not "
                "in private storage, or do not hold these items)")
            turns = f", and {r.turns_moved} turns of their episodes" if r.turns_moved else ""
            if r.revealed:
                click.echo(f"{name}/{r.run}: left as committed: round {r.revealed} is revealed (its items are "
                           f"public, its {r.private} sealed records signed in its responses commitment)")
                continue
            click.echo(f"{name}/{r.run}: {r.public} public records kept, {r.private} private records sealed "
                       f"({r.sealed_now} moved now{turns}) -> {where}{note}")
