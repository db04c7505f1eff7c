"""The one orchestrator (generator/pipeline/orchestrate.py): `tally stats` uses the build cache as `tally rescore`
and `tally site build` do, shares the statistics with the site build, takes --no-cache and
--scheduler, and its outputs are byte-identical whichever way they were computed."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.stats import engine
from tests.site_support import build, make_project, missing_node

needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


def digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


class Computed:
    """Counts the suites whose statistics the engine computes (not taken from the cache)."""

    def __init__(self, monkeypatch) -> None:
        self.suites: list[str] = []
        original = engine.compute

        def compute(data, *args, **kw):
            self.suites.append(data.suite.name)
            return original(data, *args, **kw)

        monkeypatch.setattr(engine, "compute", compute)


def stats(root: Path, *extra: str) -> dict[str, str]:
    """`tally stats` on the project; the digests of build/stats and build/rescore it wrote."""
    result = CliRunner().invoke(main, ["stats", "--root", str(root), "--resamples", "200", "-q", "-j", "1", *extra])
    assert result.exit_code == 0, result.output
    return {f"{kind}/{k}": v for kind in ("stats", "rescore") for k, v in digests(root / "build" / kind).items()}


@needs_node
def test_stats_uses_the_cache_and_no_cache_computes_the_same_bytes(tmp_path, monkeypatch):
    root = make_project(tmp_path / "p")
    computed = Computed(monkeypatch)
    first = stats(root)
    assert computed.suites == ["mini"] and (root / "build" / "cache" / "stats" / "mini").is_dir()
    again = stats(root)
    assert computed.suites == ["mini"]  # from the cache: nothing computed
    assert again == first
    fresh = stats(root, "--no-cache")
    assert computed.suites == ["mini", "mini"] and fresh == first
    # a changed input is computed again (the statistics' key covers every run's key)
    meta = root / "results" / "mini" / "rules-local" / "run.json"
    meta.write_text(json.dumps(json.loads(meta.read_text()) | {"description": "changed"}), encoding="utf-8")
    stats(root)
    assert computed.suites == ["mini"] * 3


@needs_node
def test_stats_and_the_site_build_share_the_cache(tmp_path, monkeypatch):
    root = make_project(tmp_path / "p")
    computed = Computed(monkeypatch)
    report = build(root, tmp_path / "site", resamples=200)
    assert computed.suites == ["mini"]
    built = {k: v for k, v in digests(root / "build").items() if k.startswith(("stats/", "rescore/"))}
    assert stats(root) == built and computed.suites == ["mini"]  # the site build's statistics, from the cache
    # and the other way round: statistics computed by `tally stats` are the site build's
    shutil.rmtree(root / "build")
    stats(root)
    assert computed.suites == ["mini", "mini"]
    again = build(root, tmp_path / "site-again", resamples=200)
    assert computed.suites == ["mini", "mini"]
    assert digests(tmp_path / "site") == digests(tmp_path / "site-again") and again.files == report.files


@needs_node
def test_a_changed_run_s_operations_alone_are_computed_again(tmp_path, monkeypatch):
    """Each run group's operations figures are kept in the build cache under its runs' keys
    (stats/run_memo.py): when one run changes, only its group's are computed again, the others read
    back, and the statistics are the same bytes as computed with no cache at all."""
    from generator.stats import run_memo

    root = make_project(tmp_path / "p")
    groups: list[str] = []
    original = run_memo.operations

    def operations(calls, prices, hosting):
        rows = list(calls)
        groups.append(rows[0]["run"] if rows else "")
        return original(rows, prices, hosting)

    monkeypatch.setattr(run_memo, "operations", operations)
    stats(root)
    first = sorted(groups)
    assert len(first) >= 3 and (root / "build" / "cache" / run_memo.KIND / "mini").is_dir()
    meta = root / "results" / "mini" / "rules-local" / "run.json"
    data = json.loads(meta.read_text())
    meta.write_text(json.dumps(data | {"prices": {"input_per_mtok": "1.5", "output_per_mtok": "2", "currency": "USD"}}),
                    encoding="utf-8")
    groups.clear()
    cached = stats(root)
    assert groups == ["rules-local"]  # the changed run's group alone
    entries = sorted(p.name for p in (root / "build" / "cache" / run_memo.KIND / "mini").iterdir())
    assert len(entries) == len(first)  # the changed group's old entry pruned
    groups.clear()
    assert stats(root, "--no-cache") == cached and sorted(groups) == first
    doc = json.loads((root / "build" / "stats" / "mini" / "stats.json").read_text())
    assert doc["operations"]["rules-local"]["cost_per_1000_documents"] is not None


@needs_node
def test_a_refused_site_build_leaves_no_outputs(tmp_path):
    from generator.render.context import slug
    from generator.render.gather import BuildError

    root = make_project(tmp_path / "p")
    metas = sorted((root / "results" / "mini").glob("*/run.json"))
    for meta, model in ((metas[0], "Same Name"), (metas[-1], slug("Same Name"))):  # two models whose pages would be one
        meta.write_text(json.dumps(json.loads(meta.read_text()) | {"model": model}), encoding="utf-8")
    with pytest.raises(BuildError, match="would share the page"):
        build(root, tmp_path / "site")
    assert not list((root / "build").glob(".site-outputs-*")) and not (root / "build" / "stats").exists()


@needs_node
def test_stats_on_a_cluster_equal_a_local_run(tmp_path):
    distributed = pytest.importorskip("distributed")
    root = make_project(tmp_path / "p")
    local = stats(root, "--no-cache")
    shutil.rmtree(root / "build")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        remote = stats(root, "--scheduler", cluster.scheduler_address)
    assert remote == local


@needs_node
def test_stats_in_two_processes_equal_one(tmp_path, monkeypatch):
    """With -j 2 the strata are computed by forked processes (stats/processes.py): stats.json and the
    rescore outputs are the same bytes as in one process, with the cache and without it."""
    import os

    from generator.stats import processes

    root = make_project(tmp_path / "p")
    one = stats(root, "--no-cache")
    shutil.rmtree(root / "build")
    pids = tmp_path / "pids"
    original = processes._stratum

    def recorded(data, st, *args):
        with pids.open("a") as fh:
            fh.write(f"{os.getpid()}\n")
        return original(data, st, *args)

    monkeypatch.setattr(processes, "_stratum", recorded)
    result = CliRunner().invoke(main, ["stats", "--root", str(root), "--resamples", "200", "-q", "-j", "2"])
    assert result.exit_code == 0, result.output
    two = {f"{kind}/{k}": v for kind in ("stats", "rescore") for k, v in digests(root / "build" / kind).items()}
    assert two == one
    seen = set(pids.read_text().split())
    assert len(seen) >= 1 and str(os.getpid()) not in seen  # every stratum computed in a forked process
    shutil.rmtree(root / "build")
    pids.unlink()
    result = CliRunner().invoke(main, ["stats", "--root", str(root), "--resamples", "200", "-q", "-j", "2", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert {f"{kind}/{k}": v for kind in ("stats", "rescore") for k, v in digests(root / "build" / kind).items()} == one
