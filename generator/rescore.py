"""Rescore: stored responses -> verdict rows -> per-item figures -> metrics, for every suite and run.

Reads content/ and results/ only; writes build/rescore/<suite>/ only after every input was read
without error (all errors are reported together, then nothing is written).
"""

from __future__ import annotations

import csv
import gc
import hashlib
import io
import json
import multiprocessing as mp
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .atomic import swap_in
from .calls import CALL_COLUMNS, call_row, missing_row
from .content import Item, Suite, load_items, load_suite
from .errors import ErrorLog
from .parse.response import FAILED, Outcome, read_outcome
from .results import Run, iter_records, list_run_dirs, load_run
from .score.verdicts import COLUMNS, Verdict, verdict_digest_line
from .suites import scorer_module

NO_RESPONSE = Outcome(FAILED, None, "no stored response")


@dataclass
class RunResult:
    run: Run
    verdict_csv: str = ""  # the run's verdict rows as CSV lines (no header), sorted by item and repeat
    verdict_count: int = 0
    calls_csv: str = ""  # one row per stored call (see calls.py), as CSV lines
    verdict_digest: str = ""  # SHA-256 over the rows of stored responses, as scorer B digests them
    stored_rows: int = 0  # verdict rows of stored responses (not of missing ones)
    item_sums: dict[str, list[float]] = field(default_factory=dict)  # item -> summed figures over repeats
    item_repeats: dict[str, int] = field(default_factory=dict)
    responses: int = 0
    missing: int = 0
    summary: dict = field(default_factory=dict)  # the run's metrics, by half

    def item_means(self) -> dict[str, list[float]]:
        return {i: [x / self.item_repeats[i] for x in s] for i, s in self.item_sums.items()}

    def verdicts(self) -> list[Verdict]:
        rows = csv.reader(io.StringIO(self.verdict_csv))
        return [Verdict(r[0], r[1], int(r[2]), r[3], r[4], r[5], int(r[6]), r[7], r[8]) for r in rows]


@dataclass
class SuiteResult:
    suite: Suite
    items: list[Item]
    runs: list[RunResult]
    figures: tuple[str, ...]
    summary: dict
    agreement: dict | None = None  # the agreement gate's report (crosscheck.py), once it ran


def score_run(run: Run, items: dict[str, Item], module, log: ErrorLog, datasets: list[str]) -> RunResult:
    # Scoring allocates millions of small acyclic objects; the cycle collector would scan them over
    # and over (measured: a fifth of the time) while finding nothing to free.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _score_run(run, items, module, log, datasets)
    finally:
        if enabled:
            gc.enable()


def _score_run(run: Run, items: dict[str, Item], module, log: ErrorLog, datasets: list[str]) -> RunResult:
    result = RunResult(run)
    item_half = {i.id: i.half for i in items.values()}
    done: set[tuple[str, int]] = set()

    per_response: list[tuple[str, int, list[Verdict], bool]] = []  # item, repeat, rows, stored?

    def add(item: Item, outcome: Outcome, repeat: int) -> None:
        rows = module.score(item, outcome, run.id, repeat)
        per_response.append((item.id, repeat, rows, outcome is not NO_RESPONSE))
        figs = module.figures(rows)
        sums = result.item_sums.get(item.id)
        if sums is None:
            result.item_sums[item.id] = list(figs)
            result.item_repeats[item.id] = 1
        else:
            for k, x in enumerate(figs):
                sums[k] += x
            result.item_repeats[item.id] += 1

    calls = []
    for _line, record in iter_records(run, item_half, log):
        item = items[record["item"]]
        outcome = read_outcome(record, module.extract_answer, module.ANSWER_WHAT)
        add(item, outcome, record["repeat"])
        calls.append(call_row(run.id, record, outcome))
        done.add((item.id, record["repeat"]))
        result.responses += 1
    for item in items.values():  # a missing response is a failure on that item, never a drop
        if (run.half in ("both", item.half)) and (item.id, 0) not in done:
            add(item, NO_RESPONSE, 0)
            calls.append(missing_row(run.id, item.id))
            result.missing += 1
    calls.sort(key=lambda r: (r[1], r[2]))
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(calls)
    result.calls_csv = buf.getvalue()
    per_response.sort(key=lambda r: r[:2])
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    digest = hashlib.sha256()
    for _item, _repeat, rows, stored in per_response:
        writer.writerows(rows)
        result.verdict_count += len(rows)
        if stored:
            digest.update(b"".join(verdict_digest_line(v) for v in rows))
            result.stored_rows += len(rows)
    result.verdict_csv = buf.getvalue()
    result.verdict_digest = digest.hexdigest()
    result.summary = {**_run_header(result), **summarise(module, items, result, datasets)}
    return result


# Worker processes inherit the loaded items through fork; only the run travels to them, and only
# the per-item figures, the verdicts as CSV text and the errors travel back.
_WORKER: dict = {}


def _score_in_worker(run: Run) -> tuple[RunResult, list]:
    log = ErrorLog(_WORKER["root"])
    return score_run(run, _WORKER["items"], _WORKER["module"], log, _WORKER["datasets"]), log.errors


def score_runs(runs: list[Run], items: dict[str, Item], module, datasets: list[str], log: ErrorLog, jobs: int,
               on_done=None):
    """Score runs in order, on `jobs` processes when there are several runs."""
    if jobs <= 1 or len(runs) < 2 or "fork" not in mp.get_all_start_methods():
        for run in runs:
            yield score_run(run, items, module, log, datasets)
            if on_done:
                on_done(run)
        return
    _WORKER.update(root=log.root, items=items, module=module, datasets=datasets)
    try:
        with mp.get_context("fork").Pool(min(jobs, len(runs))) as pool:
            for run, (result, errors) in zip(runs, pool.imap(_score_in_worker, runs)):
                log.errors.extend(errors)
                yield result
                if on_done:
                    on_done(run)
    finally:
        _WORKER.clear()


def summarise(module, items: dict[str, Item], result: RunResult, datasets: list[str]) -> dict:
    """Metrics per half (all, public, private), overall and per dataset, with the suite's headline."""
    width = len(module.FIGURES)
    sums: dict[tuple[str, str], list[float]] = {}  # (half, dataset) -> figure totals, then item count
    for item_id, means in result.item_means().items():
        item = items[item_id]
        for key in (("all", item.dataset), (item.half, item.dataset)):
            acc = sums.setdefault(key, [0.0] * (width + 1))
            for k, x in enumerate(means):
                acc[k] += x
            acc[width] += 1
    out = {}
    for half in ("all", "public", "private"):
        groups = {ds: sums[(half, ds)] for ds in datasets if (half, ds) in sums}
        if not groups:
            continue
        per_dataset = {ds: module.metrics(dict(zip(module.FIGURES, acc)), int(acc[width])) for ds, acc in groups.items()}
        total = [sum(acc[k] for acc in groups.values()) for k in range(width + 1)]
        overall = module.metrics(dict(zip(module.FIGURES, total)), int(total[width]))
        overall[module.HEADLINE] = module.headline(per_dataset, overall)
        out[half] = {"items": int(total[width]), "metrics": overall, "datasets": per_dataset}
    return out


def discover_suites(content_root: Path) -> list[Path]:
    base = content_root / "suites"
    return sorted(p for p in base.iterdir() if (p / "suite.toml").is_file()) if base.is_dir() else []


def rescore(root: Path, suite_names: list[str] | None = None, log: ErrorLog | None = None,
            progress_factory=None, jobs: int = 1) -> list[SuiteResult]:
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
        with (progress_factory(total, f"scoring {suite.name}") if progress_factory else _null()) as bar:
            update = (lambda run: bar.update(run.responses.stat().st_size)) if bar is not None else None
            datasets = [d.id for d in suite.datasets]
            run_results = list(score_runs(runs, by_id, module, datasets, log, jobs, update))
        summary = {r.run.id: r.summary for r in run_results}
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
            _write_calls(target / "calls.csv", res)
            _write_item_stats(target / "item_stats.csv", res)
            (target / "summary.json").write_text(
                json.dumps(res.summary, indent=2, sort_keys=True, allow_nan=False) + "\n", encoding="utf-8")
            agreement = res.agreement or {"suite": res.suite.name, "status": "not run"}
            (target / "agreement.json").write_text(
                json.dumps(agreement, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        swap_in(tmp, out_dir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _write_verdicts(path: Path, res: SuiteResult) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in sorted(res.runs, key=lambda r: r.run.id):
            fh.write(r.verdict_csv)


def _write_calls(path: Path, res: SuiteResult) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerow(CALL_COLUMNS)
        for r in sorted(res.runs, key=lambda r: r.run.id):
            fh.write(r.calls_csv)


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
