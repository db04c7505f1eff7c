"""Scorer A remembers what each (item, outcome) scores to across a suite's runs: a run scored after
others (its outcomes taken from the memo) gives exactly what it gives scored alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import ErrorLog
from generator.pipeline.scorer_a import ScoredRun, Scoring, score_run
from generator.pipeline.stages import load
from generator.sealing import read_run

ROOT = Path(__file__).resolve().parents[1]


def _state(r: ScoredRun) -> tuple:
    t = r.table
    return (t.item, t.repeat, t.unit, t.kind, t.verdict, t.points, t.reason, t.order, r.calls, r.digest, r.public,
            r.stored_rows, r.responses, r.missing, r.sealed, r.consistency, r.sums.tolist(), r.repeats.tolist())


@pytest.mark.parametrize("suite", ["extracting", "ra-bench"])
def test_runs_scored_with_a_shared_memo_equal_runs_scored_alone(suite):
    (ls,) = load(ROOT, [suite])
    log = ErrorLog(ROOT)
    data = {run.id: read_run(run.responses, log).data for run in ls.runs}
    alone = {run.id: _state(score_run(run, data[run.id], Scoring(ls.plugin, ls.items, log))) for run in ls.runs}
    shared = Scoring(ls.plugin, ls.items, log)
    for run in ls.runs + ls.runs[::-1]:  # forwards, then backwards: every run meets a filled memo
        assert _state(score_run(run, data[run.id], shared)) == alone[run.id], run.id
    assert not log.errors
    assert len(shared.memo.new) + len(shared.memo.old) < sum(len(d.splitlines()) for d in data.values())  # hits


def test_the_memo_is_bounded_and_keeps_what_is_used():
    from generator.pipeline.scorer_a import _Memo

    memo = _Memo(size=4)
    for k in range(4):
        memo.put((k,), k)  # type: ignore[arg-type]
    assert memo.get((0,)) == 0
    for k in range(4, 8):
        memo.put((k,), k)  # type: ignore[arg-type]
    assert memo.get((0,)) == 0 and memo.get((7,)) == 7  # 0 was used again: kept in the new generation
    for k in range(8, 20):
        memo.put((k,), k)  # type: ignore[arg-type]
    assert len(memo.new) + len(memo.old) <= 8
    assert all(memo.get((k,)) is None for k in range(1, 7))


def test_tails_keep_points_of_other_types_apart():
    from generator.pipeline.csv_columns import verdict_cell, verdict_lines
    from generator.pipeline.scorer_a import _columns, _tails
    from generator.score.verdicts import Verdict, VerdictTable, verdict_digest_line

    rows = [Verdict("r", "i", 0, "u", "field", "correct", points, "", "") for points in (1, 1.0, True, 0.5, 1, -0.0, 0.0, 0)]
    rows.append(Verdict("r", "i", 0, "\ud800", "field", "wrong", 0, "", ""))  # a lone surrogate: not encodable
    for some in (rows[:8], rows[5:8], rows[:1] + rows[4:5]):  # every tail is looked up again in the later ones
        tails, csv = _tails(some, _columns(some))
        assert tails is not None
        head = b'["i",0,'
        assert [head + t for t in tails] == [verdict_digest_line(v) for v in some]
        table = VerdictTable("r")
        table.extend(some)
        assert b"".join(verdict_cell("r") + b"," + verdict_cell("i") + b",0," + t for t in csv) == verdict_lines(table)
    tails, csv = _tails(rows[:8], _columns(rows[:8]))
    assert len(set(tails[:3])) == 3 and len(set(csv[:3])) == 3  # 1, 1.0 and true are three encodings
    assert len({tails[5], tails[6], tails[7]}) == 3 and len({csv[5], csv[6], csv[7]}) == 3  # -0.0, 0.0 and 0 too
    tails, csv = _tails(rows, _columns(rows))
    assert tails is None and len(csv) == len(rows)  # every row has its line of verdicts.csv all the same
    long = [Verdict("r", "i", 0, "u", "field", "wrong", 0, "x" * 600, "")] * 2  # not remembered, written all the same
    assert _tails(long, _columns(long))[1] == (b"u,field,wrong,0," + b"x" * 600 + b",,\n",) * 2


def test_consistency_counts_units_answered_the_same_in_every_repeat():
    from generator.inputs.content import Item
    from generator.pipeline.scorer_a import _consistency

    class Shown:  # what each response answered, unit by unit (as the suite shows it)
        def __init__(self, answers):
            self.answers = answers

        def answers_of(self, suite, outcome=None):
            return self.answers

    items = [Item(id=f"i{k}", dataset="d", half="public", strata={}, document={}, spec=None) for k in range(4)]
    responses = [
        (0, 0, Shown(("a", "b", "c")), True), (0, 1, Shown(("a", "x", "c")), True), (0, 2, Shown(("a", "b", "c")), True),
        (1, 0, Shown(("a", "b")), True), (1, 1, Shown(("a", "b")), True),  # every unit the same
        (2, 0, Shown(("a",)), True),  # answered once: not compared
        (3, 0, Shown(("a", "b", "c")), True), (3, 1, Shown(("a", "z")), True),  # compared as far as the shorter goes
    ]
    assert _consistency(None, items, responses, {}) == {"i0": (3, 2), "i1": (2, 2), "i3": (2, 1)}


def test_consistency_counts_equal_the_definition_on_random_answers():
    import random

    from generator.inputs.content import Item
    from generator.pipeline.scorer_a import _consistency

    class Shown:
        def __init__(self, answers):
            self.answers = answers

        def answers_of(self, suite, outcome=None):
            return self.answers

    rng = random.Random(7)
    items = [Item(id=f"i{k:03d}", dataset="d", half="public", strata={}, document={}, spec=None) for k in range(300)]
    responses, given = [], {}
    for k in range(300):
        for repeat in range(rng.randint(1, 5)):
            answers = tuple(rng.choice("ab") for _ in range(rng.randint(0, 4)))
            responses.append((k, repeat, Shown(answers), True))
            given.setdefault(items[k].id, []).append(answers)
    expected = {}
    for item, answers in given.items():
        if len(answers) > 1:  # the definition: units compared position by position, as zip goes
            same = [len(set(values)) == 1 for values in zip(*answers)]
            expected[item] = (len(same), sum(same))
    assert _consistency(None, items, responses, {}) == expected
    assert any(c > s for c, s in expected.values()) and any(c == s > 0 for c, s in expected.values())
