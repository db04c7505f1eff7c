"""Operations figures per run: latency percentiles, cost per 1,000 documents, error/refusal/timeout rates.

- Latency: p50, p95 and p99 by the nearest-rank rule, over every stored call that returned a response
  (outcome `answer` or `unparseable`) and has a latency; no interval.
- Speed: output tokens per second of each such call that also reports its output (completion) tokens
  and took more than 0 ms: completion tokens / latency of the final attempt (the stored `latency_ms`;
  an agent's episode: its turns' tokens over their summed latency); p5, p50 and p95 by the same
  nearest-rank rule (p5 is the slow end); no interval. Time to first token is not recorded: the
  harness does not stream.
- Cost: list prices (decimal strings per million tokens, read as Decimal) applied to the usage each
  call reports, averaged over the calls that report usage and scaled to 1,000 documents (one call
  reads one document; repeats are calls too). Computed exactly, written as a decimal string.
- Rates over all stored calls, with Wilson 95% intervals: failed calls, refusals, timeouts.
- Self-hosted runs are flagged: never ranked against hosted providers on speed or cost.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

import numpy as np

from .pairwise import ratio_rule
from .quantiles import nearest_rank
from .wilson import rate

PERCENTILES = (50, 95, 99)
SPEED_PERCENTILES = (5, 50, 95)
QUANTILE_RULE = "nearest rank: the value of rank ceil(p * n / 100) among the sorted latencies"
COST_PLACES = Decimal("0.0001")
MILLION = Decimal(1_000_000)


def _price(prices: dict | None, key: str) -> Decimal | None:
    try:
        value = Decimal(str(prices[key]))  # type: ignore[index]  # None raises TypeError: no price
    except (KeyError, TypeError, InvalidOperation):
        return None
    return value if value.is_finite() and value >= 0 else None


def _int(text: str) -> int | None:
    return int(text) if text.strip().isdigit() else None


def operations(calls: Iterable[dict], prices: dict | None, hosting: str) -> dict:
    """Figures of one run from its calls.csv rows (dicts of strings) and run.json `prices`."""
    latencies: list[float] = []
    speeds: list[float] = []  # output tokens per second, per call
    n = failed = refusals = timeouts = 0
    tokens_in = tokens_out = with_usage = 0
    for row in calls:
        n += 1
        failed += row["outcome"] == "failed_call"
        refusals += row["refusal"] == "1"
        timeouts += row["error"] == "timeout"
        if row["outcome"] != "failed_call" and row["latency_ms"]:
            latencies.append(float(row["latency_ms"]))
        pt, ct = _int(row["prompt_tokens"]), _int(row["completion_tokens"])
        if row["outcome"] != "failed_call" and row["latency_ms"] and ct is not None and float(row["latency_ms"]) > 0:
            speeds.append(ct * 1000.0 / float(row["latency_ms"]))
        if pt is not None and ct is not None:
            tokens_in, tokens_out, with_usage = tokens_in + pt, tokens_out + ct, with_usage + 1
    p_in, p_out = _price(prices, "input_per_mtok"), _price(prices, "output_per_mtok")
    cost = None
    if p_in is not None and p_out is not None and with_usage:
        total = (tokens_in * p_in + tokens_out * p_out) / MILLION
        cost = str((total * 1000 / with_usage).quantize(COST_PLACES))
    return {
        "calls": n, "self_hosted": hosting == "self-hosted",
        "latency_ms": {f"p{p}": nearest_rank(latencies, p) for p in PERCENTILES} | {"n": len(latencies)},
        "tokens_per_second": {f"p{p}": nearest_rank(speeds, p) for p in SPEED_PERCENTILES} | {"n": len(speeds)},
        "cost_per_1000_documents": cost,
        "currency": (prices or {}).get("currency") if cost is not None else None,
        "calls_with_usage": with_usage,
        "failed_rate": rate(failed, n), "refusal_rate": rate(refusals, n), "timeout_rate": rate(timeouts, n),
    }


def operations_calls(ops: dict[str, dict]) -> dict:
    """Overlap-rule calls on median latency and on cost (lower is better, at 1.2x), hosted runs only."""
    hosted = sorted(r for r, o in ops.items() if not o["self_hosted"])
    out = {}
    for name, value, cases in (("latency_p50", lambda o: o["latency_ms"]["p50"], lambda o: o["latency_ms"]["n"]),
                               ("cost_per_1000_documents", lambda o: _dec(o["cost_per_1000_documents"]),
                                lambda o: o["calls_with_usage"])):
        runs = [r for r in hosted if value(ops[r]) is not None]
        pairs = ratio_rule(np.array([value(ops[r]) for r in runs], dtype=np.float64),
                           np.array([cases(ops[r]) for r in runs]))
        out[name] = {"rule": "overlap", "runs": runs,
                     "pairs": [p | {"a": runs[p["a"]], "b": runs[p["b"]]} for p in pairs]}
    return out


def _dec(text: str | None) -> float | None:
    return None if text is None else float(Decimal(text))
