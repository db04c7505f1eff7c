"""Each comparison family's pairs in a part of its own (stats/family_parts.py): the statistics document
holds only a reference per family, stats.json is the same bytes as when every pair was held, the build
cache keeps the parts apart from the document, and a page reads its family's pairs from the part when
it is rendered."""

from __future__ import annotations

import marshal

import pytest

from generator.pipeline import orchestrate
from generator.pipeline.cache import Cache
from generator.pipeline.stages import load, score
from generator.render import build as site_build
from generator.stats.engine import compute, dumps
from generator.stats.family_parts import KIND, PairPart, PartMissing, PartStore, packed, readable, unpacked
from generator.stats.inputs import suite_data
from generator.stats.pair_table import STATE, PairTable
from tests.site_support import build, make_project, missing_node

RESAMPLES = 200
needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("parts") / "p")
    return suite_data(score(load(root), root, jobs=1, gate=False)[0])


def families(doc: dict) -> list[dict]:
    return [fam for st in doc["strata"].values() for fam in st["pairwise"].values()]


def holds(doc: object, kind: type) -> bool:
    if isinstance(doc, kind):
        return True
    if isinstance(doc, dict):
        return any(holds(v, kind) for v in doc.values())
    if isinstance(doc, list):
        return any(holds(v, kind) for v in doc)
    return False


def test_every_family_is_a_part_and_stats_json_is_the_same_bytes(data):
    whole = compute(data, RESAMPLES)
    store = PartStore()
    parted = compute(data, RESAMPLES, keep_pairs=store.put)
    fams = families(parted)
    assert fams and all(isinstance(f["pairs"], PairPart) for f in fams if f["pairs"])
    assert store.count == sum(1 for f in fams if f["pairs"]) and not holds(parted, PairTable)
    assert dumps(parted) == dumps(whole)
    for fam, same in zip(fams, families(whole)):  # each part read back as the family's pairs, dict for dict
        assert list(fam["pairs"]) == list(same["pairs"]) and len(fam["pairs"]) == len(same["pairs"])


def test_the_cache_keeps_each_part_as_an_entry_of_its_own(data, tmp_path):
    cache = Cache(tmp_path / "cache")
    store = PartStore(cache, "mini", "key")
    doc = compute(data, RESAMPLES, keep_pairs=store.put)
    kept = packed(doc)
    assert not holds(kept, PairPart) and STATE not in marshal.dumps(kept).decode("latin-1")  # no pair in it
    assert sorted(p.name for p in (tmp_path / "cache" / KIND / "mini").iterdir()) == sorted(store.names())
    back = unpacked(marshal.loads(marshal.dumps(kept)), PartStore(Cache(tmp_path / "cache"), "mini", "key"))
    assert readable(back) and dumps(back) == dumps(doc)
    (tmp_path / "cache" / KIND / "mini" / store.name(0)).unlink()  # a part gone: the document cannot be used
    assert not readable(back)
    with pytest.raises(PartMissing):
        dumps(back)


@needs_node
def test_a_page_reads_its_family_from_its_part_when_rendered(tmp_path, monkeypatch):
    root = make_project(tmp_path / "p")
    loads: list[tuple[str, int]] = []
    stage = ["gather"]
    real_load, real_write = PartStore.load, site_build.write_site

    def load_part(self, index):
        loads.append((stage[0], index))
        return real_load(self, index)

    def write_site(site, *args, **kw):
        stage[0] = "pages"
        return real_write(site, *args, **kw)

    monkeypatch.setattr(PartStore, "load", load_part)
    monkeypatch.setattr(site_build, "write_site", write_site)
    build(root, tmp_path / "site", resamples=RESAMPLES, jobs=1, cache=False)
    written = {index for where, index in loads if where == "pages"}
    assert written and written == {index for _, index in loads}  # read by the pages (and downloads), not before

    # the pages hold no copy of the pairs: a part removed before the pages are written stops the build
    def without_a_part(site, *args, **kw):
        part = next(f["pairs"] for f in families(site.suites[0].stats) if isinstance(f["pairs"], PairPart))
        assert part.store.folder is not None
        (part.store.folder / part.store.name(part.number)).unlink()
        return real_write(site, *args, **kw)

    monkeypatch.setattr(site_build, "write_site", without_a_part)
    with pytest.raises(PartMissing):
        build(root, tmp_path / "site2", resamples=RESAMPLES, jobs=1, cache=False)


def test_statistics_from_the_cache_refer_to_parts_and_a_lost_part_is_computed_again(tmp_path):
    root = make_project(tmp_path / "p")
    res = score(load(root), root, jobs=1, gate=False, cache=Cache(root / "build" / "cache"))[0]
    cache = Cache(root / "build" / "cache")
    first, cached = orchestrate.statistics(res, RESAMPLES, cache=cache)
    again, hit = orchestrate.statistics(res, RESAMPLES, cache=cache)
    assert (cached, hit) == (False, True) and dumps(again) == dumps(first)
    assert all(isinstance(f["pairs"], PairPart) for f in families(again) if f["pairs"])
    folder = root / "build" / "cache" / KIND / res.suite.name
    next(iter(sorted(folder.iterdir()))).unlink()
    third, hit = orchestrate.statistics(res, RESAMPLES, cache=cache)
    assert not hit and dumps(third) == dumps(first)
