"""What the build cache's records remember must be keyed by everything that made it. The sealed hashes'
and the private-key search's record (commit/sealed_memo.py) is keyed by the files' signatures only (and,
for the search, by its pattern and inflation limit): a Tally whose reading of sealed records or whose
search changed must not be served the old reading of an unchanged file (the page checks' record is kept
under the hash of the sources for this reason: pipeline/page_checks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.commit import publish, responses, sealed_memo
from generator.pipeline import cache as cache_module
from generator.pipeline import file_digests
from generator.pipeline.cache import Cache


@pytest.fixture
def results(tmp_path) -> Path:
    path = tmp_path / "results" / "suite" / "run" / "responses.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"id":"a","sealed":{"record_sha256":"' + b"1" * 64 + b'"}}\n'
                     b"PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAA\n")
    return path


def test_a_changed_reading_of_sealed_records_is_not_served_the_old_one(tmp_path, results, monkeypatch):
    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    cache = Cache(tmp_path / "cache")
    with sealed_memo.remembered(cache):
        old = responses.sealed_hashes(results)
    assert old == ["1" * 64]
    # the next version of Tally reads sealed records otherwise (here: each hash given as another)
    monkeypatch.setattr(responses, "_record_hashes", lambda path: ["f" * 64 for _ in old])
    monkeypatch.setitem(cache_module._CODE, "commit", "the sources of the next version")
    with sealed_memo.remembered(cache):
        assert responses.sealed_hashes(results) == responses._record_hashes(results)


def test_a_widened_private_key_search_sees_an_unchanged_file(tmp_path, results, monkeypatch):
    from generator.commit import CommitError

    monkeypatch.setattr(file_digests, "SETTLED_NS", 0)
    cache = Cache(tmp_path / "cache")
    with sealed_memo.remembered(cache):
        publish.refuse_private_keys(tmp_path)  # a PuTTY key is not a PEM key: found clean
    # the next version of Tally also refuses PuTTY keys (the PEM pattern and the limit unchanged)
    real = publish.holds_private_key
    monkeypatch.setattr(publish, "holds_private_key",
                        lambda path: real(path) or b"PuTTY-User-Key-File" in path.read_bytes())
    monkeypatch.setitem(cache_module._CODE, "commit", "the sources of the next version")
    with pytest.raises(CommitError):  # outside a build: refused
        publish.refuse_private_keys(tmp_path)
    with sealed_memo.remembered(cache), pytest.raises(CommitError):  # within a build: must be refused too
        publish.refuse_private_keys(tmp_path)
