"""Page images of RA-Bench's example receipts: one page per case, byte-reproducible.

Each page shows the receipt's clean print (the label's truth; the case's text is what a reader of the
page returns). By the plan's source: a photo is a grayscale JPEG of the slip on a table (the extracting
suite's photo look, `page_render`), a scan or a digital PDF's page a 1-bit PNG. Photos come as phones
store them, so that the file preparation of plain-prompt targets (`generator.suites.rabench.prepare`:
upright, at most 3072 px and 3.75 MB) has work to do: about 3 in 10 are stored sideways or upside down
with an EXIF orientation (6, 8 or 3) and about 1 in 12 at a phone camera's size (4032 px on the longer
side). Duplicate transforms: a re-encoded copy is the original's page saved again as a JPEG of lower
quality (same pixels and orientation), a cropped copy is the original's upright page without its top
eighth, and a re-shot copy a new photo of the original's print. Randomness comes from numpy generators
seeded from (seed, case id); Pillow is pinned.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from .page_render import PAGES_DIR, _photo, _rng, _scan

PHONE_SIDE = 4032  # pixels: the longer side of a 12-megapixel phone photo
FULL_SIZE_QUALITY = 30
RE_ENCODED_QUALITY = 35
PHOTO_QUALITY = 60
ORIENTATION = 0x0112
# the transpose that stores an upright image so that EXIF orientation n turns it upright again
STORED = {6: "ROTATE_90", 8: "ROTATE_270", 3: "ROTATE_180"}
WORDS = {1: "", 6: ", stored sideways (EXIF orientation 6)", 8: ", stored sideways (EXIF orientation 8)",
         3: ", stored upside down (EXIF orientation 3)"}


def _image(data: bytes):
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _jpeg(image, quality: int, turn: int = 1) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    if turn == 1:
        image.save(out, format="JPEG", quality=quality, optimize=True)
    else:
        exif = Image.Exif()
        exif[ORIENTATION] = turn
        image.save(out, format="JPEG", quality=quality, optimize=True, exif=exif.tobytes())
    return out.getvalue()


def _png(image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _stored(upright, turn: int):
    from PIL import Image

    return upright if turn == 1 else upright.transpose(getattr(Image.Transpose, STORED[turn]))


def base_page(case: dict, text: str, plan: dict, seed: int) -> tuple[bytes, str, object]:
    """(bytes, suffix, upright image) of a base case's page."""
    from PIL import Image

    lines = text.split("\n")
    if case["strata"]["source"] != "photo":
        data = _scan(lines)
        return data, "png", _image(data)
    photo = _photo(lines, _rng(seed, case["id"]))
    upright = _image(photo)
    if plan["orientation"] == 1 and not plan["full_size"]:
        return photo, "jpg", upright
    if plan["full_size"]:
        w, h = upright.size
        size = (PHONE_SIDE, round(h * PHONE_SIDE / w)) if w >= h else (round(w * PHONE_SIDE / h), PHONE_SIDE)
        upright = upright.resize(size, Image.Resampling.BICUBIC)
        return _jpeg(_stored(upright, plan["orientation"]), FULL_SIZE_QUALITY, plan["orientation"]), "jpg", upright
    data = _jpeg(_stored(upright, plan["orientation"]), PHOTO_QUALITY, plan["orientation"])
    return data, "jpg", upright


def transform_page(case: dict, original: tuple[bytes, str, object], text: str, seed: int) -> tuple[bytes, str]:
    """(bytes, suffix) of a duplicate transform's page, from its original's page and print."""
    data, suffix, upright = original
    kind = case["label"]["lineage"]["transform"]
    if kind == "re_encoded":
        image = _image(data)
        turn = image.getexif().get(ORIENTATION, 1)
        return _jpeg(image.convert("L"), RE_ENCODED_QUALITY, turn), "jpg"
    if kind == "cropped":
        w, h = upright.size  # type: ignore[attr-defined]
        cut = upright.crop((0, h // 8, w, h))  # type: ignore[attr-defined]
        return (_png(cut) if suffix == "png" else _jpeg(cut, PHOTO_QUALITY)), suffix
    return _photo(text.split("\n"), _rng(seed, case["id"])), "jpg"


def _alt(case: dict, text: str, source: str, turn: int, size: tuple[int, int]) -> str:
    kind = {"photo": "a photographed receipt", "scan": "a scanned receipt", "pdf": "a digital PDF receipt's page"}
    first = next((line.strip() for line in text.split("\n") if line.strip()), "")[:60]
    lineage = case["label"]["lineage"]
    what = (f"a {lineage['transform'].replace('_', '-')} copy of {lineage['original']}" if lineage
            else kind[source])
    return (f"Page 1 of 1: {what}{WORDS.get(turn, '')}, {size[0]} x {size[1]} pixels as stored, drawn from the "
            f"receipt's print; it begins “{first}”")


def add_pages(items_dir: Path, cases: list[dict], printed: dict[str, tuple[str, dict]], seed: int) -> list[Path]:
    """Write every case's page into `items_dir`/pages/ and record it in the case's document."""
    pages_dir = Path(items_dir) / PAGES_DIR
    pages_dir.mkdir(parents=True, exist_ok=True)
    made: dict[str, tuple[bytes, str, object]] = {}
    written = []
    for case in cases:
        lineage = case["label"]["lineage"]
        if lineage is None:
            text, plan = printed[case["id"]]
            made[case["id"]] = base_page(case, text, plan, seed)
            data, suffix = made[case["id"]][:2]
            source = case["strata"]["source"]
        else:
            text, plan = printed[lineage["original"]]
            data, suffix = transform_page(case, made[lineage["original"]], text, seed)
            source = "photo"
        image = _image(data)
        name = f"{PAGES_DIR}/{case['id']}-p1.{suffix}"
        path = Path(items_dir) / name
        path.write_bytes(data)
        written.append(path)
        turn = image.getexif().get(ORIENTATION, 1)
        case["document"]["pages"] = [{"path": name, "sha256": hashlib.sha256(data).hexdigest(),
                                      "alt": _alt(case, text, source, turn, image.size)}]
    return written
