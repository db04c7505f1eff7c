"""One module per page type; each yields Page objects (or Deferred ones) for the writer (build.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..context import Table

if TYPE_CHECKING:
    from ..shells import Shelled


@dataclass
class Page:
    path: str  # site path, e.g. "suites/<suite>/index.html"
    template: str
    title: str
    context: dict = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)  # exported ones are also written as CSV and JSON
    scripts: tuple[str, ...] = ("sort.js",)  # static scripts the page loads


@dataclass
class Deferred:
    """A page made only when its bytes are not in the build cache (render/page_cache.py). `key`
    hashes the page's own inputs (None: none known, the page is always made); `group` names its
    cache folder (the suite); `make()` makes the Page, which exports no table, or a shells.Shelled: the
    page as slots put into a shell, whose own key (the hash of the page's inputs but the slots') is
    `shell` (None: the shell is not kept)."""
    path: str
    template: str
    group: str
    key: str | None
    make: Callable[[], Page | Shelled]
    shell: str | None = None
