"""Output tokens per second from the stored calls: per call, completion tokens / final latency; nearest-rank
quantiles; calls without usage, latency or a response left out."""

from __future__ import annotations

from generator.stats.operations import operations


def row(outcome: str = "answer", latency: str = "", completion: str = "", prompt: str = "10") -> dict:
    return {"outcome": outcome, "refusal": "0", "error": "", "latency_ms": latency, "prompt_tokens": prompt,
            "completion_tokens": completion}


def test_tokens_per_second_by_hand():
    calls = [row(latency="1000.0", completion="50"),  # 50 tokens/s
             row(latency="500.0", completion="50"),  # 100
             row(latency="2000.0", completion="20"),  # 10
             row(latency="250.0", completion="100"),  # 400
             row(outcome="unparseable", latency="4000.0", completion="100"),  # 25: a reply all the same
             row(outcome="failed_call", latency="100.0", completion="100"),  # no response: left out
             row(latency="800.0", completion=""),  # no usage: left out
             row(latency="", completion="40"),  # no latency: left out
             row(latency="0.0", completion="40")]  # 0 ms: left out
    tps = operations(calls, None, "hosted")["tokens_per_second"]
    # sorted: 10, 25, 50, 100, 400; nearest rank: p5 -> rank 1, p50 -> rank 3, p95 -> rank 5
    assert tps == {"p5": 10.0, "p50": 50.0, "p95": 400.0, "n": 5}


def test_no_usage_means_no_figure():
    tps = operations([row(latency="900.0"), row(latency="700.0")], None, "hosted")["tokens_per_second"]
    assert tps == {"p5": None, "p50": None, "p95": None, "n": 0}


def test_twenty_calls_use_ranks_not_interpolation():
    calls = [row(latency="1000.0", completion=str(k)) for k in range(1, 21)]  # 1..20 tokens/s
    tps = operations(calls, None, "hosted")["tokens_per_second"]
    assert (tps["p5"], tps["p50"], tps["p95"]) == (1.0, 10.0, 19.0)
