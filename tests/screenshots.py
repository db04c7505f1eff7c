"""A screenshot of every page type at 390, 1400 and 1920 px, for a reviewer to look at:

    python -m tests.screenshots OUTDIR [--site SITE] [--dark]

Without --site it builds the example's extracting suite (as the browser tests do) and shoots that,
then the au-bas example's round-by-round history (a model page) and anchor comparison (a provider page).
Writes OUTDIR/<width>/<type>.png (the first screen, 900 px high) and OUTDIR/<width>/<type>-full.png
(the whole page), with Debian's chromium.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tests.site_browser import Watched, chromium, page_types
from tests.site_support import aubas_site, example_site, missing_browser

WIDTHS = (390, 1400, 1920)


ROUNDS = {"model-history": "models/abacus-slip-2.html", "provider-anchors": "providers/cloudco.html"}


def shoot(site: Path, out: Path, dark: bool = False, pages: dict[str, str] | None = None) -> list[Path]:
    written = []
    with chromium() as browser:
        for width in WIDTHS:
            ctx = browser.new_context(viewport={"width": width, "height": 900},
                                      color_scheme="dark" if dark else "light")
            folder = out / str(width)
            folder.mkdir(parents=True, exist_ok=True)
            for kind, path in (page_types(site) if pages is None else pages).items():
                w = Watched(ctx, site).open(path)
                w.page.wait_for_timeout(300)  # charts drawn
                for name, full in ((f"{kind}.png", False), (f"{kind}-full.png", True)):
                    w.page.screenshot(path=str(folder / name), full_page=full)
                    written.append(folder / name)
                if w.errors:
                    print(f"{width} {kind}: {w.errors}")
                w.page.close()
            ctx.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--site", type=Path, default=None, help="a built site (default: build the example's)")
    parser.add_argument("--dark", action="store_true", help="the dark theme")
    args = parser.parse_args()
    if missing_browser():
        raise SystemExit(missing_browser())
    site = args.site.resolve() if args.site else example_site()
    written = shoot(site, args.out, args.dark)
    if args.site is None:
        written += shoot(aubas_site(), args.out, args.dark, ROUNDS)
    print(f"wrote {len(written)} screenshots of {site} to {args.out}")


if __name__ == "__main__":
    main()
