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

import hashlib
import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np

CHUNK = 1000
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

    def chunks(self) -> Iterator[list[np.ndarray]]:
        """Per chunk, one int64 count array (rows x n_g) for each group."""
        rng = np.random.default_rng(self.seed)
        digest = hashlib.sha256()
        for start in range(0, self.resamples, self.chunk):
            rows = min(self.chunk, self.resamples - start)
            counts = [row_bincount(rng.integers(0, n, (rows, n), dtype=_dtype(n)), n) for n in self.sizes]
            for c in counts:
                digest.update(np.minimum(c, 255).astype(np.uint8).tobytes())
            yield counts
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
    products are exact, so the sums do not depend on the order a BLAS library adds them in.
    """
    out = [np.empty((w.resamples, b.shape[1])) for b in blocks]
    distinct = [_distinct_columns(b) for b in blocks]
    row = 0
    for counts in w.chunks():
        rows = counts[0].shape[0]
        for g, c in enumerate(counts):
            unique, inverse = distinct[g]
            out[g][row:row + rows] = (c.astype(np.float64) @ unique)[:, inverse]
        row += rows
        if on_chunk:
            on_chunk(rows)
    return out


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
    return full + math.sqrt(n / (n - 1)) * (sums - full)


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
