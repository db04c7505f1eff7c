"""Every heavy stage on a Dask cluster (`--scheduler`): the statistics' strata and the item pages run as
tasks beside scoring, on a LocalCluster of 2 worker processes; the outputs are byte-identical to a
local build, and a build combining the cluster and the build cache (warm from a local build, or
warming it for one) is byte-identical too, with the cache's entries reused and no task sent for them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.pipeline.orchestrate import Options, Targets, run
from tests.site_support import build, make_project, missing_node
from tests.test_cache import digests

REPO = Path(__file__).resolve().parents[1]
needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")
PUBLIC_ITEMS = 4  # make_project's public items: one page each


def _done(dask_scheduler) -> dict[str, int]:
    return {name: p.state_counts.get("memory", 0) for name, p in dask_scheduler.task_prefixes.items()}


class Tasks:
    """How many tasks of each kind the cluster computed since `start` (scoring: `task`, a stratum:
    `stratum_task`, a chunk of item pages: `page_chunk`)."""

    def __init__(self, address: str) -> None:
        from distributed import Client

        self.address = address
        with Client(address) as client:
            self.before = client.run_on_scheduler(_done)

    def since(self) -> dict[str, int]:
        from distributed import Client

        with Client(self.address) as client:
            after = client.run_on_scheduler(_done)
        return {k: n - self.before.get(k, 0) for k, n in after.items() if n > self.before.get(k, 0)}


@pytest.fixture()
def caches(monkeypatch):
    """Every build cache a site build opens, to read its counts afterwards, and the kinds of entry each
    missed (`missed`) and wrote (`wrote`)."""
    from generator.pipeline.cache import Cache
    from generator.render import build as build_module

    opened: list[Cache] = []

    class Counted(Cache):
        def __init__(self, *args, **kw) -> None:
            super().__init__(*args, **kw)
            self.missed: set[str] = set()
            self.wrote: set[str] = set()
            opened.append(self)

        def read(self, kind, *args, **kw):
            value = super().read(kind, *args, **kw)
            if value is None:
                self.missed.add(kind)
            return value

        def write(self, kind, *args, **kw):
            self.wrote.add(kind)
            return super().write(kind, *args, **kw)

    monkeypatch.setattr(build_module, "Cache", Counted)
    return opened


# what a build into another folder misses however warm the cache: its last build, and the record of the
# artifacts checked whole (none are when a command scores them: the first command to take them checks them)
NEW_FOLDER = {"site-stamp", "runs-verified"}
# what it writes all the same: that build, which pages it used, and its bookkeeping of files (their digests,
# sealed hashes and page images checked) and artifacts
KEPT = {"site-stamp", "page-index", "runs-verified", "file-digests", "sealed-hashes", "page-checks"}


def reused_all(cache) -> bool:
    return cache.counts.hits > 0 and cache.missed <= NEW_FOLDER and cache.wrote <= KEPT and cache.counts.written <= 2


def test_statistics_on_the_cluster_equal_a_local_run(tmp_path, cluster):
    root = make_project(tmp_path / "p")
    run(root, Options(cache=False, skip_scorer_b=True, resamples=60), Targets(tmp_path / "lr", tmp_path / "local"))
    tasks = Tasks(cluster)
    run(root, Options(cache=False, skip_scorer_b=True, resamples=60, scheduler=cluster),
        Targets(tmp_path / "rr", tmp_path / "remote"))
    assert digests(tmp_path / "local") == digests(tmp_path / "remote")
    strata = json.loads((tmp_path / "local" / "mini" / "stats.json").read_text())["strata"]
    assert len(strata) > 1 and tasks.since().get("stratum_task") == len(strata)


@needs_node
def test_a_site_built_on_the_cluster_equals_a_local_one(tmp_path, cluster, monkeypatch):
    from generator.render import cluster_pages

    monkeypatch.setattr(cluster_pages, "CHUNK", 1)  # one task per item page: both workers render some
    root = make_project(tmp_path / "p")
    build(root, tmp_path / "local", cache=False, resamples=60)
    tasks = Tasks(cluster)
    report = build(root, tmp_path / "remote", cache=False, resamples=60, scheduler=cluster)
    assert digests(tmp_path / "local") == digests(tmp_path / "remote")
    done = tasks.since()
    assert done.get("page_chunk") == PUBLIC_ITEMS and done.get("stratum_task", 0) > 1 and done.get("task", 0) > 1
    assert not report.warnings


@needs_node
def test_a_cluster_build_reuses_a_cache_a_local_build_filled(tmp_path, cluster, caches):
    root = make_project(tmp_path / "p")
    build(root, tmp_path / "local", resamples=60)
    tasks = Tasks(cluster)
    report = build(root, tmp_path / "remote", resamples=60, scheduler=cluster)
    assert not report.up_to_date and report.pages > 0  # another folder: built, not skipped
    assert digests(tmp_path / "local") == digests(tmp_path / "remote")
    assert reused_all(caches[-1]) and report.reused == PUBLIC_ITEMS
    done = tasks.since()  # runs, statistics and item pages all from the cache: nothing sent
    assert not {"task", "stratum_task", "page_chunk"} & set(done)


@needs_node
def test_a_local_build_reuses_a_cache_a_cluster_build_filled(tmp_path, cluster, caches):
    root = make_project(tmp_path / "p")
    tasks = Tasks(cluster)
    build(root, tmp_path / "remote", resamples=60, scheduler=cluster)
    done = tasks.since()
    assert done.get("task", 0) > 1 and done.get("stratum_task", 0) > 1 and done.get("page_chunk", 0) >= 1
    assert caches[-1].counts.written > 0 and {"stats", "stats-pairs"} <= caches[-1].wrote
    report = build(root, tmp_path / "local", resamples=60)
    assert not report.up_to_date and report.pages > 0
    assert digests(tmp_path / "local") == digests(tmp_path / "remote")
    assert reused_all(caches[-1]) and report.reused == PUBLIC_ITEMS


def _sees_nothing(_files) -> bool:  # on a worker: as one that does not share the client's file system
    return False


def test_a_worker_sees_only_the_very_artifact_the_client_wrote(tmp_path):
    from generator.pipeline.artifact import identity_of
    from generator.render.cluster_pages import _sees

    path = tmp_path / "artifact"
    path.write_bytes(b"x")
    identity = identity_of(path.stat())
    assert _sees([(str(path), identity)])
    assert not _sees([(str(path), identity[:2] + (identity[2] + 1,) + identity[3:])])  # another file there
    assert not _sees([(str(tmp_path / "absent"), identity)])


@needs_node
def test_item_pages_are_rendered_here_when_workers_cannot_see_the_files(tmp_path, cluster, monkeypatch):
    from generator.render import cluster_pages

    monkeypatch.setattr(cluster_pages, "_sees", _sees_nothing)
    root = make_project(tmp_path / "p")
    build(root, tmp_path / "local", cache=False, resamples=60)
    tasks = Tasks(cluster)
    report = build(root, tmp_path / "remote", cache=False, resamples=60, scheduler=cluster)
    assert digests(tmp_path / "local") == digests(tmp_path / "remote")
    assert "page_chunk" not in tasks.since() and tasks.since().get("stratum_task", 0) > 1
    assert any("rendered here, not on the Dask cluster" in w for w in report.warnings)


@needs_node
def test_cached_runs_scorer_b_never_checked_are_checked_by_a_cluster_build(tmp_path, cluster):
    import shutil

    root = make_project(tmp_path / "p")
    build(root, tmp_path / "local", resamples=60)
    shutil.rmtree(root / "build" / "cache" / "checked")  # which artifacts scorer B agreed with: forgotten
    tasks = Tasks(cluster)
    build(root, tmp_path / "remote", resamples=60, scheduler=cluster)
    assert "task" not in tasks.since()  # the runs from the cache, scorer B reading them on the client
    assert digests(tmp_path / "local") == digests(tmp_path / "remote")  # agreement.json: as many compared
    assert (root / "build" / "cache" / "checked").is_dir()  # and recorded again


def test_a_site_build_without_the_option_imports_no_dask(tmp_path):
    root = make_project(tmp_path / "p")
    code = ("import sys\nfrom click.testing import CliRunner\nfrom generator.cli import main\n"
            f"result = CliRunner().invoke(main, ['site', 'build', '--root', {str(root)!r}, '-q', '--draft', "
            "'--skip-scorer-b', '--resamples', '100', '--jobs', '2'])\n"
            "print(result.exit_code, sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed'}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert out.stdout.strip().splitlines()[-1] == "0 []", out.stdout + out.stderr
    assert (root / "site" / "index.html").is_file()


@needs_node
def test_pages_rendered_on_the_cluster_keep_their_shells(tmp_path, cluster):
    """The shells the workers make (render/shells.py) are kept by the client; after a run is added, the
    workers put each page together around the shell the client sends them: none is made again, and the
    site equals a clean local build."""
    from tests.site_support import add_run

    root = make_project(tmp_path / "p")
    build(root, tmp_path / "first", resamples=60, scheduler=cluster)
    shells = root / "build" / "cache" / "pages" / "mini+shells"
    first = {p.name: p.stat().st_mtime_ns for p in shells.iterdir()}
    assert len(first) == PUBLIC_ITEMS
    add_run(root, "mini")
    tasks = Tasks(cluster)
    build(root, tmp_path / "added", resamples=60, scheduler=cluster)
    assert tasks.since().get("page_chunk", 0) >= 1  # the pages that show the new run: rendered there
    assert {p.name: p.stat().st_mtime_ns for p in shells.iterdir()} == first  # none made again
    assert digests(tmp_path / "added") == digests(build(root, tmp_path / "clean", cache=False, resamples=60).out)
