"""The example site: image-input runs apart from text runs, the paired text-versus-image view, and
page images on item pages (lazy-loaded, width-limited, alt text from the item, published files equal
to the committed ones)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from tests.site_support import REPO, example_site

ITEMS = REPO / "content" / "suites" / "extracting" / "items"


@pytest.fixture(scope="module")
def site() -> Path:
    return example_site()


def _section(page: str) -> str:
    start = page.index('<h2 id="inputs">')
    return page[start:page.index("</section>", start)]


def test_suite_page_ranks_image_runs_apart_and_pairs_them_with_text(site):
    page = (site / "suites" / "extracting" / "index.html").read_text(encoding="utf-8")
    stats = json.loads((site / "downloads" / "extracting" / "stats.json").read_text(encoding="utf-8"))
    image_runs = set(stats["inputs"]["image"]["runs"])
    assert image_runs == {"acme-lynx-1-cloudco-image", "orbit-medium-3-orbitai-image", "pebble-mini-budgetapi-image",
                          "baseline-ocr-rules"}
    assert not image_runs & set(stats["runs"])  # the text leaderboards hold no image run
    section = _section(page)
    assert 'id="input-image-board"' in section and 'id="input-image-paired"' in section
    paired = stats["inputs"]["image"]["paired"]
    assert set(paired) == image_runs  # every image run has the text run of its model and provider
    assert paired["baseline-ocr-rules"]["text_run"] == "baseline-rules"
    for row in paired.values():
        assert row["low"] <= row["difference"] <= row["high"]
    board = section[section.index('id="input-image-board"'):section.index('id="input-image-paired"')]
    assert board.count("(simulated)") == 3 and "tally-rule-extractor" in board
    assert "Example data" in section


def test_item_pages_show_the_page_images(site):
    item = json.loads((ITEMS / "receipts.public.jsonl").read_text(encoding="utf-8").splitlines()[0])
    page = (site / "suites" / "extracting" / "items" / f"{item['id']}.html").read_text(encoding="utf-8")
    images = re.findall(r"<img [^>]*>", page)
    assert len(images) == len(item["document"]["pages"]) >= 1
    for tag, entry in zip(images, item["document"]["pages"]):
        assert 'loading="lazy"' in tag and html.unescape(re.search(r'alt="([^"]*)"', tag).group(1)) == entry["alt"]
        width = int(re.search(r'width="(\d+)"', tag).group(1))
        assert 0 < width <= 720
        src = re.search(r'src="([^"]+)"', tag).group(1)
        published = (site / "suites" / "extracting" / "items" / src).resolve()
        assert published.read_bytes() == (ITEMS / entry["path"]).read_bytes()
    assert page.count("This run was given the document as page images, not its text (input image).") == 4
    private = json.loads((ITEMS / "receipts.private.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert not list(site.rglob(f"{private['id']}*"))  # private items have no page and no images
