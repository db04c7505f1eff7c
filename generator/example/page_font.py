"""The font of the example page images: Noto Sans Mono CJK JP Regular (SIL Open Font License 1.1,
fonts/OFL.txt), subset to the characters the example corpus prints.

A monospaced face keeps the documents' column alignment: Latin characters take one cell, CJK
characters two. The subset is committed (fonts/PageMono-subset.otf); `make_subset` rebuilds it
from Debian's fonts-noto-cjk with fontTools when the corpus prints a character it lacks
(`missing_chars` names them, and rendering refuses such a document). Its cmap is listed in
fonts/PageMono-subset.chars.txt.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

FONT_DIR = Path(__file__).parent / "fonts"
FONT_PATH = FONT_DIR / "PageMono-subset.otf"
CHARS_PATH = FONT_DIR / "PageMono-subset.chars.txt"  # the characters of its cmap, in code point order
SOURCE_TTC = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SOURCE_INDEX = 5  # "Noto Sans Mono CJK JP" in the collection


@lru_cache(maxsize=1)
def covered() -> frozenset[str]:
    """The characters the bundled subset has glyphs for (listed beside it by `make_subset`)."""
    return frozenset(CHARS_PATH.read_text(encoding="utf-8"))


def missing_chars(text: str) -> list[str]:
    have = covered()
    return sorted({c for c in text if c not in have and c not in "\n\t" and not c.isspace()})


def make_subset(chars: set[str], out: Path = FONT_PATH, source: Path = SOURCE_TTC) -> Path:
    """Write the subset of the source face holding `chars` (needs fontTools; not used at build time)."""
    from fontTools import subset

    options = subset.Options()
    options.font_number = SOURCE_INDEX
    options.layout_features = []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.desubroutinize = True
    font = subset.load_font(str(source), options)
    sub = subset.Subsetter(options)
    sub.populate(text="".join(sorted(chars | {" "})))
    sub.subset(font)
    cmap = font.getBestCmap()
    subset.save_font(font, str(out), options)
    kept = "".join(sorted(chr(c) for c in cmap if c >= 0x20))
    out.with_name(out.stem + ".chars.txt").write_text(kept, encoding="utf-8")
    return out
