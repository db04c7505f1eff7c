"""Click commands: `tally audit sample SUITE` and `tally audit record FILE`."""

from __future__ import annotations

from pathlib import Path

import click

from .. import options


def _scored(root: Path, suite: str):
    from ..pipeline.stages import load_and_score

    return load_and_score(root, [suite], 1, False)[0]  # scorer A: the gate runs at every build


@click.group("audit")
def audit() -> None:
    """Verdict audits: a person checks a sample of the scorers' verdicts against the raw responses."""


@audit.command("sample")
@click.argument("suite")
@click.option("--per-model", type=int, default=50, show_default=True, help="Verdicts to draw per model.")
@click.option("--seed", type=int, required=True, help="The sample's seed (recorded with the judgments).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The audit workspace (private storage; refused inside the project). "
                   "Default: ~/.local/share/tally/audits/SUITE-seedN.")
@options.ROOT
def sample_cmd(suite: str, per_model: int, seed: int, out: Path | None, root: Path) -> None:
    """Draw a seeded sample of verdicts per model, every verdict kind included, and write the audit page."""
    from .sample import default_workspace, sample, write_workspace

    doc = sample(_scored(root, suite), per_model, seed)
    paths = write_workspace(doc, out or default_workspace(suite, seed), root)
    click.echo(f"drew {len(doc['entries'])} verdicts of {suite} (seed {seed}); open {paths[1]} in a browser "
               f"(or fill in {paths[2]}), then run `tally audit record FILE`")


@audit.command("record")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--suite", default=None, help="The suite (default: the one the file names).")
@click.option("--auditor", default=None, help="Who judged (default: the name the file holds).")
@click.option("--seed", type=int, default=None, help="The sample's seed (default: the one the file holds).")
@click.option("--per-model", type=click.IntRange(min=1), default=None,
              help="The sample's --per-model (default: the one the file, or the workspace's sample.json, holds).")
@click.option("--simulated", is_flag=True, help="Mark the judgments as example data by a simulated person.")
@options.ROOT
def record_cmd(file: Path, suite: str | None, auditor: str | None, seed: int | None, per_model: int | None,
               simulated: bool, root: Path) -> None:
    """Validate a judgments file (JSON from the audit page, or the filled-in CSV) and store it in
    content/audits/SUITE/. Every judgment must be of a verdict in the seeded sample (the same seed and
    --per-model draw the same sample) and match today's verdict; a note holds at most 2,000 characters."""
    from .files import read_judgments
    from .record import record
    from .sample import AuditError

    name = suite or read_judgments(file).get("suite")
    if not name:
        raise AuditError(f"{file}: which suite? pass --suite")
    path = record(root, file, _scored(root, name), auditor, seed, simulated, per_model)
    click.echo(f"recorded {path}")
