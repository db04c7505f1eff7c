"""A scored run as one immutable, content-addressed artifact: the build cache's entry of the run.

Whichever process scored a run (this one, a worker process, the client of a Dask cluster for its
worker) writes it once with `write`: the verdict rows column by column in one block per item, the
calls, the run's rows of calls.csv and of verdicts.csv, the public items' stored lines, the per-item
sums of the figures, and a header with the small parts (per-item repeats, digest, counts, repeat
consistency, where each block and line is). A cached run is an artifact that already exists; a worker
hands back only its name. The handle that reads one, each bulky part through an explicit call, is
run_score.RunScore.

File layout: the HMAC-SHA256 (the build cache's key, cache.cache_secret) of all that follows, MAGIC,
the blocks, the header (marshal: plain values only), then the header's offset and length (two
little-endian 64-bit numbers). An artifact taken from the build cache is checked whole against its
HMAC before it is used (run_score.open_cached), as every cache entry is; one written by this command is
opened with the file identity its writer saw. Every read checks that the file is still that one.
"""

from __future__ import annotations

import hashlib
import hmac
import marshal
import os
import struct
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Callable

from .cache import cache_secret
from .csv_columns import call_lines, verdict_lines

if TYPE_CHECKING:
    from .scorer_a import ScoredRun

MAGIC = b"tally run artifact 1\n"
MAC_SIZE = 32
TRAILER = struct.Struct("<QQ")
ONCE = ".once"  # the suffix of an artifact for this command only (never taken from the cache again)
Identity = tuple[int, int, int, int]  # (device, inode, size, modification time in ns) of the file written
Header = dict[str, Any]  # the small parts and where the blocks are (`_write_to` says what it holds)
Call = tuple[Any, ...]  # a row of calls.csv (calls.py)


class ArtifactProblem(ValueError):
    """A file that is not a scored run's artifact (or no longer the one that was written)."""


def reusable(scored: ScoredRun, errors: int) -> bool:
    """Whether a later command may take the run from the cache: not when it has no stored response,
    input errors, or replies its suite could not handle (their warnings must be given again)."""
    return bool(scored.responses) and not scored.suite_failures and not errors


def write(folder: Path, base: str, scored: ScoredRun, data: bytes, keep: bool = True,
          sign: bool = True) -> tuple[str, Identity]:
    """Write the artifact of `scored` (its stored bytes `data`, whose public lines it holds) into
    `folder` as `base` (with `keep`) or `base` + ONCE, through a temporary file and a rename; with
    `sign`, under the user's cache key (an artifact of a temporary store is never read by another
    command: not signed). Returns (its name, its identity)."""
    return _write_file(folder, base if keep else base + ONCE, lambda fh: _write_to(fh, scored, data, sign))


def payload(scored: ScoredRun, data: bytes) -> bytes:
    """The artifact's bytes, unsigned (its first MAC_SIZE bytes zero): what a Dask worker hands back,
    for the client to sign and write (`put`). The worker never holds the user's cache key."""
    import io

    buffer = io.BytesIO()
    _write_to(buffer, scored, data, sign=False)
    return buffer.getvalue()


def put(folder: Path, base: str, unsigned: bytes, keep: bool = True) -> tuple[str, Identity]:
    """Sign and write an artifact made by `payload` (by a Dask worker)."""
    if len(unsigned) < MAC_SIZE + len(MAGIC) + TRAILER.size or unsigned[MAC_SIZE:MAC_SIZE + len(MAGIC)] != MAGIC:
        raise ArtifactProblem("not a scored run's artifact")
    view = memoryview(unsigned)[MAC_SIZE:]

    def fill(fh: BinaryIO) -> None:
        fh.write(hmac.new(cache_secret(), view, hashlib.sha256).digest())
        fh.write(view)

    return _write_file(folder, base if keep else base + ONCE, fill)


def _write_file(folder: Path, name: str, fill: Callable[[BinaryIO], None]) -> tuple[str, Identity]:
    """Write `folder/name` with `fill` through a temporary file and a rename (never half written);
    returns (name, the identity of the file written)."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".entry-", dir=folder)
    try:
        with os.fdopen(fd, "w+b") as fh:
            fill(fh)
            fh.flush()
            st = os.fstat(fh.fileno())
        os.replace(tmp, folder / name)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return name, identity_of(st)


def _write_to(fh: BinaryIO, scored: ScoredRun, data: bytes, sign: bool) -> None:
    mac = hmac.new(cache_secret(), digestmod=hashlib.sha256) if sign else None
    pos = MAC_SIZE

    def put_block(block: bytes | memoryview) -> tuple[int, int]:
        return put_pieces((block,))

    def put_pieces(pieces: Iterable[bytes | memoryview]) -> tuple[int, int]:
        """One block written piece by piece (not joined first: a run's blocks are tens of MB)."""
        nonlocal pos
        start = pos
        for piece in pieces:
            fh.write(piece)
            if mac is not None:
                mac.update(piece)
            pos += len(piece)
        return start, pos - start

    fh.write(bytes(MAC_SIZE))
    put_block(MAGIC)
    table = scored.table
    rows: dict[str, tuple[int, int]] = {}
    blocks, at = [], pos
    dumps = marshal.dumps
    repeat, unit, kind, verdict = table.repeat, table.unit, table.kind, table.verdict
    points, reason, order, counts = table.points, table.reason, table.order, table.counts
    for item, (start, stop) in scored.spans.items():  # one block per item: an item page reads its own
        block = dumps((repeat[start:stop], unit[start:stop], kind[start:stop], verdict[start:stop],
                       points[start:stop], reason[start:stop], order[start:stop], counts[start:stop]))
        rows[item] = (at, len(block))
        at += len(block)
        blocks.append(block)
    rows_block = put_pieces(_runs_of(blocks))
    del blocks
    calls = put_block(dumps(scored.calls))
    calls_csv = put_block(call_lines(scored.calls))
    csv = put_block(scored.csv if scored.csv is not None else verdict_lines(table))
    public: dict[tuple[str, int], tuple[int, int]] = {}
    view = memoryview(data)
    lines: list[bytes | memoryview] = []
    at = 0
    for item, rep, start, length in scored.public:  # the public lines in file order, each with its newline
        lines += (view[start:start + length], b"\n")
        public[(item, rep)] = (at, length)
        at += length + 1
    public_block = put_pieces(_runs_of(lines))
    del lines, view
    sums = put_block(scored.sums.tobytes())  # read when asked for: a run's are 0.5 MB at 6,000 items
    header = {"run": scored.run.id, "rows": rows, "rows_block": rows_block, "row_count": len(table), "calls": calls,
              "calls_csv": calls_csv, "csv": csv,
              "public": public, "public_block": public_block, "digest": scored.digest,
              "stored_rows": scored.stored_rows, "responses": scored.responses, "missing": scored.missing,
              "sealed": scored.sealed, "suite_failures": scored.suite_failures,
              "sums": sums, "shape": scored.sums.shape, "repeats": scored.repeats.tobytes(),
              "consistency": scored.consistency}
    where = put_block(marshal.dumps(header))
    put_block(TRAILER.pack(*where))
    if mac is not None:
        fh.seek(0)
        fh.write(mac.digest())


def _runs_of(pieces: Sequence[bytes | memoryview], size: int = 1 << 20) -> Iterator[bytes]:
    """The pieces joined into runs of about `size` bytes (a write and a hash update per run, not per piece)."""
    k, n = 0, len(pieces)
    while k < n:
        total, j = 0, k
        while j < n and total < size:
            total += len(pieces[j])
            j += 1
        yield b"".join(pieces[k:j])
        k = j


def identity_of(st: os.stat_result) -> Identity:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


# ---------------------------------------------------------------- reading


def verify(fh: BinaryIO) -> bool:
    """Whether the open file's first MAC_SIZE bytes are the HMAC of the rest under the user's key."""
    expected = fh.read(MAC_SIZE)
    if len(expected) < MAC_SIZE:
        return False
    mac = hmac.new(cache_secret(), digestmod=hashlib.sha256)
    while chunk := fh.read(1 << 20):
        mac.update(chunk)
    return hmac.compare_digest(mac.digest(), expected)


def header_at(path: Path, identity: Identity) -> Header:
    """The header of the artifact at `path`, still the file of `identity`."""
    with open_checked(path, identity) as fh:
        return read_header(fh, identity[2])


def open_checked(path: Path, identity: Identity) -> BinaryIO:
    """The artifact at `path`, refused unless it is still the file of `identity` (never through a link)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    fh = os.fdopen(fd, "rb")
    if identity_of(os.fstat(fd)) != identity:
        fh.close()
        raise ArtifactProblem(f"{path}: the artifact changed after it was written or checked")
    return fh


_TYPES = {"run": str, "rows": dict, "rows_block": tuple, "row_count": int, "calls": tuple, "calls_csv": tuple, "csv": tuple, "public": dict,
          "public_block": tuple, "digest": str, "stored_rows": int, "responses": int, "missing": int,
          "sealed": int, "suite_failures": int, "sums": tuple, "shape": tuple, "repeats": bytes,
          "consistency": dict}


def read_header(fh: BinaryIO, size: int) -> Header:
    """The header of an open artifact of `size` bytes; ArtifactProblem when it is not one."""
    fh.seek(MAC_SIZE)
    if fh.read(len(MAGIC)) != MAGIC or size < MAC_SIZE + len(MAGIC) + TRAILER.size:
        raise ArtifactProblem("no artifact's mark")
    fh.seek(size - TRAILER.size)
    start, length = TRAILER.unpack(fh.read(TRAILER.size))
    if start + length > size - TRAILER.size:
        raise ArtifactProblem("its header lies outside the file")
    fh.seek(start)
    try:
        header = marshal.loads(fh.read(length))
    except (ValueError, EOFError, TypeError) as exc:
        raise ArtifactProblem(f"unreadable header: {exc}") from None
    if not isinstance(header, dict) or any(not isinstance(header.get(k), t) for k, t in _TYPES.items()):
        raise ArtifactProblem("a header of the wrong shape")
    return header
