"""A scored run's handle (`RunScore`) on its artifact (artifact.py), and where a suite's artifacts are
for one command (`Store`: the build cache, or a temporary folder).

A handle keeps the artifact's header (counts, digest, per-item sums and repeats, repeat consistency)
and reads every bulky part through an explicit call, where it is needed: `verdicts()`, `calls()`,
`rows_of(item)`, `public_line(item, repeat)`, `verdict_csv()`, `calls_csv()`, `copy_public_lines(path)`.
"""

from __future__ import annotations

import gzip
import itertools
import marshal
import os
import shutil
import tempfile
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from ..inputs.results import Run
from ..score.verdicts import Verdict, VerdictTable
from .artifact import ArtifactProblem, Call, Header, Identity, header_at, identity_of, open_checked, read_header, verify
from .cache import Cache
from .file_digests import holds, stamp
from .spans import Spans


class Store:
    """Where one suite's artifacts are for this command: the build cache's runs/<suite>/, or (without
    the cache) a temporary folder of this command, removed once no handle needs it."""

    def __init__(self, cache: Cache | None, suite: str) -> None:
        self.cache = cache
        self.signed = cache is not None  # only what the build cache keeps is signed (and checked when taken)
        self.made: list[Path] = []  # the folders writing here will make (deepest first): see `undo`
        self.verified = Verified(cache, suite)
        if cache is not None:
            self.folder = cache.folder / "runs" / suite
            self.made = [p for p in (self.folder, self.folder.parent, cache.folder, cache.folder.parent)
                         if not p.exists()]
        else:
            self.folder = Path(tempfile.mkdtemp(prefix="tally-artifacts-"))
            weakref.finalize(self, _remove, self.folder, os.getpid())

    def open(self, run: Run, name: str, identity: Identity) -> RunScore:
        """The handle of an artifact written by this command."""
        return RunScore(run, self, name, identity, header_at(self.folder / name, identity))

    def undo(self, written: list[RunScore]) -> None:
        """Remove the artifacts this command wrote (`written`) and the folders it made for them: a
        command stopped by input errors leaves nothing behind."""
        for r in written:
            r.close()
            if identity_of(os.stat(r.path, follow_symlinks=False)) == r.identity:
                r.path.unlink()
        for folder in self.made:
            try:
                folder.rmdir()  # only when empty
            except OSError:
                pass


def _remove(folder: Path, owner: int) -> None:
    if os.getpid() == owner:  # never by a process forked from the owner
        shutil.rmtree(folder, ignore_errors=True)


def open_cached(store: Store, run: Run, key: str) -> RunScore | None:
    """The run's artifact in the build cache, checked whole against its keyed hash; None when there is
    none (a miss) or when it is corrupt, tampered with or not an artifact (counted, deleted, rebuilt)."""
    cache = store.cache
    assert cache is not None
    path = store.folder / key
    opened = cache.open_entry(path)
    if opened is None:
        return None
    fh, st = opened
    with fh:
        if not store.verified.before(key, st):  # checked whole by an earlier command, and unchanged since
            try:
                ok = verify(fh)
            except OSError as exc:
                cache.corrupt(path, f"unreadable: {exc}")
                return None
            if not ok:
                cache.corrupt(path, "its contents do not match their keyed hash")
                return None
        store.verified.now(key, st)
        identity = identity_of(st)
        try:
            header = read_header(fh, st.st_size)
        except ArtifactProblem as exc:
            cache.corrupt(path, f"not a scored run ({exc})")
            return None
    if header["run"] != run.id:
        cache.corrupt(path, "not a scored run (of another run)")
        return None
    cache.counts.hits += 1
    return RunScore(run, store, key, identity, header)


class ReadTable(VerdictTable):
    """A run's verdict rows as read from its artifact (RunScore.verdicts): the same table, whose `rows()`
    makes the same Verdicts with the row loop in C (zip and map), not a Python generator: a suite's own
    tables read every row of every run on each build."""

    __slots__ = ()

    def rows(self, start: int = 0, stop: int | None = None) -> Iterator[Verdict]:
        columns: tuple[list[Any], ...] = (self.item, self.repeat, self.unit, self.kind, self.verdict,
                                          self.points, self.reason, self.order, self.counts)
        if start or (stop is not None and stop != len(self.item)):
            columns = tuple(c[start:stop] for c in columns)
        return map(Verdict._make, zip(itertools.repeat(self.run), *columns))


VERIFIED = "runs-verified"  # the build cache's entry per suite: artifact -> its signature when checked whole


class Verified:
    """The artifacts of a suite checked whole against their keyed hash, each with its signature then (size,
    modification and change times, inode: file_digests.py): one that still has it, and had settled, is
    not read whole again (a cached run is not re-read, issue 37). Anything that rewrites or replaces
    the file moves its change time, which can't be set back; the record is itself a signed entry."""

    def __init__(self, cache: Cache | None, suite: str) -> None:
        self.cache, self.suite = cache, suite
        found = cache.read(VERIFIED, suite, "index", counted=False) if cache is not None else None
        self.earlier: dict[str, Any] = found if isinstance(found, dict) else {}
        self.seen: dict[str, list[Any]] = {}

    def before(self, name: str, st: os.stat_result) -> bool:
        return holds(self.earlier.get(name), st, 5)

    def now(self, name: str, st: os.stat_result) -> None:
        self.seen[name] = stamp(st)

    def keep(self, names: set[str]) -> None:
        """Record the artifacts of this command's runs that were checked (now or before)."""
        kept = {k: v for k, v in sorted(self.seen.items()) if k in names}
        if self.cache is not None and kept != self.earlier:
            self.cache.write(VERIFIED, self.suite, "index", kept, counted=False)


class RunScore:
    """One scored run: a handle on its artifact. The small parts are here (counts, digest, per-item
    repeats, repeat consistency, and the run's metrics once `stages.summarise` sets
    `summary`); each bulky part is read from the artifact when a method asks for it, and the caller
    holds it while it needs it."""

    def __init__(self, run: Run, store: Store, name: str, identity: Identity, header: Header) -> None:
        self.run = run
        self.store = store  # keeps a temporary folder alive while a handle needs it
        self.name = name  # the artifact's file name in the store (the run's build cache key when kept)
        self.identity = identity
        # where each item's rows and each public line lie, held compactly (spans.py: thousands of keys a run)
        self._where = header | {"rows": Spans(header["rows"]), "public": Spans(header["public"])}
        self.digest: str = header["digest"]  # SHA-256 over the rows of stored responses, as scorer B digests them
        self.stored_rows: int = header["stored_rows"]  # verdict rows of stored responses (not of missing ones)
        self.row_count: int = header["row_count"]  # every verdict row
        self.responses: int = header["responses"]
        self.missing: int = header["missing"]
        self.sealed: int = header["sealed"]  # private records scored from their stored verdicts
        self.suite_failures: int = header["suite_failures"]  # replies the suite's scorer could not handle
        self.repeats = np.frombuffer(header["repeats"], dtype=np.int64)  # items: responses scored
        # item -> (units compared, units answered the same in every repeat), items answered more than once
        self.consistency: dict[str, tuple[int, int]] = {k: tuple(v) for k, v in header["consistency"].items()}
        self.summary: dict[str, Any] = {}  # the run's metrics, by half (stages.summarise)
        self._fh: BinaryIO | None = None
        self._pid = 0

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a page task's inputs on a Dask cluster) without the open file: the copy opens its own."""
        return self.__dict__ | {"_fh": None, "_pid": 0}

    @property
    def sums(self) -> np.ndarray:
        """Per-item sums of the figures (items x figures, read-only), read from the artifact each time: a
        build holds hundreds of runs, each 0.5 MB of sums at 6,000 items, and uses each a few times."""
        shape = tuple(self._where["shape"])
        return np.frombuffer(self._read(self._where["sums"]), dtype=np.float64).reshape(shape)

    @property
    def path(self) -> Path:
        return self.store.folder / self.name

    def _read(self, where: tuple[int, int]) -> bytes:
        if self._fh is None or self._pid != os.getpid():  # a forked process opens its own
            self._fh, self._pid = open_checked(self.path, self.identity), os.getpid()
        self._fh.seek(where[0])
        return self._fh.read(where[1])

    def close(self) -> None:
        """Close the artifact (opened again by the next read)."""
        if self._fh is not None and self._pid == os.getpid():
            self._fh.close()
        self._fh = None

    def means(self) -> np.ndarray:
        """Per-item figures averaged over repeats (items x figures), NaN where the run has no row."""
        out = np.full(self.sums.shape, np.nan)
        covered = self.repeats > 0
        out[covered] = self.sums[covered] / self.repeats[covered, None]
        return out

    def verdicts(self) -> VerdictTable:
        """Every verdict row of the run (sorted by item, then repeat), read from the artifact."""
        table = ReadTable(self.run.id)
        first = self._where["rows_block"][0]
        blocks = memoryview(self._read(self._where["rows_block"]))  # every item's block, read at once
        # (the texts come back interned as the scorer interned them: marshal keeps that)
        item_, repeat_, unit_, kind_, verdict_ = table.item, table.repeat, table.unit, table.kind, table.verdict
        points_, reason_, order_, counts_ = table.points, table.reason, table.order, table.counts
        for item, (start, length) in self._where["rows"].items():
            repeat, unit, kind, verdict, points, reason, order, counts = marshal.loads(
                blocks[start - first:start - first + length])
            item_ += [item] * len(repeat)
            repeat_ += repeat
            unit_ += unit
            kind_ += kind
            verdict_ += verdict
            points_ += points
            reason_ += reason
            order_ += order
            counts_ += counts
        return table

    def has_rows(self, item: str) -> bool:
        """Whether the run has verdict rows of the item (nothing is read)."""
        return item in self._where["rows"]

    def rows_of(self, item: str) -> list[Verdict]:
        """The item's verdict rows (every repeat); [] when the run has none."""
        where = self._where["rows"].get(item)
        if where is None:
            return []
        columns = marshal.loads(self._read(where))
        return [Verdict(self.run.id, item, *row) for row in zip(*columns)]

    def first_repeat(self, items: Sequence[str]) -> dict[str, tuple[tuple[str, str], ...]]:
        """For each of `items` the run has rows of: the (unit, verdict) of its rows of repeat 0, in row
        order (empty when it has rows of other repeats only). Read in one piece: from the first to the
        last of the items' blocks (the blocks are in item order), no row made a Verdict."""
        where = self._where["rows"]
        spans = [(item, where[item]) for item in items if item in where]
        if not spans:
            return {}
        first = min(start for _, (start, _length) in spans)
        end = max(start + length for _, (start, length) in spans)
        data = memoryview(self._read((first, end - first)))
        out = {}
        for item, (start, length) in spans:
            repeat, unit, _kind, verdict = marshal.loads(data[start - first:start - first + length])[:4]
            out[item] = (tuple(zip(unit, verdict)) if not any(repeat)  # one repeat: every row
                         else tuple((u, v) for r, u, v in zip(repeat, unit, verdict) if r == 0))
        return out

    def calls(self) -> list[Call]:
        """One row per call (calls.py), sorted by item, then repeat."""
        calls: list[Call] = marshal.loads(self._read(self._where["calls"]))
        return calls

    def calls_csv(self) -> bytes:
        """The run's rows of calls.csv, as written (csv_columns.call_lines)."""
        return self._read(self._where["calls_csv"])

    def verdict_csv(self) -> bytes:
        """The run's rows of verdicts.csv, as written (csv_columns.verdict_lines)."""
        return self._read(self._where["csv"])

    def public_keys(self) -> dict[tuple[str, int], int]:
        """(item, repeat) -> the length in bytes of each stored line of a public item."""
        return {key: where[1] for key, where in self._where["public"].items()}

    def public_line(self, item: str, repeat: int) -> str | None:
        """A public item's stored line (as stored), or None when the run has none."""
        where = self._where["public"].get((item, repeat))
        if where is None:
            return None
        return self._read((self._where["public_block"][0] + where[0], where[1])).decode("utf-8")

    def public_line_numbers(self) -> dict[tuple[str, int], int]:
        """(item, repeat) -> the 1-based number of each public line in the run's public lines (the
        download `responses-public/<run>.jsonl.gz` holds them in this order)."""
        order = sorted(self._where["public"].items(), key=lambda kv: kv[1][0])
        return {key: n for n, (key, _) in enumerate(order, 1)}

    def copy_public_lines(self, target: Path) -> None:
        """The run's public lines in file order, each ending with a newline, into `target`."""
        start, length = self._where["public_block"]
        with target.open("wb") as raw:
            # gzip for a .gz target, with no name and no time in its header: the same bytes on every build
            out = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) if target.suffix == ".gz" else raw
            try:
                for chunk in _chunks(self, start, length):
                    out.write(chunk)
            finally:
                if out is not raw:
                    out.close()


def _chunks(r: RunScore, start: int, length: int, size: int = 1 << 20) -> Iterator[bytes]:
    end = start + length
    while start < end:
        n = min(size, end - start)
        yield r._read((start, n))
        start += n
