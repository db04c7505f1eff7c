"""A scored run's bulky parts kept in files while the site is built, so that memory holds one run's at
a time, not every run's.

Right after a run is scored (in the scoring process, when runs are scored on several), `offload`
writes its verdict rows, its calls and its rows of verdicts.csv next to its public lines, and drops
them from the RunScore: what stays (per-item figures, summary, digest, counts, repeat consistency,
offsets) is small. `RunScore.verdicts` and `.calls` read a part back when
a stage asks for it; the caller holds it while it needs it. The verdict rows are one pickle per item
(in item order), so that an item page reads only that item's rows (`read_rows`).

The files are this build's own (written and read by the same code, then deleted with the public
lines): pickle is used for speed, never on anything a build did not write.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from .score.verdicts import Verdict, VerdictTable

PROTOCOL = pickle.HIGHEST_PROTOCOL


@dataclass(frozen=True)
class RunFiles:
    """Where one run's parts are: `base` + .rows, .calls, .csv."""

    base: Path

    def part(self, suffix: str) -> Path:
        return self.base.with_name(f"{self.base.name}.{suffix}")

    def verdicts(self, run: str) -> VerdictTable:
        """The run's verdict rows, all of them (strings interned as VerdictTable.extend interns them)."""
        table = VerdictTable(run)
        with self.part("rows").open("rb") as fh:
            while True:
                try:
                    item, repeat, unit, kind, verdict, points, reason, order = pickle.load(fh)
                except EOFError:
                    break
                table.append_columns([item] * len(repeat), repeat, unit, kind, verdict, points, reason, order)
        return table

    def calls(self) -> list[tuple]:
        return pickle.loads(self.part("calls").read_bytes())

    def csv(self) -> bytes:
        return self.part("csv").read_bytes()


def offload(result, folder: Path, public: Mapping[str, int]) -> None:
    """Write the heavy parts of `result` (rescore.RunScore, holding them) to `folder` and drop them.
    `public`: each public item's position (in id order); `result.row_blocks[position]` is then the
    (offset, length) of that item's rows in the .rows file, (-1, 0) when the run has none."""
    from .outputs import verdict_lines

    folder.mkdir(parents=True, exist_ok=True)
    files = RunFiles(folder / result.run.id)
    csv = verdict_lines(result)
    table = result.held
    blocks = np.full((len(public), 2), (-1, 0), dtype=np.int64)
    with files.part("rows").open("wb") as fh:
        for item, (start, stop) in table.spans().items():
            data = pickle.dumps((item, table.repeat[start:stop], table.unit[start:stop], table.kind[start:stop],
                                 table.verdict[start:stop], table.points[start:stop], table.reason[start:stop],
                                 table.order[start:stop]), PROTOCOL)
            if item in public:
                blocks[public[item]] = (fh.tell(), len(data))
            fh.write(data)
    files.part("calls").write_bytes(pickle.dumps(result.held_calls, PROTOCOL))
    files.part("csv").write_bytes(csv)
    result.files, result.row_blocks = files, blocks
    result.held = result.held_calls = result.held_csv = None


def read_rows(fh: BinaryIO, run: str, where) -> list[Verdict]:
    """One item's verdict rows (all repeats) from an open .rows file, at `where` (offset, length)."""
    fh.seek(int(where[0]))
    item, *columns = pickle.loads(fh.read(int(where[1])))
    return [Verdict(run, item, *row) for row in zip(*columns)]
