"""Real against generated documents (stats.sources): the example's comparisons, consistent with the
engine's own strata, deterministic, and on the suite page."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from generator.pipeline.stages import load_and_score
from generator.stats.engine import _stratum
from generator.stats.inputs import suite_data
from generator.stats.sources import source_gaps
from generator.stats.strata import select_strata

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def data():
    return suite_data(load_and_score(REPO, ["extracting"], 1, False)[0])


def test_real_against_generated_per_dataset_and_overall(data):
    g = source_gaps(data, 300)
    assert g == source_gaps(data, 300)  # deterministic
    assert set(g) == {"all", "dataset=receipts", "dataset=tables", "dataset=govforms"}
    assert g["all"]["datasets"] == ["govforms", "receipts", "tables"] and g["all"]["real_items"] == 104
    for c in g.values():
        for run, r in c["runs"].items():
            assert r["estimate"] == pytest.approx(r["real"] - r["generated"])
            assert r["low"] <= r["estimate"] <= r["high"]
            assert r["differs"] == (r["low"] > 0 or r["high"] < 0)
    null = g["all"]["runs"]["baseline-null"]
    assert (null["estimate"], null["low"], null["high"], null["differs"]) == (0.0, 0.0, 0.0, False)
    rules = g["all"]["runs"]["baseline-rules"]  # written against the generator's templates
    assert rules["differs"] and rules["high"] < -40


def test_real_receipts_side_is_the_engines_sroie_stratum(data):
    """Real receipts are exactly the collection=sroie stratum: same items, so the same point estimates."""
    g = source_gaps(data, 200)["dataset=receipts"]
    strata, _ = select_strata(data.suite, data.items)
    sroie = next(st for st in strata if st.key == "collection=sroie")
    _, draws, ids = _stratum(data, sroie, 200, None)
    assert draws is not None and g["real_items"] == len(sroie.positions)
    metric = data.plugin.headline
    for run, r in g["runs"].items():
        assert r["real"] == pytest.approx(float(draws.point[metric][ids.index(run)]))
    assert not np.isnan([r["generated"] for r in g["runs"].values()]).any()


def test_suite_and_stratum_pages_show_real_and_generated_apart():
    from tests.site_support import example_site

    site = example_site() / "suites" / "extracting"
    page = (site / "index.html").read_text(encoding="utf-8")
    assert 'id="sources"' in page and 'id="sources-all"' in page and 'id="sources-receipts"' in page
    assert "Contamination risk: the SROIE receipts are widely published" in page
    # the label agreement section quotes flagged SROIE labels: the CC BY attribution goes with them
    assert 'id="label-agreement"' in page and "KEDA PAPAN YEW CHJAN" in page and "licensed CC BY 4.0" in page
    receipts = next((site / "strata").glob("dataset-receipts-*.html")).read_text(encoding="utf-8")
    assert 'id="sources-receipts"' in receipts and 'id="sources-tables"' not in receipts
    sroie = next((site / "strata").glob("collection-sroie-*.html")).read_text(encoding="utf-8")
    assert 'id="sources-receipts"' in sroie and 'id="sources-all"' not in sroie
    nws = next((site / "strata").glob("collection-nws-*.html")).read_text(encoding="utf-8")
    assert 'id="sources-tables"' in nws and 'id="sources-govforms"' in nws and 'id="sources-receipts"' not in nws


def test_progress_counts_every_resample_row(data):
    from generator.stats.sources import planned_source_rows

    done = []
    source_gaps(data, 100, done.append)
    assert sum(done) == planned_source_rows(data, 100) > 0


def test_headline_draws_are_the_strata_s_bit_for_bit(data):
    """What source_gaps and the input kinds' paired differences draw (engine.headline_draws: the group
    holding the headline alone) is what the stratum draws with every group, intervals and comparisons."""
    from generator.stats.engine import headline_draws

    strata, _ = select_strata(data.suite, data.items)
    assert data.declared.dataset_means and data.plugin.headline not in data.declared.spec  # a dataset mean
    for st in strata[:6]:
        whole, alone = [], []
        _, want, want_ids = _stratum(data, st, 150, whole.append)
        got, got_ids = headline_draws(data, st, 150, alone.append)
        assert got_ids == want_ids and sum(alone) == sum(whole)
        if want is None:
            assert got is None
            continue
        assert got is not None and got.df == want.df and got.record == want.record
        assert got.point.keys() == want.point.keys() and got.draws.keys() == want.draws.keys()
        for m in want.point:
            assert np.array_equal(got.point[m], want.point[m], equal_nan=True)
            assert got.draws[m].tobytes() == want.draws[m].tobytes()
