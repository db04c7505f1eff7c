"""The item pages rendered on a Dask cluster (`tally site build --scheduler`): one task per chunk of
CHUNK deferred pages, in place of the processes `--jobs` forks.

The client first takes every page it can from the build cache (Writer.reuse: workers never touch the
cache); the others are sent as chunks. The site's data (what every page shows: build.Writer renders
with it) is scattered to every worker once per build, each batch of pages (one suite's) once per
batch, with the shells of its pages the client found in the build cache (render/shells.py); a task
makes and renders its chunk's pages (Writer.made) and sends back their bytes, which the client writes
and keeps in the cache exactly as a local build does (Writer.keep), in the pages' order, and the shells
it made, which the client keeps. At most two tasks per worker thread are in flight or waiting to be taken.

An item page reads its runs' stored lines and verdicts from their artifacts (the build cache, or a
temporary folder of the client) and the suite's page images from the project: the workers must see
the client's files at the same paths as the very same files (device and inode, as an artifact is
always opened: in practice workers on the client's machine, such as a LocalCluster).
Before the first task every worker is asked whether it does (it opens one artifact of each suite,
checked to be the very file the client wrote); when one does not, the pages are rendered here as
without `--scheduler`, and the build says so in a warning. Imported only with `--scheduler`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from ..pipeline.distributed import Cluster, in_order
from .build import CHUNK, Writer
from .gather import SiteData
from .pages import Deferred
from .sections import flush_all
from .shells import Shell, cached_shell, keep_shell

_RENDERING = threading.Lock()  # on a worker: one chunk at a time (the pages share the runs' open artifacts)


class _Shared:
    """The site's data as a worker renders with it (one object: scattered whole, not item by item)."""

    def __init__(self, site: SiteData, plotly_links: list[dict]) -> None:
        self.site, self.plotly_links = site, plotly_links
        self._writer: Writer | None = None

    def __getstate__(self) -> dict:
        return {"site": self.site, "plotly_links": self.plotly_links, "_writer": None}

    def writer(self) -> Writer:
        """On a worker: the writer rendering pages (made once; it writes nothing itself)."""
        if self._writer is None:
            writer = Writer(self.site, Path("."))
            writer.plotly_links = self.plotly_links
            self._writer = writer
        return self._writer


class _Batch:
    """A batch of deferred pages (one object: scattered whole), with the shells of those the client found
    in the build cache (render/shells.py), by page path."""

    def __init__(self, pages: list[Deferred], shells: dict[str, Shell]) -> None:
        self.pages, self.shells = pages, shells


def page_chunk(shared: tuple[_Shared, _Batch], bounds: tuple[int, int]) -> list[tuple[bytes, Shell | None]]:
    """On a worker: the bytes of pages[start:stop] of the batch, each made and rendered (around its shell
    when the client sent one), each with the shell made here, if any, for the client to keep."""
    site, batch = shared
    with _RENDERING:
        writer = site.writer()
        writer.shells_given, writer.shells_made = batch.shells, {}
        pages = batch.pages[bounds[0]:bounds[1]]
        made = [(writer.made(d), writer.shells_made.pop(d.path, None)) for d in pages]
        flush_all()  # the item pages' sections made here, kept in the client's build cache (the same files)
        return made


def _sees(files: list[tuple[str, tuple]]) -> bool:
    """On a worker: whether each (artifact, identity) opens here as the very file the client wrote."""
    from ..pipeline.artifact import open_checked

    try:
        for path, identity in files:
            open_checked(Path(path), identity).close()
    except Exception:  # noqa: BLE001 - absent, another file, unreadable: not the client's file system
        return False
    return True


class ClusterPages:
    """Where a site build sends its deferred pages when it has a scheduler."""

    def __init__(self, scheduler: str, writer: Writer, warnings: list[str]) -> None:
        self.writer, self.warnings = writer, warnings
        self.cluster = Cluster(scheduler, [sd.plugin for sd in writer.site.suites])
        self._shared = None  # the site's data, scattered on first use
        self._usable: bool | None = None

    def usable(self) -> bool:
        """Whether every worker sees this machine's files (asked once)."""
        if self._usable is None:
            files = [(str(r.path), r.identity) for sd in self.writer.site.suites for r in sd.result.runs[:1]]
            answers = self.cluster.client().run(_sees, files)
            self._usable = bool(answers) and all(answers.values())
            if not self._usable:
                self.warnings.append("the item pages were rendered here, not on the Dask cluster: its workers "
                                     "do not see this machine's files (the runs' artifacts) at the same paths")
        return self._usable

    def write(self, pages: list[Deferred], done: Callable[[int], None],
              here: Callable[[list[Deferred]], None]) -> None:
        """Write `pages`: each from the build cache when it is there, the others rendered on the cluster
        (`here(pages)` renders them on this machine instead when the workers cannot)."""
        todo: list[tuple[Deferred, str | None]] = []
        for d in pages:
            reused, key = self.writer.reuse(d)
            if reused:
                done(1)
            else:
                todo.append((d, key))
        if not todo:
            return
        if not self.usable():
            here([d for d, _ in todo])
            return
        client = self.cluster.client()
        if self._shared is None:
            self._shared = client.scatter(_Shared(self.writer.site, self.writer.plotly_links), broadcast=True,
                                          hash=False)
        shells = {d.path: shell for d, _ in todo if (shell := cached_shell(self.writer, d)) is not None}
        batch = client.scatter(_Batch([d for d, _ in todo], shells), broadcast=True, hash=False)
        bounds = [(k, min(k + CHUNK, len(todo))) for k in range(0, len(todo), CHUNK)]
        try:
            for (start, stop), chunk in zip(bounds, in_order(client, page_chunk, (self._shared, batch), bounds),
                                            strict=True):
                for (d, key), (data, shell) in zip(todo[start:stop], chunk, strict=True):
                    self.writer.keep(d, key, data)
                    if shell is not None:
                        keep_shell(self.writer, d, shell)
                done(stop - start)
        finally:
            batch.release()

    def close(self) -> None:
        if self._shared is not None:
            self._shared.release()
            self._shared = None
        self.cluster.close()
