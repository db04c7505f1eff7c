"""The rescore outputs, build/rescore/<suite>/: verdicts.csv, item_stats.csv, calls.csv, summary.json and
agreement.json, all suites written into a fresh folder and swapped in (a failure leaves the old one).
A file is never written again once swapped in: the site links summary.json into its downloads
(render/downloads.py).

verdicts.csv and calls.csv join each run's rows as its artifact keeps them; item_stats.csv joins each
run's rows as kept in the build cache (run_parts.py, entries of kind `item-stats-rows`): a run added
formats its own per-item means alone."""

from __future__ import annotations

import functools
import io
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

from .. import csvsafe
from ..atomic import swap_in
from ..score.verdicts import COLUMNS
from .cache import Cache, code_hash
from .calls import CALL_COLUMNS
from .run_parts import RunParts

FILES = ("verdicts.csv", "item_stats.csv", "calls.csv", "summary.json", "agreement.json")
ITEM_STATS = "item-stats-rows"  # the build cache's entries of a run's rows of item_stats.csv


def write_outputs(out_dir: Path, scored: list, only: bool = False, cache: Cache | None = None) -> None:
    """Every suite's outputs (pipeline.ScoredSuite) into `out_dir`/<suite>/: `out_dir` replaced as a
    whole, or with `only` (some suites named), only those suites' folders, the others' kept. With
    `cache`, each run's rows of item_stats.csv are kept there under its key (run_parts.py)."""
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".rescore-", dir=out_dir.parent))
    try:
        for res in scored:
            target = tmp / res.suite.name
            target.mkdir()
            _write_verdicts(target / "verdicts.csv", res)
            _write_calls(target / "calls.csv", res)
            _write_item_stats(target / "item_stats.csv", res, cache)
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


def _write_item_stats(path: Path, res, cache: Cache | None) -> None:
    parts = RunParts(cache, ITEM_STATS, res.suite.name, code_hash("scoring"))
    with path.open("wb") as fh:
        fh.write(_csv_bytes([("run", "item", "dataset", "half", "repeats") + tuple(res.plugin.figures)]))
        for r in res.runs:
            fh.write(parts.of(res.run_keys.get(r.run.id), functools.partial(item_stats_rows, res, r)))
    parts.prune()


def item_stats_rows(res, r) -> bytes:
    """The run's rows of item_stats.csv, as written: one per item it scored, its per-item means (repr)."""
    means, items = r.means(), res.items
    return _csv_bytes((r.run.id, items[k].id, items[k].dataset, items[k].half, int(r.repeats[k]),
                       *map(repr, means[k].tolist())) for k in np.flatnonzero(r.repeats).tolist())


def _csv_bytes(rows) -> bytes:
    """Rows as csvsafe.writer writes them to a UTF-8 file opened with errors="backslashreplace"."""
    buffer = io.StringIO(newline="")
    csvsafe.writer(buffer).writerows(rows)
    return buffer.getvalue().encode("utf-8", "backslashreplace")
