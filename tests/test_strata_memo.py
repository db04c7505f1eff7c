"""stats/strata.select_strata remembers its last answer by the identity of the suite and of the items
list: an items list changed in place (an item added) must not be given the strata of the list before."""

from __future__ import annotations

from types import SimpleNamespace

from generator.stats.strata import ALL, select_strata


def _item(half: str):
    return SimpleNamespace(half=half, strata={"half": half})


def test_an_items_list_changed_in_place_gets_its_own_strata():
    suite = SimpleNamespace(strata=("half",), min_stratum_items=1, frozen=None, headline_half="private")
    items = [_item("public"), _item("private")]
    first = {st.key: len(st.positions) for st in select_strata(suite, items)[0]}
    assert first == {ALL: 2, "half=private": 1, "half=public": 1}
    items.append(_item("private"))  # the same list object, one item more
    again = {st.key: len(st.positions) for st in select_strata(suite, items)[0]}
    assert again == {ALL: 3, "half=private": 2, "half=public": 1}
