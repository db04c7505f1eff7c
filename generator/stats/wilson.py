"""Wilson score interval for a proportion k/n (95%)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the 0.975 quantile of the standard normal


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float] | None:
    """(low, high) of the Wilson interval; None when n is 0. k = 0 gives low 0 and k = n gives high 1."""
    if n <= 0:
        return None
    if not 0 <= k <= n:
        raise ValueError(f"k={k} must lie between 0 and n={n}")
    q = k / n
    z2 = z * z
    denom = 1 + z2 / n
    center = (q + z2 / (2 * n)) / denom
    half = z * math.sqrt(q * (1 - q) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if k == 0 else max(0.0, center - half)
    high = 1.0 if k == n else min(1.0, center + half)
    return low, high


def rate(k: int, n: int) -> dict:
    """A rate with its Wilson interval, as written in the stats file."""
    ci = wilson(k, n)
    return {"k": k, "n": n, "estimate": k / n if n else None,
            "low": ci[0] if ci else None, "high": ci[1] if ci else None}
