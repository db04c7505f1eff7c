"""Item pages' response sections from the build cache (generator/render/sections.py): a run added or
changed makes only its own sections again, the others come from the cache, and every page equals a
clean build's byte for byte; a corrupt entry is said and made again; a changed section template makes
every section again."""

from __future__ import annotations

import json
import shutil

import pytest

from generator.render import env as env_mod
from generator.render.pages import items as items_mod
from tests.site_support import add_run, build, missing_node
from tests.test_cache import digests, item_pages, project

needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


def counting(monkeypatch) -> list[tuple[str, str]]:
    """Every (page, run) whose sections are made, not taken from the cache (one process: jobs=1)."""
    made: list[tuple[str, str]] = []
    real = items_mod._run_sections

    def spy(sd, item, reader, paged, run, verdicts, page_path):
        made.append((page_path, run))
        return real(sd, item, reader, paged, run, verdicts, page_path)

    monkeypatch.setattr(items_mod, "_run_sections", spy)
    return made


def shown(pages: dict[str, bytes], run: str) -> set[str]:
    return {k for k, v in pages.items() if f'id="{run}-r'.encode() in v}


@needs_node
def test_a_new_run_makes_only_its_own_sections(tmp_path, monkeypatch):
    root = project(tmp_path)
    made = counting(monkeypatch)

    def check(name: str) -> tuple[list[tuple[str, str]], dict[str, bytes]]:
        """The sections a cached build made, and its item pages (equal to a clean build's)."""
        made.clear()
        build(root, tmp_path / name)
        cached = list(made)
        assert digests(tmp_path / name) == digests(build(root, tmp_path / f"{name}-clean", cache=False).out)
        return cached, item_pages(tmp_path / name)

    first, pages = check("first")
    assert len({run for _, run in first}) >= 4 and len(first) == len(set(first))  # every section made, once
    add_run(root, "twin")
    added, later = check("added")
    pages_with_it = shown(later, "rules-local-2")
    assert pages_with_it and {k.split("/")[1] for k in pages_with_it} == {"twin"} and len(later) == len(pages)
    # only the new run's sections, one per page that shows it: every other run's came from the cache
    assert sorted(added) == sorted((p, "rules-local-2") for p in pages_with_it)
    again, _ = check("again")
    assert again == []


@needs_node
def test_a_corrupt_entry_is_said_and_made_again(tmp_path, monkeypatch):
    root = project(tmp_path)
    build(root, tmp_path / "first")
    entries = sorted((root / "build" / "cache" / "sections" / "mini").iterdir())
    assert entries
    for entry in entries:  # every run's (the changed run's are not read: its key changes)
        entry.write_bytes(entry.read_bytes()[:-3] + b"xyz")
    # a changed run, so that the pages are made (not copied whole from the page cache)
    meta = root / "results" / "mini" / "rules-local" / "run.json"
    meta.write_text(json.dumps(json.loads(meta.read_text()) | {"description": "Changed."}), encoding="utf-8")
    made = counting(monkeypatch)
    report = build(root, tmp_path / "again")
    assert any("ignored and rebuilt" in w and "sections" in w for w in report.warnings)
    assert digests(tmp_path / "again") == digests(build(root, tmp_path / "clean", cache=False).out)
    assert made


@needs_node
def test_a_changed_section_template_makes_every_section_again(tmp_path, monkeypatch):
    root = project(tmp_path)
    build(root, tmp_path / "first")
    templates = tmp_path / "templates"
    shutil.copytree(env_mod.TEMPLATES, templates)
    monkeypatch.setattr(env_mod, "TEMPLATES", templates)
    section = templates / "_item_response.html"
    section.write_text(section.read_text(encoding="utf-8").replace("<h4>Message content</h4>", "<h4>Content</h4>"),
                       encoding="utf-8")
    made = counting(monkeypatch)
    build(root, tmp_path / "again")
    pages = item_pages(tmp_path / "again")
    assert all(b"<h4>Content</h4>" in v for v in pages.values() if b'class="response"' in v)
    assert len({p for p, _ in made}) == sum(1 for v in pages.values() if b'class="response"' in v)


@needs_node
def test_a_runs_compressed_public_lines_come_from_the_cache(tmp_path):
    """Each run's compressed public lines (a download only that run changes) are kept in the build cache
    and linked into the next site; a changed run's are written again; every site equals a clean build's."""
    root = project(tmp_path)
    build(root, tmp_path / "first")
    build(root, tmp_path / "second")
    folder = tmp_path / "second" / "downloads" / "twin" / "responses-public"
    files = sorted(folder.iterdir())
    assert files and all(p.stat().st_nlink > 1 for p in files)  # the cache's entries, linked
    meta = root / "results" / "twin" / "rules-local" / "run.json"
    meta.write_text(json.dumps(json.loads(meta.read_text()) | {"description": "Changed."}), encoding="utf-8")
    build(root, tmp_path / "third")
    third = tmp_path / "third" / "downloads" / "twin" / "responses-public"
    same = {p.name for p in third.iterdir() if p.stat().st_ino == (folder / p.name).stat().st_ino}
    assert same == {p.name for p in files} - {"rules-local.jsonl.gz"}
    assert digests(tmp_path / "third") == digests(build(root, tmp_path / "clean", cache=False).out)


@needs_node
def test_sections_kept_by_forked_processes_are_used_again(tmp_path, monkeypatch):
    """Pages rendered by forked processes keep their sections (each process its share of bundles):
    the next build, after a run is added, makes only that run's sections."""
    from generator.render import build as build_mod
    from generator.render import sections as sections_mod

    monkeypatch.setattr(build_mod, "CHUNK", 2)  # a few pages: forked processes all the same
    monkeypatch.setattr(sections_mod, "BUNDLE", 2)
    root = project(tmp_path)
    build(root, tmp_path / "first", jobs=2)
    add_run(root, "mini")
    made = counting(monkeypatch)
    build(root, tmp_path / "added")
    pages_with_it = shown(item_pages(tmp_path / "added"), "rules-local-2")
    assert pages_with_it and sorted(made) == sorted((p, "rules-local-2") for p in pages_with_it)
    assert digests(tmp_path / "added") == digests(build(root, tmp_path / "clean", cache=False).out)


def test_bundles_halve_as_the_runs_double_past_the_held_sections():
    from generator.render.sections import BUNDLE, HELD, bundle_size

    assert (BUNDLE, HELD) == (64, 2560)
    sizes = [bundle_size(n) for n in (0, 1, 40, 41, 80, 81, 160, 161, 400, 2560, 2561, 10**6)]
    assert sizes == [64, 64, 64, 32, 32, 16, 16, 8, 4, 1, 1, 1]
    assert all(bundle_size(n) * n <= HELD for n in range(1, HELD + 1))  # what a process holds, bounded


@needs_node
def test_a_run_that_halves_the_bundles_makes_every_section_again(tmp_path, monkeypatch):
    """A run added past a bound of `bundle_size` changes every bundle of its suite: every section of the
    suite is made again (once), the other suites' come from the cache, and the pages equal a clean build's."""
    from generator.render import sections as sections_mod

    root = project(tmp_path)
    runs = sum(1 for p in (root / "results" / "twin").iterdir() if p.is_dir())
    monkeypatch.setattr(sections_mod, "BUNDLE", 4)
    monkeypatch.setattr(sections_mod, "HELD", 4 * runs)  # the next run of the suite halves its bundles
    assert (sections_mod.bundle_size(runs), sections_mod.bundle_size(runs + 1)) == (4, 2)
    made = counting(monkeypatch)
    build(root, tmp_path / "first")
    before = {m for m in made if m[0].split("/")[1] == "twin"}
    assert len({run for _, run in before}) == runs
    add_run(root, "twin")
    made.clear()
    build(root, tmp_path / "added")
    new = set(shown(item_pages(tmp_path / "added"), "rules-local-2"))
    assert sorted(made) == sorted(before | {(p, "rules-local-2") for p in new})
    assert digests(tmp_path / "added") == digests(build(root, tmp_path / "clean", cache=False).out)
    made.clear()
    build(root, tmp_path / "again")
    assert made == []
