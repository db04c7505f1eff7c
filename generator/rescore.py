"""Rescore: stored responses -> verdict rows -> per-item figures -> metrics, for every suite and run.

Reads content/ and results/ only; writes build/rescore/<suite>/ only after every input was read
without error (all errors are reported together, then nothing is written).
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .content import Item, Suite, load_items, load_suite
from .errors import ErrorLog
from .parse.response import FAILED, Outcome, read_outcome
from .results import Run, iter_records, list_run_dirs, load_run
from .score.verdicts import COLUMNS, Verdict
from .suites import scorer_module

NO_RESPONSE = Outcome(FAILED, None, "no stored response")


@dataclass
class RunResult:
    run: Run
    verdicts: list[Verdict] = field(default_factory=list)
    item_sums: dict[str, list[float]] = field(default_factory=dict)  # item -> summed figures over repeats
    item_repeats: dict[str, int] = field(default_factory=dict)
    responses: int = 0
    missing: int = 0

    def item_means(self) -> dict[str, list[float]]:
        return {i: [x / self.item_repeats[i] for x in s] for i, s in self.item_sums.items()}


@dataclass
class SuiteResult:
    suite: Suite
    items: list[Item]
    runs: list[RunResult]
    figures: tuple[str, ...]
    summary: dict


def score_run(run: Run, items: dict[str, Item], module, log: ErrorLog,
              progress: Callable[[int], None] | None = None) -> RunResult:
    result = RunResult(run)
    item_half = {i.id: i.half for i in items.values()}
    done: set[tuple[str, int]] = set()

    def add(item: Item, outcome: Outcome, repeat: int) -> None:
        rows = module.score(item, outcome, run.id, repeat)
        result.verdicts.extend(rows)
        figs = module.figures(rows)
        sums = result.item_sums.get(item.id)
        if sums is None:
            result.item_sums[item.id] = list(figs)
            result.item_repeats[item.id] = 1
        else:
            for k, x in enumerate(figs):
                sums[k] += x
            result.item_repeats[item.id] += 1

    for _line, record in iter_records(run, item_half, log):
        item = items[record["item"]]
        add(item, read_outcome(record), record["repeat"])
        done.add((item.id, record["repeat"]))
        result.responses += 1
        if progress is not None:
            progress(1)
    for item in items.values():  # a missing response is a failure on that item, never a drop
        if (run.half in ("both", item.half)) and (item.id, 0) not in done:
            add(item, NO_RESPONSE, 0)
            result.missing += 1
    result.verdicts.sort(key=lambda v: (v.item, v.repeat))
    return result


def summarise(module, items: list[Item], run_result: RunResult, datasets: list[str]) -> dict:
    """Metrics per half (all, public, private), overall and per dataset, with the suite's index."""
    means = run_result.item_means()
    by_id = {i.id: i for i in items}
    out = {}
    for half in ("all", "public", "private"):
        chosen = [i for i in means if half == "all" or by_id[i].half == half]
        if not chosen:
            continue
        per_dataset = {}
        for ds in datasets:
            ids = [i for i in chosen if by_id[i].dataset == ds]
            if ids:
                per_dataset[ds] = module.metrics(_sums(module, means, ids), len(ids))
        overall = module.metrics(_sums(module, means, chosen), len(chosen))
        overall["index"] = module.index(per_dataset)
        out[half] = {"items": len(chosen), "metrics": overall, "datasets": per_dataset}
    return out


def _sums(module, means: dict[str, list[float]], ids: list[str]) -> dict[str, float]:
    totals = [0.0] * len(module.FIGURES)
    for i in ids:
        for k, x in enumerate(means[i]):
            totals[k] += x
    return dict(zip(module.FIGURES, totals))


def discover_suites(content_root: Path) -> list[Path]:
    base = content_root / "suites"
    return sorted(p for p in base.iterdir() if (p / "suite.toml").is_file()) if base.is_dir() else []


def rescore(root: Path, suite_names: list[str] | None = None, log: ErrorLog | None = None,
            progress_factory=None) -> list[SuiteResult]:
    """Score every stored run of the chosen suites. Errors go to `log`; callers check it."""
    log = log or ErrorLog(root)
    results = []
    suite_dirs = discover_suites(root / "content")
    if suite_names:
        known = {p.name for p in suite_dirs}
        for name in suite_names:
            if name not in known:
                log.add(root / "content" / "suites", None, f"no suite named {name!r}")
        suite_dirs = [p for p in suite_dirs if p.name in suite_names]
    for suite_dir in suite_dirs:
        suite = load_suite(suite_dir, log)
        if suite is None:
            continue
        try:
            module = scorer_module(suite.scorer)
        except KeyError as exc:
            log.add(suite_dir / "suite.toml", None, str(exc.args[0]))
            continue
        items = load_items(suite, module.parse_spec, log)
        by_id = {i.id: i for i in items}
        runs = [r for d in list_run_dirs(root / "results", suite.name) if (r := load_run(d, suite.name, log))]
        total = sum(r.responses.stat().st_size for r in runs)
        run_results = []
        with (progress_factory(total, f"scoring {suite.name}") if progress_factory else _null()) as bar:
            for run in runs:
                run_results.append(score_run(run, by_id, module, log))
                if bar is not None:
                    bar.update(run.responses.stat().st_size)
        datasets = [d.id for d in suite.datasets]
        summary = {r.run.id: {**_run_header(r), **summarise(module, items, r, datasets)} for r in run_results}
        results.append(SuiteResult(suite, items, run_results, module.FIGURES, summary))
    return results


class _null:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _run_header(r: RunResult) -> dict:
    return {"model": r.run.model, "provider": r.run.provider, "hosting": r.run.hosting,
            "simulated": r.run.simulated, "responses": r.responses, "missing_responses": r.missing}


# ---------------------------------------------------------------- output

def write_outputs(out_dir: Path, results: list[SuiteResult]) -> None:
    """Write every suite's outputs into a fresh folder, then swap it in (a failure leaves the old one)."""
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".rescore-", dir=out_dir.parent))
    try:
        for res in results:
            target = tmp / res.suite.name
            target.mkdir()
            _write_verdicts(target / "verdicts.csv", res)
            _write_item_stats(target / "item_stats.csv", res)
            (target / "summary.json").write_text(
                json.dumps(res.summary, indent=2, sort_keys=True, allow_nan=False) + "\n", encoding="utf-8")
        if out_dir.exists():
            old = out_dir.with_name(out_dir.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(out_dir, old)
            os.replace(tmp, out_dir)
            shutil.rmtree(old)
        else:
            os.replace(tmp, out_dir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _write_verdicts(path: Path, res: SuiteResult) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in sorted(res.runs, key=lambda r: r.run.id):
            writer.writerows(v.row() for v in r.verdicts)


def _write_item_stats(path: Path, res: SuiteResult) -> None:
    by_id = {i.id: i for i in res.items}
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(("run", "item", "dataset", "half", "repeats") + res.figures)
    for r in sorted(res.runs, key=lambda r: r.run.id):
        means = r.item_means()
        for item_id in sorted(means):
            item = by_id[item_id]
            writer.writerow((r.run.id, item_id, item.dataset, item.half, r.item_repeats[item_id],
                             *(repr(x) for x in means[item_id])))
    path.write_text(buf.getvalue(), encoding="utf-8")
