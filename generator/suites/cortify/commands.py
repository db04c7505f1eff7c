"""`tally cortifybench ...`: the seed's own command line. `lineas-base` runs baselines over a seed
range and prints the seed's table (F1 and exact per baseline and version); `generar` writes N cases
as items. Both use the example's generator (generator/example/cortify_*.py) and scorer A."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import click

from ...errors import InputProblem

VERSIONS = ("v0", "v1", "v2")
TITLES = {"vacia": "empty answer", "ingenua": "naive auditor (identical rows, unmatched folios, missing photo)",
          "oraculo": "oracle"}


def baseline_scores(baseline: str, version: str, seeds: Iterable[int]) -> tuple[float, int, int]:
    """(mean F1, exact items, items) of one baseline over the cases of `seeds`, scored by scorer A."""
    from ...content import Item
    from ...example.cortify_corpus import make_item
    from ...parse.response import read_outcome
    from . import SUITE
    from .baselines import BASELINES

    total, exact, n = 0.0, 0, 0
    for k, seed in enumerate(seeds):
        raw = make_item(version, "public", seed, k)
        item = Item(raw["id"], version, "public", raw["strata"], raw["document"], {"hallazgos": raw["hallazgos"]})
        content = json.dumps({"hallazgos": BASELINES[baseline](raw["document"]["text"], version)})
        record = {"item": item.id, "repeat": 0, "request": {},
                  "attempts": [{"start": "2026-01-01T00:00:00Z", "status": 200, "error": None, "latency_ms": 1.0}],
                  "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}}
        figures = SUITE.item_figures(SUITE.score(item, read_outcome(record, SUITE.extract_answer, SUITE.answer_what),
                                                 baseline, 0))
        total, exact, n = total + figures[0], exact + int(figures[3]), n + 1
    return (total / n if n else 0.0), exact, n


def _versions(version: str) -> tuple[str, ...]:
    return VERSIONS if version == "todas" else (version,)


@click.group("cortifybench")
def group() -> None:
    """CortifyBench's own commands (the seed's command line): baselines and the case generator."""


@group.command("lineas-base")
@click.option("--n", "n", type=click.IntRange(1), default=300, show_default=True, help="Number of seeds.")
@click.option("--desde", type=click.IntRange(0), default=0, show_default=True, help="First seed.")
@click.option("--version", type=click.Choice(VERSIONS + ("todas",)), default="todas", show_default=True)
@click.option("--base", "bases", type=click.Choice(tuple(TITLES)), multiple=True,
              help="Baselines to run (repeatable). Default: all three.")
def lineas_base(n: int, desde: int, version: str, bases: tuple[str, ...]) -> None:
    """Run baselines over seeds DESDE .. DESDE+N-1 and print the seed's table: F1 (mean per case) and
    exact (cases with every finding right and nothing else), per version."""
    seeds = range(desde, desde + n)
    for v in _versions(version):
        click.echo(f"\n{v}, seeds {desde}-{desde + n - 1}\n\n| baseline | F1 | exact |\n|---|---|---|")
        for b in bases or tuple(TITLES):
            f1, exact, count = baseline_scores(b, v, seeds)
            click.echo(f"| {TITLES[b]} | {f1:.3f} | {exact}/{count} |")


@group.command("generar")
@click.option("--n", "n", type=click.IntRange(1), required=True, help="Number of cases.")
@click.option("--desde", type=click.IntRange(0), default=0, show_default=True, help="First seed.")
@click.option("--version", type=click.Choice(VERSIONS), default="v0", show_default=True)
@click.option("--salida", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The JSONL file to write (one item per line, the suite's item format).")
def generar(n: int, desde: int, version: str, salida: Path) -> None:
    """Write the cases of seeds DESDE .. DESDE+N-1 as items: the files, the true findings and the seed.
    Seeds 0-9999 are the public development split (half "public"); any other seed is written as
    "private" (keep a private seed range as a blind test set)."""
    from ...example.cortify_corpus import make_item

    if salida.is_symlink() or (salida.exists() and not salida.is_file()):
        raise InputProblem(f"{salida}: not a regular file; refusing to write it")
    lines = [json.dumps(make_item(version, "public" if seed < 10_000 else "private", seed, k), sort_keys=True,
                        ensure_ascii=False) for k, seed in enumerate(range(desde, desde + n))]
    salida.parent.mkdir(parents=True, exist_ok=True)
    salida.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    click.echo(f"wrote {n} {version} cases to {salida}")
