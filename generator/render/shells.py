"""Pages made of a cached shell and slots: the parts of a page that change with the runs are put into
the rest of the page, which is kept in the build cache and not rendered again.

An item page shows every run, so adding a run changes its bytes, but most of the page (the document,
the checked answers, the labels, the navigation around them) does not depend on the runs. Such a page
is made as a `Shelled`: the text of each slot (the runs' sections, their count, the published verdicts'
block: what depends on the runs) and a function that makes the page without them. The writer renders
that page once with a random marker in each slot and keeps what lies around the markers (the shell)
in the build cache, under the key of the page's inputs but the slots' (the Deferred page's `shell`,
folded with everything else a page's bytes depend on: page_cache.PageKeys). While that key holds, the page's bytes are the
shell's parts with the slots' text between them, UTF-8 encoded as the page is (the encoding goes code
point by code point, so the parts encoded apart join to the bytes of the whole): the same bytes as
the page rendered whole. A marker is 128 random bits drawn per process, so no text of a document or a
response can hold one; a shell in which a marker does not appear exactly once is not kept, and the
page is rendered whole.

Shells are kept as pages are (build/cache/pages/<suite>+shells/: the SHA-256 of each entry in the
group's index, an entry no page of the build used pruned); an entry is the slots' names and the
parts, marshalled.
"""

from __future__ import annotations

import marshal
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import Markup

if TYPE_CHECKING:
    from .build import Writer
    from .pages import Deferred, Page

ENCODING = ("utf-8", "backslashreplace")  # as Writer.render encodes a page (a lone surrogate a model wrote)


@dataclass
class Shelled:
    """What a Deferred page's `make` may return instead of a Page: `slots` (name -> HTML, safe as it is)
    put into the page `make()` makes without them (its context lacks the slots' names). The shell's key
    is the Deferred's `shell`."""
    make: Callable[[], Page]
    slots: dict[str, str]


Shell = tuple[tuple[str, ...], tuple[bytes, ...]]  # the slots' names in page order, and the parts around them


def shelled_bytes(writer: Writer, d: Deferred, s: Shelled) -> bytes:
    """The page's bytes: its shell from the build cache (rendered and kept when not there), with the
    slots' text put in."""
    key, group = full_key(writer, d), shell_group(d)
    # from the build cache, or on a cluster's worker (no cache) as the client found it there (cluster_pages.py)
    shell = _cached(writer, group, key) if key is not None else writer.shells_given.get(d.path)
    if shell is not None and sorted(shell[0]) != sorted(s.slots):  # another page's slots: made again
        shell = None
    if shell is None:
        page = s.make()
        markers = {name: f"\ue000{secrets.token_hex(16)}\ue000" for name in s.slots}
        page.context.update({name: Markup(m) for name, m in markers.items()})
        shell = _split(writer.render(page), markers)
        if shell is None:  # a marker not there once: the page rendered whole
            page.context.update({name: Markup(text) for name, text in s.slots.items()})
            return writer.render(page)
        if key is not None:
            _keep(writer, group, key, shell)
        elif d.shell is not None:  # a worker's: the client keeps it
            writer.shells_made[d.path] = shell
    names, parts = shell
    out = [parts[0]]
    for name, part in zip(names, parts[1:], strict=True):
        out.append(s.slots[name].encode(*ENCODING))
        out.append(part)
    return b"".join(out)


def full_key(writer: Writer, d: Deferred) -> str | None:
    """The key of the Deferred page's shell in the build cache, with what every page's key holds
    (page_cache.PageKeys); None without the cache or a shell key."""
    if writer.cache is None or d.shell is None:
        return None
    return writer.page_keys().key(d.path, d.template, f"shell\0{d.shell}")


def shell_group(d: Deferred) -> str:
    """The page cache's group of the shells of a group's pages: '+' is in no suite's name (inputs/ids.py)."""
    return f"{d.group}+shells"


def cached_shell(writer: Writer, d: Deferred) -> Shell | None:
    """The Deferred page's shell in the build cache (None: not there, or no key)."""
    key = full_key(writer, d)
    return _cached(writer, shell_group(d), key) if key is not None else None


def keep_shell(writer: Writer, d: Deferred, shell: Shell) -> None:
    """Keep the Deferred page's shell in the build cache (when it has a key there)."""
    key = full_key(writer, d)
    if key is not None:
        _keep(writer, shell_group(d), key, shell)


def _keep(writer: Writer, group: str, key: str, shell: Shell) -> None:
    assert writer.cache is not None
    writer.used.setdefault(group, {})[key] = writer.cache.keep_entry("pages", group, key, marshal.dumps(shell))


def keep_unused(writer: Writer, d: Deferred) -> None:
    """A page written whole from the build cache keeps its shell (for the next build that changes it)."""
    key = full_key(writer, d)
    if key is None:
        return
    group = shell_group(d)
    if (digest := _index(writer, group).get(key)) is not None:
        writer.used.setdefault(group, {})[key] = digest


def _index(writer: Writer, group: str) -> dict[str, str]:
    """The group's index of shells (key -> SHA-256) as the last build left it; empty, and not looked up,
    when the cache holds no shell of the group."""
    assert writer.cache is not None
    if group not in writer.index:
        kept = (writer.cache.folder / "pages" / group).is_dir()
        writer.index[group] = writer.cache.page_index(group) if kept else {}
    return writer.index[group]


def _split(page: bytes, markers: dict[str, str]) -> Shell | None:
    """The page cut at each marker (each must appear once), and the slots' names in page order."""
    at = []
    for name, marker in markers.items():
        m = marker.encode(*ENCODING)
        if page.count(m) != 1:
            return None
        at.append((page.index(m), len(m), name))
    at.sort()
    parts, start = [], 0
    for position, length, _name in at:
        parts.append(page[start:position])
        start = position + length
    parts.append(page[start:])
    return tuple(name for _p, _n, name in at), tuple(parts)


def _cached(writer: Writer, group: str, key: str) -> Shell | None:
    """The shell kept under `key`, when the group's index names it and its bytes hash as recorded."""
    assert writer.cache is not None
    digest = _index(writer, group).get(key)
    found = writer.cache.page(group, key, digest) if digest else None
    if found is None:
        return None
    try:
        shell = marshal.loads(found[1])
    except (ValueError, EOFError, TypeError):
        shell = None
    if not (isinstance(shell, tuple) and len(shell) == 2 and isinstance(shell[0], tuple) and isinstance(shell[1], tuple)
            and len(shell[1]) == len(shell[0]) + 1 and all(isinstance(n, str) for n in shell[0])
            and all(isinstance(p, bytes) for p in shell[1])):
        writer.cache.corrupt(found[0], "not a page's shell")
        return None
    writer.used.setdefault(group, {})[key] = digest  # type: ignore[assignment]
    return shell
