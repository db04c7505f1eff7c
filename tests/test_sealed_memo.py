"""Within a site build, a results file's sealed hashes come from the build cache's record while the file
is unchanged (generator/commit/sealed_memo.py): read again when its size, times or inode moved, when it
had not settled, when the record is not the cache's own, and always outside a build."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.commit import responses, sealed_memo
from generator.commit.responses import sealed_hashes, sealed_line_hashes
from generator.pipeline import file_digests
from generator.pipeline.cache import Cache
from generator.sealing import line_sha256

SEALED = [b'{"id":"a","sealed":{"record_sha256":"' + b"1" * 64 + b'"}}',
          b'{"id":"b","response":{"choices":[]}}',
          b'{"id":"c","sealed":{"record_sha256":"' + b"2" * 64 + b'"}}']


@pytest.fixture
def results(tmp_path) -> Path:
    path = tmp_path / "results" / "suite" / "run" / "responses.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\n".join(SEALED) + b"\n")
    return path


def _counted(monkeypatch, module, name: str) -> list[Path]:
    """The paths `module.name` is called with from now on (it still does its work)."""
    seen: list[Path] = []
    real = getattr(module, name)

    def counting(path):
        seen.append(path)
        return real(path)

    monkeypatch.setattr(module, name, counting)
    return seen


@pytest.fixture
def reads(monkeypatch) -> list[Path]:
    return _counted(monkeypatch, responses, "read_stored")


def _both(path: Path) -> tuple[list[str], list[str]]:
    return sealed_hashes(path), sealed_line_hashes(path)


EXPECTED = (["1" * 64, "2" * 64], [line_sha256(SEALED[0]), line_sha256(SEALED[2])])


def test_an_unchanged_file_is_read_once_across_builds(tmp_path, results, reads, monkeypatch):
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)  # every file settled when looked at
    cache = Cache(tmp_path / "cache")
    with sealed_memo.remembered(cache):
        assert _both(results) == EXPECTED
    assert len(reads) == 2  # each form read once
    reads.clear()
    with sealed_memo.remembered(cache):
        assert _both(results) == EXPECTED
    assert reads == []
    assert _both(results) == EXPECTED and len(reads) == 2  # outside a build: read every time


def test_a_changed_file_is_read_again_even_with_its_time_put_back(tmp_path, results, reads, monkeypatch):
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    cache = Cache(tmp_path / "cache")
    with sealed_memo.remembered(cache):
        _both(results)
    st = results.stat()
    lines = results.read_bytes().splitlines(keepends=True)
    results.write_bytes(b"".join([lines[2], lines[1], lines[0]]))  # the same size: the records reordered
    os.utime(results, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert results.stat().st_size == st.st_size and results.stat().st_mtime_ns == st.st_mtime_ns
    reads.clear()
    with sealed_memo.remembered(cache):
        assert _both(results) == (EXPECTED[0][::-1], EXPECTED[1][::-1])
    assert len(reads) == 2


def test_a_file_that_had_not_settled_is_read_again(tmp_path, results, reads):
    cache = Cache(tmp_path / "cache")  # the file was just written: not settled when recorded
    with sealed_memo.remembered(cache):
        _both(results)
    reads.clear()
    with sealed_memo.remembered(cache):
        assert _both(results) == EXPECTED
    assert len(reads) == 2


def test_a_record_not_signed_by_this_cache_is_ignored(tmp_path, results, reads, monkeypatch):
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    cache = Cache(tmp_path / "cache")
    with sealed_memo.remembered(cache):
        _both(results)
    entry = next(p for p in (tmp_path / "cache" / sealed_memo.KIND).rglob("*") if p.is_file())
    forged = entry.read_bytes().replace(b"1" * 64, b"9" * 64)
    assert forged != entry.read_bytes()
    entry.write_bytes(forged)
    reads.clear()
    with sealed_memo.remembered(cache):
        assert _both(results) == EXPECTED
    assert len(reads) == 2


def test_a_nested_build_uses_the_outer_record(tmp_path, results, reads, monkeypatch):
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    cache = Cache(tmp_path / "cache")
    with sealed_memo.remembered(cache):
        sealed_hashes(results)
        with sealed_memo.remembered(cache):  # as gather's, inside the site build's
            sealed_hashes(results)
    assert len(reads) == 1


KEY = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"


@pytest.fixture
def searches(monkeypatch) -> list[Path]:
    from generator.commit import publish

    return _counted(monkeypatch, publish, "holds_private_key")


def test_a_clean_unchanged_file_is_searched_for_a_private_key_once_across_builds(tmp_path, results, searches,
                                                                                 monkeypatch):
    from generator.commit.publish import refuse_private_keys

    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    cache = Cache(tmp_path / "cache")
    with sealed_memo.remembered(cache):
        refuse_private_keys(tmp_path)
    assert searches == [results]
    searches.clear()
    with sealed_memo.remembered(cache):
        refuse_private_keys(tmp_path)
    assert searches == []
    refuse_private_keys(tmp_path)  # outside a build: searched every time
    assert searches == [results]


@pytest.mark.parametrize("same_time", [False, True])
def test_a_private_key_written_into_a_file_found_clean_is_refused(tmp_path, results, searches, monkeypatch, same_time):
    from generator.commit import CommitError
    from generator.commit.publish import refuse_private_keys

    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    cache = Cache(tmp_path / "cache")
    with sealed_memo.remembered(cache):
        refuse_private_keys(tmp_path)
    st = results.stat()
    data = results.read_bytes()
    results.write_bytes(KEY + data[len(KEY):])  # the same size
    if same_time:  # its modification time put back: the change time still moved
        os.utime(results, ns=(st.st_atime_ns, st.st_mtime_ns))
    with sealed_memo.remembered(cache), pytest.raises(CommitError, match="holds a private key"):
        refuse_private_keys(tmp_path)
    assert searches == [results, results]
