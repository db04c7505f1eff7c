"""Nothing changed, nothing to build: a site build with the build cache first compares what the site is
made from with what the last successful build into the same folder was made from, and stops there
when both are the same and the site (with build/rescore and build/stats) is as that build left it.

What the site is made from (`Inputs`): the options that change its bytes (output folder, --draft,
--resamples, --skip-scorer-b, SOURCE_DATE_EPOCH), Python's version, the versions of every installed
distribution, Node.js's version (scorer B), Tally's own sources and templates, the source folders of
every registered suite plugin, and the project's content/, results/, private/ and tally.toml. Each file
counts by its SHA-256. A symbolic link or special file in content/ or results/ (which the build
refuses, inputs/links.py) makes the inputs never up to date: nothing is hashed through a link. Hashing
every stored response on each build would cost as much as a good part of the build on a large
leaderboard, so a file's hash is taken again only when its size, modification time, change time or
inode differ from the last build's record (the change time can't be set back by hand, so a same-size
edit whose modification time was restored is still seen); a file changed less than two seconds
before it was hashed is hashed again next time whatever its times say (two writes within one tick of
the file system's clock would otherwise look alike).

The output check lists every file of the site folder, build/rescore and build/stats with its size,
modification time and inode: a file added, removed, edited or replaced since the build means a build.
The record is a build cache entry (site-stamp/<output folder's hash>/last), kept only after a build
succeeded, with the build's report (page and file counts, draft status, warnings) to give again.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from importlib.metadata import distributions
from pathlib import Path

from ..inputs.links import input_problems
from ..pipeline.cache import Cache, _files, plugin_folder
from ..pipeline.crosscheck import ScorerBUnavailable, node_version
from ..suite.plugins import load_registry, plugin_folders

FORMAT = 1
KIND = "site-stamp"
PACKAGE = Path(__file__).resolve().parents[1]  # generator/
CODE = (PACKAGE, PACKAGE.parent / "templates", PACKAGE.parent / "scorer-js")
SETTLED_NS = 2_000_000_000  # a file changed this recently before hashing is hashed again next time


def _walk(base: Path) -> list[Path]:
    """Every file under `base` (or `base` itself), in a stable order, skipping Python's byte caches."""
    return [base] if base.is_file() else _files(base)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


class Inputs:
    """The hash of everything a site build reads, from `known` (path -> [size, mtime, ctime, inode,
    sha256, settled]) where a file's times say it has not changed."""

    def __init__(self, root: Path, options: dict, known: dict[str, list]) -> None:
        self.files: dict[str, list] = {}
        now = time.time_ns()
        refused = next(input_problems(root), None)
        if refused is not None:  # a link in content/ or results/: never up to date (the build refuses it)
            self.key = f"refused {refused[0]} {now}"
            return
        h = hashlib.sha256(f"tally-site-inputs {FORMAT}\0{sys.version}\0".encode())
        h.update(repr(sorted(options.items())).encode())
        h.update(f"\0SOURCE_DATE_EPOCH={os.environ.get('SOURCE_DATE_EPOCH')}\0".encode())
        versions = sorted(f"{d.metadata['Name']}=={d.version}" for d in distributions())
        h.update("\n".join(versions).encode())
        if not options.get("skip_scorer_b"):
            try:
                h.update(f"\0node {node_version()[1]}\0".encode())
            except ScorerBUnavailable as exc:
                h.update(f"\0no node: {exc}\0".encode())
        for label, base in self._sources(root):
            for path in _walk(base):
                h.update(f"{label}\0{path.relative_to(base) if path != base else path.name}\0".encode(
                    "utf-8", "surrogateescape"))
                h.update(self._hash(path, known, now).encode())
        self.key = h.hexdigest()

    @staticmethod
    def _sources(root: Path) -> list[tuple[str, Path]]:
        out = [(f"code:{p.name}", p) for p in CODE]
        try:
            registry = load_registry(root)
        except Exception as exc:  # noqa: BLE001  # the build says what is wrong; never up to date then
            out.append((f"plugins unreadable: {exc}\0{time.time_ns()}", root))
        else:
            for name, plugin in sorted(registry.suites.items()):
                folder = plugin_folder(plugin)
                if folder != PACKAGE and PACKAGE not in folder.parents:
                    out.append((f"plugin:{name}", folder))
                out += [(f"scorer-b:{name}", s) for s in plugin.scorer_b.scripts]
            out += [(f"plugin folder:{k}", folder) for k, folder in enumerate(plugin_folders(root))]
        return out + [(name, root / name) for name in ("tally.toml", "content", "results", "private")]

    def _hash(self, path: Path, known: dict[str, list], now: int) -> str:
        if str(path) in self.files:  # named twice (a suite's scorer B script is also in its folder)
            return self.files[str(path)][4]
        try:
            st = path.stat()
        except OSError:
            return "unreadable"
        sig = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        before = known.get(str(path))
        if before is not None and before[:4] == sig and before[5]:
            sha = before[4]
        else:
            try:
                sha = _sha256(path)
            except OSError:
                return "unreadable"
        settled = max(st.st_mtime_ns, st.st_ctime_ns) < now - SETTLED_NS
        self.files[str(path)] = [*sig, sha, settled]
        return sha


def outputs(root: Path, out: Path) -> list[list]:
    """Every file the build leaves: the site and the rescore and statistics outputs."""
    listing: list[list] = []
    for label, base in (("site", out), ("rescore", root / "build" / "rescore"), ("stats", root / "build" / "stats")):
        for path in _walk(base) if base.is_dir() else []:
            try:
                st = path.lstat()
            except OSError:
                continue
            listing.append([label, str(path.relative_to(base)), st.st_size, st.st_mtime_ns, st.st_ino])
    return listing


class Stamp:
    """The record of the last successful build into `out`, and the check against it."""

    def __init__(self, cache: Cache, root: Path, out: Path, options: dict) -> None:
        self.cache, self.root, self.out = cache, root, out.resolve()
        self.options = dict(options, out=str(self.out))
        self.slot = hashlib.sha256(str(self.out).encode("utf-8", "surrogateescape")).hexdigest()[:32]
        previous = cache.read(KIND, self.slot, "last")
        self.previous = previous if isinstance(previous, dict) and previous.get("format") == FORMAT else None
        known = self.previous["files"] if self.previous is not None else {}
        self.inputs = Inputs(root, self.options, known)

    def unchanged(self) -> dict | None:
        """The last build's report when nothing it was made from changed and its outputs are intact."""
        p = self.previous
        if p is None or p["key"] != self.inputs.key or p["outputs"] != outputs(self.root, self.out):
            return None
        return p["report"]

    def record(self, report: dict) -> None:
        """After a build that succeeded: what it was made from (as hashed before it began) and left."""
        self.cache.write(KIND, self.slot, "last", {
            "format": FORMAT, "key": self.inputs.key, "files": self.inputs.files,
            "outputs": outputs(self.root, self.out), "report": report})

    def forget(self) -> None:
        (self.cache.folder / KIND / self.slot / "last").unlink(missing_ok=True)
