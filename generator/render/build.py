"""`tally site build`: phase 1 gathers everything (gather.py), phase 2 writes the pages into a fresh
folder next to the site and swaps it in, so a failed build leaves the previous site untouched."""

from __future__ import annotations

import contextlib
import fcntl
import multiprocessing as mp
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from itertools import chain
from pathlib import Path

from ..atomic import swap_in
from ..commit.sealed_memo import remembered
from ..errors import TallyError
from ..folders import check_project_outputs
from ..pipeline.cache import Cache
from ..pipeline.forked import fork_pool
from ..pipeline.forked import stop as stop_pool
from ..pipeline.memory import peak_mb, release_freed
from .charts import plotly_file, write_plotly
from .downloads import folders, listing, write_data_files, write_table
from .env import TEMPLATES, make_env, relative
from .facts import site_facts
from .gather import BuildError, SiteData, gather
from .page_cache import PageKeys
from .pages import Deferred, Page, compare, episodes, home, items, models, other, providers, search, suite
from .sections import flush_all
from .shells import Shell, Shelled, keep_unused, shelled_bytes
from .up_to_date import Stamp

SCORER_CORE = Path(__file__).resolve().parents[2] / "scorer-js" / "core.js"
STATIC = ("site.css", "sort.js", "charts.js", "recheck.js", "theme.js", "columns.js", "filters.js", "compare.js", "search.js")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'")


@dataclass
class BuildReport:
    out: Path
    pages: int = 0
    files: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # by stage, in order
    draft: str | None = None
    private_note: str | None = None  # the private half not re-checked: why (gather.private_note)
    warnings: list[str] = field(default_factory=list)
    unchanged: int = 0  # files whose bytes are the previous site's: kept as they were (same inode and time)
    reused: int = 0  # pages written from the build cache, not rendered
    peak_mb: dict[str, float] = field(default_factory=dict)  # by stage: peak memory so far (this process)
    up_to_date: bool = False  # nothing the site is made from changed since the last build: nothing written


def _nav(site: SiteData) -> list[dict]:
    """Eight entries: the suites and the method pages are each one disclosure menu."""
    suites = [{"title": sd.suite.title, "href": f"suites/{sd.suite.name}/index.html"} for sd in site.suites]
    method = [{"title": p.title, "href": p.path} for p in site.pages if p.path.startswith("pages/")]
    method.append({"title": "Agreement of the two scorers", "href": "agreement.html"})
    return [{"title": "Leaderboard", "href": "index.html"}, {"title": "Suites", "children": suites},
            {"title": "Models", "href": "models/index.html"}, {"title": "Providers", "href": "providers/index.html"},
            {"title": "Method", "children": method}, {"title": "Downloads", "href": "downloads/index.html"},
            {"title": "Commitments", "href": "commitments/index.html"}, {"title": "Search", "href": "search.html"}]


class Writer:
    """Renders pages into `target`. With `cache`, a Deferred page whose key is in build/cache/pages/
    is written from there, and a rendered one is kept there (page_cache.py)."""

    def __init__(self, site: SiteData, target: Path, cache: Cache | None = None):
        self.site, self.target, self.env = site, target, make_env()
        self.nav = _nav(site)
        self.pages = 0
        self.reused = 0  # deferred pages written from the cache
        self.plotly_links: list[dict] = []
        self.cache = cache
        self.used: dict[str, dict[str, str]] = {}  # cache group -> key -> hash of the bytes, this build
        self.index: dict[str, dict[str, str]] = {}  # cache group -> the same, of the last build
        self._keys: PageKeys | None = None
        self.shells_given: dict[str, Shell] = {}  # on a cluster's worker: pages' shells the client found (shells.py)
        self.shells_made: dict[str, Shell] = {}  # and those the worker made, for the client to keep

    def render(self, page: Page) -> bytes:
        def rel(target: str) -> str:
            return relative(target, page.path)

        html = self.env.get_template(page.template).render(
            page=page, rel=rel, nav=self.nav, site=self.site, csp=CSP, plotly=f"static/{plotly_file()}",
            plotly_links=self.plotly_links,
            **page.context)
        return html.encode("utf-8", errors="backslashreplace")  # a lone surrogate a model wrote

    def _save(self, path: str, data: bytes) -> None:
        target = self.target / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        self.pages += 1

    def write(self, page: Page | Deferred) -> None:
        if isinstance(page, Deferred):
            self._deferred(page)
            return
        self._save(page.path, self.render(page))
        for table in page.tables:
            if table.export and table.rows:
                write_table(self.target, table)

    def page_keys(self) -> PageKeys:
        if self._keys is None:
            self._keys = PageKeys(self.env, site_context(self.site, self.nav, self.plotly_links))
        return self._keys

    def _deferred(self, d: Deferred) -> None:
        reused, key = self.reuse(d)
        if not reused:
            self.keep(d, key, self.made(d))

    def reuse(self, d: Deferred) -> tuple[bool, str | None]:
        """Whether the deferred page was written from the build cache, and its key there (None: not kept)."""
        key = self.page_keys().key(d.path, d.template, d.key) if self.cache is not None and d.key else None
        if key is not None:
            assert self.cache is not None
            if d.group not in self.index:
                self.index[d.group] = self.cache.page_index(d.group)
            digest = self.index[d.group].get(key)
            found = self.cache.page(d.group, key, digest) if digest else None
            if found is not None:  # the entry itself becomes the page (a hard link), else a copy
                self._link(found[0], d.path, found[1])
                self.used.setdefault(d.group, {})[key] = digest  # type: ignore[assignment]
                self.reused += 1
                keep_unused(self, d)
                return True, key
        return False, key

    def made(self, d: Deferred) -> bytes:
        """The deferred page made and rendered (nothing written: a Dask worker's part, render/cluster_pages.py)."""
        page = d.make()
        if isinstance(page, Shelled):  # the page's bytes from its shell (render/shells.py)
            return shelled_bytes(self, d, page)
        if any(t.export and t.rows for t in page.tables):
            raise AssertionError(f"{d.path}: a deferred page may not export tables (a cached one writes none)")
        return self.render(page)

    def keep(self, d: Deferred, key: str | None, data: bytes) -> None:
        """Write the deferred page's bytes, and keep them in the build cache under `key` (unless None)."""
        self._save(d.path, data)
        if key is not None:
            assert self.cache is not None
            self.used.setdefault(d.group, {})[key] = self.cache.keep_page(d.group, key, self.target / d.path, data)

    def cached_file(self, group: str, key: str | None, path: str, write: Callable[[Path], None]) -> None:
        """A file of the site (not a page) kept in the build cache as the pages are, under `key` (the hash
        of everything its bytes depend on; None: not kept): linked from the cache when it holds it, else
        written by `write(target)` and kept. `group` never names a suite (their pages' groups)."""
        target = self.target / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if self.cache is None or key is None:
            write(target)
            return
        if group not in self.index:
            self.index[group] = self.cache.page_index(group)
        digest = self.index[group].get(key)
        found = self.cache.page(group, key, digest) if digest else None
        if found is not None:
            try:
                os.link(found[0], target)
            except OSError:
                target.write_bytes(found[1])
            self.used.setdefault(group, {})[key] = digest  # type: ignore[assignment]
            return
        write(target)
        self.used.setdefault(group, {})[key] = self.cache.keep_page(group, key, target, target.read_bytes())

    def _link(self, entry: Path, path: str, data: bytes) -> None:
        target = self.target / path
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(entry, target)
        except OSError:
            target.write_bytes(data)
        self.pages += 1

    def write_parallel(self, pages: list[Deferred], jobs: int, done=lambda n: None) -> None:
        """Deferred pages rendered by `jobs` forked processes, each a share of contiguous chunks;
        every page's bytes are what one process would write (files are independent). `done(n)` is
        told of each chunk of n pages written."""
        if jobs <= 1 or len(pages) < 2 * CHUNK or "fork" not in mp.get_all_start_methods():
            for page in pages:
                self.write(page)
                done(1)
            return
        global _FORKED
        if self.cache is not None:
            self.page_keys()  # computed once, inherited
            for group in sorted({d.group for d in pages}):
                self.index.setdefault(group, self.cache.page_index(group))
        bounds = [(k, min(k + CHUNK, len(pages))) for k in range(0, len(pages), CHUNK)]
        _FORKED = (self, pages)
        pool = fork_pool(jobs)
        try:
            for (start, stop), (written, reused, used, problems) in zip(bounds, pool.map(_render_chunk, bounds),
                                                                        strict=True):
                done(stop - start)
                self.pages += written
                self.reused += reused
                for group, keys in used.items():
                    self.used.setdefault(group, {}).update(keys)
                if self.cache is not None:
                    self.cache.counts.problems.extend(problems)
                    self.cache.counts.corrupt += len(problems)
        except BrokenProcessPool:
            raise BuildError("a process rendering pages ended before it was done (killed, out of memory, or an "
                             "error it could not send back): nothing was published; build again, with fewer "
                             "--jobs if memory is short, or with --jobs 1 to see the error") from None
        finally:
            stop_pool(pool)
            _FORKED = None

    def prune(self) -> None:
        """Record the pages of this build (each group's index) and drop the entries no page used."""
        if self.cache is None or not self.used:  # no page was keyed: nothing to tell from
            return
        folder = self.cache.folder / "pages"
        for group in sorted({p.name for p in folder.iterdir()} | set(self.used)) if folder.is_dir() else []:
            used = self.used.get(group, {})
            before = self.index[group] if group in self.index else self.cache.page_index(group)
            if before != used:  # an index as the last build left it is not written again
                self.cache.write("page-index", group, "index", dict(sorted(used.items())))
            self.cache.prune("pages", group, set(used))


CHUNK = 64  # deferred pages per task of a rendering process
_FORKED: tuple[Writer, list[Deferred]] | None = None  # what forked rendering processes inherit


def _render_chunk(bounds: tuple[int, int]) -> tuple[int, int, dict[str, dict[str, str]], list[str]]:
    """In a forked process: write pages[start:stop]; (pages written, from the cache, keys used, problems)."""
    assert _FORKED is not None
    writer, pages = _FORKED
    writer.pages = writer.reused = 0
    writer.used = {}
    for page in pages[bounds[0]:bounds[1]]:
        writer.write(page)
    flush_all()  # the sections this process made, kept before it hands its share back
    problems = writer.cache.take_problems() if writer.cache is not None else []
    return writer.pages, writer.reused, writer.used, problems


def site_context(site: SiteData, nav: list[dict], plotly_links: list[dict]) -> dict:
    """What every page shows of the site as a whole (base.html), for the page cache's keys."""
    # the simulated banner: whether some run is simulated and some is a real model's (not how many)
    return {"nav": nav, "draft": site.draft, "private_note": site.private_note, "private_accepted": site.private_accepted,
            "simulated": list(site.simulated_kinds),
            "attributions": site.attributions,
            "pages": [[p.name, p.title, p.path] for p in site.pages], "csp": CSP, "plotly": plotly_file(),
            "plotly_links": plotly_links}


def _static(target: Path, site: SiteData) -> list[dict]:
    static = target / "static"
    static.mkdir(parents=True)
    for name in STATIC:
        shutil.copyfile(TEMPLATES / "static" / name, static / name)
    shutil.copyfile(SCORER_CORE, static / "core.js")
    for sd in site.suites:  # only the scorer B scripts of the suites on the site
        for k, script in enumerate(sd.plugin.scorer_b.scripts):
            if not script.is_file() and site.draft:  # a draft built without scorer B: no re-check then
                continue
            published = static / scorer_script_path(sd.plugin, k)
            published.parent.mkdir(exist_ok=True)
            shutil.copyfile(script, published)
    links = write_plotly(static)
    from ..commit import CommitError
    from ..commit.publish import publish_commitment_files

    try:  # an allow-list of key and round files; refuses when a private key is in content/ or results/
        publish_commitment_files(site.root, target)
    except CommitError as exc:
        raise BuildError(str(exc)) from None
    return links


def page_parts(site: SiteData, cache: Cache | None = None):
    """The pages in writing order, as (stage, suite or None, planned page count or None, pages): one
    part per suite where a stage's pages are per suite. A None count: the pages are listed first.
    `cache`: the build cache item pages keep their runs' sections in (render/sections.py)."""
    facts = site_facts(site)
    paged = items.paged_names(site)
    yield "pages: leaderboards", None, None, home.pages(site)
    for sd in site.suites:
        main = list(suite.suite_pages(sd, facts))  # the compare and stratum pages are made one at a time as written
        yield ("pages: leaderboards", sd.suite.name, len(main) + compare.page_count(sd) + len(sd.stats["strata"]),
               chain(_drained(main), compare.compare_pages(sd), suite.stratum_pages(sd, facts)))
    yield "pages: providers and models", None, None, chain(providers.pages(site), models.pages(site))
    for sd in site.suites:
        yield "pages: public items", sd.suite.name, items.page_count(sd), items.suite_pages(sd, paged, cache)
        if episodes.page_count(sd):
            yield "pages: public items", sd.suite.name, episodes.page_count(sd), episodes.suite_pages(sd)
    yield "pages: prose, agreement, commitments, search", None, None, chain(
        other.prose_pages(site), other.agreement_page(site), other.commitments_page(site), search.pages(site))


def _drained(pages: list) -> Iterator:
    """The pages of a list in order, each let go of by the list as it is taken: a page written is not
    kept alive while the pages after it are (a suite page holds its charts and pairwise matrix)."""
    pages.reverse()
    while pages:
        yield pages.pop()


def write_site(site: SiteData, out: Path, report: BuildReport, progress=None, cache: Cache | None = None,
               jobs: int = 1, scheduler: str | None = None) -> None:
    """Write every page into a fresh folder next to `out`, then swap it in. `progress(total, label)`
    (options.progress_factory) shows one bar per stage and suite. With `cache`, deferred pages (item
    pages) come from build/cache/pages/ when their inputs are unchanged; they are rendered by `jobs`
    forked processes, or with `scheduler` as tasks on that Dask cluster (cluster_pages.py)."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-build-", dir=out.parent))
    cluster = None
    try:
        clock = time.perf_counter()
        links = _static(tmp, site)
        writer = Writer(site, tmp, cache)
        writer.plotly_links = links
        if scheduler is not None:
            from .cluster_pages import ClusterPages

            cluster = ClusterPages(scheduler, writer, report.warnings)
        report.seconds["static files"] = time.perf_counter() - clock
        for stage, suite_name, count, made in page_parts(site, cache):
            clock = time.perf_counter()
            if count is None:  # listed first, to be counted; each let go of once written
                made = list(made)
                count = len(made)
                made = _drained(made)
            label = f"{stage} of {suite_name}" if suite_name else stage
            with _counted_bar(progress, count, label) as step:
                deferred: list[Deferred] = []
                for page in made:
                    if isinstance(page, Deferred) and (jobs > 1 or cluster is not None):
                        deferred.append(page)
                    else:
                        writer.write(page)
                        step(1)
                if cluster is not None:
                    cluster.write(deferred, step, lambda pages: writer.write_parallel(pages, jobs, step))
                else:
                    writer.write_parallel(deferred, jobs, step)
                flush_all()  # the sections made here (not in forked processes or on workers)
            report.seconds[stage] = report.seconds.get(stage, 0.0) + time.perf_counter() - clock
            report.peak_mb[stage] = peak_mb()
            release_freed()
        clock = time.perf_counter()
        for sd in site.suites:  # one suite at a time, so that each gets its bar
            with _bar(progress, f"downloads of {sd.suite.name}"):
                write_data_files(tmp, replace(site, suites=[sd]), writer.cached_file, cache)
        files = listing(tmp)
        writer.write(Page("downloads/index.html", "downloads.html", "Downloads", {"files": files, "folders": folders(files)}, [], ()))
        report.seconds["downloads"] = time.perf_counter() - clock
        report.peak_mb["downloads"] = peak_mb()
        writer.prune()
        if cache is not None:
            report.warnings.extend(cache.take_problems())
        report.pages = writer.pages
        report.reused = writer.reused
        report.files = sum(1 for p in tmp.rglob("*") if p.is_file())
        report.unchanged = keep_unchanged(tmp, out)
        _swap(tmp, out)
    finally:
        if cluster is not None:
            cluster.close()
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def _counted_bar(progress, total: int, label: str):
    """A bar of `total` steps; yields the function that advances it (does nothing when quiet)."""
    if progress is None:
        yield lambda n: None
        return
    with progress(total, label) as bar:
        yield bar.update


@contextlib.contextmanager
def _bar(progress, label: str):
    """A one-step bar for a step whose size is not known ahead (nothing when quiet)."""
    if progress is None:
        yield
        return
    with progress(1, label) as bar:
        yield
        bar.update(1)


def keep_unchanged(fresh: Path, old: Path) -> int:
    """Every file of `fresh` whose bytes equal the same file of `old` becomes that file again (a hard
    link, else the old modification time), so that only changed pages look new to a static host's
    sync. Returns how many were kept."""
    if not old.is_dir():
        return 0
    kept = 0
    for path in fresh.rglob("*"):
        before = old / path.relative_to(fresh)
        if not path.is_file() or path.is_symlink() or not before.is_file() or before.is_symlink():
            continue
        info, now = before.stat(), path.stat()
        if os.path.samestat(info, now):  # the same file (a page linked from the build cache): kept as it is
            kept += 1
            continue
        if info.st_size != now.st_size or before.read_bytes() != path.read_bytes():
            continue
        link = path.with_name(f".{path.name}.link")
        try:
            os.link(before, link)
            os.replace(link, path)
        except OSError:  # no hard links here: the old time tells a sync the file is unchanged
            link.unlink(missing_ok=True)
            info = before.stat()
            os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
        kept += 1
    return kept


def _swap(tmp: Path, out: Path) -> None:
    os.chmod(tmp, 0o755)
    swap_in(tmp, out)


def scorer_script_path(plugin, k: int) -> str:
    """Where a suite's k-th scorer B script is published, relative to static/."""
    return f"suites/{plugin.name}{'' if k == 0 else '-' + str(k)}.js"


def build_site(root: Path, out: Path | None = None, draft: bool = False, resamples: int | None = None,
               jobs: int = 1, progress=None, skip_scorer_b: bool = False, cache: bool = True,
               scheduler: str | None = None, accept_sealed: bool = False) -> BuildReport:
    """Build the site of the project at `root` into `out` (default ROOT/site).

    Refuses (BuildError) when the scorers disagree or scorer B did not run, unless `draft`: then
    every page is marked as a draft and says why. Sealed private records whose full records are not
    here (private storage) make a draft that says why, unless `accept_sealed`: then every page says
    they are published as stored. `resamples` overrides the suites' setting.
    `progress(total, label)` shows bars (options.progress_factory), one per stage and suite.
    With `cache`, unchanged runs and statistics come from build/cache/ (generator/pipeline/cache.py); with
    `scheduler`, runs are scored, the statistics' strata computed and the item pages rendered on that
    Dask cluster (generator/pipeline/distributed.py, generator/stats/cluster.py, cluster_pages.py).
    """
    root = Path(root)
    report = BuildReport(Path(out) if out else root / "site")
    check_project_outputs(root, report.out)  # a linked site or build/ would be replaced or pruned outside the project
    with build_lock(root):
        _clean_stale(root, report.out)
        site = None
        store = Cache(root / "build" / "cache") if cache else None
        stamp = None
        clock = time.perf_counter()
        if store is not None:
            stamp = Stamp(store, root, report.out, {"draft": draft, "resamples": resamples,
                                                     "skip_scorer_b": skip_scorer_b, "accept_sealed": accept_sealed})
            if (last := stamp.unchanged()) is not None:
                report.up_to_date = True
                report.pages, report.files, report.unchanged = 0, last["files"], last["files"]
                report.draft, report.warnings = last["draft"], list(last["warnings"])
                report.private_note = last.get("private_note")
                report.seconds["checking what changed"] = time.perf_counter() - clock
                return report
            stamp.forget()
        checked = time.perf_counter() - clock
        try:
            with remembered(store):  # files' sealed hashes and private-key searches: the cache's record
                site = gather(root, draft, resamples, jobs, progress, skip_scorer_b, store, scheduler, accept_sealed)
                report.seconds = ({"checking what changed": checked} if stamp is not None else {}) | site.seconds
                report.peak_mb |= site.peak_mb
                report.peak_mb["gather"] = peak_mb()
                report.draft, report.private_note = site.draft, site.private_note
                report.warnings = list(site.warnings)
                write_site(site, report.out, report, progress, store, jobs, scheduler)
                if site.staging is not None:  # the outputs of a build that succeeded, and only of one
                    for name in ("rescore", "stats"):
                        swap_in(site.staging / name, root / "build" / name)
                if stamp is not None:
                    # what a later build with nothing changed says again (not the cache's own problems)
                    stamp.record({"files": report.files, "draft": report.draft, "warnings": list(site.warnings),
                                  "private_note": report.private_note})
        finally:
            if site is not None and site.staging is not None:
                shutil.rmtree(site.staging, ignore_errors=True)
            shutil.rmtree(root / "build" / "public", ignore_errors=True)  # the public lines the pages read
    return report


@contextlib.contextmanager
def build_lock(root: Path):
    """One site build at a time per project (build/.site-build.lock, held while the build runs)."""
    (root / "build").mkdir(parents=True, exist_ok=True)
    path = root / "build" / ".site-build.lock"
    with path.open("a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise TallyError(f"another `tally site build` is running on this project ({path} is locked); "
                             "wait for it to finish") from None
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _clean_stale(root: Path, out: Path) -> None:
    """Folders a killed build left behind (safe to remove: the lock says no build is running)."""
    stale = list((root / "build").glob(".site-outputs-*")) + list((root / "build").glob(".rescore-*"))
    stale += list(out.resolve().parent.glob(f".{out.name}-build-*")) if out.resolve().parent.is_dir() else []
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)
