"""Each run's part of the rescore's item_stats.csv and of the site's calls.csv and item_stats.csv downloads,
kept in the build cache (generator/pipeline/run_parts.py): a changed run makes its own parts alone, and
every file equals a clean build's; no private item's figures or token counts reach a public file or a
public part; a corrupt part is said, dropped and made again; the rescore's summary.json is linked into
the site, never written through."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import shutil

import pytest

from generator.pipeline import outputs
from generator.pipeline.cache import Cache
from generator.pipeline.calls import CALL_COLUMNS
from generator.render import downloads
from generator.render.downloads import blank_private_sizes, linked, public_only, public_rows_of
from tests.site_support import add_run, build, missing_node
from tests.test_cache import digests, project

needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")

KINDS = (outputs.ITEM_STATS, *downloads.PARTS_KINDS.values())


def entries(root, kind: str, suite: str) -> set[str]:
    folder = root / "build" / "cache" / kind / suite
    return {p.name for p in folder.iterdir()} if folder.is_dir() else set()


def counting(monkeypatch) -> list[tuple[str, str]]:
    """Every (what, run) whose part is made, not taken from the cache."""
    made: list[tuple[str, str]] = []
    real_rows, real_part = outputs.item_stats_rows, downloads._public_part

    def rows(res, r):
        made.append(("rescore", r.run.id))
        return real_rows(res, r)

    def part(header, r, run_rows, rows_of, public):
        made.append((rows_of.__name__, r.run.id))
        return real_part(header, r, run_rows, rows_of, public)

    monkeypatch.setattr(outputs, "item_stats_rows", rows)
    monkeypatch.setattr(downloads, "_public_part", part)
    return made


def ids(root, half: str) -> set[str]:
    items = root / "content" / "suites" / "twin" / "items"
    return {json.loads(line)["id"] for path in items.glob(f"*.{half}.jsonl")
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def rows(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))


@needs_node
def test_a_changed_run_makes_its_own_parts_alone(tmp_path, monkeypatch):
    root = project(tmp_path)
    made = counting(monkeypatch)
    runs = sorted(p.name for p in (root / "results" / "twin").iterdir())
    build(root, tmp_path / "first")
    whats = ("rescore", "blank_private_sizes", "public_only")
    assert sorted(made) == sorted((w, r) for w in whats for r in runs * 2)  # each run of both suites, once
    before = {kind: entries(root, kind, "twin") for kind in KINDS}
    assert all(len(names) == len(runs) for names in before.values())
    # the run's stored responses changed: its last response gone (that item has no stored response now)
    stored = root / "results" / "twin" / "rules-local" / "responses.jsonl"
    lines = stored.read_text(encoding="utf-8").splitlines(keepends=True)
    stored.write_text("".join(lines[:-1]), encoding="utf-8")
    made.clear()
    build(root, tmp_path / "changed")
    assert sorted(made) == sorted((w, "rules-local") for w in whats)
    for kind in KINDS:  # the changed run's part replaced: the others' kept as they were
        after = entries(root, kind, "twin")
        assert len(after) == len(runs) and len(after - before[kind]) == 1 and len(before[kind] - after) == 1
    clean = build(root, tmp_path / "clean", cache=False).out
    assert digests(tmp_path / "changed") == digests(clean)
    name = "downloads/twin/calls.csv"
    assert (tmp_path / "changed" / name).read_bytes() != (tmp_path / "first" / name).read_bytes()
    made.clear()
    add_run(root, "twin")
    build(root, tmp_path / "added")
    assert sorted(made) == sorted((w, "rules-local-2") for w in whats)
    assert digests(tmp_path / "added") == digests(build(root, tmp_path / "clean-added", cache=False).out)
    shutil.rmtree(root / "results" / "twin" / "rules-local-2")
    build(root, tmp_path / "removed")
    assert all(len(entries(root, kind, "twin")) == len(runs) for kind in KINDS)  # the removed run's pruned


@needs_node
def test_no_private_item_reaches_a_public_file_or_part(tmp_path):
    root = project(tmp_path)
    build(root, tmp_path / "first")
    add_run(root, "twin")
    site = build(root, tmp_path / "added").out  # the other runs' parts from the cache
    private, public = ids(root, "private"), ids(root, "public")
    assert private and public
    rescored = rows((root / "build" / "rescore" / "twin" / "calls.csv").read_bytes())
    assert any(r["item"] in private and r["prompt_tokens"] for r in rescored)  # there is something to hide
    calls = rows((site / "downloads" / "twin" / "calls.csv").read_bytes())
    assert len(calls) == len(rescored) and {r["run"] for r in calls} >= {"rules-local-2"}
    assert all(r["prompt_tokens"] == r["completion_tokens"] == "" for r in calls if r["item"] in private)
    assert any(r["prompt_tokens"] for r in calls if r["item"] in public)
    stats = rows((site / "downloads" / "twin" / "item_stats.csv").read_bytes())
    assert stats and {r["item"] for r in stats} <= public
    assert {r["item"] for r in rows((root / "build" / "rescore" / "twin" / "item_stats.csv").read_bytes())} & private
    cache = Cache(root / "build" / "cache")
    tokens = [CALL_COLUMNS.index(c) for c in ("prompt_tokens", "completion_tokens")]
    for kind in downloads.PARTS_KINDS.values():
        for name in entries(root, kind, "twin"):
            part = cache.read(kind, "twin", name)
            assert isinstance(part, bytes) and part
            for row in csv.reader(io.StringIO(part.decode("utf-8"), newline="")):
                assert row[1] not in private or (kind == "public-calls" and all(row[k] == "" for k in tokens))
    assert not cache.counts.corrupt


@needs_node
def test_a_corrupt_part_is_said_dropped_and_made_again(tmp_path):
    root = project(tmp_path)
    build(root, tmp_path / "first")
    cache = Cache(root / "build" / "cache")
    for kind in KINDS:
        for name in entries(root, kind, "twin"):
            entry = root / "build" / "cache" / kind / "twin" / name
            entry.write_bytes(entry.read_bytes()[:-3] + b"xyz")  # its keyed hash no longer matches
        name = sorted(entries(root, kind, "mini"))[0]
        cache.write(kind, "mini", name, 12345)  # signed, but not a part: made again and written over
    report = build(root, tmp_path / "again")
    for kind in KINDS:
        assert any("ignored and rebuilt" in w and f"/{kind}/twin/" in w for w in report.warnings), kind
    assert digests(tmp_path / "again") == digests(build(root, tmp_path / "clean", cache=False).out)
    fresh = Cache(root / "build" / "cache")
    for kind in KINDS:
        for suite in ("twin", "mini"):
            names = entries(root, kind, suite)
            assert names and all(isinstance(fresh.read(kind, suite, n), bytes) for n in names)
    assert not fresh.counts.corrupt


def test_a_file_read_a_run_at_a_time_equals_it_read_whole():
    """What a run's rows give alone, joined, is what the old way gave: the whole file read with the csv
    module, each row passed on and written again (hostile cells: quotes, line breaks in a cell, carriage
    returns, bytes that are not UTF-8, formula starts)."""
    rng = random.Random(3)
    cells = ["plain", 'say "hi"', "two\nlines", "cr\ronly", "=1+2", "-", "", "a,b", "caf\u00e9", "\u202e"]
    header = b"run,item,repeat,prompt_tokens,completion_tokens\n"
    runs = []
    for run in range(6):
        buffer = io.StringIO(newline="")
        writer = csv.writer(buffer, lineterminator="\n")
        for _ in range(rng.randrange(0, 30)):
            writer.writerow([f"r{run}", rng.choice(["p-1", "q-1", "p-2", "x\ny"]), rng.choice(cells),
                             rng.choice(cells), rng.randrange(100)])
        runs.append(buffer.getvalue().encode("utf-8").replace(b"caf\xc3\xa9", b"caf\xe9"))  # not UTF-8
    public = {"p-1", "p-2"}
    for rows_of in (blank_private_sizes, public_only):
        joined = public_rows_of(header, b"", rows_of, public, with_header=True) + b"".join(
            public_rows_of(header, r, rows_of, public) for r in runs)
        whole = io.StringIO((header + b"".join(runs)).decode("utf-8", "backslashreplace"), newline="")
        out = io.StringIO(newline="")
        read, writer = csv.reader(whole), downloads.csv_writer(out)
        names = next(read)
        writer.writerow(names)
        writer.writerows(rows_of(read, names.index("item"), names, public))
        assert joined == out.getvalue().encode("utf-8", "backslashreplace")
    assert b"\\xe9" in joined and b"x\ny" not in joined  # the bytes kept as the old way kept them


@needs_node
def test_the_rescore_summary_is_linked_never_written_through(tmp_path, monkeypatch):
    root = project(tmp_path)
    site = build(root, tmp_path / "first").out
    published, rescored = site / "downloads" / "twin" / "summary.json", root / "build" / "rescore" / "twin" / "summary.json"
    assert os.path.samefile(published, rescored)
    before = published.read_bytes()
    add_run(root, "twin")
    build(root, tmp_path / "second")  # the rescore outputs replaced: the first site's file is as it was
    assert published.read_bytes() == before and not os.path.samefile(published, rescored)
    assert rescored.read_bytes() != before

    def refused(*_args, **_kw):
        raise OSError("no hard links here")

    monkeypatch.setattr(downloads.os, "link", refused)
    src, other, dst = tmp_path / "src", tmp_path / "other", tmp_path / "dst"
    src.write_bytes(b"new")
    other.write_bytes(b"old")
    monkeypatch.undo()
    os.link(other, dst)
    monkeypatch.setattr(downloads.os, "link", refused)
    linked(src, dst)  # a copy where links fail, written beside and renamed: `other` is not written through
    assert dst.read_bytes() == b"new" and other.read_bytes() == b"old" and not os.path.samefile(src, dst)
    monkeypatch.undo()
    linked(src, dst)
    assert os.path.samefile(src, dst) and other.read_bytes() == b"old"


@needs_node
def test_an_item_made_private_leaves_every_public_part(tmp_path):
    """The parts' keys hold the public items and the suite's key (its items' halves): an item moved to the
    private half is in no public file or part of the next build, which equals a clean build."""
    root = project(tmp_path)
    build(root, tmp_path / "first")
    items = root / "content" / "suites" / "twin" / "items"
    moved = json.loads((items / "receipts.public.jsonl").read_text(encoding="utf-8").splitlines()[0])
    kept = (items / "receipts.public.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)[1:]
    (items / "receipts.public.jsonl").write_text("".join(kept), encoding="utf-8")
    with (items / "receipts.private.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(moved | {"half": "private"}) + "\n")
    site = build(root, tmp_path / "again").out
    assert moved["id"] in ids(root, "private")
    calls = rows((site / "downloads" / "twin" / "calls.csv").read_bytes())
    assert any(r["item"] == moved["id"] for r in calls)
    assert all(r["prompt_tokens"] == "" for r in calls if r["item"] == moved["id"])
    assert moved["id"] not in {r["item"] for r in rows((site / "downloads" / "twin" / "item_stats.csv").read_bytes())}
    assert digests(site) == digests(build(root, tmp_path / "clean", cache=False).out)
