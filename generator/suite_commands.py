"""`tally suite`: list the suites a project can use, check one, or start a new one."""

from __future__ import annotations

import click


@click.group("suite")
def suite() -> None:
    """Suite plugins: list, check, new."""
