"""Plain-text summaries of a rescore, for the terminal."""

from __future__ import annotations

COLUMNS = (("index", "index"), ("accuracy", "printed"), ("computed_accuracy", "computed"),
           ("null_honesty", "null hon."), ("invented_rate", "invented"), ("false_null_rate", "false null"),
           ("unparseable_rate", "unparse."), ("failed_rate", "failed"))


def _fmt(value, scale: float) -> str:
    return "-" if value is None else f"{value * scale:.1f}"


def print_summary(res) -> str:
    """One line per run: the private-half index, then the metrics over all items (in percent)."""
    lines = [f"suite {res.suite.name} {res.suite.version}: {len(res.items)} items, {len(res.runs)} runs"]
    header = f"{'run':32} {'idx(prv)':>8} {'idx(pub)':>8} " + " ".join(f"{h:>10}" for _, h in COLUMNS)
    lines.append(header)
    for run_id in sorted(res.summary):
        s = res.summary[run_id]
        prv = s.get("private", {}).get("metrics", {}).get("index")
        pub = s.get("public", {}).get("metrics", {}).get("index")
        m = s["all"]["metrics"] if "all" in s else {}
        cells = [_fmt(m.get(k), 1 if k == "index" else 100) for k, _ in COLUMNS]
        flag = " (simulated)" if s["simulated"] else ""
        lines.append(f"{run_id[:32]:32} {_fmt(prv, 1):>8} {_fmt(pub, 1):>8} "
                     + " ".join(f"{c:>10}" for c in cells) + flag)
        if s["missing_responses"]:
            lines.append(f"  {s['missing_responses']} item(s) had no stored response: scored as failed calls")
    lines.append("index: Extracting Index (0-100); other columns: percent over all items; "
                 "idx(prv)/idx(pub): index on the private/public half")
    return "\n".join(lines)
