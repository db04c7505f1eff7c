"""Earlier rounds of a model on a provider: kept off the leaderboard, compared on the anchor items."""

from __future__ import annotations

import pytest

from generator.pipeline.stages import load, score
from generator.stats.engine import compute
from generator.stats.inputs import suite_data
from generator.suites.extracting import Extracting
from tests.conftest import GOOD, chat_record

ITEMS = ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]
WORSE = '{"total": 1, "date": "2026-03-14", "tax_id": null}'


def _data(project):
    return suite_data(score(load(project.root, ["extracting"]), project.root, jobs=1, gate=False)[0])


def _stats(project, resamples: int = 400) -> dict:
    return compute(_data(project), resamples)


def test_a_silent_change_on_the_anchor_items_is_flagged(project):
    project.add_run("m-p-r0", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-r0",
                    anchors=ITEMS[:4])
    project.add_run("m-p-r1", [chat_record(i, WORSE if i != "r-pub-2" else GOOD) for i in ITEMS], model="m",
                    provider="p", round="2026-r1", anchors=ITEMS)
    doc = _stats(project)
    assert list(doc["runs"]) == ["m-p-r1"] and list(doc["earlier_runs"]) == ["m-p-r0"]
    (comp,) = doc["anchors"]
    assert comp["items"] == 4  # anchors of both rounds
    assert comp["current"] == {"run": "m-p-r1", "round": "2026-r1"}
    acc = comp["metrics"]["accuracy"]
    assert (acc["earlier"], acc["current"], acc["difference"]) == (1.0, 0.0, -1.0)
    assert acc["high"] < 0 and acc["changed"] is True
    assert comp["metrics"]["null_honesty"]["changed"] is False


def test_the_same_answers_in_two_rounds_show_no_change(project):
    for rnd in ("2026-r0", "2026-r1"):
        project.add_run(f"m-p-{rnd}", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round=rnd,
                        anchors=ITEMS)
    (comp,) = _stats(project)["anchors"]
    assert all(m["difference"] == 0 and not m["changed"] for m in comp["metrics"].values() if m["current"] is not None)


def test_runs_of_one_model_on_one_provider_in_one_round_are_replicates(project):
    # on r-pub-1, run a answers right twice (repeats 0 and 1), run b once wrong; both cover every item
    rest = [chat_record(i, GOOD) for i in ITEMS if i != "r-pub-1"]
    project.add_run("a", [chat_record("r-pub-1", GOOD), chat_record("r-pub-1", GOOD, repeat=1)] + rest, model="m",
                    provider="p", round="2026-r1")
    project.add_run("b", [chat_record("r-pub-1", WORSE)] + rest, model="m", provider="p", round="2026-r1")
    data = _data(project)
    (group,) = data.runs
    assert group.id == "a" and group.replicates == ("a", "b")
    pos = [i.id for i in data.items].index("r-pub-1")
    names = list(data.figure_names)
    correct = data.figs[0, pos, names.index("printed_correct")] / data.figs[0, pos, names.index("printed_n")]
    assert correct == 0.5  # the mean of runs: each run's per-item mean weighs the same
    assert data.repeats[0, pos] == 3
    doc = compute(data, 200)
    assert doc["runs"]["a"]["replicates"] == ["a", "b"] and doc["method"]["replicates"] == "mean"


def test_pooled_replicates_weigh_every_response_the_same(project, monkeypatch):
    monkeypatch.setattr(Extracting, "replicates", "pooled")
    rest = [chat_record(i, GOOD) for i in ITEMS if i != "r-pub-1"]
    project.add_run("a", [chat_record("r-pub-1", GOOD), chat_record("r-pub-1", GOOD, repeat=1)] + rest, model="m",
                    provider="p", round="2026-r1")
    project.add_run("b", [chat_record("r-pub-1", WORSE)] + rest, model="m", provider="p", round="2026-r1")
    data = _data(project)
    pos = [i.id for i in data.items].index("r-pub-1")
    names = list(data.figure_names)
    assert data.figs[0, pos, names.index("printed_correct")] == pytest.approx(2 / 3)


def test_runs_without_common_anchors_are_compared_on_nothing(project):
    project.add_run("m-p-r0", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-r0",
                    anchors=ITEMS[:2])
    project.add_run("m-p-r1", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-r1",
                    anchors=ITEMS[2:])
    (comp,) = _stats(project)["anchors"]
    assert comp["items"] == 0 and comp["metrics"] == {}


def test_an_earlier_run_that_did_not_run_the_anchor_block_is_not_compared(project):
    project.add_run("m-p-r0", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-r0")
    project.add_run("m-p-r1", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-r1",
                    anchors=ITEMS)
    doc = _stats(project)
    assert list(doc["earlier_runs"]) == ["m-p-r0"] and doc["anchors"] == []


@pytest.mark.parametrize("check_first", [True, False])
def test_an_anchor_check_is_compared_with_the_ranked_run_by_date_and_never_ranked(project, check_first):
    """A run of the anchor block alone (`tally run --anchors-only`) before or after the model's ranked
    run: compared with it on the anchor items, the later one as `current`; listed apart, not ranked."""
    anchors = ITEMS[1:4]
    dates = ("2026-11-01T00:00:00Z", "2026-11-20T00:00:00Z")
    check_date, full_date = dates if check_first else dates[::-1]
    project.add_run("m-full", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-r2",
                    anchors=anchors, started=full_date)
    project.add_run("m-check", [chat_record(i, WORSE) for i in anchors], model="m", provider="p", round="2026-r9",
                    anchors=anchors, started=check_date)
    # an incomplete run that lists anchors but misses one of them is no anchor check
    project.add_run("m-cut", [chat_record(i, WORSE) for i in anchors[:2]], model="m", provider="p",
                    round="2026-r8", anchors=anchors, started=check_date)
    doc = _stats(project)
    assert list(doc["runs"]) == ["m-full"] and doc["earlier_runs"] == {}
    assert doc["incomplete_runs"]["m-check"]["anchor_check"] is True
    assert "anchor_check" not in doc["incomplete_runs"]["m-cut"]
    (comp,) = doc["anchors"]
    later, earlier = ("m-full", "m-check") if check_first else ("m-check", "m-full")
    assert (comp["current"]["run"], comp["earlier"]["run"], comp["items"]) == (later, earlier, 3)
    acc = comp["metrics"]["accuracy"]
    assert acc["changed"] is True and acc["difference"] == (1.0 if check_first else -1.0)
    assert doc["strata"]["all"]["metrics"]["accuracy"]["m-full"]["estimate"] == 1.0


def test_a_partial_run_never_replaces_a_complete_one_and_rounds_go_by_date(project):
    full = [chat_record(i, GOOD) for i in ITEMS]
    project.add_run("m-full", full, model="m", provider="p", round="2026-r1", started="2026-11-01T00:00:00Z")
    # a later, 2-item smoke test in a round whose name sorts after "2026-r1"
    project.add_run("m-smoke", [chat_record(i, WORSE) for i in ITEMS[:2]], model="m", provider="p", round="adhoc",
                    started="2026-11-20T00:00:00Z")
    # an earlier round whose name sorts last: by date it is the earlier one
    project.add_run("m-old", full, model="m", provider="p", round="zz-first", started="2026-10-01T00:00:00Z")
    doc = _stats(project)
    assert list(doc["runs"]) == ["m-full"] and list(doc["earlier_runs"]) == ["m-old"]
    assert doc["incomplete_runs"]["m-smoke"]["items_covered"] == 2 and doc["incomplete_runs"]["m-smoke"]["items"] == 5
    assert doc["strata"]["all"]["metrics"]["accuracy"]["m-full"]["estimate"] == 1.0


def test_repeat_consistency_compares_answers_not_verdicts(project):
    other_wrong = '{"total": 2, "date": "2026-03-14", "tax_id": null}'  # wrong like WORSE, but another answer
    records = [chat_record(i, GOOD) for i in ITEMS]
    records += [chat_record("r-pub-1", GOOD, repeat=1), chat_record("r-pub-1", GOOD, repeat=2)]  # the same
    records += [chat_record("i-pub-1", WORSE, repeat=1), chat_record("i-pub-1", other_wrong, repeat=2)]
    project.add_run("m-p", records, model="m", provider="p")
    c = _stats(project)["consistency"]["m-p"]
    assert (c["documents"]["k"], c["documents"]["n"]) == (1, 2)  # r-pub-1 the same, i-pub-1 not
    assert (c["units"]["k"], c["units"]["n"]) == (3 + 2, 6)  # i-pub-1: total differs, date and tax_id the same
    assert c["documents"]["low"] < 0.5 < c["documents"]["high"]


def test_item_analysis_finds_items_that_separate_no_run_or_rank_against_the_order(project):
    bad = '{"total": 1, "date": "1999-01-01", "tax_id": "X"}'
    # run a best overall, c worst; on r-pub-2 everyone is right; on i-pub-1 only the worst is right
    plan = {"a": {"i-pub-1": bad}, "b": {"i-pub-1": bad, "r-prv-1": bad, "i-prv-1": bad},
            "c": {"r-pub-1": bad, "r-prv-1": bad, "i-prv-1": bad}}
    for run, wrong in plan.items():
        project.add_run(run, [chat_record(i, wrong.get(i, GOOD)) for i in ITEMS], model=run, provider="p")
    ia = _stats(project)["item_analysis"]
    assert "r-pub-2" in ia["not_separating"] and "i-pub-1" in ia["against_order"]
    assert ia["items"]["r-pub-2"]["runs_right"] == 3 and ia["items"]["i-pub-1"]["discrimination"] < 0
