"""`tally ra-bench ...`: the suite's own commands. `balance` prints the balance report of the two halves
(balance.py) from the suite's items, or writes it as the suite's balance.json (the suite page shows it)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ...errors import InputProblem
from ...jsonl import jsonl_lines


def read_items(items_dir: Path) -> list[dict]:
    """Every item of the JSONL files in `items_dir` (an unreadable line is an input error naming it)."""
    if not items_dir.is_dir():
        raise InputProblem(f"{items_dir}: no such folder of items")
    items = []
    for path in sorted(items_dir.glob("*.jsonl")):
        if path.is_symlink() or not path.is_file():
            raise InputProblem(f"{path}: not a regular file")
        for n, _line, item, error in jsonl_lines(path.read_bytes()):
            if error is not None:
                raise InputProblem(f"{path}:{n}: {error}")
            ok = isinstance(item, dict) and isinstance(item.get("label"), dict) \
                and item.get("half") in ("public", "private") and isinstance(item.get("document"), dict) \
                and isinstance(item.get("dataset"), str)
            if not ok:
                raise InputProblem(f"{path}:{n}: not an RA-Bench item (dataset, half, document and label)")
            items.append(item)
    return items


@click.group("ra-bench")
def group() -> None:
    """RA-Bench's own commands."""


@group.command("balance")
@click.option("--items", "items_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("content/suites/ra-bench/items"), show_default=True, help="The suite's items folder.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the report as JSON to this file (the suite's balance.json) instead of printing it.")
def balance(items_dir: Path, out: Path | None) -> None:
    """Compare the public and private halves feature by feature (class mix, hard negatives, source,
    provenance, merchant type, arithmetic, edited field, transforms): standardised differences, |d| > 0.1
    flagged. Exit status 2 on unreadable items."""
    from .balance import balance_lines, balance_report

    try:
        report = balance_report(read_items(items_dir))
    except (KeyError, TypeError, AttributeError) as exc:
        raise InputProblem(f"{items_dir}: an item lacks a field the report reads ({exc!r}); "
                           "check the items with `tally suite check ra-bench`") from None
    if out is None:
        click.echo("\n".join(balance_lines(report)))
        return
    if out.is_symlink() or (out.exists() and not out.is_file()):
        raise InputProblem(f"{out}: not a regular file; refusing to write it")
    out.write_text(json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    click.echo(f"wrote the balance report of {items_dir} to {out}")
