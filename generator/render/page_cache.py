"""Pages from the build cache: a page whose inputs are unchanged is not rendered again.

A page that can be cached is handed to the writer as a `Deferred`: its own key (the hash of its
page-specific inputs, given by the module that makes it) and a function that makes the page. The
writer folds into that key everything else the page's bytes depend on (`PageKeys`):

- the sources of the page's template and of every template it extends, includes or imports;
- the sources of generator/render/ (how contexts are laid out and filtered);
- the site-wide context every page shows: the navigation, the draft and simulated banners, the
  build date, the prose pages' names and paths, the Content-Security-Policy and the plotly links;
- the versions of Python, Jinja2, MarkupSafe and orjson, and the page's path.

The entry is the page's bytes, build/cache/pages/<group>/<key>, hard-linked into the site (so a page
unchanged since the last build is the same file and is kept without being read again); the SHA-256 of
each entry's bytes is recorded in the group's index (generator/pipeline/cache.py), and an entry that does not
match it is counted as corrupt, deleted and rendered again. Entries no page of the last build used are
pruned. Only pages that export no table are deferred (a page from the cache writes nothing else).
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib.metadata import version

from jinja2 import Environment, meta

from ..pipeline.cache import code_hash

LIBRARIES = ("jinja2", "markupsafe", "orjson", "pillow")


def template_hash(env: Environment, name: str) -> str:
    """The hash of a template's source and of every template it names (extends, include, import),
    transitively; every template when one of them names another by an expression."""
    assert env.loader is not None
    seen: dict[str, str] = {}
    todo = [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        source = env.loader.get_source(env, current)[0]
        seen[current] = source
        for ref in meta.find_referenced_templates(env.parse(source)):
            if ref is None:  # a name computed at render time: any template may be used
                todo.extend(env.list_templates(filter_func=lambda n: n.endswith((".html", ".js"))))
            else:
                todo.append(ref)
    h = hashlib.sha256(b"templates\0")
    for key in sorted(seen):
        data = seen[key].encode("utf-8", "surrogateescape")
        h.update(f"{key}\0{len(data)}\0".encode() + data)
    return h.hexdigest()


def renderer_versions() -> str:
    """The versions of Python and of the template libraries, as one text (part of every page's key)."""
    parts = [sys.version]
    for lib in LIBRARIES:
        try:
            parts.append(f"{lib} {version(lib)}")
        except Exception:  # not installed: its absence is part of the key
            parts.append(f"{lib} -")
    return "\0".join(parts)


class PageKeys:
    """The full cache key of deferred pages: their own key with the site-wide parts above."""

    def __init__(self, env: Environment, site_context: dict) -> None:
        self.env = env
        h = hashlib.sha256(b"tally-page\0")
        h.update(code_hash("render").encode())
        h.update(renderer_versions().encode())
        h.update(json.dumps(site_context, sort_keys=True, ensure_ascii=False, default=str).encode())
        self.base = h.hexdigest()
        self.templates: dict[str, str] = {}

    def key(self, path: str, template: str, own: str) -> str:
        if template not in self.templates:
            self.templates[template] = template_hash(self.env, template)
        h = hashlib.sha256(f"{self.base}\0{self.templates[template]}\0{path}\0{own}".encode())
        return h.hexdigest()
