"""verdicts-public.csv.gz as one gzip member made of each run's own compressed piece, so that a build after
one run was added compresses that run's public verdicts alone (issue 37).

The file is a standard gzip file (RFC 1952: one member, no name, time 0) whose deflate stream (RFC 1951)
is the header row's piece, then each run's piece in the suite's run order, then an empty final block.
A piece is its rows compressed on their own at level 9 and ended by a full flush (an empty stored block
that byte-aligns the stream and lets no later block refer back into it), so pieces join as they are;
the member's CRC-32 is combined from the pieces' (crc32_combine) and its length is their sum. Any gzip
reader reads it (`gunzip`, Python's gzip, browsers): the rows are the same as a stream compressed whole,
a little larger compressed (each piece starts with no history).

A run's piece depends on the run's rows (its build cache key), the public items, the code and zlib's
version: it is kept in the build cache under the hash of those (entries of kind `verdict-pieces`,
pruned to the current runs) and made again when any changes, or when the run has no key. With or
without the cache the bytes are the same: a piece is what compressing its rows gives.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

from ..pipeline.cache import Cache, code_hash
from ..pipeline.run_parts import RunParts, names_key

KIND = "verdict-pieces"
FORMAT = "verdict-pieces 1"
LEVEL = 9  # as gzip's default
HEADER = b"\x1f\x8b\x08\x00" + b"\x00\x00\x00\x00" + b"\x02\xff"  # deflate, no name, time 0, level 9, OS unknown
END = b"\x03\x00"  # an empty final block of fixed codes
Piece = tuple[int, int, bytes]  # (CRC-32 of the rows, their length in bytes, the compressed rows)


def piece(rows: bytes) -> Piece:
    """`rows` compressed on their own, ended by a full flush; nothing for no rows."""
    if not rows:
        return 0, 0, b""
    z = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return zlib.crc32(rows), len(rows), z.compress(rows) + z.flush(zlib.Z_FULL_FLUSH)


def write_member(target: Path, pieces: Iterable[Piece]) -> None:
    """The gzip file of the pieces, in order."""
    crc, size = 0, 0
    with target.open("wb") as out:
        out.write(HEADER)
        for piece_crc, length, data in pieces:
            out.write(data)
            crc, size = crc32_combine(crc, piece_crc, length), size + length
        out.write(END + struct.pack("<II", crc, size & 0xFFFFFFFF))


def crc32_combine(crc1: int, crc2: int, len2: int) -> int:
    """The CRC-32 of A + B from crc1 = CRC-32 of A, crc2 = CRC-32 of B and len2 = len(B) (zlib's
    crc32_combine: A's register advanced by len2 zero bytes, by squaring the operator that advances it
    by one zero bit, then xor B's)."""
    if len2 <= 0:
        return crc1
    op = [0xEDB88320] + [1 << n for n in range(31)]  # the register advanced by one zero bit
    for _ in range(3):
        op = _square(op)  # two, four, then eight zero bits: one zero byte
    while True:
        if len2 & 1:
            crc1 = _times(op, crc1)
        len2 >>= 1
        if not len2:
            return crc1 ^ crc2
        op = _square(op)  # twice as many zero bytes


def _times(matrix: list[int], vector: int) -> int:
    total, n = 0, 0
    while vector:
        if vector & 1:
            total ^= matrix[n]
        vector >>= 1
        n += 1
    return total


def _square(matrix: list[int]) -> list[int]:
    return [_times(matrix, matrix[n]) for n in range(32)]


class Pieces:
    """The pieces of one suite's runs: from the build cache when it has them, else made and kept there
    (pipeline/run_parts.py)."""

    def __init__(self, cache: Cache | None, suite: str, public: set[str]) -> None:
        self.parts = RunParts(cache, KIND, suite, FORMAT, names_key(public), code_hash("render"),
                              zlib.ZLIB_RUNTIME_VERSION, str(LEVEL), valid=_is_piece)

    def of(self, run_key: str | None, rows: Callable[[], bytes]) -> Piece:
        """The run's piece; `rows()` gives its public rows' bytes when it must be made."""
        return self.parts.of(run_key, lambda: piece(rows()))

    def prune(self) -> None:
        self.parts.prune()


def _is_piece(value: object) -> bool:
    return (isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], int)
            and isinstance(value[1], int) and isinstance(value[2], bytes) and 0 <= value[0] < 2**32
            and value[1] >= 0 and (value[1] == 0) == (value[2] == b""))
