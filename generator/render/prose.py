"""Prose pages: content/pages/*.md (a `---` front matter block with `title:`, then markdown)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import markdown
from markdown.extensions.toc import slugify
from markupsafe import Markup

from ..errors import InputProblem
from ..pipeline.cache import Cache, code_hash

# Site paths of pages that are not under pages/ (their markdown is shown on a page of their own).
SPECIAL = {"commitments": "commitments/index.html"}
HOME_SNIPPET = "how-to-read"  # linked from the home page

_LINK = re.compile(r'href="([a-z0-9][a-z0-9._-]*)\.md(#[^"]*)?"')


@dataclass(frozen=True)
class Prose:
    name: str  # file stem
    title: str
    path: str  # site path
    html: Markup
    body: str = ""  # the markdown, to render again for another page (links are relative)

    @property
    def anchor(self) -> str:
        """The id markdown's table of contents would give the title as a heading."""
        return slugify(self.title, "-")


def site_path(name: str) -> str:
    return SPECIAL.get(name, f"pages/{name}.html")


def _front_matter(text: str) -> tuple[dict, str]:
    meta: dict[str, str] = {}
    if text.startswith("---\n"):
        head, sep, body = text[4:].partition("\n---\n")
        if sep:
            for line in head.splitlines():
                key, _, value = line.partition(":")
                meta[key.strip()] = value.strip()
            return meta, body
    return meta, text


def render_markdown(body: str, page_path: str) -> Markup:
    """Markdown to HTML; links to sibling .md files become links to their pages, relative to page_path;
    tables in a scroll box of their own, so a wide one never widens the page."""
    from .env import relative

    html = markdown.markdown(body, extensions=["tables", "fenced_code", "sane_lists", "toc"],
                             output_format="html")

    def fix(m: re.Match) -> str:
        return f'href="{relative(site_path(m.group(1)), page_path)}{m.group(2) or ""}"'

    html = html.replace("<table>", '<div class="table-wrap" role="region" aria-label="Table (scrolls sideways)" '
                                   'tabindex="0">\n<table>').replace("</table>", "</table>\n</div>")
    return Markup(_LINK.sub(fix, html))


def load_pages(folder: Path, cache: Cache | None = None) -> list[Prose]:
    """The content pages; with `cache`, each page's HTML is kept in the build cache under the hash of its
    text, its place, the page-writing code and the Markdown library's version (converting the example's
    pages took 0.65 s of a build under the profiler)."""
    pages = []
    used: set[str] = set()
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        if path.is_symlink():
            raise InputProblem(f"{path}: is a symbolic link: content pages are read from real files only")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise InputProblem(f"{path}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
        meta, body = _front_matter(text)
        body = re.sub(r"\A\s*# [^\n]*\n", "", body)  # the template prints the title as the page's h1
        where = site_path(path.stem)
        pages.append(Prose(path.stem, meta.get("title") or path.stem.replace("-", " ").capitalize(), where,
                           _kept(body, where, cache, used), body))
    if cache is not None:
        cache.prune(KIND, "pages", used)
    return pages


KIND = "prose"  # the build cache's entries of content pages' HTML


def _kept(body: str, where: str, cache: Cache | None, used: set[str]) -> Markup:
    if cache is None:
        return render_markdown(body, where)
    h = hashlib.sha256("\0".join((KIND, code_hash("render"), markdown.__version__, where, body)).encode(
        "utf-8", "surrogatepass"))
    key = h.hexdigest()
    used.add(key)
    found = cache.read(KIND, "pages", key, counted=False)
    if isinstance(found, str):
        return Markup(found)
    html = render_markdown(body, where)
    cache.write(KIND, "pages", key, str(html), counted=False)
    return html
