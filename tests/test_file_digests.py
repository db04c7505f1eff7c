"""A cached run whose stored files did not change is not read again to find its build cache key
(generator/pipeline/file_digests.py): a file is known by its size, times and inode, and read again when
any of them moved, when it had not settled, or when the record is not the cache's own."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.pipeline import file_digests
from generator.pipeline.cache import Cache
from tests.test_cache import project, rescore

RESPONSES = "responses.jsonl"


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    seen: list[str] = []
    real = Path.read_bytes

    def counting(self):
        if self.name == RESPONSES:
            seen.append(f"{self.parent.parent.name}/{self.parent.name}")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    return seen


def _rescore(root: Path, out: Path) -> Cache:
    cache = Cache(root / "build" / "cache")
    rescore(root, out, cache, gate=False)
    return cache


def test_an_unchanged_run_is_not_read_and_a_changed_one_is(tmp_path, reads, monkeypatch):
    root = project(tmp_path)
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)  # every file settled when looked at
    first = _rescore(root, tmp_path / "o1")
    assert len(reads) == 8 and first.counts.written == 8
    reads.clear()
    again = _rescore(root, tmp_path / "o2")
    assert reads == [] and again.counts.hits == 8 and again.counts.misses == 0
    # a same-size edit whose modification time is put back: the change time moved, so it is read
    path = root / "results" / "mini" / "rules-local" / RESPONSES
    st = path.stat()
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[1:] + lines[:1]))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    reads.clear()
    changed = _rescore(root, tmp_path / "o3")
    assert "mini/rules-local" in reads and changed.counts.misses == 1 and changed.counts.hits == 7


def test_a_file_that_had_not_settled_is_read_again(tmp_path, reads):
    root = project(tmp_path)
    _rescore(root, tmp_path / "o1")  # the files were written by the fixture just now: not settled
    reads.clear()
    again = _rescore(root, tmp_path / "o2")
    assert len(reads) == 8 and again.counts.hits == 8


def test_a_record_that_is_not_the_caches_own_is_ignored(tmp_path, reads, monkeypatch):
    root = project(tmp_path)
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    _rescore(root, tmp_path / "o1")
    for entry in (root / "build" / "cache" / file_digests.KIND).rglob("index"):
        entry.write_bytes(entry.read_bytes()[:-1] + b"\x00")  # its keyed hash no longer matches
    reads.clear()
    again = _rescore(root, tmp_path / "o2")
    assert len(reads) == 8 and again.counts.corrupt == 2 and again.counts.hits == 8


def test_the_key_follows_the_bytes_even_when_the_record_lies(tmp_path, monkeypatch):
    """A record whose digest is wrong for its file (never written by Tally: a stand-in for a file changed
    in a way the signature missed) finds no artifact: the run is read, keyed by its bytes and scored again."""
    root = project(tmp_path)
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    _rescore(root, tmp_path / "o1")
    real = file_digests.FileDigests.known
    monkeypatch.setattr(file_digests.FileDigests, "known",
                        lambda self, path, st: None if real(self, path, st) is None else "0" * 64)
    again = _rescore(root, tmp_path / "o2")
    assert again.counts.hits == 0 and again.counts.misses == 8


def test_a_cached_artifact_is_checked_whole_once_and_again_when_its_file_moved(tmp_path, monkeypatch):
    from generator.pipeline import run_score

    root = project(tmp_path)
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    checked: list[str] = []
    real = run_score.verify
    monkeypatch.setattr(run_score, "verify", lambda fh: (checked.append(fh.name), real(fh))[1])
    _rescore(root, tmp_path / "o1")  # scored: written, nothing taken from the cache
    _rescore(root, tmp_path / "o2")
    assert len(checked) == 8  # each artifact checked whole once, when first taken from the cache
    checked.clear()
    again = _rescore(root, tmp_path / "o3")
    assert checked == [] and again.counts.hits == 8
    # a byte of one artifact changed in place, its modification time put back: checked, found corrupt
    artifact = sorted((root / "build" / "cache" / "runs" / "mini").iterdir())[0]
    st = artifact.stat()
    data = bytearray(artifact.read_bytes())
    data[len(data) // 2] ^= 1
    artifact.write_bytes(bytes(data))
    os.utime(artifact, ns=(st.st_atime_ns, st.st_mtime_ns))
    tampered = _rescore(root, tmp_path / "o4")
    assert len(checked) == 1 and tampered.counts.corrupt == 1 and tampered.counts.hits == 7
