"""Every sealed private record published in results/ is covered by a signed responses commitment.

A round's checks (generator/commit/responses.py) look at the runs of the round's own benchmark that
name it. A run of another suite, or one whose run.json names no round, a round that was never committed
or a round of another benchmark, was looked at by none of them: its sealed records (the private
half's verdicts and figures) could be changed, dropped or added without a trace. `tally verify` walks
results/ itself, reading files only (no suite code), and fails for every run with sealed records that
the responses commitment of the round its run.json names does not list under its suite.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from ..inputs.ids import is_safe_id
from ..inputs.stored_files import StoredFileError, responses_file
from ..inputs.untrusted_files import cut
from . import RESPONSES
from .checks import Checks
from .layout import read_manifest, round_dir
from .responses import covering_commitments, sealed_hashes


def check_coverage(root: Path, checks: Checks) -> None:
    """One check over results/: the runs that publish sealed private records and are not committed."""
    uncovered, unreadable, covered, records = [], [], 0, 0
    base = root / "results"
    for suite_dir in sorted(base.iterdir()) if base.is_dir() else []:
        if suite_dir.is_symlink() or not suite_dir.is_dir():
            continue
        sealed: dict[str, int] = {}
        for run_dir in sorted(suite_dir.iterdir()):
            if run_dir.is_symlink() or not run_dir.is_dir():
                continue
            try:
                n = len(sealed_hashes(responses_file(run_dir)))
            except (OSError, StoredFileError) as exc:
                unreadable.append(f"{cut(suite_dir.name)}/{cut(run_dir.name)} ({cut(str(exc))})")
                continue
            if n:
                sealed[run_dir.name] = n
        commitments = covering_commitments(root, suite_dir.name, sorted(sealed)) if is_safe_id(suite_dir.name) \
            else dict.fromkeys(sealed)
        for run_id, n in sealed.items():
            if commitments.get(run_id) is None:
                uncovered.append(f"results/{cut(suite_dir.name)}/{cut(run_id)}: {n} sealed records, "
                                 f"{why_uncovered(root, suite_dir.name, run_id)}")
            else:
                covered += 1
                records += n
    problems = uncovered + [f"results/{u}: cannot be read: sealed records there are unchecked" for u in unreadable]
    more = f"; ... and {len(problems) - 5} more" if len(problems) > 5 else ""
    suites = Counter(p.split("/")[1] for p in uncovered)
    checks.add("results", "sealed records committed", not problems,
               f"{len(uncovered)} run(s) publish sealed private records that no signed {RESPONSES} covers "
               f"({', '.join(f'{s}: {n}' for s, n in sorted(suites.items()))}), so their private scores could "
               "be changed without a trace: " + "; ".join(problems[:5]) + more
               if problems else f"the sealed private records of all {covered} runs that publish some "
               f"({records} records) are listed by the signed {RESPONSES} of the round each names")


def why_uncovered(root: Path, suite: str, run_id: str) -> str:
    """Why the run's sealed records are covered by no commitment, from its run.json and the round it names."""
    try:
        meta = json.loads((root / "results" / suite / run_id / "run.json").read_bytes())
    except (OSError, ValueError):
        return "and no readable run.json naming a round"
    name = meta.get("round") if isinstance(meta, dict) else None
    if name is None:
        return "its run.json names no round"
    if not is_safe_id(name) or not round_dir(root, name).is_dir():
        return f"its run.json names round {cut(name)!r}, which is not a committed round"
    manifest = read_manifest(root, name) or {}
    if manifest.get("benchmark") != suite:
        return f"its run.json names round {name}, a round of {cut(manifest.get('benchmark'))}, not of {cut(suite)}"
    if not (round_dir(root, name) / RESPONSES).is_file():
        return f"round {name} has no signed {RESPONSES}"
    return f"round {name}'s signed {RESPONSES} does not list it"
