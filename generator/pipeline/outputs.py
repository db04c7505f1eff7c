"""The rescore outputs, build/rescore/<suite>/: verdicts.csv, item_stats.csv, calls.csv, summary.json and
agreement.json, all suites written into a fresh folder and swapped in (a failure leaves the old one)."""

from __future__ import annotations

import io
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

from .. import csvsafe
from ..atomic import swap_in
from ..score.verdicts import COLUMNS
from .calls import CALL_COLUMNS

FILES = ("verdicts.csv", "item_stats.csv", "calls.csv", "summary.json", "agreement.json")


def write_outputs(out_dir: Path, scored: list, only: bool = False) -> None:
    """Every suite's outputs (pipeline.ScoredSuite) into `out_dir`/<suite>/: `out_dir` replaced as a
    whole, or with `only` (some suites named), only those suites' folders, the others' kept."""
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".rescore-", dir=out_dir.parent))
    try:
        for res in scored:
            target = tmp / res.suite.name
            target.mkdir()
            _write_verdicts(target / "verdicts.csv", res)
            _write_calls(target / "calls.csv", res)
            _write_item_stats(target / "item_stats.csv", res)
            (target / "summary.json").write_text(
                json.dumps(res.summary, indent=2, sort_keys=True, allow_nan=False) + "\n", encoding="utf-8")
            agreement = res.agreement or {"suite": res.suite.name, "status": "not run"}
            (target / "agreement.json").write_text(
                json.dumps(agreement, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8",
                errors="backslashreplace")
        if not only:
            swap_in(tmp, out_dir)
        else:
            out_dir.mkdir(parents=True, exist_ok=True)
            for res in scored:
                swap_in(tmp / res.suite.name, out_dir / res.suite.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _write_verdicts(path: Path, res) -> None:
    with path.open("wb") as fh:
        fh.write((",".join(COLUMNS) + "\n").encode())
        for r in res.runs:
            fh.write(r.verdict_csv())


def _write_calls(path: Path, res) -> None:
    header = io.StringIO(newline="")
    csvsafe.writer(header).writerow(CALL_COLUMNS)
    with path.open("wb") as fh:
        fh.write(header.getvalue().encode("utf-8"))
        for r in res.runs:
            fh.write(r.calls_csv())


def _write_item_stats(path: Path, res) -> None:
    with path.open("w", encoding="utf-8", errors="backslashreplace", newline="") as fh:
        writer = csvsafe.writer(fh)
        writer.writerow(("run", "item", "dataset", "half", "repeats") + tuple(res.plugin.figures))
        for r in res.runs:
            means = r.means()
            for k in np.flatnonzero(r.repeats).tolist():
                item = res.items[k]
                writer.writerow((r.run.id, item.id, item.dataset, item.half, int(r.repeats[k]),
                                 *map(repr, means[k].tolist())))
