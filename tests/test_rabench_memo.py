"""RA-Bench's remembered field comparison (`field_matches_memo`) gives what `field_matches` gives, on
every field of every shared vector (and on each field's value compared with every other label's)."""

from __future__ import annotations

import json
from pathlib import Path

from generator.parse.response import ANSWER, read_outcome
from generator.suites.rabench import SUITE
from generator.suites.rabench.rules import FIELDS, field_matches, field_matches_memo

VECTORS = json.loads((Path(__file__).parent / "vectors" / "ra-bench.json").read_text(encoding="utf-8"))


def _pairs() -> list[tuple[str, object, str]]:
    """(field, model value, label value) of every labelled field of every readable vector answer."""
    out = []
    for case in VECTORS["cases"]:
        outcome = read_outcome(case["record"], SUITE.extract_answer, SUITE.answer_what)
        label = case["item"].get("label", {}).get("fields", {})
        if outcome.status != ANSWER:
            continue
        for name in FIELDS:
            if label.get(name) is not None and name in outcome.answer["fields"]:
                out.append((name, outcome.answer["fields"][name], label[name]))
    return out


def test_remembered_equals_straightforward_on_the_vectors():
    pairs = _pairs()
    assert len(pairs) > 200
    assert sum(1 for _n, got, _w in pairs if isinstance(got, str)) > 100  # the remembered path is taken
    for name, got, want in pairs + pairs:  # the second pass is answered from the memo
        assert field_matches_memo(name, got, want) == field_matches(name, got, want), (name, got, want)


def test_remembered_equals_straightforward_across_labels():
    pairs = _pairs()
    wants = {name: sorted({w for n, _g, w in pairs if n == name}) for name in FIELDS}
    for name, got, _want in pairs:
        for want in wants[name]:
            assert field_matches_memo(name, got, want) == field_matches(name, got, want), (name, got, want)
