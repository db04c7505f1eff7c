"""Page images of an item's document: the format, reading and validation.

An item's ``document`` may carry ``pages``, besides or instead of its ``text``: a list of
``{"path": ..., "sha256": ..., "alt": ...}``. ``path`` is relative to the folder of the item's
items file (``content/suites/<suite>/items/``), written with forward slashes, each part made of
letters, digits, ``.``, ``_`` and ``-``; the file is a PNG or JPEG (told by its first bytes, which
must agree with its suffix) of at most ``MAX_PAGE_BYTES``, a real file (no symbolic link), whose
SHA-256 is ``sha256``, and which Pillow decodes whole (nothing truncated, every PNG chunk's checksum
right) into an image of 1 to ``MAX_PAGE_SIDE`` pixels a side and at most ``MAX_PAGE_PIXELS`` pixels
(the size is read from the header before anything is decoded, so a decompression bomb costs nothing).
``alt`` is the page's text alternative shown on item pages.

Every check gives a sentence naming what is wrong; `read_page` raises `PageError` with it.

`document_problems` may be given a `PageRecord` (the build cache's record of page files checked in
full: pipeline/page_checks.py): a file whose status (size, times, inode) is the one recorded when it
was checked, under the item's SHA-256, is then not read, hashed or decoded again. The path checks and
the refusal of symbolic links are made on every page all the same.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import stat
import warnings
from pathlib import Path
from typing import Protocol

from ..pipeline.file_status import status

MAX_PAGE_BYTES = 2 * 1024 * 1024
MAX_PAGES = 20
MAX_ALT_CHARS = 500
MAX_PAGE_SIDE = 12_000  # pixels, width or height
MAX_PAGE_PIXELS = 40_000_000  # width times height: an A4 page scanned at 600 dpi is 35 million
SIGNATURES = {"image/png": b"\x89PNG\r\n\x1a\n", "image/jpeg": b"\xff\xd8\xff"}
SUFFIXES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
_PART = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$")
_HEX = re.compile(r"^[0-9a-f]{64}$")
INPUT_KINDS = ("text", "image", "text+image")
# What a stored run may say it was given: the kinds `tally run` sends, and `pdf` (the document's PDF file
# itself, read by a system such as Reducto; imported runs only: `tally run` sends no PDF).
STORED_INPUT_KINDS = (*INPUT_KINDS, "pdf")


class PageError(ValueError):
    """A page image that can't be used; the message says which and why."""


def media_type(data: bytes) -> str | None:
    """``image/png`` or ``image/jpeg`` from the first bytes, else None."""
    for kind, magic in SIGNATURES.items():
        if data.startswith(magic):
            return kind
    return None


def path_problem(path: object) -> str | None:
    if not isinstance(path, str) or not path:
        return "path must be a non-empty string"
    parts = path.split("/")
    if path.startswith("/") or "\\" in path or any(p in ("", ".", "..") for p in parts):
        return f"path {path[:120]!r} must be relative, with forward slashes and no '..'"
    if not all(_PART.match(p) for p in parts):
        return f"path {path[:120]!r}: each part may hold letters, digits, '.', '_' and '-' only"
    if Path(path).suffix.lower() not in SUFFIXES:
        return f"path {path[:120]!r} must end in .png, .jpg or .jpeg"
    return None


def page_entry_problems(page: object, n: int) -> list[str]:
    """Problems of one entry of ``document.pages`` as written (not reading the file)."""
    where = f"document.pages[{n}]"
    if not isinstance(page, dict):
        return [f"{where} must be an object with path, sha256 and alt"]
    problems = []
    if (p := path_problem(page.get("path"))) is not None:
        problems.append(f"{where}: {p}")
    if not isinstance(page.get("sha256"), str) or not _HEX.match(page["sha256"]):
        problems.append(f"{where}: sha256 must be 64 lowercase hex digits")
    alt = page.get("alt")
    if not isinstance(alt, str) or not alt.strip() or len(alt) > MAX_ALT_CHARS:
        problems.append(f"{where}: alt must be a non-empty text of at most {MAX_ALT_CHARS} characters")
    unknown = sorted(set(page) - {"path", "sha256", "alt"})
    if unknown:
        problems.append(f"{where}: unknown keys {', '.join(unknown)}")
    return problems


class PageRecord(Protocol):
    """The record of page files checked in full, by their status (pipeline/page_checks.py)."""

    def known(self, path: Path, st: os.stat_result, sha256: str) -> tuple[int, int] | None:
        """The shown size of the file of `st` (its status now) when it was checked in full with that
        status and SHA-256 `sha256`, and had settled; else None (to be checked in full)."""

    def checked(self, path: Path, st: os.stat_result, sha256: str, shown: tuple[int, int]) -> None:
        """Record the file of `st` (its status taken before its bytes were read) as checked in full."""


def _page_file(base: Path, page: dict) -> tuple[Path, os.stat_result]:
    """The page's file and its status: a regular file under `base`, reached through no symbolic link,
    of at most MAX_PAGE_BYTES."""
    path = page["path"]
    if (p := path_problem(path)) is not None:
        raise PageError(p)
    current = Path(base)
    parts = path.split("/")
    for part in parts[:-1]:
        current = current / part
        if current.is_symlink():
            raise PageError(f"{path}: {current.name} is a symbolic link: page images are read from real files only")
    current = current / parts[-1]
    try:
        st = status(current, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError):
        raise PageError(f"{path}: no such page image file") from None
    if stat.S_ISLNK(st.st_mode):
        raise PageError(f"{path}: {current.name} is a symbolic link: page images are read from real files only")
    if not stat.S_ISREG(st.st_mode):
        raise PageError(f"{path}: no such page image file")
    if st.st_size > MAX_PAGE_BYTES:
        raise PageError(f"{path}: {st.st_size} bytes, more than the limit of {MAX_PAGE_BYTES}")
    return current, st


def read_page(base: Path, page: dict) -> bytes:
    """The bytes of a page whose entry is well formed, checked: a real file under `base`, its
    type by magic bytes matching its suffix, its size, its SHA-256, and that it decodes whole."""
    return _checked_bytes(*_page_file(base, page), page)


def _checked_bytes(current: Path, st: os.stat_result, page: dict) -> bytes:
    """The bytes of the page's file `current` (`st`: its status, taken before), checked in full."""
    path = page["path"]
    data = current.read_bytes()
    if len(data) > MAX_PAGE_BYTES:  # grew while being read
        raise PageError(f"{path}: more than the limit of {MAX_PAGE_BYTES} bytes")
    kind = media_type(data)
    expected = SUFFIXES[Path(path).suffix.lower()]
    if kind is None:
        raise PageError(f"{path}: not a PNG or JPEG file (its first bytes are neither signature)")
    if kind != expected:
        raise PageError(f"{path}: the file is {kind} but its name says {expected}")
    digest = hashlib.sha256(data).hexdigest()
    if digest != page["sha256"]:
        raise PageError(f"{path}: SHA-256 {digest} differs from the item's {page['sha256']}")
    if digest not in _DECODED:
        _DECODED[digest] = decode_problem(data, kind)
        if _DECODED[digest] is None:
            _SHOWN[digest] = _shown_size_of(data)
    if (problem := _DECODED[digest]) is not None:
        raise PageError(f"{path}: {problem}")
    return data


def check_page(base: Path, page: dict, record: PageRecord | None = None) -> None:
    """Check a page whose entry is well formed as `read_page` does (PageError), except that a file
    `record` knows (checked in full with its status now and the item's SHA-256) is not read again."""
    current, st = _page_file(base, page)
    digest = page["sha256"]
    if record is not None and (shown := record.known(current, st, digest)) is not None:
        _DECODED.setdefault(digest, None)  # bytes of this SHA-256 were decoded whole when recorded
        _SHOWN.setdefault(digest, shown)
        return
    _checked_bytes(current, st, page)
    if record is not None:
        record.checked(current, st, digest, _SHOWN[digest])


_DECODED: dict[str, str | None] = {}  # SHA-256 -> decode_problem of those bytes (each page decoded once)
_SHOWN: dict[str, tuple[int, int]] = {}  # SHA-256 of a page read whole -> its shown_size (item pages show it)


def shown_size(image) -> tuple[int, int]:
    """(width, height) of an image as a browser shows it: a quarter turn by its EXIF orientation (5 to 8:
    a photo stored sideways) swaps the stored sides."""
    width, height = image.size
    return (height, width) if image.getexif().get(0x0112) in (5, 6, 7, 8) else (width, height)


def _shown_size_of(data: bytes) -> tuple[int, int]:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return shown_size(image)


def known_shown_size(sha256: str) -> tuple[int, int] | None:
    """The shown_size of a page image this process has read and checked (read_page), by its SHA-256; None
    for one it has not."""
    return _SHOWN.get(sha256)


def decode_problem(data: bytes, kind: str) -> str | None:
    """Why `data` (told to be `kind` by its signature) is not a whole image of a bounded size, or None.
    The size comes from the header; only an image within the bounds is decoded (``verify`` first: a
    PNG's chunks and checksums to its end; then ``load``: every pixel, a truncated file refused)."""
    from PIL import Image

    fmt = "PNG" if kind == "image/png" else "JPEG"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=[fmt]) as image:
                width, height = image.size
                if width < 1 or height < 1:
                    return f"the image is {width} x {height} pixels: a page needs at least one pixel each way"
                if max(width, height) > MAX_PAGE_SIDE or width * height > MAX_PAGE_PIXELS:
                    return (f"the image is {width:,} x {height:,} pixels: more than the limit of {MAX_PAGE_SIDE:,} "
                            f"pixels a side and {MAX_PAGE_PIXELS:,} pixels in all")
                image.verify()
            with Image.open(io.BytesIO(data), formats=[fmt]) as image:
                image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        return (f"the image is too large to decode: {exc} (a page may have at most {MAX_PAGE_SIDE:,} pixels "
                f"a side and {MAX_PAGE_PIXELS:,} pixels in all)")
    except Image.UnidentifiedImageError:
        return f"not a {fmt} image Pillow can read: its header is broken (or the file holds only a signature)"
    except Exception as exc:  # noqa: BLE001  # whatever a hostile file makes the decoder raise
        return f"not a whole {fmt} image: Pillow can't decode it ({type(exc).__name__}: {str(exc)[:200]})"
    return None


def document_problems(document: dict, base: Path, record: PageRecord | None = None) -> list[str]:
    """Problems of a document's text and pages, reading and checking every page file (but those
    `record` knows unchanged since they were checked: `check_page`)."""
    text, pages = document.get("text"), document.get("pages")
    problems = []
    if "text" in document and not isinstance(text, str):
        problems.append("document.text must be a string")
    if pages is None:
        if text is None:
            problems.append("document needs text, pages, or both")
        return problems
    if not isinstance(pages, list) or not pages or len(pages) > MAX_PAGES:
        return problems + [f"document.pages must be a list of 1 to {MAX_PAGES} page images"]
    for n, page in enumerate(pages):
        entry = page_entry_problems(page, n)
        problems += entry
        if not entry:
            try:
                check_page(base, page, record)
            except PageError as exc:
                problems.append(f"document.pages[{n}]: {exc}")
    return problems


def input_problem(document: dict, kind: str) -> str | None:
    """Why a document can't be sent as `kind` input, or None."""
    if kind not in INPUT_KINDS:
        return f"input kind must be one of {', '.join(INPUT_KINDS)}"
    if "text" in kind.split("+") and not isinstance(document.get("text"), str):
        return "has no text"
    if "image" in kind.split("+") and not document.get("pages"):
        return "has no page images"
    return None
