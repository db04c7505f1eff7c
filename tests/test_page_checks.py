"""A page image unchanged since it was checked in full is not read, hashed or decoded again when the
build cache holds its record (generator/pipeline/page_checks.py); a changed file, an item naming another
SHA-256, a record that is not the cache's own, a link, or a load without the cache: checked in full."""

from __future__ import annotations

import io
import json
import os
import shutil
import time
from pathlib import Path

import pytest
from PIL import Image

from generator.errors import InputProblem
from generator.inputs import page_images
from generator.pipeline import file_digests, page_checks
from generator.pipeline.cache import Cache
from generator.pipeline.stages import load
from tests.test_page_images import ITEMS, _page


def _image(fmt: str, size: tuple[int, int], shade: int) -> bytes:
    buf = io.BytesIO()
    Image.new("L", size, shade).save(buf, fmt)
    return buf.getvalue()


PNG, OTHER_PNG = _image("PNG", (40, 30), 200), _image("PNG", (40, 30), 90)
JPEG = _image("JPEG", (30, 50), 120)


def project(root: Path) -> Path:
    """A project whose one suite has three public items: two show the same page, one two pages."""
    suite = root / "content" / "suites" / "extracting"
    items = suite / "items"
    items.mkdir(parents=True)
    (suite / "suite.toml").write_text(
        'name = "extracting"\ntitle = "T"\nversion = "1"\nreference_date = "2026-10-20"\n'
        '[[datasets]]\nid = "receipts"\ntitle = "Receipts"\n', encoding="utf-8")
    item = json.loads((ITEMS / "receipts.public.jsonl").read_text(encoding="utf-8").splitlines()[0])
    a, b = _page(items, "pages/a-p1.png", PNG), _page(items, "pages/b-p1.jpg", JPEG)
    c = _page(items, "pages/c-p1.png", OTHER_PNG)
    lines = [dict(item, id="r-1", document=dict(item["document"], pages=[a])),
             dict(item, id="r-2", document=dict(item["document"], pages=[a])),
             dict(item, id="r-3", document=dict(item["document"], pages=[b, c]))]
    (items / "receipts.public.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return root


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The page files read (each read of each file), this process's memory of decoded pages forgotten
    before each load (as in a new command)."""
    seen: list[str] = []
    real = Path.read_bytes

    def counting(self):
        if self.parent.name == "pages":
            seen.append(self.name)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    return seen


def _load(root: Path, cache: bool = True) -> tuple[list, Cache | None]:
    page_images._DECODED.clear()  # a new command: nothing decoded yet in this process
    page_images._SHOWN.clear()
    store = Cache(root / "build" / "cache") if cache else None
    return load(root, cache=store), store


def test_an_unchanged_page_is_not_read_again_and_a_changed_one_is(tmp_path, reads, monkeypatch):
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)  # every file settled when looked at
    root = project(tmp_path)
    (loaded,), _ = _load(root)
    assert sorted(reads) == ["a-p1.png", "b-p1.jpg", "c-p1.png"]  # a-p1 once: its record holds for r-2
    assert [i.id for i in loaded.items] == ["r-1", "r-2", "r-3"]
    reads.clear()
    (again,), _ = _load(root)
    assert reads == [] and [i.id for i in again.items] == ["r-1", "r-2", "r-3"]
    sha = again.items[2].document["pages"][1]["sha256"]
    assert page_images.known_shown_size(sha) == (40, 30)  # item pages' size, from the record
    # the same size, other pixels, the modification time put back: the change time moved, so it is read
    path = root / "content" / "suites" / "extracting" / "items" / "pages" / "a-p1.png"
    st = path.stat()
    time.sleep(0.05)  # past the file system clock's tick: the change time differs
    assert len(OTHER_PNG) == len(PNG)
    path.write_bytes(OTHER_PNG)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    now = path.stat()
    assert (now.st_size, now.st_mtime_ns, now.st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)
    assert now.st_ctime_ns != st.st_ctime_ns
    reads.clear()
    with pytest.raises(InputProblem, match="SHA-256") as caught:
        _load(root)
    assert str(caught.value).count("SHA-256") == 2  # r-1 and r-2 both name the file's old SHA-256
    assert reads == ["a-p1.png", "a-p1.png"]  # for r-1 and r-2; the other pages' records hold


def test_a_file_that_had_not_settled_is_checked_again(tmp_path, reads):
    root = project(tmp_path)  # the pages were written just now: not settled when recorded
    _load(root)
    reads.clear()
    _load(root)
    assert sorted(reads) == ["a-p1.png", "a-p1.png", "b-p1.jpg", "c-p1.png"]  # as without a record


def test_a_record_that_is_not_the_caches_own_is_ignored(tmp_path, reads, monkeypatch):
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    root = project(tmp_path)
    _load(root)
    entries = list((root / "build" / "cache" / page_checks.KIND).rglob("*"))
    entries = [e for e in entries if e.is_file()]
    assert len(entries) == 1
    entries[0].write_bytes(entries[0].read_bytes()[:-1] + b"\x00")  # its keyed hash no longer matches
    reads.clear()
    (loaded,), cache = _load(root)
    assert sorted(reads) == ["a-p1.png", "b-p1.jpg", "c-p1.png"] and len(loaded.items) == 3
    assert cache is not None and cache.counts.corrupt == 1


def test_an_item_naming_another_sha256_is_checked_in_full(tmp_path, reads, monkeypatch):
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    root = project(tmp_path)
    _load(root)
    items = root / "content" / "suites" / "extracting" / "items" / "receipts.public.jsonl"
    lines = [json.loads(x) for x in items.read_text(encoding="utf-8").splitlines()]
    lines[2]["document"]["pages"][0]["sha256"] = "1" * 64
    items.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    reads.clear()
    with pytest.raises(InputProblem, match="b-p1.jpg: SHA-256 [0-9a-f]{64} differs from the item's 1111"):
        _load(root)
    assert reads == ["b-p1.jpg"]


def test_links_are_refused_whatever_the_record_says(tmp_path, monkeypatch):
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    root = project(tmp_path)
    _load(root)
    items = root / "content" / "suites" / "extracting" / "items"
    shutil.copytree(items / "pages", tmp_path / "elsewhere")
    shutil.rmtree(items / "pages")
    (items / "pages").symlink_to(tmp_path / "elsewhere")
    problems = page_images.document_problems(
        json.loads((items / "receipts.public.jsonl").read_text(encoding="utf-8").splitlines()[0])["document"],
        items, page_checks.PageChecks(Cache(root / "build" / "cache"), "extracting"))
    assert len(problems) == 1 and "pages is a symbolic link" in problems[0]


def test_without_a_cache_every_page_is_read_each_time(tmp_path, reads, monkeypatch):
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    root = project(tmp_path)
    for _ in range(2):
        reads.clear()
        _load(root, cache=False)
        assert sorted(reads) == ["a-p1.png", "a-p1.png", "b-p1.jpg", "c-p1.png"]  # every page of every item
    assert not (root / "build" / "cache").exists()


def test_a_suite_without_pages_never_reads_the_record(tmp_path):
    root = project(tmp_path)
    items = root / "content" / "suites" / "extracting" / "items" / "receipts.public.jsonl"
    lines = [json.loads(x) for x in items.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        del line["document"]["pages"]
    items.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    _, cache = _load(root)
    assert cache is not None and cache.counts.misses == 0 and not (root / "build" / "cache").exists()


def test_the_site_publishes_each_page_file_once_with_its_bytes(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from generator.render.pages.items import page_files

    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    root = project(tmp_path)
    _load(root)
    (loaded,), _ = _load(root)  # every page known from the record: decoded by no one in this process
    sd = SimpleNamespace(suite=loaded.suite, public_items=loaded.items)
    published = list(page_files(sd))
    assert [name for name, _ in published] == [f"downloads/extracting/pages/{n}" for n in
                                                ("a-p1.png", "b-p1.jpg", "c-p1.png")]
    assert [data for _, data in published] == [PNG, JPEG, OTHER_PNG]
