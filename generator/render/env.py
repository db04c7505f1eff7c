"""The jinja2 environment: templates from the project's templates/ folder, autoescape on, strict."""

from __future__ import annotations

import functools
import json
import posixpath
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from .context import shown

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

# Inside <script type="application/json"> nothing may close the element or open a comment. These
# characters only ever occur inside JSON strings, so \u escapes keep the parsed value unchanged.
_JSON_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
                 0x2028: "\\u2028", 0x2029: "\\u2029"}


def json_text(text: str) -> Markup:
    """JSON text (already serialised, e.g. a stored line) made safe inside a data block."""
    return Markup(text.translate(_JSON_ESCAPES))


def json_compact(value: object) -> str:
    """A value serialised as data blocks hold it: sorted keys, no spaces, no escapes but JSON's own. A
    list's text is its items' texts joined by commas in brackets (so it can be put together from them)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def json_block(value: object) -> Markup:
    """A value serialised for a <script type="application/json"> data block (sorted keys)."""
    return json_text(json_compact(value))


_TEXT_ESCAPES = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}


def element_text(value: str) -> Markup:
    """Text made safe as an element's content (never an attribute's value): only `&`, `<` and `>` need
    escaping there, so quotes stay one byte each (a stored JSON answer is mostly quotes)."""
    return Markup(str(value).translate(_TEXT_ESCAPES))


def relative(target: str, page: str) -> str:
    """The relative URL from the page at site path `page` to the site path `target`."""
    if target.startswith(("#", "mailto:")):
        return target
    return _from_folder(target, posixpath.dirname(page))


@functools.lru_cache(maxsize=1 << 16)  # pages of one folder link to the same targets: kept by folder, not page
def _from_folder(target: str, folder: str) -> str:
    path, _, frag = target.partition("#")
    rel = posixpath.relpath(path, folder or ".")
    return rel + ("#" + frag if frag else "")


def in_unit(value: object, unit: str) -> str:
    """A stored number (or its decimal text) with its unit, by the site's one formatter; a value that is
    not a number (a suite may keep a label there, e.g. a result class) is shown as it is."""
    from ..numbers import with_unit

    try:
        number = float(str(value))
    except ValueError:
        return str(value)
    return with_unit(number, unit)


def make_env() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["json_block"] = json_block
    env.filters["shown"] = shown
    env.filters["json_text"] = json_text
    env.filters["element_text"] = element_text
    env.filters["in_unit"] = in_unit
    return env
