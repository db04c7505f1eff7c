"""Page images of the example corpus: every document's text drawn as pages, byte-reproducible.

Each document is set in the bundled monospaced font (`page_font`), LINES_PER_PAGE lines a page.
Receipts become photos: the slip of paper, in low contrast, is rotated a little on a darker,
uneven background, blurred, given sensor noise, and saved as grayscale JPEG. Every other
document is a clean scan: a 1-bit PNG. All randomness comes from a numpy generator seeded from
(seed, item id), and Pillow writes no time or software tag, so the same seed gives the same bytes
(with the Pillow version pyproject.toml pins: its bundled FreeType, zlib and libjpeg draw and encode).
"""

from __future__ import annotations

import hashlib
import io
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from .page_font import FONT_PATH, missing_chars

FONT_PX = 18
LINE_PX = 24
MARGIN_PX = 32
LINES_PER_PAGE = 60
MIN_WIDTH_PX = 420
JPEG_QUALITY = 60
PAGES_DIR = "pages"
KIND_WORDS = {"receipts": "a photographed receipt", "invoices": "a scanned invoice", "govforms": "a scanned form",
              "emails": "a printed email", "tables": "a scanned table", "sparse": "a scanned document"}


class RenderError(ValueError):
    """A document the page renderer can't draw (a character the bundled font lacks)."""


@lru_cache(maxsize=1)
def _font():
    from PIL import ImageFont

    return ImageFont.truetype(str(FONT_PATH), FONT_PX, layout_engine=ImageFont.Layout.BASIC)


def _rng(seed: int, item_id: str) -> np.random.Generator:
    digest = hashlib.sha256(f"{seed}\x1f{item_id}\x1fpages".encode("utf-8")).digest()
    return np.random.default_rng(int.from_bytes(digest[:16], "big"))


def page_chunks(text: str) -> list[list[str]]:
    lines = text.rstrip("\n").split("\n") or [""]
    return [lines[i:i + LINES_PER_PAGE] for i in range(0, len(lines), LINES_PER_PAGE)]


def _draw_lines(lines: list[str], ink: int, paper: int):
    """The lines drawn in mode L, ink on paper, with margins."""
    from PIL import Image, ImageDraw

    font = _font()
    shown = [line.replace("\t", "    ") for line in lines]
    width = max([MIN_WIDTH_PX] + [math.ceil(font.getlength(line)) + 2 * MARGIN_PX for line in shown])
    height = 2 * MARGIN_PX + LINE_PX * len(shown)
    image = Image.new("L", (width, height), paper)
    draw = ImageDraw.Draw(image)
    for n, line in enumerate(shown):
        draw.text((MARGIN_PX, MARGIN_PX + n * LINE_PX), line, fill=ink, font=font)
    return image


def _scan(lines: list[str]) -> bytes:
    """A clean 1-bit PNG."""
    image = _draw_lines(lines, 0, 255).point(lambda v: 255 if v >= 128 else 0).convert("1", dither=0)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _photo(lines: list[str], rng: np.random.Generator) -> bytes:
    """A receipt photographed on a table: low contrast, rotated, blurred, noisy grayscale JPEG."""
    from PIL import Image, ImageFilter

    paper = int(rng.integers(205, 236))
    ink = int(rng.integers(55, 115))
    slip = _draw_lines(lines, ink, paper)
    angle = float(rng.uniform(-4.0, 4.0))
    rotated = slip.rotate(angle, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=0)
    mask = Image.new("L", slip.size, 255).rotate(angle, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=0)
    pad = int(rng.integers(24, 56))
    w, h = rotated.size[0] + 2 * pad, rotated.size[1] + 2 * pad
    # the table: a smooth gradient between two darker tones, lit unevenly
    top, bottom = float(rng.uniform(60, 120)), float(rng.uniform(40, 100))
    yy, xx = np.mgrid[0:h, 0:w]
    light = 1.0 + 0.12 * np.cos(xx / w * math.pi * float(rng.uniform(0.5, 1.5)) + float(rng.uniform(0, math.pi)))
    table = (top + (bottom - top) * yy / max(h - 1, 1)) * light
    background = Image.fromarray(np.clip(table, 0, 255).astype(np.uint8), "L")
    background.paste(rotated, (pad, pad), mask)
    blurred = background.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.5, 1.1))))
    noisy = np.asarray(blurred, dtype=np.float64) + rng.normal(0.0, float(rng.uniform(2.0, 5.0)), (h, w))
    photo = Image.fromarray(np.clip(np.rint(noisy), 0, 255).astype(np.uint8), "L")
    out = io.BytesIO()
    photo.save(out, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def render_item(item: dict, seed: int) -> list[tuple[str, bytes, str]]:
    """(relative path, bytes, alt text) of each page of `item`'s document."""
    text = item["document"]["text"]
    if missing := missing_chars(text):
        raise RenderError(f"item {item['id']}: the page font lacks {''.join(missing)!r} "
                          "(rebuild it: generator.example.page_font.make_subset)")
    chunks = page_chunks(text)
    rng = _rng(seed, item["id"])
    photo = item["dataset"] == "receipts"
    first = next((line.strip() for line in text.split("\n") if line.strip()), "")[:80]
    kind = KIND_WORDS.get(item["dataset"], "a scanned document")
    pages = []
    for n, chunk in enumerate(chunks, start=1):
        data = _photo(chunk, rng) if photo else _scan(chunk)
        name = f"{PAGES_DIR}/{item['id']}-p{n}.{'jpg' if photo else 'png'}"
        alt = (f"Page {n} of {len(chunks)}: {kind} ({item['document']['locale']}), drawn from the item's "
               f"text; it begins “{first}”")
        pages.append((name, data, alt))
    return pages


def add_pages(items_dir: Path, items: list[dict], seed: int) -> list[Path]:
    """Render every item's pages into `items_dir`/pages/ and record them in its document."""
    written = []
    (Path(items_dir) / PAGES_DIR).mkdir(parents=True, exist_ok=True)
    for item in items:
        entries = []
        for name, data, alt in render_item(item, seed):
            path = Path(items_dir) / name
            path.write_bytes(data)
            written.append(path)
            entries.append({"path": name, "sha256": hashlib.sha256(data).hexdigest(), "alt": alt})
        item["document"]["pages"] = entries
    return written
