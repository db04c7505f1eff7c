"""Item pages' response sections, kept in the build cache one item page at a time.

An item page shows one section per stored response of every run that answered the item
(templates/_item_response.html): the run's model and provider, its verdict table and its message
content. A section depends on its run alone (its build cache key, and whether its model and provider
have pages), not on the other runs, so when a run is added or changed only its own sections are made
again: the others come from the item's entry in build/cache/sections/<suite>/, made by the last
build, and the page's other parts (the document, the checked answers, the published verdicts' block)
are rendered around them.

An entry's key hashes what every section of the page depends on besides its run: the sources of
generator/render/ and of the section's template (and what it includes), the versions of Python and
of the template libraries, the suite's key (its items, rules, labels and plugin sources: a changed
column or page budget makes every section again) and the page's path (links are relative to it). Its
value maps each run's section key to that run's sections (HTML, in repeat order) and their entries
in the page's published verdicts. Entries hold plain values only, under the cache's keyed hash (a
corrupt one is dropped and the sections made again); an entry no public item page of the last
build has is pruned.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from pathlib import Path

from jinja2 import Environment

from ..pipeline.cache import Cache, code_hash
from .env import make_env
from .page_cache import renderer_versions, template_hash

TEMPLATE = "_item_response.html"
KIND = "sections"

Kept = dict[str, tuple[str, list[dict]]]  # a run's section key -> (its sections' HTML, their published entries)


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


class Sections:
    """The entries of one suite's item pages: `load` the sections the last build kept for a page,
    `save` this build's."""

    def __init__(self, cache: Cache, suite: str, suite_key: str) -> None:
        self.cache, self.suite = cache, suite
        h = hashlib.sha256(b"tally-sections\0")
        for part in (code_hash("render"), renderer_versions(), template_hash(section_env(), TEMPLATE), suite_key):
            h.update(part.encode() + b"\0")
        self.base = h.hexdigest()

    def key(self, page_path: str) -> str:
        return hashlib.sha256(f"{self.base}\0{page_path}".encode()).hexdigest()

    def load(self, page_path: str) -> Kept:
        """The sections kept for the page ({} when none or unreadable)."""
        value = self.cache.read(KIND, self.suite, self.key(page_path), counted=False)
        if not isinstance(value, dict):
            return {}
        return {k: (v[0], v[1]) for k, v in value.items()
                if isinstance(k, str) and isinstance(v, tuple | list) and len(v) == 2
                and isinstance(v[0], str) and isinstance(v[1], list)}

    def save(self, page_path: str, kept: Kept) -> None:
        self.cache.write(KIND, self.suite, self.key(page_path), {k: [html, entries] for k, (html, entries) in kept.items()},
                         counted=False)

    def prune(self, page_paths: Iterable[str]) -> None:
        """Drop every entry of the suite but those of these pages (this build's public items)."""
        self.cache.prune(KIND, self.suite, {self.key(p) for p in page_paths})
