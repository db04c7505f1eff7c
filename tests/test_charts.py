"""The charts' figures (render/charts.py) are built as plain data: for every kind of chart, from hostile
labels to numbers that are not finite, plotly's own validated JSON of the same traces and layout under
the "none" template gives the same figure (compared as the page writes it: sorted keys)."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import plotly.graph_objects as go
import plotly.io as pio

from generator.render import charts
from generator.render.env import json_block

NAMES = ["model a", "<b>bold</b> & co", "evil\u202emodel", 'quote "q"', "café ✓", "", "x" * 90, "line\nbreak"]
NUMBERS = [0.0, -0.0, 1.5, 1e-9, 12345.678, 1e300, 3, float("nan"), float("inf")]


def plotly_reference(traces: list[dict], layout: dict) -> dict:
    fig = go.Figure(data=[dict(t) for t in traces], layout=dict(layout) | {"template": "none"})
    return json.loads(pio.to_json(fig, validate=True, remove_uids=True))


def captured(monkeypatch) -> list[tuple[dict, dict]]:
    """Every chart built: (ours, plotly's from the same traces and layout)."""
    seen: list[tuple[dict, dict]] = []
    real = charts.figure

    def spy(div_id, label, traces, layout):
        ours = real(div_id, label, traces, layout)
        seen.append((ours["data"]["figure"], plotly_reference(traces, layout)))
        return ours

    monkeypatch.setattr(charts, "figure", spy)
    return seen


def test_every_chart_kind_is_plotly_s_figure(monkeypatch):
    seen = captured(monkeypatch)
    rng = random.Random(17)
    for _ in range(30):
        n = rng.randrange(0, 7)
        rows = [(rng.choice(NAMES), rng.choice(NUMBERS[:7]), rng.choice(NUMBERS + [None]), rng.choice(NUMBERS + [None]))
                for _ in range(n)]
        charts.forest("f", rng.choice(NAMES), rows, rng.choice(NAMES))
        points = [{"run": f"r{k}", "label": rng.choice(NAMES), "x": rng.choice(NUMBERS), "y": rng.choice(NUMBERS[:7])}
                  for k in range(n)]
        charts.tradeoff("t", rng.choice(NAMES), points, rng.choice(NAMES), rng.choice(NAMES),
                        {p["run"] for p in points[:2]}, {p["run"] for p in points[-1:]}, rng.choice(["slower", "costlier"]))
        for kind in ("bar", "line"):
            spec = SimpleNamespace(x=0, y=1, series=(2,), kind=kind, y_title=rng.choice([None, "share"]))
            table = SimpleNamespace(chart=spec, title=rng.choice(NAMES), scale=100, columns=["x", "y", "s"],
                                    rows=[[rng.choice(NAMES), rng.choice(NUMBERS + ["text", True]), rng.choice("ab")]
                                          for _ in range(n)])
            charts.report_chart("c", table)
    assert len(seen) == 120
    for ours, reference in seen:
        assert json_block(ours) == json_block(reference)
