"""One module per page type; each yields Page objects for the writer (build.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..context import Table


@dataclass
class Page:
    path: str  # site path, e.g. "suites/<suite>/index.html"
    template: str
    title: str
    context: dict = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)  # exported ones are also written as CSV and JSON
    scripts: tuple[str, ...] = ("sort.js",)  # static scripts the page loads
