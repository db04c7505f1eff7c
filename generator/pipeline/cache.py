"""The build cache, build/cache/: content-addressed results that a later rescore or site build reuses.

A run's scorer A results (its artifact, generator/pipeline/artifact.py: `runs/<suite>/<key>`) are kept under
the hash of everything they depend on: the run's stored files, its suite's content folder (items,
suite.toml: the rules), the suite's plugin sources (scorer A's rules) and scorer B scripts, the
shared scorer B core and scorer A's own modules (`suite_key`, `run_key`). A suite's statistics are
kept under the hash of their inputs: the suite key, every run's key, the number of resamples and the
statistics engine's sources (`stats_key`). A change to any of these gives a new key, so nothing that
depends on it is reused; nothing else is invalidated. `checked/<suite>/index` says which runs'
artifacts scorer B agreed with, under which Node.js.

Each entry is one file: the HMAC-SHA256 of its payload, then the payload (`marshal`, plain values only:
nothing is executed when an entry is read; a run's artifact has its own layout, artifact.py). The
HMAC's key is this user's, kept outside every project (`cache_secret`), so an entry that came with a
cloned repository, or was forged with its plain hash recomputed, does not verify: it is never
unmarshalled and never published as if scorer B had agreed with it. An entry whose HMAC does not
match, that is not a regular file or that cannot be read, is counted as corrupt, deleted and
computed again, never trusted. Entries are written through a temporary file and a rename.

Site pages (generator/render/page_cache.py says what their keys cover) are kept differently: the
entry `pages/<suite>/<key>` is the page's bytes themselves, hard-linked into the site (a copy where
links are not possible), and `page-index/<suite>/index` (an entry as above) records the SHA-256 of
each page's bytes; a page whose bytes do not match its recorded hash is corrupt and rendered again.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import inspect
import marshal
import os
import secrets
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ..folders import refuse_links
from ..inputs.results import Run
from ..sealing import private_file_of, revealed_file_of
from .file_status import noted

FORMAT = 6  # bump when an entry's layout changes
GENERATOR = Path(__file__).resolve().parents[1]
ROOT = GENERATOR.parent
# Modules that do not take part in scoring: a change to them keeps the cached runs.
NOT_SCORING = ("render", "stats", "harness", "commit", "example", "audit", "suites")
SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".json", ".toml")


def _files(folder: Path, suffixes: tuple[str, ...] | None = None, skip: tuple[str, ...] = ()) -> list[Path]:
    if not folder.is_dir():
        return []
    out = []
    for path in folder.rglob("*"):
        rel = path.relative_to(folder).parts
        if rel[0] in skip or "__pycache__" in rel or not path.is_file():
            continue
        if suffixes is None or path.suffix in suffixes:
            out.append(path)
    return sorted(out)


def hash_files(h, label: str, paths: Iterable[Path], base: Path | None = None) -> None:
    """Fold each file's name (relative to `base`) and bytes into `h`, in the given order."""
    for path in paths:
        name = str(path.relative_to(base)) if base is not None else path.name
        data = path.read_bytes()
        h.update(f"{label}\0{name}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        h.update(data)


_CODE: dict[str, str] = {}


def code_hash(part: str) -> str:
    """The hash of the sources of one part of Tally ("scoring" or "stats"), once per process."""
    if part not in _CODE:
        h = hashlib.sha256(f"tally-cache {FORMAT} {part} python {sys.version}".encode())
        if part == "scoring":
            hash_files(h, "a", _files(GENERATOR, (".py",), NOT_SCORING), GENERATOR)
            hash_files(h, "b", _files(ROOT / "scorer-js", (".js",)), ROOT / "scorer-js")
        else:
            hash_files(h, part, _files(GENERATOR / part, (".py",)), GENERATOR / part)
        _CODE[part] = h.hexdigest()
    return _CODE[part]


def plugin_folder(plugin: object) -> Path:
    """The folder of the module that defines the suite's plugin class (its rules and scorer B)."""
    return Path(inspect.getfile(type(plugin))).resolve().parent


def suite_key(suite_root: Path, plugin) -> str:
    """What every run of the suite depends on: its content folder (items and rules), its plugin's
    sources, its scorer B scripts, and scorer A's and scorer B's shared code."""
    h = hashlib.sha256(f"suite\0{code_hash('scoring')}\0".encode())
    hash_files(h, "content", _files(suite_root), suite_root)
    folder = plugin_folder(plugin)
    hash_files(h, "plugin", _files(folder, SOURCE_SUFFIXES), folder)
    hash_files(h, "scorer-b", plugin.scorer_b.scripts)
    return h.hexdigest()


def run_key(suite_key: str, run: Run, digest_of: Callable[[Path], str]) -> str:
    """The suite key and the SHA-256 (`digest_of`: file_digests.FileDigests) of every stored file of the
    run folder (run.json, responses.jsonl, ...), with the run's private records: its folder in private
    storage and its round's revealed responses."""
    h = hashlib.sha256(f"run 2\0{suite_key}\0{run.id}\0".encode())

    def fold(label: str, paths: Iterable[Path], base: Path | None) -> None:
        for path in paths:
            name = str(path.relative_to(base)) if base is not None else path.name
            h.update(f"{label}\0{name}\0{digest_of(path)}\n".encode("utf-8", "surrogateescape"))

    folder = run.responses.parent
    fold("run", _files(folder), folder)
    private = private_file_of(run.responses).parent
    fold("private", _files(private), private)
    revealed = revealed_file_of(run.responses)
    fold("revealed", [revealed] if revealed is not None and revealed.is_file() else [], None)
    return h.hexdigest()


def stats_key(suite: str, run_keys: Iterable[str], resamples: int) -> str:
    h = hashlib.sha256(f"stats\0{code_hash('stats')}\0{code_hash('scoring')}\0{suite}\0{resamples}\0".encode())
    for key in run_keys:
        h.update(key.encode() + b"\n")
    return h.hexdigest()


@dataclass
class CacheCounts:
    hits: int = 0
    misses: int = 0
    corrupt: int = 0
    written: int = 0
    problems: list[str] = field(default_factory=list)


class Cache:
    """build/cache/ of one project: `runs/<suite>/<key>` and `stats/<suite>/<key>` entries."""

    def __init__(self, folder: Path) -> None:
        refuse_links(folder, "build cache")  # pruning a linked folder would delete the link's target's files
        self.folder = folder
        self.counts = CacheCounts()

    def take_problems(self) -> list[str]:
        """The corrupt entries met since the last call, each as a message."""
        problems, self.counts.problems = self.counts.problems, []
        return problems

    def _path(self, kind: str, suite: str, key: str) -> Path:
        return self.folder / kind / suite / key

    def open_entry(self, path: Path) -> tuple[BinaryIO, os.stat_result] | None:
        """An entry opened for reading, with its status; None when it is missing (a miss) or not a
        readable regular file (counted corrupt and deleted): a FIFO would block, a link could lead
        anywhere. The caller closes the file."""
        looked = time.time_ns()  # before the file's status: whether it had settled is judged at this time
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except FileNotFoundError:
            self.counts.misses += 1
            return None
        except OSError as exc:
            self.corrupt(path, f"unreadable: {exc}")
            return None
        fh = os.fdopen(fd, "rb")
        st = noted(os.fstat(fd), looked)
        if not stat.S_ISREG(st.st_mode):
            fh.close()
            self.corrupt(path, "not a regular file")
            return None
        return fh, st

    def _bytes(self, path: Path) -> bytes | None:
        """An entry's bytes; None when it is missing (a miss) or unreadable (corrupt, deleted)."""
        opened = self.open_entry(path)
        if opened is None:
            return None
        with opened[0] as fh:
            try:
                return fh.read()
            except OSError as exc:
                self.corrupt(path, f"unreadable: {exc}")
        return None

    def read(self, kind: str, suite: str, key: str, counted: bool = True) -> object | None:
        """An entry's value; None when missing or corrupt. With `counted` false, a bookkeeping entry
        (not a result): not counted among hits and misses (a corrupt one still is counted as corrupt)."""
        hits, misses = self.counts.hits, self.counts.misses
        value = self._read(self._path(kind, suite, key))
        if not counted:
            self.counts.hits, self.counts.misses = hits, misses
        return value

    def _read(self, path: Path) -> object | None:
        if (blob := self._bytes(path)) is None:
            return None
        body = memoryview(blob)[32:]  # not copied: an entry may hold megabytes
        if len(blob) < 32 or not hmac.compare_digest(_mac(body), blob[:32]):
            self.corrupt(path, "its contents do not match their keyed hash")
            return None
        try:
            value = marshal.loads(body)
        except (ValueError, EOFError, TypeError) as exc:
            self.corrupt(path, f"unreadable: {exc}")
            return None
        self.counts.hits += 1
        return value

    def corrupt(self, path: Path, why: str) -> None:
        self.counts.corrupt += 1
        self.counts.misses += 1
        self.counts.problems.append(f"cache entry {path} ignored and rebuilt: {why}")
        path.unlink(missing_ok=True)
        return None

    def write(self, kind: str, suite: str, key: str, value: object, counted: bool = True) -> None:
        path = self._path(kind, suite, key)
        try:
            payload = marshal.dumps(value)  # type: ignore[arg-type]  # refused below when not plain
        except ValueError:  # a value of a type marshal does not keep (never cached, computed each time)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".entry-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(_mac(payload) + payload)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.counts.written += counted

    def prune(self, kind: str, suite: str, keep: set[str]) -> None:
        """Remove the suite's entries of this kind that no current input has (old versions of runs)."""
        folder = self.folder / kind / suite
        if folder.is_dir():
            for path in folder.iterdir():
                if path.name not in keep:
                    path.unlink(missing_ok=True)


    # ------------------------------------------------------------ pages: their bytes, linked into the site

    def page_index(self, group: str) -> dict[str, str]:
        """The group's pages kept by the last build: key -> SHA-256 of the page's bytes."""
        index = self.read("page-index", group, "index")
        ok = isinstance(index, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in index.items())
        return index if ok else {}  # type: ignore[return-value]

    def page(self, group: str, key: str, digest: str) -> tuple[Path, bytes] | None:
        """The entry of a page and its bytes, when they hash to `digest`; a mismatch is corrupt (deleted)."""
        path = self._path("pages", group, key)
        if (data := self._bytes(path)) is None:
            return None
        if hashlib.sha256(data).hexdigest() != digest:
            self.corrupt(path, "its contents do not match their hash")
            return None
        self.counts.hits += 1
        return path, data

    def keep_page(self, group: str, key: str, source: Path, data: bytes) -> str:
        """Keep a written page (`source`, holding `data`) as the group's entry `key`: a hard link to it
        when the file system allows, else a copy. Returns the SHA-256 of its bytes."""
        return self.keep_entry("pages", group, key, data, source)

    def keep_entry(self, kind: str, group: str, key: str, data: bytes, source: Path | None = None) -> str:
        """Keep `data` as the group's entry `key` (a hard link to `source`, the file holding it, when given
        and the file system allows, else written aside; then moved in place). Returns the SHA-256 of its
        bytes, which the group's index records."""
        path = self._path(kind, group, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".entry-{os.getpid()}-{key}")
        try:
            if source is None or not _linked(source, tmp):
                tmp.write_bytes(data)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        self.counts.written += 1
        return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------- the entries' key, kept outside projects

SECRET_ENV = "TALLY_CACHE_SECRET_FILE"


def secret_path() -> Path:
    """Where this user's cache key is kept: $TALLY_CACHE_SECRET_FILE, else ~/.local/share/tally/cache.key
    (beside the audit and label workspaces, outside every project)."""
    named = os.environ.get(SECRET_ENV)
    return Path(named) if named else Path.home() / ".local" / "share" / "tally" / "cache.key"


@functools.lru_cache(maxsize=1)
def cache_secret() -> bytes:
    """This user's 32-byte cache key, made (mode 0600) on first use. Where it can be neither read nor
    made, a key for this process alone: the cache then helps within one command only, and is never
    trusted across processes."""
    path = secret_path()
    for _ in range(2):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            if not _make_secret(path):
                break
            continue  # made, or another process made it first: read what is there
        except OSError:
            break
        with os.fdopen(fd, "rb") as fh:
            if stat.S_ISREG(os.fstat(fd).st_mode) and len(key := fh.read(64)) >= 32:
                return key[:32]
        break
    return secrets.token_bytes(32)


def _make_secret(path: Path) -> bool:
    """Write a new key whole to a temporary file, then link it into place (never over an existing one,
    so a reader never sees a partial key). False when the folder cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=".cache-key-", dir=path.parent)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
        os.link(tmp, path)
    except FileExistsError:
        pass
    except OSError:
        return False
    finally:
        Path(tmp).unlink(missing_ok=True)
    return True


def _linked(source: Path, target: Path) -> bool:
    """Whether `target` was made a hard link to `source` (False where the file system refuses)."""
    try:
        os.link(source, target)
    except OSError:
        return False
    return True


def _mac(payload: bytes | memoryview) -> bytes:
    return hmac.new(cache_secret(), payload, hashlib.sha256).digest()
