"""Where a built site's bytes are: totals, bytes by kind of file, the pages over the page limit, and the
bytes of each kind of block (pre, script, table, svg, style, by class or id) inside the largest pages.

    python bench/site_size.py [SITE] [--top 10] [--limit 307200]

SITE defaults to site/ (the README's `tally site build`). A kind of file is its folder with the file
name replaced by `*` when the folder holds more than one file of that extension (every item page of a
suite is one kind); blocks nested in another counted block are counted in both.
"""

from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path

BLOCK = re.compile(rb"<(pre|script|table|svg|style)\b([^>]*)>.*?</\1>", re.S)
NAME = re.compile(rb'(?:class|id)="([^" ]*)')


def kinds(site: Path) -> dict[str, tuple[int, int]]:
    """kind -> (bytes, files)."""
    files = [p for p in site.rglob("*") if p.is_file()]
    per_folder = collections.Counter((p.parent, p.suffix) for p in files)
    out: dict[str, list[int]] = {}
    for p in files:
        rel = p.relative_to(site)
        kind = (rel.parent / f"*{p.suffix}").as_posix() if per_folder[p.parent, p.suffix] > 1 else rel.as_posix()
        entry = out.setdefault(kind, [0, 0])
        entry[0] += p.stat().st_size
        entry[1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def blocks(data: bytes) -> collections.Counter:
    """Bytes by kind of block (tag.class-or-id) in one page."""
    out: collections.Counter = collections.Counter()
    for m in BLOCK.finditer(data):
        name = NAME.search(m.group(2))
        out[m.group(1).decode() + "." + (name.group(1).decode() if name else "")] += len(m.group(0))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site", nargs="?", default="site", type=Path)
    ap.add_argument("--top", type=int, default=10, help="how many kinds, pages and blocks to list")
    ap.add_argument("--limit", type=int, default=300 * 1024, help="the page limit in bytes")
    args = ap.parse_args()
    site: Path = args.site
    by_kind = kinds(site)
    total = sum(b for b, _ in by_kind.values())
    files = sum(n for _, n in by_kind.values())
    pages = sorted(((p.stat().st_size, p.relative_to(site).as_posix()) for p in site.rglob("*.html")), reverse=True)
    over = [(b, p) for b, p in pages if b > args.limit]
    print(f"total {total:,} bytes in {files:,} files; {len(pages):,} pages, {len(over)} over {args.limit:,} bytes; "
          f"largest page {pages[0][0]:,} ({pages[0][1]})" if pages else f"total {total:,} bytes in {files:,} files")
    print("\nbytes by kind of file:")
    for kind, (b, n) in sorted(by_kind.items(), key=lambda kv: -kv[1][0])[:args.top]:
        print(f"{b:>13,} {b / total:6.1%} {n:6,}  {kind}")
    print(f"\npages over {args.limit:,} bytes:" if over else "\nlargest pages:")
    for b, p in (over or pages)[:args.top]:
        print(f"{b:>13,}  {p}")
    print("\nblocks inside the largest pages:")
    for b, p in pages[:args.top]:
        print(f"{b:>13,}  {p}")
        for name, n in blocks((site / p).read_bytes()).most_common(4):
            print(f"{n:>21,} {n / b:6.1%}  {name}")
    html: collections.Counter = collections.Counter()
    for b, p in pages:
        html.update(blocks((site / p).read_bytes()))
    print("\nblocks over all pages:")
    for name, n in html.most_common(args.top):
        print(f"{n:>13,} {n / total:6.1%}  {name}")


if __name__ == "__main__":
    main()
