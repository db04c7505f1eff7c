"""Click commands: `tally labels sample|record|sheet|adjudicate|report SUITE`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .. import options


def _loaded(root: Path, suite: str):
    from ..pipeline.stages import load

    return load(root, [suite])[0]


def _config(loaded):
    from .files import LabelError, load_config

    config = load_config(loaded.suite.root)
    if config is None:
        raise LabelError(f"{loaded.suite.root / 'labels' / 'labels.toml'}: the suite has no labels.toml "
                         "(docs/formats.md, Label files)")
    return config


@click.group("labels")
def labels() -> None:
    """Label agreement: a second labeller's sample, blind adjudication, agreement and label error rates."""


@labels.command("sample")
@click.argument("suite")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to write the second labeller's worksheet (private storage; refused inside the project). "
                   "Default: ~/.local/share/tally/labels/SUITE.")
@options.ROOT
def sample_cmd(suite: str, out: Path | None, root: Path) -> None:
    """Choose what the second labeller labels (labels.toml's share and seed): labels/sample.json, and a
    worksheet with the documents and no answers."""
    from .files import read_labels
    from .load import raw_items
    from .sample import counts, draw, write_sample
    from .sheet import default_workspace
    from .worksheet import write_worksheet

    loaded = _loaded(root, suite)
    config = _config(loaded)
    doc = draw(config, read_labels(config.folder, config.first), raw_items(loaded.items))
    path = write_sample(config, doc)
    for dataset, c in counts(doc).items():
        click.echo(f"{dataset}: {len(doc['documents'][dataset])} documents drawn; fields requested: "
                   + ", ".join(f"{n} {why}" for why, n in sorted(c.items())))
    click.echo(f"wrote {path}: {len(doc['requests'])} fields for {config.second} (not shown the first labeller's answers)")
    sheet = write_worksheet(doc, {i.id: str(i.document.get("text", "")) for i in loaded.items},
                            out or default_workspace(suite), root)
    click.echo(f"worksheet: {sheet}; fill in `answer` (JSON), then run `tally labels record {suite} FILE`")


@labels.command("record")
@click.argument("suite")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@options.ROOT
def record_cmd(suite: str, file: Path, root: Path) -> None:
    """Store the second labeller's filled-in worksheet (CSV) as their label files."""
    from ..inputs.untrusted_files import read_text
    from .files import LabelError, read_sample
    from .worksheet import record_worksheet

    loaded = _loaded(root, suite)
    config = _config(loaded)
    sample = read_sample(config.folder)
    if sample is None:
        raise LabelError(f"{config.folder}: no sample.json: run `tally labels sample {suite}` first")
    merged = record_worksheet(config, read_text(file, LabelError, bom=True), sample, str(file))
    _report(merged, config.second)


def _report(merged, name: str) -> None:
    """What recording did: the files written, the answers added and changed (never a silent replace)."""
    for path in merged.paths:
        click.echo(f"wrote {path}")
    for change in merged.changed:
        click.echo(f"changed {change}")
    click.echo(merged.describe(name))


@labels.command("sheet")
@click.argument("suite")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to write the sheet (private storage; refused inside the project). "
                   "Default: ~/.local/share/tally/labels/SUITE.")
@options.ROOT
def sheet_cmd(suite: str, out: Path | None, root: Path) -> None:
    """Write the blind adjudication sheet: every unsettled disagreement, the two answers shuffled, no names."""
    from .agreement import compare
    from .files import read_labels, read_sample
    from .sheet import cases, default_workspace, write_sheet

    loaded = _loaded(root, suite)
    config = _config(loaded)
    rows = compare(read_sample(config.folder) or {"requests": []}, read_labels(config.folder, config.first),
                   read_labels(config.folder, config.second), read_labels(config.folder, config.adjudicator))
    docs = {i.id: str(i.document.get("text", "")) for i in loaded.items}
    chosen = cases(rows, config.seed, docs)
    paths = write_sheet(suite, chosen, out or default_workspace(suite), root)
    click.echo(f"{len(chosen)} cases; read {paths[1]}, fill in {paths[0]}, then run `tally labels adjudicate {suite} FILE`")


@labels.command("adjudicate")
@click.argument("suite")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@options.ROOT
def adjudicate_cmd(suite: str, file: Path, root: Path) -> None:
    """Store the decisions of a filled adjudication sheet (CSV) as the adjudicator's labels."""
    from ..inputs.untrusted_files import read_text
    from .agreement import compare
    from .files import LabelError, read_labels, read_sample
    from .sheet import decisions, record

    loaded = _loaded(root, suite)
    config = _config(loaded)
    first = read_labels(config.folder, config.first)
    adjudicator = read_labels(config.folder, config.adjudicator)
    rows = compare(read_sample(config.folder) or {"requests": []}, first, read_labels(config.folder, config.second),
                   adjudicator)
    chosen, problems = decisions(read_text(file, LabelError, bom=True), rows, str(file))
    if problems:
        raise LabelError(f"{file}: nothing recorded:\n  " + "\n  ".join(problems[:20]))
    _report(record(config, adjudicator, first, chosen), config.adjudicator)
    click.echo(f"recorded {len(chosen)} decisions by {config.adjudicator}")


@labels.command("report")
@click.argument("suite")
@click.option("--json", "as_json", is_flag=True, help="Print the whole summary as JSON.")
@options.ROOT
def report_cmd(suite: str, as_json: bool, root: Path) -> None:
    """Per document type: agreement, Cohen's kappa and the label error rate. Exit status 1 when an item's
    checked answer is not the labels' (adjudicated) answer or a disagreement is unsettled."""
    from .load import suite_labels

    loaded = _loaded(root, suite)
    _config(loaded)
    s = suite_labels(loaded.suite, loaded.items)
    assert s is not None
    if as_json:
        click.echo(json.dumps(s, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        click.echo(format_report(s))
    if s["mismatches"] or any(t["unsettled"] for t in s["types"]):
        raise SystemExit(1)


def _pct(r: dict) -> str:
    if r["estimate"] is None:
        return "n/a"
    return f"{100 * r['estimate']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}] ({r['k']}/{r['n']})"


def format_report(s: dict) -> str:
    sim = f" (simulated: {', '.join(s['simulated'])})" if s["simulated"] else ""
    lines = [f"first {s['first']}, second {s['second']}, adjudicator {s['adjudicator']}{sim}"]
    for t in s["types"]:
        k = "n/a" if t["kappa"] is None else f"{t['kappa']:.3f}"
        lines.append(f"{t['title']}: {t['documents']} documents, {t['sampled_documents']} drawn; "
                     f"{t['fields_compared']} fields compared: agreement {_pct(t['agreement'])}, kappa {k}; "
                     f"label error rate {_pct(t['error_rate'])}; extra fields overturned "
                     f"{t['extra_overturned']}/{t['extra_fields']}; flagged by machine checks "
                     f"{_pct(t['flagged']) if t['flagged'] else 'none'}; "
                     f"unsettled {t['unsettled']}, awaiting the second labeller {t['awaiting']}")
    lines += [f"mismatch: {m}" for m in s["mismatches"]]
    return "\n".join(lines)
