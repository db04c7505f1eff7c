"""The compare page's pairs, one run at a time (render/pages/compare.py): every comparison family of the
headline stratum is read once, a family at a time (a family's pairs are a part of their own:
stats/family_parts.py), and each run's share of it, the pairs the statistics list with that run first
(`a`), is set aside in a temporary file; a run's script then reads back its own shares, one per
metric. So the pages hold one family at a time and one run's pairs, never every pair of every metric.

A pair is kept once, as the statistics list it ([diff, low, high, call] of `a` minus `b`, scaled for
display); the page finds the pair of runs x and y in x's script or, reversed, in y's (static/compare.js).
"""

from __future__ import annotations

import marshal
import tempfile
from collections.abc import Sequence
from typing import IO


class RunPairs:
    """Every run's pairs of every metric of one stratum, read family by family into a temporary file
    (removed by `close`). `metrics`: (key, scale) in the page's order; `runs`: the runs on the page
    (pairs of any other run are left out)."""

    def __init__(self, stratum: dict, metrics: Sequence[tuple[str, float]], runs: Sequence[str]) -> None:
        self.metrics = len(metrics)
        self.file: IO[bytes] = tempfile.TemporaryFile(prefix="tally-compare-")
        self.where: dict[tuple[str, int], tuple[int, int]] = {}  # (run, metric index) -> (offset, size)
        on_page = set(runs)
        try:
            for k, (metric, scale) in enumerate(metrics):
                shares: dict[str, list[list]] = {}
                for p in stratum.get("pairwise", {}).get(metric, {}).get("pairs", []):
                    if p["a"] in on_page and p["b"] in on_page:
                        shares.setdefault(p["a"], []).append([p["b"], *_scaled(p, scale)])
                for run, share in shares.items():
                    data = marshal.dumps(share)
                    self.where[(run, k)] = (self.file.tell(), len(data))
                    self.file.write(data)
        except BaseException:
            self.close()
            raise

    def of(self, run: str) -> tuple[list[str], list[list]]:
        """(the other runs, and per metric a list aligned with them: [diff, low, high, call] of `run`
        minus that run, or None where the family has no such pair) for the pairs listed with `run` first."""
        shares: list[list] = []
        for k in range(self.metrics):
            at = self.where.get((run, k))
            if at is None:
                shares.append([])
                continue
            self.file.seek(at[0])
            shares.append(marshal.loads(self.file.read(at[1])))
        others: dict[str, int] = {}  # in order of first listing
        for share in shares:
            for pair in share:
                others.setdefault(pair[0], len(others))
        aligned = []
        for share in shares:
            row: list = [None] * len(others)
            for pair in share:
                row[others[pair[0]]] = pair[1:]
            aligned.append(row)
        return list(others), aligned

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> RunPairs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _scaled(p: dict, scale: float) -> list:
    """[diff, low, high, call] with the numbers scaled for display (None stays None; a value that is
    no number, a note, is left out as None)."""
    return [None if v is None or isinstance(v, str) else v * scale
            for v in (p.get("diff"), p.get("low"), p.get("high"))] + [p.get("call")]
