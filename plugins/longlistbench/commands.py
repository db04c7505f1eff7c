"""The suite's own commands: `tally longlistbench import` and `tally longlistbench verify`."""

from __future__ import annotations

from pathlib import Path

import click

from generator.errors import InputProblem


@click.group(name="longlistbench", help="LongListBench: import a checkout's documents and stored runs; "
             "check the scores against its own reports.")
def group() -> None:
    pass


def _checkout(path: str) -> Path:
    root = Path(path)
    if not (root / "data" / "ground_truth").is_dir() or not (root / "benchmarks" / "results").is_dir():
        raise InputProblem(f"{path}: not a LongListBench checkout (no data/ground_truth/ or benchmarks/results/)")
    return root


@group.command(name="import", help="Write the items (content/suites/longlistbench/items/) and one run folder per "
               "stored result directory (results/longlistbench/) from a LongListBench checkout. By default the "
               "example's six documents; --all for all 32, or --document (repeatable).")
@click.option("--from", "source", required=True, type=click.Path(file_okay=False), help="a LongListBench checkout")
@click.option("--all", "everything", is_flag=True, help="every document of the checkout")
@click.option("--document", "chosen", multiple=True, help="a document id (repeatable)")
@click.option("--root", default=".", type=click.Path(file_okay=False), help="the Tally project")
def import_command(source: str, everything: bool, chosen: tuple[str, ...], root: str) -> None:
    from .convert import EXAMPLE, ConvertError, convert, documents

    checkout = _checkout(source)
    try:
        samples = documents(checkout) if everything else list(chosen) or list(EXAMPLE)
        n_items, n_runs = convert(checkout, Path(root), samples)
    except ConvertError as exc:
        raise InputProblem(str(exc)) from exc
    click.echo(f"wrote {n_items} items and {n_runs} runs ({len(samples)} documents each)")


@group.command(name="verify", help="Score every stored prediction of the checkout with scorer A and compare each "
               "document's counts and F1, and each run's figures, with its evaluation_report.json; print the "
               "README leaderboard from the replicate runs. Exit status 1 on any difference.")
@click.option("--from", "source", required=True, type=click.Path(file_okay=False), help="a LongListBench checkout")
@click.option("--run", "runs", multiple=True, help="only this result directory (repeatable)")
def verify_command(source: str, runs: tuple[str, ...]) -> None:
    from .convert import ConvertError
    from .verify import verify

    try:
        ok = verify(_checkout(source), set(runs), click.echo)
    except (ConvertError, KeyError, TypeError, ValueError, AttributeError, IndexError, OSError) as exc:
        raise InputProblem(f"{source}: not LongListBench's layout of stored results and reports "
                           f"({type(exc).__name__}: {exc})") from exc
    if not ok:
        raise SystemExit(1)
