"""Item pages made of a cached shell and slots (generator/render/shells.py): the shell is rendered once
and kept; while its key holds, a page is its parts with the slots' text put in, the same bytes as the
page rendered whole; a marker found other than once renders the page whole; a corrupt shell is said and
made again."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest
from jinja2 import Environment

from generator.render import shells as shells_mod
from generator.render.pages import Deferred, Page
from generator.render.pages import items as items_mod
from generator.render.shells import Shelled, shelled_bytes
from tests.site_support import add_run, build, missing_node
from tests.test_cache import digests, item_pages, project

needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")

SLOTS = {"block": '{"a":"<\\u2028"}', "count": "3", "body": "<p>r\u00e9ponse \ud800 \U0001f600</p>"}


@dataclass
class FakeWriter:
    """What shelled_bytes uses of a Writer, with no build cache; pages rendered from a template text."""
    template: str
    cache: None = None
    used: dict = field(default_factory=dict)
    index: dict = field(default_factory=dict)
    shells_given: dict = field(default_factory=dict)
    shells_made: dict = field(default_factory=dict)

    def render(self, page: Page) -> bytes:
        html = Environment(autoescape=True).from_string(self.template).render(**page.context)
        return html.encode("utf-8", errors="backslashreplace")


def page_without_slots(text: str = "d\u00e9j\u00e0 <b>") -> Page:
    return Page("suites/x/items/a.html", "item.html", "Item a", {"doc": text})


def test_the_parts_with_the_slots_put_in_are_the_page_rendered_whole():
    template = "<pre>{{ doc }}</pre>{{ block }}<h2>({{ count }})</h2>{{ body }}\n"
    writer = FakeWriter(template)
    d = Deferred("suites/x/items/a.html", "item.html", "x", None, lambda: None)
    got = shelled_bytes(writer, d, Shelled(page_without_slots, SLOTS))  # type: ignore[arg-type]
    whole = page_without_slots()
    whole.context.update({k: shells_mod.Markup(v) for k, v in SLOTS.items()})
    assert got == writer.render(whole)
    assert "\\ud800".encode() in got and "\U0001f600".encode() in got  # encoded as a page is


def test_a_slot_shown_twice_or_not_at_all_renders_the_page_whole(monkeypatch):
    real = shells_mod._split
    split: list = []

    def spy(page, markers):
        split.append(real(page, markers))
        return split[-1]

    monkeypatch.setattr(shells_mod, "_split", spy)
    for template in ("{{ doc }}{{ block }}{{ block }}{{ count }}{{ body }}", "{{ doc }}{{ count }}{{ body }}"):
        writer = FakeWriter(template)
        split.clear()
        d = Deferred("a.html", "item.html", "x", None, lambda: None)
        got = shelled_bytes(writer, d, Shelled(page_without_slots, SLOTS))  # type: ignore[arg-type]
        whole = page_without_slots()
        whole.context.update({k: shells_mod.Markup(v) for k, v in SLOTS.items()})
        assert split == [None] and got == writer.render(whole)


def test_text_of_a_document_cannot_pass_for_a_marker():
    """Markers are random: the same text rendered twice gets other markers, so no document can hold one."""
    seen = []
    writer = FakeWriter("{{ doc }}{{ block }}{{ count }}{{ body }}")

    def page() -> Page:
        p = page_without_slots()
        seen.append(p.context)
        return p

    for _ in range(2):
        shelled_bytes(writer, Deferred("a.html", "item.html", "x", None, lambda: None),  # type: ignore[arg-type]
                      Shelled(page, SLOTS))
    first, second = ({k: str(v) for k, v in c.items() if k in SLOTS} for c in seen)
    assert first.keys() == second.keys() == SLOTS.keys()
    assert all(first[k] != second[k] and len(first[k]) >= 34 for k in SLOTS)


def counting_shells(monkeypatch) -> list[tuple[str, str]]:
    """Every (suite, item) whose page's shell is made (one process)."""
    made: list[tuple[str, str]] = []
    real = items_mod.item_shell

    def spy(sd, item, reader):
        made.append((sd.suite.name, item.id))
        return real(sd, item, reader)

    monkeypatch.setattr(items_mod, "item_shell", spy)
    return made


@needs_node
def test_a_new_run_takes_every_shell_from_the_cache(tmp_path, monkeypatch):
    root = project(tmp_path)
    made = counting_shells(monkeypatch)
    build(root, tmp_path / "first")
    first = list(made)
    assert first and len(first) == len(set(first))  # every page's shell made once
    shells = root / "build" / "cache" / "pages" / "twin+shells"
    assert len([p for p in shells.iterdir() if not p.name.startswith(".")]) == sum(
        1 for k in item_pages(tmp_path / "first") if k.split("/")[1] == "twin")
    add_run(root, "twin")
    made.clear()
    build(root, tmp_path / "added")
    assert made == []  # the pages that show the new run were assembled around their kept shells
    assert digests(tmp_path / "added") == digests(build(root, tmp_path / "clean", cache=False).out)


@needs_node
def test_a_corrupt_shell_is_said_and_made_again(tmp_path, monkeypatch):
    root = project(tmp_path)
    build(root, tmp_path / "first")
    shells = sorted(p for p in (root / "build" / "cache" / "pages" / "mini+shells").iterdir() if not p.name.startswith("."))
    assert shells
    for entry in shells:
        entry.write_bytes(entry.read_bytes()[:-3] + b"xyz")
    meta = root / "results" / "mini" / "rules-local" / "run.json"  # a changed run: the pages are made again
    meta.write_text(json.dumps(json.loads(meta.read_text()) | {"description": "Changed."}), encoding="utf-8")
    made = counting_shells(monkeypatch)
    report = build(root, tmp_path / "again")
    assert any("ignored and rebuilt" in w and "shells" in w for w in report.warnings)
    assert len(made) == len(shells) and {suite for suite, _ in made} == {"mini"}
    assert digests(tmp_path / "again") == digests(build(root, tmp_path / "clean", cache=False).out)


def test_the_published_block_put_together_from_each_runs_entries_is_json_block():
    from generator.render.env import json_block, json_compact, json_text

    runs = [[{"run": "a", "repeat": 0, "anchor": "a-r0", "stored": True},
             {"run": "a", "repeat": 1, "anchor": "a-r1", "stored": False, "rows": [["</script>", "ok", 1, "", [2]]]}],
            [], [{"run": "b\u2028", "repeat": 0, "anchor": "b-r0", "stored": True, "rows": [["d\u00e9j\u00e0 & <", "x", 0.5, "1"]]}]]
    pieces = [",".join(json_compact(e) for e in entries) for entries in runs]
    together = json_text("[" + ",".join(p for p in pieces if p) + "]")
    assert together == json_block([e for entries in runs for e in entries])
    assert json_text("[" + ",".join(p for p in [""] if p) + "]") == json_block([])


@needs_node
def test_pages_taken_whole_from_the_cache_keep_their_shells(tmp_path, monkeypatch):
    """A build that changes no page of a suite (a run added to another suite) takes that suite's pages
    whole from the cache and keeps their shells: a run added to it later makes none."""
    root = project(tmp_path)
    build(root, tmp_path / "first")
    shells = root / "build" / "cache" / "pages" / "twin+shells"
    kept = sorted(p.name for p in shells.iterdir())
    add_run(root, "mini")
    made = counting_shells(monkeypatch)
    report = build(root, tmp_path / "second")
    assert report.reused and made == []  # mini's pages around their shells, twin's whole from the cache
    assert sorted(p.name for p in shells.iterdir()) == kept
    add_run(root, "twin")
    made.clear()
    build(root, tmp_path / "third")
    assert made == []
    assert digests(tmp_path / "third") == digests(build(root, tmp_path / "clean", cache=False).out)


def test_no_suite_s_pages_share_the_folder_of_another_suite_s_shells():
    from generator.inputs.ids import id_problem
    from generator.render.shells import shell_group

    for suite in ("extracting", "x.shells", "a-b_c.d"):
        assert id_problem(suite, "suite name") is None
        group = shell_group(Deferred("a.html", "item.html", suite, None, lambda: None))
        assert id_problem(group, "suite name") is not None  # never a suite's own group
