"""Shared helpers: a tiny project on disk (suite, items, runs) that tests can break in one place."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from tests import shared_builds

# The build cache's key (generator/pipeline/cache.py) lives in the user's home; the tests keep theirs in a
# temporary folder of their own, made once per test session and shared with the commands they start.
os.environ.setdefault("TALLY_CACHE_SECRET_FILE", os.path.join(tempfile.mkdtemp(prefix="tally-test-key-"), "cache.key"))

SUITE_TOML = """\
name = "extracting"
title = "Extracting"
version = "0.3"
scorer = "extracting"
reference_date = "2026-10-20"
strata = ["dataset", "half", "locale"]

[[datasets]]
id = "receipts"
title = "Receipts"

[[datasets]]
id = "invoices"
title = "Invoices"
"""


def make_item(item_id: str, dataset: str, half: str, locale: str = "en-US") -> dict:
    return {
        "id": item_id, "dataset": dataset, "half": half, "strata": {"locale": locale},
        "document": {"text": "Total 1,234.56", "locale": locale, "currency": "USD", "reference_date": "2026-10-20"},
        "fields": [
            {"name": "total", "type": "money", "kind": "printed", "answer": "1234.56"},
            {"name": "date", "type": "date", "kind": "computed", "answer": "2026-03-14"},
            {"name": "tax_id", "type": "identifier", "kind": "missing", "answer": None},
        ],
    }


def chat_record(item: str, content: str | None, repeat: int = 0, status: int = 200) -> dict:
    return {
        "item": item, "repeat": repeat, "request": {"model": "m", "messages": []},
        "attempts": [{"start": "2026-11-01T00:00:00Z", "status": status, "error": None, "latency_ms": 100.0}],
        "response": {"object": "chat.completion", "model": "m",
                     "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                  "finish_reason": "stop"}],
                     "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}},
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}, "latency_ms": 100.0,
    }


def run_meta(run_id: str, **extra) -> dict:
    meta = {"format": 1, "suite": "extracting", "run_id": run_id, "model": "m", "provider": "p",
            "hosting": "hosted", "simulated": True, "started": "2026-11-01T00:00:00Z", "half": "both"}
    meta.update(extra)
    return meta


def write_jsonl(path: Path, rows: list) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


class Project:
    def __init__(self, root: Path):
        self.root = root
        self.suite_dir = root / "content" / "suites" / "extracting"
        self.suite_dir.mkdir(parents=True)
        (self.suite_dir / "suite.toml").write_text(SUITE_TOML, encoding="utf-8")
        self.items = {
            "receipts.public": [make_item("r-pub-1", "receipts", "public"), make_item("r-pub-2", "receipts", "public", "de-DE")],
            "receipts.private": [make_item("r-prv-1", "receipts", "private")],
            "invoices.public": [make_item("i-pub-1", "invoices", "public")],
            "invoices.private": [make_item("i-prv-1", "invoices", "private", "fr-FR")],
        }
        for stem, rows in self.items.items():
            write_jsonl(self.suite_dir / "items" / f"{stem}.jsonl", rows)

    def run_dir(self, run_id: str) -> Path:
        return self.root / "results" / "extracting" / run_id

    def add_run(self, run_id: str, records: list[dict], **meta) -> Path:
        d = self.run_dir(run_id)
        d.mkdir(parents=True)
        (d / "run.json").write_text(json.dumps(run_meta(run_id, **meta)), encoding="utf-8")
        write_jsonl(d / "responses.jsonl", records)
        return d


GOOD = '{"total": 1234.56, "date": "2026-03-14", "tax_id": null}'


@pytest.fixture(scope="session", autouse=True)
def _shared_builds_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Where the session's shared builds go (tests/shared_builds.py): the base temporary folder every
    xdist worker's own one sits in (a run without workers: its own), removed with pytest's old runs."""
    base = tmp_path_factory.getbasetemp()
    shared_builds.ROOT = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-builds"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


@pytest.fixture(scope="module")
def cluster():
    """A Dask LocalCluster of 2 worker processes on 127.0.0.1 for a test module (its scheduler's address),
    stopped after the module; the module is skipped without dask[distributed]."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as c:
        yield c.scheduler_address
