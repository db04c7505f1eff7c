"""RA-Bench's operations tables (rule page 5.8) against hand-computed calls. These figures are not
verdicts (the rule page says why the agreement gate does not compare them), so this is their check."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from generator.pipeline.calls import CALL_COLUMNS
from generator.suites.rabench.tables import operations


def call(outcome: str, latency: str, prompt: int | str, completion: int | str, error: str = "", refusal: int = 0):
    row = ("t", "i", 0, outcome, error, 200 if outcome != "failed_call" else "", 1, 0, latency, prompt, completion,
           "stop", refusal)
    assert len(row) == len(CALL_COLUMNS)
    return row


def test_latency_cost_and_rates_by_hand():
    diy = SimpleNamespace(id="diy", meta={"prices": {"input_per_mtok": "2.50", "output_per_mtok": "10.00"}}, calls=[
        call("answered", "100.0", 1000, 100), call("answered", "300.0", 1000, 100),
        call("answered", "200.0", 1000, 100), call("answered", "400.0", 1000, 100),
        call("failed_call", "", "", "", error="timeout"),
        call("unparseable", "50.0", 1000, 10, refusal=1)])
    engine = SimpleNamespace(id="engine", meta={"price_per_check": "0.05"},
                             calls=[call("answered", f"{40 + k}.0", 0, 0) for k in range(12)])
    table, rates, values = operations([diy, engine])
    rows = {r[0]: r for r in table.rows}
    # latencies of the 5 calls that returned: 50 100 200 300 400; nearest rank: p50 = 3rd, p95 = p99 = 5th
    assert rows["diy"][1:5] == (6, 200.0, 400.0, 400.0)
    # model cost per call: 1000 x 2.50 / 1e6 + 100 x 10 / 1e6 = 0.0035 (four calls), 0.0026 (the refusal)
    assert rows["diy"][5] == rows["diy"][6] == pytest.approx((4 * 0.0035 + 0.0026) / 5, abs=1e-15)
    assert rows["engine"][1:7] == (12, 45.0, 51.0, 51.0, 0.05, 0.0)  # 40..51 ms; the price per check, no tokens
    assert rows["diy"][7:] == ("hosted", "measured by the harness")  # the defaults: hosted, timed by the harness
    r = {row[0]: row for row in rates.rows}
    assert [e.value for e in r["diy"][2:]] == pytest.approx([1 / 6, 1 / 6, 1 / 6])
    assert all(e.n == 6 for e in r["diy"][2:]) and r["engine"][2].value == 0 and r["engine"][2].high > 0
    assert values["diy"]["latency p50"] == (200.0, 5) and values["engine"]["cost per check"] == (0.05, 12)
