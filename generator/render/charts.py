"""Plotly figures as JSON data blocks (rendered in the browser by static/charts.js), and plotly.js
written once to static/plotly-<version>.min.js from the plotly package (no CDN).

Figures only draw numbers read from the statistics output; dominance on the cost/latency charts is
read from the engine's pairwise calls (see `dominance`).
"""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

from plotly.offline import get_plotlyjs, get_plotlyjs_version

from .context import shown

CONFIG = {"displaylogo": False, "responsive": True,
          "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"]}
FONT = {"family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", "size": 13}


def plotly_file() -> str:
    return f"plotly-{get_plotlyjs_version()}.min.js"


def plotly_css_file() -> str:
    return f"plotly-{get_plotlyjs_version()}.css"


_RULE = re.compile(r'"((?:[^"\\]|\\.)*)":(?:\'((?:[^\'\\]|\\.)*)\'|"((?:[^"\\]|\\.)*)")')


def plotly_css(js: str) -> str:
    """plotly.js's own global style rules, as a stylesheet. plotly.js injects them into a <style>
    element, which the Content-Security-Policy forbids; it skips that when the page already holds an
    element with id "plotly.js-style-global" and class "no-inline-styles" (our <link>)."""
    anchor = js.find('"X .main-svg"')
    start, end = js.rfind('{"X', 0, anchor), js.find("};", anchor)
    if anchor < 0 or start < 0 or end < 0:
        raise RuntimeError("plotly.js's style rules were not found: this plotly version is not supported")
    rules = []
    for m in _RULE.finditer(js, start, end + 1):
        selector = re.sub(r"^,", " ,", m.group(1)).replace("X", ".js-plotly-plot .plotly")
        rules.append(f"{selector.replace('Y', '.plotly-notifier')} {{{m.group(2) or m.group(3) or ''}}}")
    return "/* plotly.js " + get_plotlyjs_version() + ": its global style rules */\n" + "\n".join(rules) + "\n"


_INJECTED = re.compile(r'document\.getElementById\("([0-9a-f]{64})"\)\)\{var e=document\.createElement\("style"\);'
                       r'e\.id="\1",e\.textContent=\'((?:[^\'\\]|\\.)*)\'')


def injected_styles(js: str) -> list[tuple[str, str]]:
    """(id, css) of each stylesheet a bundled library injects at load unless an element with that id
    exists (the map library's). Written as files and linked with that id, so nothing is injected."""
    return [(m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))) for m in _INJECTED.finditer(js)]


def write_plotly(static_dir: Path) -> list[dict]:
    """Write plotly.js and its stylesheets; returns the <link> elements every chart page needs."""
    js = get_plotlyjs()
    (static_dir / plotly_file()).write_text(js, encoding="utf-8")
    (static_dir / plotly_css_file()).write_text(plotly_css(js), encoding="utf-8")
    links = [{"id": "plotly.js-style-global", "cls": "no-inline-styles", "href": f"static/{plotly_css_file()}"}]
    for k, (style_id, css) in enumerate(injected_styles(js)):
        name = f"plotly-{get_plotlyjs_version()}-extra{k}.css"
        (static_dir / name).write_text(css, encoding="utf-8")
        links.append({"id": style_id, "cls": "", "href": f"static/{name}"})
    return links


def plain(text: str) -> str:
    """plotly.js reads a subset of HTML in every text (<b>, <a href>, entities): names are data, so
    their markup characters are written as entities and show as typed; control characters and the
    invisible bidi controls (U+202E, which would show a name reversed, ...) show as a visible mark
    (``⟨U+202E⟩``), as in tables."""
    return html.escape(shown(text), quote=False)


# plotly's "none" template as plotly writes it into a figure's JSON (checked against plotly in the tests)
NONE_TEMPLATE = {"data": {"scatter": [{"type": "scatter"}]}}


def figure(div_id: str, label: str, traces: list[dict], layout: dict) -> dict:
    """{id, label, figure, config} for the chart template: the figure as plotly writes it (its JSON, after
    validation, under the "none" template), built here as plain data. Building it through plotly's
    figure objects, which check every property, was most of a model page's time; tests/test_charts.py
    checks, for every kind of chart, that plotly gives these values from the same traces and layout."""
    doc = {"data": [_json_values(t) for t in traces], "layout": {"template": NONE_TEMPLATE} | _json_values(layout)}
    return {"id": div_id, "label": shown(label), "data": {"figure": doc, "config": CONFIG}}


def _json_values(value):
    """A figure's part as its JSON holds it: lists for tuples, null for a number that is not finite."""
    if isinstance(value, dict):
        return {k: _json_values(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_values(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def forest(div_id: str, title: str, rows: list[tuple[str, float, float, float]], unit: str) -> dict:
    """A forest plot: one row per run (label, estimate, low, high), best at the top."""
    rows = [r for r in rows if r[1] is not None]
    labels = [plain(r[0]) for r in rows][::-1]
    est = [r[1] for r in rows][::-1]
    plus = [r[3] - r[1] if r[3] is not None else 0 for r in rows][::-1]
    minus = [r[1] - r[2] if r[2] is not None else 0 for r in rows][::-1]
    trace = {"type": "scatter", "x": est, "y": labels, "mode": "markers", "marker": {"size": 9, "symbol": "square"},
             "error_x": {"type": "data", "symmetric": False, "array": plus, "arrayminus": minus, "thickness": 2},
             "hovertemplate": "%{y}: %{x:.1f}<extra></extra>", "name": plain(title)}
    layout = {"font": FONT, "height": 90 + 28 * len(rows), "margin": {"l": 10, "r": 20, "t": 40, "b": 45},
              "title": {"text": plain(title), "x": 0}, "xaxis": {"title": {"text": plain(unit)}, "zeroline": False},
              "yaxis": {"automargin": True}, "showlegend": False}
    return figure(div_id, f"{title}: estimates with 95% intervals, one row per run", [trace], layout)


def dominance(points: list[dict], calls: dict[tuple[str, str], str]) -> list[tuple[str, str]]:
    """(a, b) where a dominates b: the engine called a better than b on accuracy and a is not
    costlier (or slower: x is cost or latency). No call, no dominance: an unproven difference is never drawn as one."""
    out = []
    for a in points:
        for b in points:
            if a["run"] != b["run"] and calls.get((a["run"], b["run"])) == "better" and a["x"] <= b["x"]:
                out.append((a["run"], b["run"]))
    return sorted(out)


def tradeoff(div_id: str, title: str, points: list[dict], x_title: str, y_title: str,
             dominated: set[str], highlight: set[str], worse_word: str = "costlier") -> dict:
    """Cost or latency (x) against accuracy (y); runs dominated by a significantly better run that is not
    `worse_word` (costlier, slower) are drawn hollow. points: {run, label, x, y}. Each point is marked
    with a number and named in the legend, so long names never overlap on the plot."""
    traces = []
    for k, p in enumerate(sorted(points, key=lambda p: (-p["y"], p["label"], p["run"])), 1):
        dom = p["run"] in dominated
        traces.append({
            "type": "scatter", "x": [p["x"]], "y": [p["y"]], "text": [str(k)],
            "name": plain(f"{k}. {p['label']}" + (" (dominated)" if dom else "")),
            "mode": "markers+text", "textposition": "top center", "cliponaxis": False,
            "marker": {"size": 14 if p["run"] in highlight else 9, "symbol": "circle-open" if dom else "circle",
                       "line": {"width": 2}},
            "hovertemplate": plain(p["label"]) + ": %{x}, %{y:.1f}<extra></extra>"})
    # the legend lists one run a line under the plot, its title above them: a horizontal legend lays its
    # entries out in columns wider than the chart, and the last ones were cut off
    plot, below = 300, 70 + 21 * (len(points) + 2)
    layout = {"font": FONT, "height": 40 + plot + below, "margin": {"l": 60, "r": 20, "t": 40, "b": below},
              "title": {"text": plain(title), "x": 0}, "xaxis": {"title": {"text": plain(x_title)}},
              "yaxis": {"title": {"text": plain(y_title)}},
              "legend": {"orientation": "v", "x": 0, "xanchor": "left", "y": -70 / plot, "yanchor": "top",
                         "title": {"text": f"hollow: dominated (another run is<br>significantly better and not "
                                           f"{worse_word})", "side": "top"}}}
    return figure(div_id, f"{title}: one numbered point per hosted run; hollow points are dominated by a "
                          f"run significantly better and not {worse_word}", traces, layout)


def report_chart(div_id: str, table) -> dict:
    """A suite's own chart (suite_api.ReportChart) of a report table."""
    from ..suite.api import Estimate

    spec = table.chart
    series: dict[str, tuple[list, list]] = {}
    for row in table.rows:
        value = row[spec.y].value if isinstance(row[spec.y], Estimate) else row[spec.y]
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        name = " \u00b7 ".join(str(row[c]) for c in spec.series) or table.title
        xs, ys = series.setdefault(name, ([], []))
        xs.append(plain(str(row[spec.x])))
        ys.append(value * table.scale)
    traces = [{"type": "bar", "x": xs, "y": ys, "name": plain(name)} if spec.kind == "bar" else
              {"type": "scatter", "x": xs, "y": ys, "name": plain(name), "mode": "lines+markers"}
              for name, (xs, ys) in series.items()]
    layout = {"font": FONT, "height": 420, "margin": {"l": 60, "r": 20, "t": 40, "b": 90},
              "title": {"text": plain(table.title), "x": 0}, "barmode": "group",
              "xaxis": {"title": {"text": plain(table.columns[spec.x])}, "automargin": True},
              "yaxis": {"title": {"text": plain(spec.y_title or table.columns[spec.y])}},
              "legend": {"orientation": "h", "y": -0.3}}
    return figure(div_id, f"{table.title}: a chart of the table below", traces, layout)
