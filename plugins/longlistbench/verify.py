"""`tally longlistbench verify`: scorer A against LongListBench's own published figures.

For every stored result directory: each document's counts (records exact, gold, predicted; field pairs
found, gold, predicted), its completeness and its F1 (bit for bit, computed as LongListBench computes
it) against `detailed_results` of `evaluation_report.json`; each run's macro-F1, exact-record recall,
complete documents and micro-F1 against its `model_stats`; then the README's leaderboard table, from
the replicate runs, cell by cell.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from generator.parse.reply import read_json

from . import counts, document_f1
from .convert import run_facts
from .leaderboard import mean_sd


def _run_stats(rows: list[tuple[int, ...]], f1s: list[float]) -> dict[str, float]:
    e, g, p, f, gp, pp = (sum(r[i] for r in rows) for i in range(6))
    wp, wr = (f / pp if pp else 0.0), (f / gp if gp else 0.0)
    return {"avg_f1": sum(f1s) / len(f1s), "exact_record_recall": e / g if g else 0.0,
            "complete_documents": sum(r[0] == r[1] == r[2] for r in rows),
            "weighted_f1": 2 * wp * wr / (wp + wr) if wp + wr else 0.0, "total_rows": g}


def verify(checkout: Path, only: set[str], say: Callable[[str], None]) -> bool:
    golds: dict[str, list] = {}
    per_run: dict[str, tuple[str, str, dict[str, float], int]] = {}
    docs = values = bad = 0
    for d in sorted((checkout / "benchmarks" / "results").iterdir()):
        if only and d.name not in only or not (d / "evaluation_report.json").is_file():
            continue
        report = json.loads((d / "evaluation_report.json").read_text(encoding="utf-8"))
        model, provider, _, _ = run_facts(json.loads((d / "run_metadata.json").read_text(encoding="utf-8")), d.name)
        rows, f1s, errors = [], [], 0
        for r in report["detailed_results"]:
            sample = r["sample"]
            if sample not in golds:
                golds[sample] = read_json((checkout / "data" / "ground_truth" / f"{sample}.json").read_text(encoding="utf-8"))
            found = [p for p in sorted(d.glob(f"{sample}_*_predicted.json")) if p.is_file()]
            answer = read_json(found[0].read_text(encoding="utf-8")) if len(found) == 1 else None
            readable = answer if isinstance(answer, (list, dict)) else None
            got, problem = counts(golds[sample], readable)
            errors += readable is None or problem is not None
            m = r["metrics"]
            want = (m["exact_record_matches"], m["ground_truth_count"], m["predicted_count"], m["found"],
                    m["total_gold_field_pairs"], m["total_pred_field_pairs"])
            f1 = document_f1(got[3], got[4], got[5])
            pairs = list(zip(got, want)) + [(got[0] == got[1] == got[2], m["complete_document"]), (f1, m["f1"])]
            docs += 1
            values += len(pairs)
            if any(a != b for a, b in pairs):
                bad += 1
                say(f"DIFFERS {d.name} {sample}: counts {got} f1 {f1!r}; report {want} f1 {m['f1']!r}")
            rows.append(got)
            f1s.append(f1)
        stats = _run_stats(rows, f1s) | {"errors": errors}
        published = next(iter(report["model_stats"].values()))
        for key in ("avg_f1", "exact_record_recall", "complete_documents", "weighted_f1"):
            values += 1
            if abs(stats[key] - published[key]) > 1e-12:
                bad += 1
                say(f"DIFFERS {d.name} {key}: {stats[key]!r}, report {published[key]!r}")
        per_run[d.name] = (model, provider, stats, len(rows))
    say(f"{docs} documents of {len(per_run)} runs: {values - bad} of {values} values equal to the published reports")
    readme_ok = _readme(checkout, per_run, say) if not only else True
    return bad == 0 and readme_ok


def _fmt(values: list[float], pct: bool) -> str:
    m, sd = mean_sd(values)
    if pct:
        return f"{m * 100:.1f}%" if sd is None else f"{m * 100:.1f}% ± {sd * 100:.1f} pp"
    return f"{m:.1f}" if sd is None else f"{m:.1f} ± {sd:.1f}"


def _readme(checkout: Path, per_run: dict, say: Callable[[str], None]) -> bool:
    groups: dict[tuple[str, str], list] = {}
    for model, provider, stats, n in per_run.values():
        groups.setdefault((model, provider), []).append((stats, n))
    if not (checkout / "README.md").is_file():
        say("no README.md: its leaderboard table not compared")
        return True
    text = (checkout / "README.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if re.match(r"\| (Codex CLI|Claude Code) `", line)]
    cells = equal = 0
    for line in rows:
        parts = [c.strip() for c in line.strip("|").split("|")]
        model = re.search(r"`([^`]+)`", parts[0]).group(1)  # type: ignore[union-attr]
        runs = max((g for k, g in groups.items() if k[0] == model), key=len, default=[])
        if not runs:
            say(f"README row {parts[0]}: no run of {model}")
            cells += 8
            continue
        stats = [s for s, _ in runs]
        n = runs[0][1]
        complete = [float(s["complete_documents"]) for s in stats]
        mine = [str(len(runs)), str(n), f"{int(stats[0]['total_rows']):,}",
                str(max(int(s["errors"]) for s in stats)),
                _fmt([s["exact_record_recall"] for s in stats], True),
                f"{_fmt(complete, False)} / {n}" if len(runs) > 1 else
                f"{int(complete[0])}/{n} ({complete[0] / n:.1%})",
                _fmt([s["weighted_f1"] for s in stats], True), _fmt([s["avg_f1"] for s in stats], True)]
        for a, b in zip(mine, parts[1:]):
            cells += 1
            equal += a == b
            if a != b:
                say(f"README {model}: {a!r} here, {b!r} in the README")
        say("| " + " | ".join([parts[0], *mine]) + " |")
    say(f"README leaderboard: {equal} of {cells} cells reproduced")
    return equal == cells
