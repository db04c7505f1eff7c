"""Where a run's blocks lie, held compactly (generator/pipeline/spans.py): the same mapping as the
header's dict (keys in order, spans, lookups, membership), keys shared by runs that list the same ones,
and a copy by pickle (a Dask task's inputs) the same."""

from __future__ import annotations

import pickle

from generator.pipeline import spans as spans_mod
from generator.pipeline.spans import Spans


def test_the_same_mapping_as_the_headers_dict():
    header = {"b": (10, 3), "a": (0, 10), "c": (2**40, 7)}
    s = Spans(header)
    assert list(s) == ["b", "a", "c"] and len(s) == 3 and dict(s.items()) == header and s == header
    assert s["c"] == (2**40, 7) and s.get("a") == (0, 10) and s.get("z") is None and s.get("z", 1) == 1
    assert "a" in s and "z" not in s and ("a", 0) not in s
    public = {("i1", 0): (5, 1), ("i1", 1): (6, 2)}
    assert Spans(public)[("i1", 1)] == (6, 2) and dict(Spans(public)) == public
    assert Spans({}) == {} and list(Spans({})) == []


def test_runs_listing_the_same_keys_share_them():
    a = Spans({"x" + str(k): (k, 1) for k in range(1000)})
    b = Spans({"x" + str(k): (2 * k, 2) for k in range(1000)})
    assert a._shared is b._shared and a != b
    c = Spans({"x" + str(k): (k, 1) for k in range(999)})  # another list: its own
    assert c._shared is not a._shared and len(c) == 999


def test_shared_keys_go_with_their_last_user():
    import gc

    before = len(spans_mod._SHARED)
    made = [Spans({f"y{n}-{k}": (k, 1) for k in range(10)}) for n in range(5)]
    assert len(spans_mod._SHARED) == before + 5
    del made
    gc.collect()
    assert len(spans_mod._SHARED) == before


def test_a_pickled_copy_is_the_same():
    s = Spans({("i", 0): (1, 2), ("j", 1): (3, 4)})
    copy = pickle.loads(pickle.dumps(s))
    assert copy == s and list(copy) == list(s) and copy[("j", 1)] == (3, 4)
