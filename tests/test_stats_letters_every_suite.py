"""Every comparison family of every suite of the example, at the level of the statistics output: for each
stratum and ranked metric, the family lists every pair of its runs once, and two runs share a letter
exactly when they were not called different (not only on the families a page shows)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from generator.pipeline import load_and_score
from generator.stats.engine import compute
from generator.stats.inputs import suite_data
from generator.stats.pairwise import BETTER, TIE, WORSE

REPO = Path(__file__).resolve().parents[1]
SUITES = sorted(p.name for p in (REPO / "content" / "suites").iterdir() if (p / "suite.toml").exists())
RESAMPLES = 400  # fewer than the suites' own count, to keep the test short; every rule is the same
# suites whose example is too small for any call: LongListBench's six documents give every family fewer degrees
# of freedom than the statistics need to call a pair (min_call_df), so every pair reads "can't tell apart"
TOO_SMALL_TO_CALL = {"longlistbench"}

pytestmark = pytest.mark.slow  # the module fixture rescores and computes every example suite


@pytest.fixture(scope="module")
def stats_docs() -> dict[str, dict]:
    scored = load_and_score(REPO, SUITES, jobs=1, gate=False, warn=lambda _: None)
    return {res.suite.name: compute(suite_data(res), RESAMPLES) for res in scored}


def test_every_suite_of_the_example_is_checked(stats_docs):
    assert len(SUITES) == 6 and sorted(stats_docs) == SUITES


@pytest.mark.parametrize("suite", SUITES)
def test_sharing_a_letter_is_not_being_called_different(stats_docs, suite):
    doc = stats_docs[suite]
    families = pairs_checked = called = 0
    for key, stratum in doc["strata"].items():
        for metric, fam in stratum["pairwise"].items():
            families += 1
            runs, letters = fam["runs"], fam["letters"]
            where = f"{suite} {key} {metric}"
            assert sorted(letters) == sorted(runs) == sorted(fam["order"]), where
            assert all(letters[r] for r in runs), f"{where}: a run without a letter"
            seen = {frozenset((p["a"], p["b"])) for p in fam["pairs"]}
            assert len(seen) == len(fam["pairs"]) == len(runs) * (len(runs) - 1) // 2, where
            calls = {frozenset((p["a"], p["b"])): p["call"] for p in fam["pairs"]}
            for a, b in combinations(runs, 2):
                call = calls[frozenset((a, b))]
                assert call in (BETTER, WORSE, TIE), (where, a, b, call)
                share = bool(set(letters[a]) & set(letters[b]))
                assert share == (call == TIE), (where, a, b, letters[a], letters[b], call)
                pairs_checked += 1
                called += call != TIE
    assert families >= 10, f"{suite}: only {families} families"
    if suite in TOO_SMALL_TO_CALL:
        assert called == 0 and all(fam.get("too_small") for st in doc["strata"].values()
                                   for fam in st["pairwise"].values()), suite
        return
    assert called > 0 and pairs_checked > called, f"{suite}: {called} of {pairs_checked} pairs called"
