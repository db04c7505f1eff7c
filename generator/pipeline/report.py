"""Plain-text summaries of a rescore, for the terminal."""

from __future__ import annotations

from ..stats.declared import Declared


def _fmt(value, scale: float) -> str:
    return "-" if value is None else f"{value * scale:.1f}"


def print_summary(res) -> str:
    """One line per run: the headline on each half, then the metrics over all items."""
    columns = Declared(res.plugin).report_columns()
    head = res.plugin.headline
    width = max([32, *map(len, res.summary)])  # whole run ids: two long ids may differ only at the end
    lines = [f"suite {res.suite.name} {res.suite.version}: {len(res.items)} items, {len(res.runs)} runs",
             f"{'run':{width}} {head + '(prv)':>10} {head + '(pub)':>10} " + " ".join(f"{h:>10}" for _, h, _ in columns)]
    for run_id in sorted(res.summary):
        s = res.summary[run_id]
        halves = [s.get(h, {}).get("metrics", {}).get(head) for h in ("private", "public")]
        m = s["all"]["metrics"] if "all" in s else {}
        head_scale = next((scale for k, _, scale in columns if k == head), 1)
        cells = [_fmt(v, head_scale) for v in halves]
        cells += [_fmt(m.get(k), scale) for k, _, scale in columns]
        flag = " (simulated)" if s["simulated"] else ""
        lines.append(f"{run_id:{width}} " + " ".join(f"{c:>10}" for c in cells) + flag)
        if s["missing_responses"]:
            lines.append(f"  {s['missing_responses']} item(s) had no stored response: scored as failed calls")
        if s.get("sealed_records"):
            lines.append(f"  private half from the stored verdicts of {s['sealed_records']} sealed record(s), not "
                         "rescored: their full records are in private storage, which is not here")
    lines.append(f"{head}(prv)/{head}(pub): {head} on the private/public half; other columns over all items; "
                 "rates and shares in percent")
    return "\n".join(lines)


def print_agreement(agreement: dict | None) -> str:
    if not agreement or agreement.get("status") == "not run":
        return "agreement gate: not run (scorer B skipped); the site will not publish these verdicts"
    line = (f"agreement gate: scorer A and scorer B compared {agreement['compared']:,} verdicts, "
            f"{agreement['differing']:,} differ ({agreement['node']})")
    if agreement.get("sealed"):
        line += (f"; {agreement['sealed']:,} sealed private record(s) not compared (scored from their stored "
                 "verdicts: private storage is not here)")
    if agreement["status"] == "agree":
        return line + ": they agree on every verdict"
    shown = [f"  {d['run']} {d['item']} repeat {d['repeat']} {d['unit']}: A {d['scorer_a']}, B {d['scorer_b']}, "
             f"value {d['value']}" for d in agreement["differences"][:20]]
    return "\n".join([line + ": DISAGREE", *shown])
