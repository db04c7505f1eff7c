"""Phase 1 of the site build: gather and compute everything before a page is written.

Rescore with the agreement gate (scorer B), the statistics engine, the content pages and the
commitments. The site writes nothing here except what `tally rescore` and `tally stats` write
(build/rescore/ and build/stats/).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import orjson

from ..content import Item
from ..crosscheck import ScorerBUnavailable, crosscheck
from ..errors import ErrorLog
from ..rescore import SuiteResult, rescore, write_outputs
from ..results import Run
from ..stats.commands import suite_resamples
from ..stats.engine import compute, write_stats
from ..stats.inputs import load_suite_data
from ..suites import scorer_module
from .prose import Prose, load_pages


class BuildError(Exception):
    """The site cannot be built from these inputs (nothing was written to the site folder)."""


@dataclass
class SuiteData:
    result: SuiteResult
    module: ModuleType
    stats: dict
    agreement: dict
    balance: dict | None
    rescore_dir: Path
    stats_path: Path
    public_items: list[Item] = field(default_factory=list)
    # item -> [(run id, verdict CSV lines of that run and item)], public items only
    verdicts: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # run id -> (item, repeat) -> (offset, length) of the stored line in responses.jsonl, public items only
    offsets: dict[str, dict[tuple[str, int], tuple[int, int]]] = field(default_factory=dict)

    @property
    def suite(self):
        return self.result.suite

    @property
    def runs(self) -> dict[str, Run]:
        return {r.run.id: r.run for r in self.result.runs}


@dataclass
class SiteData:
    root: Path
    suites: list[SuiteData]
    pages: list[Prose]
    commitments: list[dict]
    build_date: str
    draft: str | None  # None, or the reason every page is marked draft
    simulated: tuple[int, int]  # (simulated runs, all runs)


def _gate(res: SuiteResult) -> dict:
    try:
        return crosscheck(res).to_json()
    except ScorerBUnavailable as exc:
        return {"suite": res.suite.name, "status": "not run", "reason": str(exc)}


def draft_reason(agreements: list[dict]) -> str | None:
    statuses = {a.get("status") for a in agreements}
    if "disagree" in statuses:
        return "draft: the scorers disagree"
    if statuses - {"agree"}:
        return "draft: scorer B did not run"
    return None


def build_date(root: Path, runs: list[Run]) -> str:
    """SOURCE_DATE_EPOCH when set, else the latest date a stored run finished (or started)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc).date().isoformat()
    dates = [str(r.meta.get("finished") or r.meta.get("started"))[:10] for r in runs]
    return max(dates) if dates else "1970-01-01"


def _index_public(data: SuiteData) -> None:
    public = {i.id for i in data.public_items}
    for r in data.result.runs:
        chunks: dict[str, list[str]] = {}
        for line in r.verdict_csv.splitlines(keepends=True):
            item = line.split(",", 2)[1]
            if item in public:
                chunks.setdefault(item, []).append(line)
        for item, lines in chunks.items():
            data.verdicts.setdefault(item, []).append((r.run.id, "".join(lines)))
        offsets: dict[tuple[str, int], tuple[int, int]] = {}
        blob = r.run.responses.read_bytes()
        pos = 0
        for line in blob.split(b"\n"):
            if line.strip():
                rec = orjson.loads(line)
                if rec["item"] in public:
                    offsets[(rec["item"], rec["repeat"])] = (pos, len(line))
            pos += len(line) + 1
        data.offsets[r.run.id] = offsets


def gather(root: Path, draft: bool = False, resamples: int | None = None, jobs: int = 1,
           progress=None) -> SiteData:
    say = progress or (lambda stage: None)
    log = ErrorLog(root)
    say("rescore")
    results = rescore(root, None, log, None, jobs)
    if log.errors:
        raise BuildError("input errors:\n" + "\n".join(str(e) for e in log.errors))
    if not results:
        raise BuildError(f"no suite found under {root / 'content' / 'suites'}")
    say("gate")
    for res in results:
        res.agreement = _gate(res)
    reason = draft_reason([res.agreement for res in results])
    if reason and not draft:
        raise BuildError(f"refusing to publish: {reason.removeprefix('draft: ')} "
                         "(see build/rescore/<suite>/agreement.json; --draft builds a marked draft)")
    write_outputs(root / "build" / "rescore", results)
    suites = []
    for res in results:
        say("stats")
        name = res.suite.name
        inputs = load_suite_data(root, name, root / "build" / "rescore")
        doc = compute(inputs, resamples or suite_resamples(root, name))
        stats_path = write_stats(doc, root / "build" / "stats")
        say("index")
        balance_path = res.suite.root / "balance.json"
        balance = json.loads(balance_path.read_text(encoding="utf-8")) if balance_path.is_file() else None
        data = SuiteData(res, scorer_module(res.suite.scorer), doc, res.agreement, balance,
                         root / "build" / "rescore" / name, stats_path,
                         public_items=[i for i in res.items if i.half == "public"])
        _index_public(data)
        suites.append(data)
    suites.sort(key=lambda sd: (sd.suite.order, sd.suite.name))  # the flagship first
    say("content")
    from ..commit.page import commitments_context

    commitments = commitments_context(root) if (root / "content" / "commitments").is_dir() else []
    runs = [r.run for res in results for r in res.runs]
    return SiteData(root, suites, load_pages(root / "content" / "pages"), commitments, build_date(root, runs),
                    reason if draft else None, (sum(r.simulated for r in runs), len(runs)))
