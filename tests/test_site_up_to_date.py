"""A site build with nothing changed does nothing (generator/render/up_to_date.py): the last build's
site is left as it is, and any change to what the site is made from, or to the site, builds again."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from generator.render import up_to_date
from tests.site_support import build, make_project, missing_node

pytestmark = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


def files(folder: Path) -> dict[str, tuple[int, int, str]]:
    """Each file's inode, modification time and SHA-256."""
    return {p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def settled(monkeypatch):
    """Files count as settled at once (the test writes them within the two seconds that guard a tick)."""
    monkeypatch.setattr(up_to_date, "SETTLED_NS", 0)


def test_nothing_changed_nothing_written_and_every_change_builds_again(tmp_path, settled):
    root = make_project(tmp_path / "p")
    site = tmp_path / "site"
    first = build(root, site)
    assert not first.up_to_date and first.pages > 0
    before = files(site)
    outputs = files(root / "build" / "rescore")
    again = build(root, site)
    assert again.up_to_date and again.pages == 0 and again.files == first.files == len(before)
    assert files(site) == before and files(root / "build" / "rescore") == outputs

    # a stored response: rebuilt, and the site then equals a clean build of the new inputs
    run = next(p for p in sorted((root / "results" / "mini").iterdir()) if p.is_dir())
    responses = run / "responses.jsonl"
    lines = responses.read_text(encoding="utf-8").splitlines(keepends=True)
    responses.write_text("".join(lines[1:] + lines[:1]), encoding="utf-8")
    changed = build(root, site)
    assert not changed.up_to_date
    assert build(root, site).up_to_date
    # the same bytes written again (new times): hashed again, found equal, nothing built
    responses.write_bytes(responses.read_bytes())
    assert build(root, site).up_to_date
    build(root, tmp_path / "clean", cache=False)
    assert {k: v[2] for k, v in files(site).items()} == {k: v[2] for k, v in files(tmp_path / "clean").items()}
    # that build replaced build/rescore and build/stats: the next one into `site` builds again
    assert not build(root, site).up_to_date


def test_a_same_size_edit_with_its_time_set_back_is_seen(tmp_path, settled):
    root = make_project(tmp_path / "p")
    site = tmp_path / "site"
    build(root, site)
    page = next(p for p in sorted((root / "content" / "pages").iterdir()))
    info = page.stat()
    text = page.read_bytes()
    page.write_bytes(text.replace(b"e", b"a", 1))  # same size
    os.utime(page, ns=(info.st_atime_ns, info.st_mtime_ns))  # the change time still moves
    assert page.stat().st_size == info.st_size and page.stat().st_mtime_ns == info.st_mtime_ns
    assert not build(root, site).up_to_date


@pytest.mark.parametrize("change", ["site file edited", "site file removed", "site file added",
                                    "rescore output removed", "option", "epoch", "suite file"])
def test_each_change_builds_again(tmp_path, settled, monkeypatch, change):
    root = make_project(tmp_path / "p")
    site = tmp_path / "site"
    build(root, site)
    kw: dict = {}
    if change == "site file edited":
        (site / "index.html").write_bytes((site / "index.html").read_bytes() + b"\n")
    elif change == "site file removed":
        (site / "index.html").unlink()
    elif change == "site file added":
        (site / "stray.html").write_text("x", encoding="utf-8")
    elif change == "rescore output removed":
        next(p for p in (root / "build" / "rescore").rglob("*") if p.is_file()).unlink()
    elif change == "option":
        kw["draft"] = True
    elif change == "epoch":
        monkeypatch.setattr("tests.site_support.EPOCH", "1700000000")
    elif change == "suite file":
        toml = root / "content" / "suites" / "mini" / "suite.toml"
        toml.write_text(toml.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    report = build(root, site, **kw)
    assert not report.up_to_date and report.pages > 0
    assert (site / "index.html").is_file() and not (site / "stray.html").exists()
    assert build(root, site, **kw).up_to_date


def test_without_the_cache_it_builds_and_so_does_the_next_build(tmp_path, settled):
    root = make_project(tmp_path / "p")
    site = tmp_path / "site"
    build(root, site)
    assert not build(root, site, cache=False).up_to_date  # --no-cache: always a build ...
    assert not build(root, site).up_to_date  # ... whose outputs no record describes
    assert build(root, site).up_to_date
    shutil.rmtree(root / "build" / "cache")
    assert not build(root, site).up_to_date


def test_a_file_changed_within_a_tick_is_hashed_again(tmp_path, monkeypatch):
    """A file changed less than SETTLED_NS before it was hashed is not trusted by its times."""
    root = make_project(tmp_path / "p")
    site = tmp_path / "site"
    monkeypatch.setattr(up_to_date, "SETTLED_NS", 10**18)  # every file "just changed"
    build(root, site)
    stamp = next((root / "build" / "cache" / up_to_date.KIND).rglob("last"))
    from generator.pipeline.cache import Cache

    entry = Cache(root / "build" / "cache").read(up_to_date.KIND, stamp.parent.name, "last")
    assert isinstance(entry, dict) and entry["files"] and not any(f[5] for f in entry["files"].values())
    hashed: list[Path] = []
    real = up_to_date._sha256
    monkeypatch.setattr(up_to_date, "_sha256", lambda p: hashed.append(p) or real(p))
    assert build(root, site).up_to_date
    assert len(hashed) == len(entry["files"])  # every one hashed again, none trusted by its times
