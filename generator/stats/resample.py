"""Seeded resample-count matrices W (B x N): how often each item appears in each bootstrap resample.

Items are in a fixed order (sorted by id) before drawing, so W depends only on the seed and the group
sizes, never on which runs are present. Rows are drawn in chunks: `rng.integers(0, n, (rows, n))` and
a row-wise bincount, which is the same stream of draws as one call for all rows (and as
`scipy.stats.bootstrap`, which draws `rng.integers(0, n, (resamples, n))`).

A stratified design draws each group (a dataset, a class) separately: within each chunk, group after
group, in the order given. The hash of W is SHA-256 over its counts as single bytes (a count above 255
would be written as 255; with N items a count has mean 1 and never comes near), in the order drawn:
for one group, W row by row whatever the chunk size.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np
from threadpoolctl import ThreadpoolController

CHUNK = 1000
PIECE = 125  # rows of W counted and multiplied at a time when the product is exact (CHUNK a multiple of it)
FLOAT32_EXACT = 2**24  # every integer of smaller magnitude is exact in float32
FLOAT64_EXACT = 2**53  # and in float64
# The products of W with the per-item figures run on one BLAS thread: they are small (a piece of W at a
# time), and a second thread spent more CPU time than it saved wall-clock time on a busy machine (the
# whole engine at 40 run groups, bench/stats_speed.py: 0.90 s of CPU on two threads, 0.42 s on one);
# the build has other work for the other cores. One thread also fixes how the library splits the
# work, whatever the machine.
BLAS_THREADS = 1
SEED_BITS = 53  # seeds stay exact in JavaScript numbers


def derive_seed(*names: str) -> int:
    """A seed from names (suite, stratum, metric group): SHA-256 of the names joined by U+001F."""
    digest = hashlib.sha256("\x1f".join(names).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "little") & ((1 << SEED_BITS) - 1)


def _dtype(n: int) -> type:
    # the same draws as the default int64 (numpy draws 32-bit values for ranges below 2**32), half the memory
    return np.int32 if n < 2**31 else np.int64


def row_bincount(idx: np.ndarray, n: int) -> np.ndarray:
    """Counts of 0..n-1 in each row of idx (rows x n)."""
    rows = idx.shape[0]
    flat = (idx + (np.arange(rows, dtype=np.int64) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n).reshape(rows, n)


class CountMatrix:
    """W for one (suite, stratum, metric group): iterate its chunks; `sha256` is set once all were drawn."""

    def __init__(self, seed: int, sizes: Sequence[int], resamples: int, chunk: int = CHUNK):
        if resamples < 1 or any(n < 1 for n in sizes):
            raise ValueError("need at least one resample and one item in every group")
        self.seed, self.sizes, self.resamples, self.chunk = seed, tuple(sizes), resamples, chunk
        self.sha256: str | None = None

    def _drawn(self) -> Iterator[tuple[int, list[np.ndarray]]]:
        """(first row, drawn item indices of each group) per chunk: group after group, in the seed's stream."""
        rng = np.random.default_rng(self.seed)
        for start in range(0, self.resamples, self.chunk):
            rows = min(self.chunk, self.resamples - start)
            yield start, [rng.integers(0, n, (rows, n), dtype=_dtype(n)) for n in self.sizes]

    def chunks(self) -> Iterator[list[np.ndarray]]:
        """Per chunk, one int64 count array (rows x n_g) for each group: `pieces` a whole chunk at a time."""
        counts: list[np.ndarray] = []
        for g, _first, c in self.pieces([self.chunk] * len(self.sizes)):
            counts.append(c)
            if g == len(self.sizes) - 1:
                yield counts
                counts = []

    def pieces(self, rows: Sequence[int]) -> Iterator[tuple[int, int, np.ndarray]]:
        """(group, first row, int64 counts) for pieces of at most rows[g] rows of each chunk of group g.

        The same counts as `chunks`, in the order the hash reads them (per chunk, group after group, row
        by row), counted a few rows at a time so that the counts of a piece stay in the CPU cache while
        they are used.
        """
        digest = hashlib.sha256()
        for start, drawn in self._drawn():
            for g, (idx, n) in enumerate(zip(drawn, self.sizes)):
                for first in range(0, idx.shape[0], rows[g]):
                    c = row_bincount(idx[first:first + rows[g]], n)
                    digest.update(_count_bytes(c))
                    yield g, start + first, c
        self.sha256 = digest.hexdigest()

    def full(self) -> np.ndarray:
        """The whole matrix (B x sum of sizes, groups side by side): for tests and small suites."""
        return np.vstack([np.hstack(c) for c in self.chunks()])

    def record(self) -> dict:
        return {"seed": self.seed, "resamples": self.resamples, "chunk_rows": self.chunk,
                "group_sizes": list(self.sizes), "w_sha256": self.sha256}


def resample_sums(w: CountMatrix, blocks: Sequence[np.ndarray],
                  on_chunk: Callable[[int], None] | None = None) -> list[np.ndarray]:
    """For each group g, W_g @ blocks[g]: (B x K) sums of the group's per-item statistics per resample.

    blocks[g] holds the group's items in order (n_g x K), float64. When every entry is an integer the
    products are exact, so the sums do not depend on the order a BLAS library adds them in; when, in
    addition, n_g times the largest magnitude is below 2**24, every product and partial sum is an integer
    float32 holds exactly, and the product is taken in float32 (half the memory traffic, twice the BLAS
    speed) with the same float64 sums bit for bit (`exact_in_float32`).
    """
    out = [np.empty((w.resamples, b.shape[1])) for b in blocks]
    plans = [_plan(b) for b in blocks]
    exact = [_exact(b, FLOAT64_EXACT) for b in blocks]
    # An exact product (whole numbers) is taken a few rows at a time on one BLAS thread. Any other is
    # taken as it always was, a whole chunk at a time on the library's threads: OpenBLAS adds in another
    # order when the rows or the threads change, and then so do the last bits of a sum of fractions.
    rows = [PIECE if e else w.chunk for e in exact]
    last = len(blocks) - 1
    limit = _blas().limit(limits=BLAS_THREADS, user_api="blas") if all(exact) else contextlib.nullcontext()
    with limit:
        for g, first, c in w.pieces(rows):
            unique, inverse = plans[g]
            out[g][first:first + c.shape[0]] = (c.astype(unique.dtype) @ unique)[:, inverse]
            if on_chunk and g == last:
                on_chunk(c.shape[0])
    return out


@functools.cache
def _blas() -> ThreadpoolController:
    """The process's thread pools, found once (finding them reads every loaded library: a few
    milliseconds, which a new controller for each product spent again)."""
    return ThreadpoolController()


def widen(sums: np.ndarray, full: np.ndarray, n: int) -> np.ndarray:
    """The small-sample variance correction of the bootstrap, on one group's resampled sums (B x K).

    Resampling n items with replacement spreads a sum by a factor sqrt((n - 1) / n) too little (its
    variance is the plug-in variance, which divides by n, not n - 1). Each resampled sum is moved away
    from the full-data sum `full` (K,) by sqrt(n / (n - 1)): S + sqrt(n / (n - 1)) (S^(b) - S). Every
    metric of the engine is a function of per-group sums, so its resampled values then vary as a
    sample's would. A group of one item has no spread to correct and is returned as it is.
    Deterministic: elementwise, the same inputs give the same values bit for bit.
    """
    if n < 2:
        return sums
    out = sums - full  # in place from here: the same operations as full + k (sums - full), bit for bit
    out *= math.sqrt(n / (n - 1))
    out += full
    return out


def exact_in_float32(block: np.ndarray) -> bool:
    """Whether counts (each row summing to n, the block's items) times `block` are exact in float32.

    Every entry must be a whole number, and n times the largest magnitude below 2**24: a product
    c_i v_i and any partial sum of them is then a whole number of magnitude at most
    sum_i c_i |v_i| <= n max|v| < 2**24, which float32 represents exactly, so every addition and
    fused multiply-add is exact whatever order and blocking the BLAS library uses.
    """
    return _exact(block, FLOAT32_EXACT)


def _exact(block: np.ndarray, limit: int) -> bool:
    """Whole numbers with n max|v| below `limit` (2**24 for float32, 2**53 for float64): see exact_in_float32."""
    n = block.shape[0]
    if n >= limit or not block.size:
        return False
    if not np.all(block == np.rint(block)):  # also rejects NaN and infinities
        return False
    return n * float(np.abs(block).max()) < limit


def _plan(block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The block's distinct columns (float32 when exact there, see exact_in_float32) and the inverse map."""
    unique, inverse = _distinct_columns(block)
    if exact_in_float32(unique):
        return unique.astype(np.float32), inverse
    return unique, inverse


def _count_bytes(counts: np.ndarray) -> bytes:
    """The counts as single bytes for the hash of W (a count above 255 as 255)."""
    small = counts if counts.max(initial=0) <= 255 else np.minimum(counts, 255)
    return small.astype(np.uint8).tobytes()


def _distinct_columns(block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The block's distinct columns and, for each column, which one it is: runs share denominators
    (fields per item), so each is multiplied once."""
    seen: dict[bytes, int] = {}
    cols: list[int] = []
    inverse = []
    for k in range(block.shape[1]):
        key = block[:, k].tobytes()
        if key not in seen:
            seen[key] = len(cols)
            cols.append(k)
        inverse.append(seen[key])
    return np.ascontiguousarray(block[:, cols]), np.array(inverse, dtype=np.int64)
