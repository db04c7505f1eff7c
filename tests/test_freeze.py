"""A suite's freeze date: documents published before the test set was frozen form their own stratum
(freeze = pre-freeze) and never count in the headline. The extracting seed: the private half is built
"from documents we generate and from government documents published after the test set is frozen"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.errors import ErrorLog
from generator.inputs.content import FREEZE, POST_FREEZE, PRE_FREEZE, load_items, load_suite
from generator.pipeline.stages import load
from generator.render.pages.common import stratum_title
from generator.stats.strata import HEADLINE, headline_choices, headline_key, select_strata
from generator.suites.extracting import SUITE as EXTRACTING
from tests.conftest import SUITE_TOML

ROOT = Path(__file__).resolve().parents[1]


def _suite(tmp_path: Path, extra: str):
    folder = tmp_path / "content" / "suites" / "extracting"
    folder.mkdir(parents=True, exist_ok=True)
    head, _, rest = SUITE_TOML.partition("strata =")
    (folder / "suite.toml").write_text(head + extra + "\nstrata =" + rest, encoding="utf-8")
    log = ErrorLog(tmp_path)
    return load_suite(folder, log), [str(e) for e in log.errors], folder


@pytest.mark.parametrize("extra, message", [
    ('frozen = "2026-13-01"', "frozen must be a date, YYYY-MM-DD"),
    ("frozen = 2026", "frozen must be a date, YYYY-MM-DD"),
    ('published_before_freeze = ["collection=sroie"]', "published_before_freeze needs frozen"),
    ('frozen = "2026-10-20"\npublished_before_freeze = ["sroie"]', 'list of "dimension=value" strings'),
    ('frozen = "2026-10-20"\npublished_before_freeze = ["half=private"]', 'list of "dimension=value" strings'),
])
def test_bad_freeze_settings_are_errors(tmp_path, extra, message):
    config, errors, _ = _suite(tmp_path, extra)
    assert config is None and len(errors) == 1 and message in errors[0], errors


def _item(item_id: str, half: str, document: dict, strata: dict | None = None) -> str:
    return json.dumps({"id": item_id, "dataset": "invoices", "half": half, "strata": strata or {},
                       "document": {"text": "Total 1.00", "locale": "en-US", **document},
                       "fields": [{"name": "total", "type": "money", "kind": "printed", "answer": "1.00"}]})


def test_a_document_published_on_or_before_the_freeze_is_pre_freeze(tmp_path):
    config, errors, folder = _suite(tmp_path, 'frozen = "2026-10-20"\npublished_before_freeze = ["collection=old"]')
    assert not errors and config is not None and FREEZE in config.strata
    (folder / "items").mkdir()
    (folder / "items" / "invoices.private.jsonl").write_text("\n".join([
        _item("a-on-the-day", "private", {"published": "2026-10-20"}),
        _item("b-day-after", "private", {"published": "2026-10-21"}),
        _item("c-generated", "private", {}),
        _item("d-old-collection", "private", {}, {"collection": "old"}),
    ]) + "\n", encoding="utf-8")
    (folder / "items" / "invoices.public.jsonl").write_text(
        _item("e-years-ago", "public", {"published": "2019-03-01"}) + "\n", encoding="utf-8")
    log = ErrorLog(tmp_path)
    items = load_items(config, EXTRACTING.parse_item, log)
    assert not log.errors
    assert {i.id: i.strata[FREEZE] for i in items} == {
        "a-on-the-day": PRE_FREEZE, "b-day-after": POST_FREEZE, "c-generated": POST_FREEZE,
        "d-old-collection": PRE_FREEZE, "e-years-ago": PRE_FREEZE}
    config = config.__class__(**{**config.__dict__, "min_stratum_items": 1})
    strata = {st.key: st for st in select_strata(config, items)[0]}
    head = strata[headline_key(config)]
    assert head.key == "half=private,freeze=post-freeze" and head.dimension == HEADLINE
    assert [items[p].id for p in head.positions] == ["b-day-after", "c-generated"]
    assert [items[p].id for p in strata["freeze=pre-freeze"].positions] == ["a-on-the-day", "d-old-collection",
                                                                             "e-years-ago"]
    assert stratum_title(head.key) == "private half, post-freeze"


def test_a_published_date_that_is_not_a_date_is_an_error(tmp_path):
    config, errors, folder = _suite(tmp_path, 'frozen = "2026-10-20"')
    assert config is not None
    (folder / "items").mkdir()
    (folder / "items" / "invoices.private.jsonl").write_text(_item("x", "private", {"published": "May 2019"}) + "\n",
                                                             encoding="utf-8")
    log = ErrorLog(tmp_path)
    load_items(config, EXTRACTING.parse_item, log)
    assert [str(e) for e in log.errors][0] == (
        "content/suites/extracting/items/invoices.private.jsonl:1: document.published must be a date, YYYY-MM-DD "
        "(the day the document was first published)")


def test_a_suite_without_a_freeze_ranks_on_its_headline_half(tmp_path):
    config, _, _ = _suite(tmp_path, "")
    assert config is not None and config.frozen is None and FREEZE not in config.strata
    assert headline_key(config) == "half=private" and headline_choices(config) == ("half=private", "all")


def test_no_extracting_document_published_before_the_freeze_counts_in_the_headline():
    """The example's real documents (SROIE receipts, weather service products) were published before the
    freeze: none is in the headline stratum, and they form their own stratum."""
    data = load(ROOT, ["extracting"])[0]
    suite, items = data.suite, data.items
    assert suite.frozen == "2026-10-20"
    strata = {st.key: st for st in select_strata(suite, items)[0]}
    head = strata[headline_key(suite)]
    in_headline = [items[p] for p in head.positions]
    assert in_headline and all(i.half == "private" for i in in_headline)
    assert not [i.id for i in in_headline if i.strata.get("source") == "real" or i.strata[FREEZE] != POST_FREEZE]
    real_private = [i for i in items if i.half == "private" and i.strata.get("source") == "real"]
    assert len(real_private) == 52  # 28 receipts, 24 weather service products
    assert {i.id for i in real_private} <= {items[p].id for p in strata["freeze=pre-freeze"].positions}
    assert len(head.positions) == sum(1 for i in items if i.half == "private") - 52
