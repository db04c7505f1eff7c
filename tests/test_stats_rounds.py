"""Each run group's headline score per round (stats/rounds.py): ordered by date, the current round the
leaderboard's own figure, an earlier round computed exactly as the leaderboard would have."""

from __future__ import annotations

from generator.pipeline.stages import load, score
from generator.stats.engine import compute
from generator.stats.estimates import per_run
from generator.stats.inputs import suite_data
from generator.stats.rounds import headline_draws, headline_stratum
from tests.conftest import GOOD, chat_record

ITEMS = ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]
WORSE = '{"total": 1, "date": "2026-03-14", "tax_id": null}'


def _data(project):
    return suite_data(score(load(project.root, ["extracting"]), project.root, jobs=1, gate=False)[0])


def _two_rounds(project) -> None:
    # the earlier round's name sorts after the current one's: the declared dates decide
    project.add_run("m-p-early", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-b",
                    started="2026-10-01T00:00:00Z")
    project.add_run("m-p-late", [chat_record(i, WORSE) for i in ITEMS], model="m", provider="p", round="2026-a",
                    started="2026-11-01T00:00:00Z")
    project.add_run("q-o", [chat_record(i, GOOD) for i in ITEMS], model="q", provider="o", round="2026-a",
                    started="2026-11-01T00:00:00Z")


def test_rounds_by_date_and_an_earlier_round_as_the_leaderboard_would_show_it(project):
    _two_rounds(project)
    doc = compute(_data(project), 400)
    hist = doc["history"]
    board = doc["strata"][hist["stratum"]]["metrics"][hist["metric"]]
    (group,) = hist["groups"]  # q on o has one round: no history
    assert (group["model"], group["provider"]) == ("m", "p")
    early, late = group["rounds"]
    assert [early["round"], late["round"]] == ["2026-b", "2026-a"] and late["current"] and not early["current"]
    assert early["simulated"] and early["covered"]
    # every item right in the earlier round, as q's run now: the same figure, and every resample the same
    assert early["estimate"] == early["low"] == early["high"] == board["q-o"]["estimate"]
    assert {k: late[k] for k in ("estimate", "low", "high")} == {k: board["m-p-late"][k] for k in
                                                                  ("estimate", "low", "high")}
    assert late["estimate"] < early["estimate"]


def test_recomputing_the_current_round_gives_the_leaderboard_bit_for_bit(project):
    _two_rounds(project)
    project.add_run("r-o", [chat_record(i, WORSE if k % 2 else GOOD) for k, i in enumerate(ITEMS)], model="r",
                    provider="o", round="2026-a")
    data = _data(project)
    doc = compute(data, 400)
    st = headline_stratum(data)
    pos = {r.id: k for k, r in enumerate(data.all_runs)}
    _, draws = headline_draws(data, st, [pos[r.id] for r in data.runs], 400)
    head = data.plugin.headline
    rows, _, _ = per_run(draws.point[head], draws.draws[head], len(st.positions), draws.df)
    board = doc["strata"][st.key]["metrics"][head]
    assert {r.id: row for r, row in zip(data.runs, rows)} == board


def test_one_round_means_no_history_and_the_figures_are_seeded(project):
    project.add_run("m-p", [chat_record(i, GOOD) for i in ITEMS], model="m", provider="p", round="2026-a")
    assert compute(_data(project), 400)["history"] == {}
    project.add_run("m-p-0", [chat_record(i, WORSE if k % 2 else GOOD) for k, i in enumerate(ITEMS)], model="m",
                    provider="p", round="2026-0", started="2026-09-01T00:00:00Z")
    a, b = compute(_data(project), 400)["history"], compute(_data(project), 400)["history"]
    assert a == b and a["groups"][0]["rounds"][0]["low"] < a["groups"][0]["rounds"][0]["high"]
