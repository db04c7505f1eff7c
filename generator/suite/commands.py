"""`tally suite`: list the suites a project can use, check one, or start a new one."""

from __future__ import annotations

from pathlib import Path

import click

from .. import options
from ..errors import TallyError


class SuiteCheckFailed(TallyError):
    """A suite check found problems."""


@click.group("suite")
def suite() -> None:
    """Suite plugins: list, check, new."""


@suite.command("list")
@options.ROOT
def list_cmd(root: Path) -> None:
    """Every suite plugin Tally finds (entry points and the project's plugin folders)."""
    from ..pipeline.stages import suite_names
    from .plugins import load_registry

    reg = load_registry(root)
    hosted = set(suite_names(root))
    for name, plugin in sorted(reg.suites.items()):
        click.echo(f"{name:20} {reg.origins[name]}{'  (hosted: content/suites/' + name + ')' if name in hosted else ''}")
    for origin, problems in sorted(reg.problems.items()):
        click.echo(f"{'(broken)':20} {origin}: {'; '.join(problems)}")


@suite.command("check")
@click.argument("names", nargs=-1)
@options.ROOT
@options.SKIP_B
def check(names: tuple[str, ...], root: Path, skip_scorer_b: bool) -> None:
    """Check suites (default: every suite of the project): declarations, files, items, rule page, the
    shared cases through both scorers, and a short fuzz of both scorers (500 seeded cases derived from
    the shared cases). Exit status 1 when a check fails."""
    from ..errors import ErrorLog
    from ..inputs.content import load_suite
    from ..pipeline.stages import suite_names
    from .check import check_suite
    from .plugins import load_registry

    reg = load_registry(root)
    hosted = suite_names(root)
    failed = 0
    for name in names or hosted:
        plugin_name, content_name = name, None
        if name in hosted:
            config = load_suite(root / "content" / "suites" / name, ErrorLog(root))
            plugin_name, content_name = (config.scorer if config else name), name
        try:
            plugin = reg.get(plugin_name)
        except TallyError as exc:
            click.echo(f"{name}: FAILED\n  - {exc}")
            failed += 1
            continue
        report = check_suite(root, plugin, content_name, node=not skip_scorer_b)
        fuzzed = f", {report.fuzzed} fuzz cases" if report.fuzzed else ""
        click.echo(f"{report.name}: {'ok' if report.ok else 'FAILED'} ({report.cases} shared cases{fuzzed})")
        for p in report.problems:
            click.echo(f"  - {p}")
        for n in report.notes:
            click.echo(f"  note: {n}")
        failed += not report.ok
    if not (names or hosted):
        click.echo("no suites to check (content/suites/ is empty; name a plugin)")
    if failed:
        raise SuiteCheckFailed(f"{failed} suite(s) failed the check")


@suite.command("new")
@click.argument("name")
@options.ROOT
@click.option("--plugins", default="plugins", show_default=True, help="The project's plugin folder.")
def new(name: str, root: Path, plugins: str) -> None:
    """Write a working minimal suite NAME: plugin (Python and scorer B), shared cases, suite.toml,
    one item, prompt, rule page and one simulated example run; then `tally suite check NAME`."""
    from .check import scaffold

    for path in scaffold(root, name, plugins):
        click.echo(f"wrote {path}")
    click.echo(f"next: tally suite check {name} --root {root}, then tally site build --root {root}")
