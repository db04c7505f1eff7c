"""Speed beside accuracy on the built site: output tokens per second (p50, p5, p95) in the provider
tables, from the stored calls, and a plain word that time to first token is not available."""

from __future__ import annotations

import json
import math

import pytest

from tests.site_support import fixture_site, missing_node
from tests.test_site_rounds import tables

pytestmark = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


def rank(values: list[float], p: int) -> float:
    v = sorted(values)
    return v[max(1, math.ceil(p * len(v) / 100)) - 1]


def test_provider_tables_show_tokens_per_second_from_the_stored_calls():
    site = fixture_site()
    root = site.parent
    lines = (root / "results" / "mini" / "careful-cloud" / "responses.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(x) for x in lines]
    speeds = [r["usage"]["completion_tokens"] * 1000 / r["latency_ms"] for r in records]
    caption, rows = tables(site / "providers" / "cloud.html")["ops-hosted-mini"]
    header = rows[0]
    row = next(r for r in rows[1:] if r[0].startswith("careful"))
    cell = {h: row[k] for k, h in enumerate(header)}
    assert cell["Output tokens/s p50"] == f"{rank(speeds, 50):.1f}"
    assert cell["Tokens/s p5 (slow end)"] == f"{rank(speeds, 5):.1f}"
    assert cell["Tokens/s p95"] == f"{rank(speeds, 95):.1f}"
    page = (site / "providers" / "cloud.html").read_text(encoding="utf-8")
    assert "Time to first token: not available" in page
    _, model_rows = tables(site / "models" / "careful.html")["runs-mini"]
    on_cloud = dict(zip(model_rows[0], next(r for r in model_rows[1:] if r[0] == "cloud")))
    assert on_cloud["Output tokens/s p50"] == f"{rank(speeds, 50):.1f}"  # beside accuracy on the model page too


def _rewrite(root, run: str, usage) -> None:
    path = root / "results" / "mini" / run / "responses.jsonl"
    records = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    for r in records:
        r["usage"] = usage
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_a_run_without_usage_shows_a_dash_and_hostile_usage_is_refused(tmp_path):
    from generator.errors import InputProblem
    from tests.site_support import build, make_project

    root = make_project(tmp_path / "p")
    _rewrite(root, "rules-local", None)
    build(root, tmp_path / "site")
    _, rows = tables(tmp_path / "site" / "providers" / "local.html")["ops-self-mini"]
    cell = dict(zip(rows[0], rows[1]))
    assert cell["Output tokens/s p50"] == "\u2013" and cell["Tokens/s p5 (slow end)"] == "\u2013"
    assert cell["Latency p50 (ms)"] == "1.0"  # the latency is there; only the speed is not
    _rewrite(root, "rules-local", {"prompt_tokens": 1, "completion_tokens": "<script>x</script>"})
    with pytest.raises(InputProblem, match="completion_tokens must be a non-negative integer"):
        build(root, tmp_path / "site2")
