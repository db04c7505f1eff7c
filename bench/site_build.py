"""Build the site for a large generated leaderboard and report time, pages per second and peak memory.

The leaderboard scales the example: every item is copied under new ids up to --items (default 6,000,
half public, so 3,000 public item pages), and the example runs are copied under new model names up
to --runs run groups (default 40), each answering the copies as the original run answered the
original item. Time is split by stage (rescore, gate, statistics, each kind of page, downloads).

    python bench/site_build.py [--items 6000] [--runs 40] [--resamples 1000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.render.build import build_site  # noqa: E402

SUITE = "extracting"
PRIVATE_TAG = "-p"  # in the ids of the private copies


def scale_items(src: Path, dst: Path, per_file: int) -> dict[str, list[str]]:
    """Copy every items file, each item repeated under new ids up to per_file items; id -> copies.

    A private file is made of copies of its public twin's items (marked private): the example's private
    records are sealed, and a sealed box opens only with its own item, so a copy of one under a new id
    would not open; the public records are copied instead, as the runs answered their public items."""
    copies: dict[str, list[str]] = {}
    dst.mkdir(parents=True)
    for path in sorted(src.glob("*.jsonl")):
        twin = path.with_name(path.name.replace(".private.", ".public.")) if ".private." in path.name else path
        items = [orjson.loads(line) for line in twin.read_bytes().splitlines() if line.strip()]
        half = "private" if twin != path else None
        out = []
        k = 0
        while len(out) < per_file:
            for item in items:
                if len(out) == per_file:
                    break
                tag = f"{PRIVATE_TAG}{k:02d}" if half else f"-c{k:02d}"
                new = dict(item, id=f"{item['id']}{tag}") | ({"half": half} if half else {})
                copies.setdefault(item["id"], []).append(new["id"])
                out.append(orjson.dumps(new))
            k += 1
        (dst / path.name).write_bytes(b"\n".join(out) + b"\n")
    if (src / "pages").is_dir():  # the page images the items name (each copy names its original's)
        shutil.copytree(src / "pages", dst / "pages")
    return copies


def scale_runs(src: Path, dst: Path, runs: int, copies: dict[str, list[str]]) -> int:
    sources = sorted(p for p in src.iterdir() if (p / "run.json").is_file())
    total = 0
    for k in range(runs):
        origin = sources[k % len(sources)]
        meta = json.loads((origin / "run.json").read_text(encoding="utf-8"))
        run_id = f"{origin.name}-g{k // len(sources):02d}"
        meta |= {"run_id": run_id, "model": f"{meta['model']}-g{k // len(sources):02d}"}
        out = dst / run_id
        out.mkdir(parents=True)
        (out / "run.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        lines = []
        for line in (origin / "responses.jsonl").read_bytes().splitlines():
            if line.strip():
                record = orjson.loads(line)
                if "box" in record:  # sealed (a private item's): its public twin's record stands for it
                    continue
                for new_id in copies.get(record["item"], []):
                    if meta.get("half") == "public" and new_id.rpartition("-")[2].startswith(PRIVATE_TAG[1:]):
                        # a run of the public half only (the tag ends the id: "-pub-" in it is no private mark)
                        continue
                    record["item"] = new_id
                    lines.append(orjson.dumps(record))
        (out / "responses.jsonl").write_bytes(b"\n".join(lines) + b"\n")
        total += len(lines)
    return total


def generate(target: Path, items: int, runs: int) -> tuple[int, int]:
    content = ROOT / "content"
    other = [p.name for p in (content / "suites").iterdir() if p.name != SUITE]
    shutil.copytree(content, target / "content",
                    ignore=lambda d, names: other + ["items"] if d.endswith("suites") or d.endswith(SUITE) else [])
    files = len(list((content / "suites" / SUITE / "items").glob("*.jsonl")))
    copies = scale_items(content / "suites" / SUITE / "items", target / "content" / "suites" / SUITE / "items",
                         items // files)
    responses = scale_runs(ROOT / "results" / SUITE, target / "results" / SUITE, runs, copies)
    return sum(len(v) for v in copies.values()), responses


def count_reads() -> dict[str, int]:
    """Count whole reads of stored responses files (Path.read_bytes, as the pipeline reads them)."""
    seen = {"calls": 0, "bytes": 0}
    real = Path.read_bytes

    def counting(self: Path) -> bytes:
        data = real(self)
        if self.name == "responses.jsonl":
            seen["calls"] += 1
            seen["bytes"] += len(data)
        return data

    Path.read_bytes = counting  # type: ignore[method-assign]
    return seen


def cpu() -> float:
    """CPU seconds so far of this process and of its children that ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=6000)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep", type=Path, help="generate the leaderboard and its site here and keep them")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tally-site-bench-")) if args.keep is None else args.keep
    try:
        start = time.perf_counter()
        n_items, n_responses = generate(tmp, args.items, args.runs)
        size = sum(p.stat().st_size for p in (tmp / "results").rglob("responses.jsonl"))
        print(f"generated: {n_items:,} items, {args.runs} run groups, {n_responses:,} stored responses "
              f"({size / 1e6:,.0f} MB) in {time.perf_counter() - start:.1f} s")
        reads = count_reads()
        start, used = time.perf_counter(), cpu()
        report = build_site(tmp, tmp / "site", resamples=args.resamples, jobs=args.jobs)
        total, used = time.perf_counter() - start, cpu() - used
        site_bytes = sum(p.stat().st_size for p in report.out.rglob("*") if p.is_file())
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"site: {report.pages:,} pages, {report.files:,} files, {site_bytes / 1e6:,.0f} MB; "
              f"{args.resamples:,} resamples, {args.jobs} process(es) for rescoring and item pages")
        print(f"total {total:.1f} s, {report.pages / total:,.0f} pages/s overall; "
              f"peak memory {peak:,.0f} MB (largest child process {children:,.0f} MB)")
        print(f"CPU time of the build (this process and its children): {used:.1f} s")
        print("time and this process's peak memory by stage:")
        for stage, seconds in report.seconds.items():
            mb = report.peak_mb.get("gather" if stage == "gather: statistics" else stage)
            print(f"  {stage:40} {seconds:8.1f} s  {100 * seconds / total:5.1f}%" +
                  (f"   peak so far {mb:6,.0f} MB" if mb else ""))
        print(f"item pages from the build cache: {report.reused:,} (a first build: none)")
        pages_time = sum(s for k, s in report.seconds.items() if k.startswith("pages"))
        print(f"page writing alone: {report.pages / pages_time:,.0f} pages/s")
        print(f"responses.jsonl files read whole: {reads['calls']:,} reads of {args.runs} files, "
              f"{reads['bytes'] / size:.2f}x their size")
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
