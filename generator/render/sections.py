"""Item pages' response sections, kept in the build cache per run.

An item page shows one section per stored response of every run that answered the item
(templates/_item_response.html): the run's model and provider, its verdict table and its message
content. A section depends on its run alone (its build cache key, and whether its model and provider
have pages), not on the other runs, so when a run is added or changed only its own sections are made
again: the others come from build/cache/sections/<suite>/, made by an earlier build, and the page is
put together from them, the published verdicts' block made of each run's entries, and the page's shell
(the document, the checked answers: what does not depend on the runs; render/shells.py).

An entry holds one run's sections of a bundle of public items (in the suite's order), so a new run's
sections are entries of their own and no other run's entry is written again. A process rendering pages
holds one bundle of every run, so a bundle has BUNDLE items while the suite has at most HELD / BUNDLE runs,
and half as many each time the runs double past that (`bundle_size`): what a process holds stays near
HELD sections however many runs there are. When the runs cross such a bound, every bundle changes and
every section is made again, once. Its key hashes the
run's section key and the bundle's size and number with what every section depends on besides its run: the
sources of generator/render/ and of the section's template (and what it includes), the versions of
Python and of the template libraries, and the suite's key (its items, which fix the bundles, its rules,
labels and plugin sources: a changed column or page budget makes every section again). Every item
page of a suite is in one folder, so a section's links are the same on any of them. Entries hold plain
values only, under the cache's keyed hash (a corrupt one is said, dropped and its sections made again);
entries of runs no longer shown are pruned.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from jinja2 import Environment

from ..pipeline.cache import Cache, code_hash
from .env import make_env
from .page_cache import renderer_versions, template_hash

TEMPLATE = "_item_response.html"
KIND = "sections"

Made = tuple[str, str, int]  # a run's sections of an item: their HTML, their entries in the published
# verdicts' block (each entry's env.json_compact text, joined by commas) and how many entries


def section_env() -> Environment:
    """The template environment sections are rendered in (one per process and templates folder)."""
    from . import env

    return _env(env.TEMPLATES)


@functools.lru_cache(maxsize=4)
def _env(_templates: Path) -> Environment:
    return make_env()


def run_section_key(run: str, key: str, model_paged: bool, provider_paged: bool) -> str:
    """What a run's sections on an item page depend on besides the page: the run (its id and build cache
    key: its stored files and metadata) and whether its model and provider have pages (their links)."""
    return f"{run}\0{key}\0{model_paged:d}{provider_paged:d}"


BUNDLE = 64  # public items (in the suite's order) whose sections of one run are kept as one entry, at most
HELD = BUNDLE * 40  # sections (item x run) a process holds at once, about: a bundle's items times the runs


def bundle_size(runs: int) -> int:
    """Items per bundle for a suite with this many runs: BUNDLE, halved until the bundle's sections of
    every run are at most HELD (at least one item)."""
    size = BUNDLE
    while size > 1 and size * runs > HELD:
        size //= 2
    return size


_PENDING: list[Sections] = []  # the stores of this process holding sections not yet kept


class Sections:
    """The sections of one suite's item pages: `get` a run's sections of an item that the cache holds,
    `put` those just made; `flush` keeps them. Entries are per run and bundle of `bundle_size(runs)`
    public items (in the suite's order, which its key fixes), so that a new run writes entries of its own
    and never rewrites another run's; a process holds the entries of one bundle at a time."""

    def __init__(self, cache: Cache, suite: str, suite_key: str, items: Sequence[str], runs: int) -> None:
        self.cache, self.suite = cache, suite
        h = hashlib.sha256(b"tally-sections\0")
        for part in (code_hash("render"), renderer_versions(), template_hash(section_env(), TEMPLATE), suite_key):
            h.update(part.encode() + b"\0")
        self.base = h.hexdigest()
        self.position = {item: k for k, item in enumerate(items)}
        self.size = bundle_size(runs)
        self.bundles = (len(items) + self.size - 1) // self.size
        self._bundle = -1
        self._held: dict[str, dict[str, Made]] = {}  # run section key -> item -> sections, of the bundle held
        self._new: dict[str, dict[str, Made]] = {}  # the same, made by this process and not yet kept

    def __getstate__(self) -> dict:  # sent to a cluster's worker: what it holds stays here
        return self.__dict__ | {"_bundle": -1, "_held": {}, "_new": {}}

    def key(self, run_key: str, bundle: int) -> str:
        return hashlib.sha256(f"{self.base}\0{run_key}\0{self.size}\0{bundle}".encode()).hexdigest()

    def _hold(self, item: str) -> None:
        bundle = self.position[item] // self.size
        if bundle != self._bundle:
            self.flush()
            self._bundle, self._held = bundle, {}

    def get(self, item: str, run_key: str) -> Made | None:
        """The run's sections of the item the cache holds (None: to be made)."""
        self._hold(item)
        if run_key not in self._held:
            self._held[run_key] = _read(self.cache.read(KIND, self.suite, self.key(run_key, self._bundle), counted=False))
        return self._held[run_key].get(item)

    def put(self, item: str, run_key: str, made: Made) -> None:
        self._hold(item)
        if not self._new:
            _PENDING.append(self)
        self._new.setdefault(run_key, {})[item] = made

    def flush(self) -> None:
        """Keep the sections made since the last flush (each run's bundle with what it held before)."""
        for run_key, made in self._new.items():
            whole = self._held.get(run_key, {}) | made
            self._held[run_key] = whole
            self.cache.write(KIND, self.suite, self.key(run_key, self._bundle),
                             {item: list(made) for item, made in sorted(whole.items())}, counted=False)
        self._new = {}
        if self in _PENDING:
            _PENDING.remove(self)

    def prune(self, run_keys: Iterable[str]) -> None:
        """Drop every entry of the suite but those of these runs' sections (this build's)."""
        self.cache.prune(KIND, self.suite, {self.key(k, b) for k in run_keys for b in range(self.bundles)})


def flush_all() -> None:
    """Keep what every store of this process made (the end of a process's share of the pages)."""
    for store in list(_PENDING):
        store.flush()


def _read(value: object) -> dict[str, Made]:
    if not isinstance(value, dict):
        return {}
    return {k: (v[0], v[1], v[2]) for k, v in value.items()
            if isinstance(k, str) and isinstance(v, tuple | list) and len(v) == 3
            and isinstance(v[0], str) and isinstance(v[1], str) and type(v[2]) is int}
