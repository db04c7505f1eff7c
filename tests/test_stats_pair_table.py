"""A family's pairs held by column (stats/pair_table.py) read back as the dicts the engine made, are written
to stats.json as the same bytes, survive the build cache (marshal) and stay plain lists when they cannot
be a table."""

from __future__ import annotations

import io
import json
import marshal

import numpy as np
import pytest

from generator.stats.engine import _clean, dump, dumps
from generator.stats.family_parts import PartStore, packed, unpacked
from generator.stats.pair_table import PairTable
from generator.stats.pairwise import holm, max_t, overlap_calls


def _family_pairs(runs: int = 7, seed: int = 3) -> list[dict]:
    rng = np.random.default_rng(seed)
    thetas = np.round((rng.normal(size=(400, runs)) * 0.02 + np.linspace(0.4, 0.7, runs)) * 1024) / 1024
    thetas[:, 1] = thetas[:, 2] + 0.25  # a difference with no spread (exact on this grid): t is infinite, null
    _, pairs = holm(thetas.mean(axis=0), thetas, 399)
    ids = [f"run-{k}" for k in range(runs)]
    return [p | {"a": ids[p["a"]], "b": ids[p["b"]]} for p in pairs]


def test_reads_back_the_cleaned_pairs():
    pairs = _family_pairs()
    table = PairTable.of(pairs)
    assert isinstance(table, PairTable) and len(table) == len(pairs) == 21
    cleaned = _clean(pairs)
    assert list(table) == cleaned and table == cleaned
    assert any(p["t"] is None for p in cleaned)  # the infinite t, as _clean writes it
    assert table[0] == cleaned[0] and table[-1] == cleaned[-1] and table[3:6] == cleaned[3:6]
    assert [type(v) for v in table[0].values()] == [type(v) for v in cleaned[0].values()]


def test_stats_json_bytes_are_unchanged():
    pairs = _family_pairs(9)
    doc = {"strata": {"all": {"pairwise": {"accuracy": {"c": 3.1, "pairs": pairs, "runs": ["x"]}}}}, "format": 1}
    plain = dumps(_clean(doc))
    tabled = _clean(doc)
    tabled["strata"]["all"]["pairwise"]["accuracy"]["pairs"] = PairTable.of(pairs)
    assert dumps(tabled) == plain
    out = io.StringIO()
    dump(tabled, out)
    assert out.getvalue() == plain
    assert json.loads(plain)["strata"]["all"]["pairwise"]["accuracy"]["pairs"] == list(PairTable.of(pairs))


def test_the_cache_keeps_tables():
    doc = {"strata": {"all": {"pairwise": {"m": {"pairs": PairTable.of(_family_pairs())}}}}, "list": [1, "a"]}
    back = unpacked(marshal.loads(marshal.dumps(packed(doc))), PartStore())
    table = back["strata"]["all"]["pairwise"]["m"]["pairs"]
    assert isinstance(table, PairTable) and table == doc["strata"]["all"]["pairwise"]["m"]["pairs"]
    assert back["list"] == [1, "a"]


def test_other_rules_and_odd_pairs():
    rng = np.random.default_rng(5)
    thetas = rng.normal(size=(300, 5))
    _, pairs = max_t(thetas.mean(axis=0), thetas)
    assert PairTable.of(pairs) == _clean(pairs)  # a and b as ints
    over = overlap_calls(np.arange(4.0), np.arange(4.0) - 1, np.arange(4.0) + 1, np.full(4, 20))
    assert PairTable.of(over) == over
    mixed = [{"a": "x", "b": "y", "call": "better"}, {"a": "x", "b": "z"}]
    assert PairTable.of(mixed) is mixed  # not the same keys: kept as a list
    odd = [{"a": "x", "v": [1]}, {"a": "y", "v": [2]}]
    assert PairTable.of(odd) is odd
    assert PairTable.of([]) == []


def test_a_table_is_far_smaller_than_its_dicts():
    pairs = _family_pairs(60)
    table = PairTable.of(pairs)
    assert isinstance(table, PairTable)
    held = sum(col.nbytes if isinstance(col, np.ndarray) else col[1].nbytes for col in table.data)
    assert held < 80 * len(pairs)  # bytes a pair; a dict of nine values alone takes several hundred


@pytest.mark.parametrize("options", [{"indent": 1, "allow_nan": False}, {"separators": (",", ":")}])
def test_the_c_encoded_stream_writes_json_dump_s_bytes(options):
    """stats/json_stream.py: the same bytes as json.dump, families at any depth, in dicts and in lists,
    empty ones, keys sorted, text that is not ASCII, and a string that looks like a placeholder."""
    from generator.stats.json_stream import write_json
    from generator.stats.pair_table import json_default

    pairs = _family_pairs()
    doc = {"z": PairTable.of(pairs), "a": {"deep": [1, {"pairs": PairTable.of(pairs[:3]), "n": 2.5}, PairTable.of([])]},
           "text": "café \u0000x:0\u0000 \"q\"", "list": [PairTable.of(pairs[:1]), "x"], "m": {"k": [[], {}]}}
    want = io.StringIO()
    json.dump(doc, want, sort_keys=True, ensure_ascii=False, default=json_default, **options)
    got = io.StringIO()
    write_json(doc, got, **options)
    assert got.getvalue() == want.getvalue()
    with pytest.raises(TypeError):
        write_json({"x": object()}, io.StringIO(), **options)


@pytest.mark.parametrize("indent", [1, 2, 4])
def test_a_table_s_own_text_is_json_dumps_text(indent):
    """PairTable.json_text (how stats.json's pairs are written): json.dumps's text whatever the values:
    names with quotes, escapes, line breaks and text that is not ASCII; floats at the ends of their range,
    -0.0, NaN and infinities (null, as the dicts give them); ints of every size; a key needing escapes."""
    from generator.stats.json_stream import write_json

    names = ['plain', 'q"uote', "back\\slash", "line\nbreak", "tab\t\u0001", "café ✓", "\u2028x", ""]
    floats = [0.0, -0.0, 1e16, 1e-7, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, -123.456, float("nan"),
              float("inf"), -float("inf"), 2.5]
    rng = np.random.default_rng(11)
    pairs = [{"b": names[int(rng.integers(len(names)))], "a": names[int(rng.integers(len(names)))],
              "diff": floats[int(rng.integers(len(floats)))], "n": int(rng.integers(-2**62, 2**62)),
              'odd "key"\n': floats[int(rng.integers(len(floats)))]} for _ in range(60)]
    table = PairTable.of(pairs)
    assert isinstance(table, PairTable)
    cleaned = _clean(pairs)
    want = json.dumps(cleaned, sort_keys=True, ensure_ascii=False, indent=indent)
    assert table.json_text(indent, 0) == want
    assert table.json_text(indent, 3) == want.replace("\n", "\n   ")
    doc = {"x": {"pairs": table}, "y": [table]}
    out = io.StringIO()
    write_json(doc, out, indent=indent)
    assert out.getvalue() == json.dumps({"x": {"pairs": cleaned}, "y": [cleaned]}, sort_keys=True,
                                        ensure_ascii=False, indent=indent)
    assert PairTable.of(pairs[:1]).json_text(indent, 0) == json.dumps(cleaned[:1], sort_keys=True,
                                                                      ensure_ascii=False, indent=indent)


@pytest.mark.parametrize("batch", [1, 2, 3, 7, 20_000])
def test_the_indented_stream_is_json_dump_s_bytes_whatever_the_batch(monkeypatch, batch):
    """With an indent, the encoder's pieces are written a batch at a time (the text never whole): the same
    bytes however the batches fall, placeholders at the start, middle and end of a batch, nested and in
    lists, on lines of every depth."""
    from generator.stats import json_stream
    from generator.stats.pair_table import json_default

    monkeypatch.setattr(json_stream, "BATCH", batch)
    pairs = _family_pairs()
    doc = {"a": [PairTable.of(pairs[:2]), {"b": {"c": PairTable.of(pairs)}}, "text\nwith a break"],
           "d": PairTable.of([]), "e": {"pairs": PairTable.of(pairs[:1]), "x": [1.5, None, "café"]},
           "z": [[PairTable.of(pairs[:3])]]}
    for indent in (1, 3):
        want = io.StringIO()
        json.dump(doc, want, sort_keys=True, ensure_ascii=False, default=json_default, indent=indent)
        got = io.StringIO()
        json_stream.write_json(doc, got, indent=indent)
        assert got.getvalue() == want.getvalue()


@pytest.mark.parametrize("options", [{"indent": 1}, {"separators": (",", ":")}])
def test_a_string_equal_to_a_placeholder_is_refused(monkeypatch, options):
    from generator.stats import json_stream

    monkeypatch.setattr(json_stream.secrets, "token_hex", lambda _n: "feed")
    pairs = _family_pairs()
    for doc in ({"a": "\u0000feed:0\u0000", "b": PairTable.of(pairs)},  # before the family it names
                {"a": PairTable.of(pairs), "b": ["\u0000feed:1\u0000"]}):  # a family that does not exist
        with pytest.raises(ValueError, match="placeholder"):
            json_stream.write_json(doc, io.StringIO(), **options)
