"""RA-Bench's file preparation (the seed: "DIY targets get the same file preparation as our engine
(upright, at most 3072 px and 3.75 MB) so that API size limits don't count against them").

`prepare_page` takes the bytes of a checked page image (PNG or JPEG, `generator.page_images`) and
returns the bytes sent to a plain-prompt target:

1. A page that is upright (no EXIF orientation, or orientation 1), at most MAX_SIDE pixels on its
   longer side and at most MAX_BYTES bytes is sent as it is, byte for byte.
2. Otherwise it is decoded and turned upright by its EXIF orientation (the eight orientations: rotations
   and mirrorings), then scaled down (Lanczos) so that its longer side is MAX_SIDE pixels when it was
   longer, keeping the aspect ratio (each side rounded, at least 1 pixel).
3. It is encoded again, with no metadata (the orientation is now in the pixels): a PNG as PNG when that
   fits in MAX_BYTES; otherwise (and every JPEG) as JPEG at the first quality of QUALITIES that fits;
   when none fits, the image is scaled by 3/4 and step 3 is repeated.

MAX_BYTES is 3,750,000 bytes *(choice: "3.75 MB" read in decimal megabytes, the smaller reading, so
a prepared page fits under either)*. Pillow is pinned (pyproject.toml): the same page gives the same
bytes.
"""

from __future__ import annotations

import io

from ...page_images import PageError, media_type

MAX_SIDE = 3072
MAX_BYTES = 3_750_000
QUALITIES = (90, 80, 70, 60, 50, 40)
ORIENTATION = 0x0112  # the EXIF tag


def orientation(image) -> int:
    """The image's EXIF orientation, 1 (upright) when absent or not one of the eight values."""
    value = image.getexif().get(ORIENTATION, 1)
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def prepare_page(data: bytes) -> bytes:
    """The page as sent to a plain-prompt target (module docstring); PageError for bytes that are not
    a PNG or JPEG image Pillow can decode."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    kind = media_type(data)
    if kind is None:
        raise PageError("not a PNG or JPEG image: nothing to prepare")
    try:
        with Image.open(io.BytesIO(data), formats=["PNG" if kind == "image/png" else "JPEG"]) as image:
            image.load()
            turn = orientation(image)
            if turn == 1 and max(image.size) <= MAX_SIDE and len(data) <= MAX_BYTES:
                return data
            upright = ImageOps.exif_transpose(image) if turn != 1 else image.copy()
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise PageError(f"the page can't be prepared: Pillow can't decode it ({type(exc).__name__})") from None
    upright = _within(upright, MAX_SIDE)
    while True:
        out = _encode(upright, kind)
        if out is not None:
            return out
        upright = _within(upright, max(1, max(upright.size) * 3 // 4))


def _within(image, side: int):
    """The image scaled down (Lanczos) so that its longer side is `side` when it is longer."""
    from PIL import Image

    w, h = image.size
    if max(w, h) <= side:
        return image
    size = (side, max(1, round(h * side / w))) if w >= h else (max(1, round(w * side / h)), side)
    return image.resize(size, Image.Resampling.LANCZOS)


def _encode(image, kind: str) -> bytes | None:
    """The image as PNG (a PNG page, when it fits) or JPEG at the first quality that fits; None if none does."""
    from PIL import Image

    if kind == "image/png":
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=True)
        if out.tell() <= MAX_BYTES:
            return out.getvalue()
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        image = flat
    elif image.mode not in ("L", "RGB"):
        image = image.convert("L" if image.mode in ("1", "I", "I;16", "F") else "RGB")
    for quality in QUALITIES:
        out = io.BytesIO()
        image.save(out, format="JPEG", quality=quality, optimize=True)
        if out.tell() <= MAX_BYTES:
            return out.getvalue()
    return None
