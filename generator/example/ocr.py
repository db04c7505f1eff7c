"""A real image baseline: Tesseract OCR of the page images, then the rule-based extractor.

`ocr_page(data, locale)` prepares the image the usual way (grayscale; for a page photographed on a
darker background: crop to the bright paper, straighten it by the angle whose row profile is
sharpest, enlarge it twice; stretch the contrast; threshold a fixed distance below the paper's
median) and runs
Debian's `tesseract` (packages tesseract-ocr and tesseract-ocr-{eng,deu,fra,spa,jpn}) on it in a
subprocess, in the language of the document's locale, as one block of text. `ocr_answer` joins the
pages' text and gives it to `generator.example.extractor.extract` in place of the item's text.

It reads only the pixels it is sent, the locale, the reference date and the requested fields:
never the item's text or answers. Tesseract is deterministic for one version and language data, so
the stored run's responses can be checked against a fresh OCR of the same pages.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess

import numpy as np

# The rule extractor of baseline-rules given page images: the same model and provider, another input kind,
# so the site pairs the two runs (what reading pixels costs it).
OCR_BASELINE = {"run_id": "baseline-ocr-rules", "model": "tally-rule-extractor", "provider": "local",
                "hosting": "self-hosted"}
LANGUAGES = {"en-US": "eng", "en-GB": "eng", "de-DE": "deu", "fr-FR": "fra", "es-MX": "spa", "ja-JP": "jpn+eng"}
TESSERACT = "tesseract"
SCALE = 2  # enlargement of a photographed page
BELOW_PAPER = 40  # threshold: this many grey levels below the paper's median
ANGLES = [a / 2 for a in range(-12, 13)]  # -6 to 6 degrees
TIMEOUT_S = 120


class OcrError(RuntimeError):
    """Tesseract is missing, lacks a language, or failed on a page."""


def available() -> bool:
    return shutil.which(TESSERACT) is not None


def version() -> str:
    """Tesseract's version line (e.g. "tesseract 5.3.0")."""
    if not available():
        raise OcrError("tesseract is not installed (Debian: apt-get install tesseract-ocr)")
    out = subprocess.run([TESSERACT, "--version"], capture_output=True, text=True, check=False, timeout=30)
    return (out.stdout or out.stderr).splitlines()[0].strip()


def _sharpness(gray: np.ndarray) -> float:
    ink = (gray < np.median(gray) - BELOW_PAPER).sum(axis=1).astype(np.float64)
    return float(((ink[1:] - ink[:-1]) ** 2).sum())


def prepare(data: bytes) -> bytes:
    """The page image as Tesseract is given it: a straightened, enlarged, thresholded PNG."""
    from PIL import Image, ImageOps

    image = Image.open(io.BytesIO(data))
    image.load()
    gray = image.convert("L")
    pixels = np.asarray(gray)
    if (pixels < 128).mean() > 0.2:  # a page photographed on a darker surface: keep the paper, straighten it
        ys, xs = np.nonzero(pixels > 150)
        if len(xs):
            gray = gray.crop((int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1))
        small = gray.reduce(2) if min(gray.size) > 400 else gray
        angle = max(ANGLES, key=lambda a: (_sharpness(np.asarray(small.rotate(a, fillcolor=255))), -abs(a)))
        if angle:
            gray = gray.rotate(angle, resample=Image.Resampling.BILINEAR, fillcolor=255)
        gray = gray.resize((gray.width * SCALE, gray.height * SCALE), Image.Resampling.LANCZOS)  # blurred: enlarge
    big = ImageOps.autocontrast(gray, cutoff=1)
    values = np.asarray(big)
    binary = Image.fromarray(np.where(values > np.median(values) - BELOW_PAPER, 255, 0).astype(np.uint8), "L")
    out = io.BytesIO()
    binary.save(out, format="PNG")
    return out.getvalue()


def ocr_page(data: bytes, locale: str) -> str:
    """The text Tesseract reads on one page (blank lines dropped)."""
    if not available():
        raise OcrError("tesseract is not installed (Debian: apt-get install tesseract-ocr)")
    lang = LANGUAGES.get(locale, "eng")
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}  # one thread: deterministic and polite
    done = subprocess.run([TESSERACT, "stdin", "stdout", "-l", lang, "--psm", "6", "--dpi", "200",
                           "-c", "preserve_interword_spaces=1"], input=prepare(data), capture_output=True,
                          check=False, timeout=TIMEOUT_S, env=env)
    if done.returncode != 0:
        raise OcrError(f"tesseract failed ({lang}): {done.stderr.decode('utf-8', 'replace')[:300]}")
    text = done.stdout.decode("utf-8", "replace").replace("\x0c", "")
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip()) + "\n"


def ocr_document(pages: list[bytes], locale: str) -> str:
    return "".join(ocr_page(p, locale) for p in pages)


def ocr_answer(item: dict, pages: list[bytes]) -> str:
    """The baseline's answer: the extractor's reading of the OCR text, in the answer format."""
    from .extractor import extract
    from .prompt import encode_value, to_json

    seen = {**item, "document": {**item["document"], "text": ocr_document(pages, item["document"]["locale"])}}
    found = extract(seen)
    return to_json({f["name"]: encode_value(f, found.get(f["name"])) for f in item["fields"]})
