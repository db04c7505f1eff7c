"""RA-Bench's receipts carry page images, and plain-prompt targets get the seed's file preparation
(upright, at most 3072 px and 3.75 MB): `generator.suites.rabench.prepare` and the harness's requests."""

from __future__ import annotations

import base64
import hashlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from generator.inputs.page_images import PageError, read_page
from generator.suites.rabench.prepare import MAX_BYTES, MAX_SIDE, orientation, prepare_page

ROOT = Path(__file__).resolve().parents[1]
ITEMS = ROOT / "content" / "suites" / "ra-bench" / "items"


def upright_image(size=(60, 40)) -> Image.Image:
    """An asymmetric test card: every rotation and mirroring of it differs."""
    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    pixels[:5, :10] = (255, 0, 0)  # a red mark in the top left corner
    return Image.fromarray(pixels, "RGB")


def encoded(image: Image.Image, fmt: str, turn: int = 1, **options) -> bytes:
    out = io.BytesIO()
    if turn != 1:
        exif = Image.Exif()
        exif[0x0112] = turn
        options["exif"] = exif.tobytes()
    image.save(out, format=fmt, **options)
    return out.getvalue()


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


# orientation n: how a camera stores an upright picture so that the EXIF tag n turns it upright again
STORE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
         6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


def test_a_page_within_the_limits_is_sent_byte_for_byte():
    data = encoded(upright_image(), "PNG")
    assert prepare_page(data) == data


@pytest.mark.parametrize("turn", sorted(STORE))
def test_a_page_is_turned_upright_by_its_exif_orientation(turn):
    card = upright_image()
    stored = encoded(card.transpose(STORE[turn]), "PNG", turn)  # lossless: pixels compare exactly
    assert orientation(decoded(stored)) == turn
    out = prepare_page(stored)
    got = decoded(out)
    assert got.format == "PNG" and orientation(got) == 1 and 0x0112 not in got.getexif()
    assert got.size == card.size and np.array_equal(np.asarray(got), np.asarray(card))


def test_a_page_longer_than_3072_px_is_scaled_down_keeping_its_shape():
    wide = Image.new("L", (5000, 1000), 230)
    out = prepare_page(encoded(wide, "JPEG", quality=80))
    got = decoded(out)
    assert got.format == "JPEG" and got.size == (MAX_SIDE, 614)  # 1000 x 3072 / 5000 = 614.4
    tall = prepare_page(encoded(Image.new("L", (900, 4032), 230), "JPEG", 6, quality=80))
    assert decoded(tall).size == (MAX_SIDE, 686)  # turned upright (4032 x 900), then scaled: 900 x 3072 / 4032


def test_a_page_over_3_75_mb_is_encoded_again_until_it_fits():
    noise = np.random.default_rng(3).integers(0, 256, (2000, 2000, 3), dtype=np.uint8)
    data = encoded(Image.fromarray(noise, "RGB"), "PNG")
    assert len(data) > MAX_BYTES and MAX_BYTES == 3_750_000
    out = prepare_page(data)
    got = decoded(out)
    assert len(out) <= MAX_BYTES and got.format == "JPEG" and got.size == (2000, 2000)
    assert prepare_page(data) == out  # the same page gives the same bytes


def test_bytes_that_are_no_image_are_refused():
    with pytest.raises(PageError):
        prepare_page(b"GIF89a not a page")
    with pytest.raises(PageError):
        prepare_page(b"\x89PNG\r\n\x1a\n broken")


def example_items() -> list[dict]:
    return [json.loads(line) for p in sorted(ITEMS.glob("*.jsonl")) for line in p.read_text("utf-8").splitlines()]


def test_every_example_receipt_has_a_page_and_its_prepared_page_is_within_the_limits():
    items = example_items()
    assert len(items) == 384 and all(len(i["document"]["pages"]) == 1 for i in items)
    turned = large = untouched = 0
    for item in items:
        data = read_page(ITEMS, item["document"]["pages"][0])  # checked: hash, type, decodes whole
        stored = decoded(data)
        out = prepare_page(data)
        got = decoded(out)
        assert orientation(got) == 1 and max(got.size) <= MAX_SIDE and len(out) <= MAX_BYTES, item["id"]
        if orientation(stored) != 1:
            turned += 1
            w, h = stored.size
            if max(w, h) <= MAX_SIDE:  # turned, not scaled: a quarter turn swaps the sides
                assert got.size == ((h, w) if orientation(stored) in (6, 8) else (w, h)), item["id"]
        large += max(stored.size) > MAX_SIDE
        untouched += out == data
    assert turned >= 20 and large >= 4 and untouched >= 300  # the example exercises every step


def test_the_harness_sends_the_prepared_pages():
    """`tally run ra-bench --input image` (the plan's messages): each image part holds the prepared page,
    and the stored request its SHA-256."""
    from generator.harness.images import image_bytes, image_hashes, stored_request
    from generator.harness.plan import load_plan

    plan = load_plan(ROOT, "ra-bench", "both")
    sideways = [i for i in plan.items if "sideways" in i["document"]["pages"][0]["alt"]][:3]
    large = [i for i in plan.items if "4032" in i["document"]["pages"][0]["alt"]][:2]
    assert sideways and large
    for item in sideways + large + plan.items[:2]:
        original = read_page(ITEMS, item["document"]["pages"][0])
        messages = plan.messages(item, "image")
        [sent] = image_bytes(messages)
        assert sent == prepare_page(original)
        got = decoded(sent)
        assert orientation(got) == 1 and max(got.size) <= MAX_SIDE and len(sent) <= MAX_BYTES
        request = stored_request({"model": "m", "messages": messages})
        assert image_hashes(request["messages"]) == [hashlib.sha256(sent).hexdigest()]
        url = messages[-1]["content"][1]["image_url"]["url"]
        assert base64.b64decode(url.split(",", 1)[1]) == sent
    assert image_bytes(plan.messages(sideways[0], "image")) != [read_page(ITEMS, sideways[0]["document"]["pages"][0])]


def test_item_pages_show_a_sideways_photo_with_its_upright_size():
    from generator.render.pages.items import shown_size

    [item] = [i for i in example_items() if "orientation 6" in i["document"]["pages"][0]["alt"]][:1]
    with Image.open(ITEMS / item["document"]["pages"][0]["path"]) as image:
        w, h = image.size
        assert shown_size(image) == (h, w) and w != h
    assert shown_size(upright_image()) == (60, 40)


def test_a_page_read_at_load_gives_item_pages_its_shown_size():
    """read_page keeps the shown size of each page it read and checked (by its SHA-256), so item pages
    need not open it again: the same size as opening the file, upright for a sideways photo."""
    from generator.inputs.page_images import known_shown_size
    from generator.render.pages.items import shown_size

    for item in [i for i in example_items() if "orientation 6" in i["document"]["pages"][0]["alt"]][:1] \
            + example_items()[:2]:
        page = item["document"]["pages"][0]
        read_page(ITEMS, page)
        with Image.open(ITEMS / page["path"]) as image:
            assert known_shown_size(page["sha256"]) == shown_size(image)
    assert known_shown_size("0" * 64) is None
