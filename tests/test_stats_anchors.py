"""Earlier rounds of a model on a provider: kept off the leaderboard, compared on the anchor items."""

from __future__ import annotations

import pytest

from generator.rescore import rescore, write_outputs
from generator.stats.engine import compute
from generator.stats.inputs import StatsInputError, load_suite_data
from tests.conftest import GOOD, chat_record

ITEMS = ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]
WORSE = '{"total": 1, "date": "2026-03-14", "tax_id": null}'


def _stats(project, resamples: int = 400) -> dict:
    out = project.root / "build" / "rescore"
    write_outputs(out, rescore(project.root, ["extracting"], jobs=1))
    return compute(load_suite_data(project.root, "extracting", out), resamples)


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


def test_two_runs_of_one_model_on_one_provider_in_one_round_are_an_error(project):
    for name in ("a", "b"):
        project.add_run(name, [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-r1")
    with pytest.raises(StatsInputError, match="one run per round"):
        _stats(project)


def test_runs_without_common_anchors_are_compared_on_nothing(project):
    project.add_run("m-p-r0", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-r0")
    project.add_run("m-p-r1", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-r1",
                    anchors=ITEMS)
    (comp,) = _stats(project)["anchors"]
    assert comp["items"] == 0 and comp["metrics"] == {}
