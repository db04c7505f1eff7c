"""Every comparison family of every suite of the example, at the level of the statistics output: for each
stratum and ranked metric, the family lists every pair of its runs once, and two runs share a letter
exactly when they were not called different (not only on the families a page shows)."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

from generator.stats.pairwise import BETTER, TIE, WORSE
from tests.site_support import full_example_site

REPO = Path(__file__).resolve().parents[1]
SUITES = sorted(p.name for p in (REPO / "content" / "suites").iterdir() if (p / "suite.toml").exists())
# suites whose example is too small for any call: LongListBench's six documents give every family fewer degrees
# of freedom than the statistics need to call a pair (min_call_df), so every pair reads "can't tell apart"
TOO_SMALL_TO_CALL = {"longlistbench"}


@pytest.fixture(scope="module")
def stats_docs() -> dict[str, dict]:
    """Every suite's whole statistics output (build/stats/<suite>/stats.json, before the site drops the
    private items' analysis) of the example site the site tests share: rescored, computed with 1,000
    resamples and built once per test session."""
    stats = full_example_site().parent / "build" / "stats"
    return {p.name: json.loads((p / "stats.json").read_text(encoding="utf-8")) for p in sorted(stats.iterdir())}


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
