"""Page images that carry the right signature, size and SHA-256 but are not whole images of a bounded
size (signature only, width 0, garbage JPEG, a decompression bomb, 144 megapixels, truncated PNG and
JPEG, a broken checksum) are refused when the items are loaded: one error naming the items file, its
line and the page, exit status 2, no traceback, nothing scored or written."""

from __future__ import annotations

import hashlib
import io
import struct
import time
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main
from generator.inputs.page_images import MAX_PAGE_PIXELS, decode_problem
from tests.conftest import write_jsonl
from tests.site_support import copy_example

REPO = Path(__file__).resolve().parents[1]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(width: int, height: int, raw: bytes | None = None) -> bytes:
    """A 1-bit grey PNG of the given header size; its pixel rows all white unless `raw` is given."""
    if raw is None:
        raw = (b"\0" + b"\xff" * ((width + 7) // 8)) * height
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b"")


def _encoded(fmt: str) -> bytes:
    buf = io.BytesIO()
    Image.effect_noise((160, 120), 60).save(buf, fmt)
    return buf.getvalue()


GOOD_PNG, GOOD_JPEG = _encoded("PNG"), _encoded("JPEG")
VARIANTS = {  # name: (file name, bytes, what the error says)
    "signature only": ("p.png", b"\x89PNG\r\n\x1a\n", "header is broken"),
    "width 0": ("p.png", _png(0, 10, b"\0" * 10), "header is broken"),
    "garbage JPEG": ("p.jpg", b"\xff\xd8\xff" + bytes(range(256)) * 8, "header is broken"),
    "decompression bomb": ("p.png", _png(30_000, 30_000, b""), "too large to decode"),
    "144 megapixels": ("p.png", _png(12_000, 12_000), "too large to decode"),
    "truncated PNG": ("p.png", GOOD_PNG[: len(GOOD_PNG) // 2], "Pillow can't decode it"),
    "PNG without its end": ("p.png", GOOD_PNG[:-12], "truncated PNG file"),
    "truncated JPEG": ("p.jpg", GOOD_JPEG[: len(GOOD_JPEG) // 2], "image file is truncated"),
    "broken checksum": ("p.png", GOOD_PNG[:-20] + bytes([GOOD_PNG[-20] ^ 1]) + GOOD_PNG[-19:], "Pillow"),
}


def test_whole_images_decode_and_the_limits_hold():
    assert decode_problem(GOOD_PNG, "image/png") is None and decode_problem(GOOD_JPEG, "image/jpeg") is None
    assert decode_problem(_png(2000, 3000), "image/png") is None  # a page of 6 megapixels is fine
    problem = decode_problem(_png(8000, 6000), "image/png")  # 48 megapixels: under Pillow's own limit
    assert problem is not None and f"{MAX_PAGE_PIXELS:,} pixels in all" in problem
    assert "12,000 pixels a side" in decode_problem(_png(12_001, 10), "image/png")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_page_that_does_not_decode_is_an_input_error(project, variant):
    name, data, message = VARIANTS[variant]
    rows = project.items["receipts.public"]
    page = project.suite_dir / "items" / "pages" / name
    page.parent.mkdir()
    page.write_bytes(data)
    rows[1]["document"]["pages"] = [{"path": f"pages/{name}", "sha256": hashlib.sha256(data).hexdigest(),
                                     "alt": "Page 1"}]
    write_jsonl(project.suite_dir / "items" / "receipts.public.jsonl", rows)
    result = CliRunner().invoke(main, ["rescore", "--root", str(project.root), "-q", "--skip-scorer-b"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "0x" not in result.output, result.output
    lines = [line for line in result.output.splitlines() if f"pages/{name}" in line]
    assert len(lines) == 1 and "receipts.public.jsonl:2" in lines[0] and message in lines[0], result.output
    assert not (project.root / "build" / "rescore").exists()


@pytest.fixture(scope="module")
def example_copy(tmp_path_factory) -> Path:
    """The example's extracting suite (content and results), copied."""
    return copy_example(tmp_path_factory.mktemp("example"), "extracting")


def test_a_truncated_page_of_the_example_stops_the_site_build_at_once(example_copy):
    items = example_copy / "content/suites/extracting/items"
    target = items / "pages" / "invoices-pub-0001-p1.png"
    data = target.read_bytes()
    cut = data[: len(data) * 2 // 3]
    target.write_bytes(cut)
    listing = items / "invoices.public.jsonl"
    text = listing.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "invoices-pub-0001-p1.png" in row)
    listing.write_text(text.replace(hashlib.sha256(data).hexdigest(), hashlib.sha256(cut).hexdigest()),
                       encoding="utf-8")
    start = time.perf_counter()
    result = CliRunner().invoke(main, ["site", "build", "--root", str(example_copy), "-q", "--no-cache"])
    took = time.perf_counter() - start
    assert result.exit_code == 2, result.output
    assert f"content/suites/extracting/items/invoices.public.jsonl:{line}: document.pages[0]: " \
           "pages/invoices-pub-0001-p1.png: not a whole PNG image" in result.output, result.output
    assert "Traceback" not in result.output
    assert not (example_copy / "site").exists() and not (example_copy / "build" / "rescore").exists()
    assert took < 60, took  # stopped at loading, long before scoring and the pages
