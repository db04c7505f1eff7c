"""The build cache trusts only its own entries: an entry forged with its plain hash recomputed (or that
came with a cloned repository) is never used, a FIFO or a link in the cache never blocks or leads out,
and an entry of the wrong shape is rebuilt, not a crash."""

from __future__ import annotations

import hashlib
import marshal
import os
import stat
import threading
from pathlib import Path

import pytest

from generator.pipeline import cache as cache_mod
from generator.pipeline.cache import Cache
from tests.test_cache import digests, needs_node, project, rescore


def _entries(root: Path) -> list[Path]:
    return sorted((root / "build" / "cache" / "runs").rglob("*"))


def _forge(path: Path, change) -> None:
    """Rewrite an artifact's header with `change` and its hash as an attacker can: plain SHA-256."""
    from generator.pipeline.artifact import TRAILER

    blob = path.read_bytes()
    start, length = TRAILER.unpack(blob[-TRAILER.size:])
    header = marshal.dumps(change(marshal.loads(blob[start:start + length])))
    payload = blob[32:start] + header + TRAILER.pack(start, len(header))
    path.write_bytes(hashlib.sha256(payload).digest() + payload)


@needs_node
def test_a_forged_entry_is_never_published(tmp_path):
    root = project(tmp_path)
    clean = rescore(root, tmp_path / "clean", None)
    rescore(root, tmp_path / "first", Cache(root / "build" / "cache"))
    files = [p for p in _entries(root) if p.is_file()]
    assert files
    for path in files:  # the run's digest changed, and every item's figures (no response counted)
        def flip(header):
            return header | {"digest": "0" * 64, "repeats": bytes(len(header["repeats"]))}
        _forge(path, flip)
    again = Cache(root / "build" / "cache")
    scored = rescore(root, tmp_path / "again", again)
    assert again.counts.hits == 0 and again.counts.corrupt == len(files)
    assert all("keyed hash" in p for p in again.take_problems())
    assert digests(tmp_path / "again") == digests(tmp_path / "clean")
    assert [s.summary for s in scored] == [s.summary for s in clean]


@needs_node
def test_an_entry_of_the_wrong_shape_is_rebuilt_not_a_crash(tmp_path):
    root = project(tmp_path)
    rescore(root, tmp_path / "clean", None)
    cache = Cache(root / "build" / "cache")
    rescore(root, tmp_path / "first", cache)
    for path in [p for p in _entries(root) if p.is_file()]:
        suite, key = path.parent.name, path.name
        cache.write("runs", suite, key, {"verdicts": 1, "calls": "x", "checked_by": 7})
    again = Cache(root / "build" / "cache")
    rescore(root, tmp_path / "again", again)
    assert again.counts.corrupt == len(list(p for p in _entries(root) if p.is_file()))
    assert digests(tmp_path / "again") == digests(tmp_path / "clean")


def test_a_fifo_entry_does_not_block(tmp_path):
    cache = Cache(tmp_path / "cache")
    (tmp_path / "cache" / "runs" / "s").mkdir(parents=True)
    os.mkfifo(tmp_path / "cache" / "runs" / "s" / "k")
    got: list[object] = []
    reader = threading.Thread(target=lambda: got.append(cache.read("runs", "s", "k")), daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "reading a FIFO entry blocked"
    assert got == [None] and cache.counts.corrupt == 1
    assert not (tmp_path / "cache" / "runs" / "s" / "k").exists()


def test_the_key_is_made_once_outside_the_project_and_private(tmp_path, monkeypatch):
    where = tmp_path / "home" / "tally" / "cache.key"
    monkeypatch.setenv(cache_mod.SECRET_ENV, str(where))
    cache_mod.cache_secret.cache_clear()
    try:
        first = cache_mod.cache_secret()
        assert where.is_file() and stat.S_IMODE(where.stat().st_mode) == 0o600
        assert where.read_bytes() == first and len(first) == 32
        cache_mod.cache_secret.cache_clear()
        assert cache_mod.cache_secret() == first  # a later process reads the same key
        assert [p.name for p in where.parent.iterdir()] == ["cache.key"]  # no temporary file left
    finally:
        cache_mod.cache_secret.cache_clear()


def test_entries_of_another_key_do_not_verify(tmp_path, monkeypatch):
    cache = Cache(tmp_path / "cache")
    cache.write("stats", "s", "k", {"a": 1})
    assert Cache(tmp_path / "cache").read("stats", "s", "k") == {"a": 1}
    monkeypatch.setattr(cache_mod, "cache_secret", lambda: b"\x01" * 32)
    other = Cache(tmp_path / "cache")
    assert other.read("stats", "s", "k") is None and other.counts.corrupt == 1


def test_an_unwritable_key_folder_falls_back_to_a_key_of_this_process(tmp_path, monkeypatch):
    if os.geteuid() == 0:
        blocker = tmp_path / "file"
        blocker.write_text("")
        monkeypatch.setenv(cache_mod.SECRET_ENV, str(blocker / "sub" / "cache.key"))  # under a file: cannot be made
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        monkeypatch.setenv(cache_mod.SECRET_ENV, str(locked / "cache.key"))
    cache_mod.cache_secret.cache_clear()
    try:
        key = cache_mod.cache_secret()
        assert len(key) == 32 and cache_mod.cache_secret() == key
    finally:
        cache_mod.cache_secret.cache_clear()


@pytest.mark.parametrize("bad", [b"", b"short"])
def test_a_short_key_file_is_not_used_as_a_key(tmp_path, monkeypatch, bad):
    where = tmp_path / "cache.key"
    where.write_bytes(bad)
    monkeypatch.setenv(cache_mod.SECRET_ENV, str(where))
    cache_mod.cache_secret.cache_clear()
    try:
        assert len(cache_mod.cache_secret()) == 32
    finally:
        cache_mod.cache_secret.cache_clear()
