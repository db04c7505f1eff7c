"""The build cache (generator/pipeline/cache.py): reused results equal fresh ones byte for byte, a change to an
input invalidates exactly what depends on it, and a corrupted entry is detected and rebuilt."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import sys
from pathlib import Path

import pytest

from generator.pipeline import cache as cache_mod
from generator.pipeline.cache import Cache, suite_key
from generator.pipeline.outputs import write_outputs
from generator.pipeline.stages import load_and_score
from tests.site_support import add_run, build, make_project, missing_node

needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


def digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def project(tmp_path: Path) -> Path:
    """The site tests' fixture project with a second suite (a copy of the first, its own runs)."""
    root = make_project(tmp_path / "p")
    suites, results = root / "content" / "suites", root / "results"
    shutil.copytree(suites / "mini", suites / "twin")
    toml = suites / "twin" / "suite.toml"
    toml.write_text(toml.read_text().replace('name = "mini"', 'name = "twin"'), encoding="utf-8")
    for run in (results / "mini").iterdir():
        dest = results / "twin" / run.name
        shutil.copytree(run, dest)
        meta = json.loads((dest / "run.json").read_text())
        (dest / "run.json").write_text(json.dumps(meta | {"suite": "twin"}), encoding="utf-8")
    return root


def rescore(root: Path, out: Path, cache: Cache | None, gate: bool = True) -> list:
    scored = load_and_score(root, None, 1, gate, cache=cache, warn=lambda _w: None)
    write_outputs(out, scored)
    return scored


@needs_node
def test_outputs_from_the_cache_equal_a_clean_rescore(tmp_path):
    root = project(tmp_path)
    clean = rescore(root, tmp_path / "clean", None)
    cache = Cache(root / "build" / "cache")
    rescore(root, tmp_path / "first", cache)
    assert cache.counts.hits == 0 and cache.counts.written == 8
    again = Cache(root / "build" / "cache")
    reused = rescore(root, tmp_path / "again", again)
    assert again.counts.hits == 8 and again.counts.misses == 0 and again.counts.written == 0
    assert digests(tmp_path / "clean") == digests(tmp_path / "first") == digests(tmp_path / "again")
    for a, b in zip(clean, reused):
        assert a.agreement == b.agreement and a.agreement["status"] == "agree" and a.agreement["compared"] > 0
        assert a.summary == b.summary


@needs_node
def test_a_run_checked_by_scorer_b_is_not_sent_again(tmp_path, monkeypatch):
    root = project(tmp_path)
    rescore(root, tmp_path / "first", Cache(root / "build" / "cache"))
    sent: list[str] = []
    from generator.pipeline import crosscheck

    original = crosscheck.Gate.send
    monkeypatch.setattr(crosscheck.Gate, "send", lambda self, run_id, data: (sent.append(run_id),
                                                                             original(self, run_id, data)))
    rescore(root, tmp_path / "again", Cache(root / "build" / "cache"))
    assert sent == []
    # results cached without scorer B are checked by it on the next rescore that runs it
    rescore(root, tmp_path / "a", Cache(root / "build" / "cache2"), gate=False)
    rescore(root, tmp_path / "b", Cache(root / "build" / "cache2"))
    assert len(sent) == 8
    rescore(root, tmp_path / "c", Cache(root / "build" / "cache2"))
    assert len(sent) == 8


@needs_node
def test_a_change_invalidates_exactly_what_depends_on_it(tmp_path):
    root = project(tmp_path)
    rescore(root, tmp_path / "o", Cache(root / "build" / "cache"))

    def misses() -> dict[str, int]:
        c = Cache(root / "build" / "cache")
        scored = rescore(root, tmp_path / "o", c)
        return {"misses": c.counts.misses, "hits": c.counts.hits, "runs": sum(len(s.runs) for s in scored)}

    # one stored response file: that run only
    responses = root / "results" / "mini" / "rules-local" / "responses.jsonl"
    lines = responses.read_bytes().splitlines(keepends=True)
    responses.write_bytes(b"".join(lines[1:] + lines[:1]))  # same records, another order
    assert misses() == {"misses": 1, "hits": 7, "runs": 8}
    # a run's metadata: that run only
    meta = root / "results" / "twin" / "careful-cloud" / "run.json"
    meta.write_text(json.dumps(json.loads(meta.read_text()) | {"description": "changed"}), encoding="utf-8")
    assert misses() == {"misses": 1, "hits": 7, "runs": 8}
    # an item of one suite: every run of that suite, none of the other
    items = sorted((root / "content" / "suites" / "twin" / "items").glob("*.jsonl"))[0]
    items.write_bytes(items.read_bytes().replace(b"}\n", b"} \n", 1))
    assert misses() == {"misses": 4, "hits": 4, "runs": 8}
    # a rule of one suite (suite.toml)
    toml = root / "content" / "suites" / "mini" / "suite.toml"
    toml.write_text(toml.read_text() + "\n", encoding="utf-8")
    assert misses() == {"misses": 4, "hits": 4, "runs": 8}
    assert misses() == {"misses": 0, "hits": 8, "runs": 8}
    # private records: sealing changes the suite's results; then the private file of one run is its input too
    from generator.seal_command import seal_suite
    from generator.sealing import private_file

    seal_suite(root, "mini")
    assert misses() == {"misses": 4, "hits": 4, "runs": 8}
    private = private_file(root, "mini", "rules-local")
    lines = private.read_bytes().splitlines(keepends=True)
    assert len(lines) > 1
    private.write_bytes(b"".join(lines[1:] + lines[:1]))
    assert misses() == {"misses": 1, "hits": 7, "runs": 8}
    shutil.rmtree(private.parent)  # scored from the sealed records now: not the cached full scoring
    assert misses() == {"misses": 1, "hits": 7, "runs": 8}
    scored = rescore(root, tmp_path / "o", Cache(root / "build" / "cache"))
    sealed = {r.run.id: r.sealed for s in scored for r in s.runs if r.sealed}
    assert sealed == {"rules-local": len(lines)}


def _fake_plugin(folder: Path, name: str):
    """A plugin object whose class lives in its own module file, with its own scorer B script."""
    folder.mkdir(parents=True)
    (folder / "rules.py").write_text("class Plugin:\n    pass\n", encoding="utf-8")
    (folder / "scorer.js").write_text("// scorer B\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"fake_plugin_{name}", folder / "rules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    plugin = module.Plugin()
    plugin.scorer_b = type("B", (), {"scripts": (folder / "scorer.js",)})()
    return plugin


def test_scorer_sources_invalidate_their_suite_only(tmp_path, monkeypatch):
    a, b = _fake_plugin(tmp_path / "a", "a"), _fake_plugin(tmp_path / "b", "b")
    content_a, content_b = tmp_path / "ca", tmp_path / "cb"
    for c in (content_a, content_b):
        c.mkdir()
        (c / "suite.toml").write_text("name = 'x'\n", encoding="utf-8")

    def keys() -> tuple[str, str]:
        return suite_key(content_a, a), suite_key(content_b, b)

    first = keys()
    (tmp_path / "a" / "scorer.js").write_text("// scorer B, changed\n", encoding="utf-8")
    second = keys()
    assert second[0] != first[0] and second[1] == first[1]
    (tmp_path / "b" / "rules.py").write_text("class Plugin:\n    pass  # changed\n", encoding="utf-8")
    third = keys()
    assert third[0] == second[0] and third[1] != second[1]
    # scorer A's or scorer B's shared code: every suite
    monkeypatch.setitem(cache_mod._CODE, "scoring", "another version of the shared scoring code")
    fourth = keys()
    assert fourth[0] != third[0] and fourth[1] != third[1]


@needs_node
def test_a_corrupted_entry_is_detected_and_rebuilt(tmp_path):
    root = project(tmp_path)
    rescore(root, tmp_path / "clean", None)
    rescore(root, tmp_path / "first", Cache(root / "build" / "cache"))
    entries = sorted((root / "build" / "cache" / "runs" / "mini").iterdir())
    blob = bytearray(entries[1].read_bytes())
    blob[len(blob) // 2] ^= 0x01
    entries[1].write_bytes(bytes(blob))
    (entries[2]).write_bytes(b"short")
    warnings: list[str] = []
    c = Cache(root / "build" / "cache")
    write_outputs(tmp_path / "again", load_and_score(root, None, 1, True, cache=c, warn=warnings.append))
    assert c.counts.corrupt == 2 and c.counts.hits == 6
    assert sum("ignored and rebuilt" in w for w in warnings) == 2
    assert digests(tmp_path / "clean") == digests(tmp_path / "again")
    c = Cache(root / "build" / "cache")
    load_and_score(root, None, 1, True, cache=c)
    assert c.counts.corrupt == 0 and c.counts.hits == 8


@needs_node
def test_a_site_built_from_the_cache_is_byte_identical_to_a_clean_build(tmp_path):
    root = project(tmp_path)
    build(root, tmp_path / "clean", cache=False)
    assert not (root / "build" / "cache").exists()
    build(root, tmp_path / "first")
    build(root, tmp_path / "again")
    stats = sorted(p.name for p in (root / "build" / "cache" / "stats").iterdir())
    assert stats == ["mini", "twin"]
    assert digests(tmp_path / "clean") == digests(tmp_path / "first") == digests(tmp_path / "again")


@needs_node
def test_only_pages_whose_bytes_change_are_written(tmp_path):
    root = project(tmp_path)
    site = tmp_path / "site"
    first = build(root, site)
    assert first.unchanged == 0
    inodes = {p: p.stat().st_ino for p in site.rglob("*") if p.is_file()}
    again = build(root, site)
    assert again.unchanged == again.files == len(inodes)
    assert {p: p.stat().st_ino for p in site.rglob("*") if p.is_file()} == inodes
    meta = root / "results" / "twin" / "rules-local" / "run.json"
    meta.write_text(json.dumps(json.loads(meta.read_text()) | {"description": "A changed baseline."}),
                    encoding="utf-8")
    changed = build(root, site)
    now = {p: p.stat().st_ino for p in site.rglob("*") if p.is_file()}
    written = sorted(p.relative_to(site).as_posix() for p in now if inodes.get(p) != now[p])
    assert len(written) == changed.files - changed.unchanged > 0
    assert "models/rules.html" in written and "suites/mini/index.html" not in written
    assert changed.unchanged > 0


def item_pages(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.glob("suites/*/items/*.html"))
            if p.name != "index.html"}


def rendered(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {k for k in after if before.get(k) != after[k]}


@pytest.mark.slow
@needs_node
def test_item_pages_from_the_page_cache_equal_a_clean_build(tmp_path, monkeypatch):
    """Item pages come from build/cache/pages/ when their inputs are unchanged, in forked processes
    too; a changed template re-renders exactly its pages, a changed or new run exactly the pages
    that show it, and every build equals a clean one byte for byte."""
    from generator.render import build as build_mod
    from generator.render import env as env_mod

    root = project(tmp_path)
    for meta in (root / "results").glob("*/*/run.json"):  # the simulated banner counts every run: off
        meta.write_text(json.dumps(json.loads(meta.read_text()) | {"simulated": False}), encoding="utf-8")
    monkeypatch.setattr(build_mod, "CHUNK", 1)  # a few pages: forked processes all the same

    def check(name: str, **kw) -> tuple:
        report = build(root, tmp_path / name, jobs=2, **kw)
        clean = build(root, tmp_path / f"{name}-clean", cache=False)
        assert clean.reused == 0
        assert digests(tmp_path / name) == digests(tmp_path / f"{name}-clean")
        return report, item_pages(tmp_path / name)

    first, pages = check("first")
    n = len(pages)
    assert first.reused == 0 and n > 4 and {k.split("/")[1] for k in pages} == {"mini", "twin"}
    again, _ = check("again")
    assert again.reused == n
    # a template the item pages do not use: every item page reused; one they use: every one rendered
    templates = tmp_path / "templates"
    shutil.copytree(env_mod.TEMPLATES, templates)
    monkeypatch.setattr(env_mod, "TEMPLATES", templates)
    (templates / "models.html").write_text((templates / "models.html").read_text() + "\n", encoding="utf-8")
    other, _ = check("other-template")
    assert other.reused == n
    (templates / "_item_labels.html").write_text("{# changed #}" + (templates / "_item_labels.html").read_text(),
                                                 encoding="utf-8")
    included, _ = check("included-template")
    assert included.reused == 0
    # a changed stored response: the pages that show its run, and no other
    responses = root / "results" / "twin" / "careful-cloud" / "responses.jsonl"
    lines = responses.read_text(encoding="utf-8").splitlines(keepends=True)
    record = json.loads(lines[0])
    record["id"] = "a-changed-stored-record"
    responses.write_text(json.dumps(record) + "\n" + "".join(lines[1:]), encoding="utf-8")
    shows = {k for k, v in pages.items() if k.startswith("suites/twin/") and b'id="careful-cloud-r' in v}
    changed, now = check("changed-run")
    assert 0 < len(shows) < n and changed.reused == n - len(shows)
    assert rendered(pages, now) <= shows
    # a new run: the pages that show it
    add_run(root, "twin")
    added, later = check("added-run")
    shows = {k for k, v in later.items() if b'id="rules-local-2-r' in v}
    assert shows and {k.split("/")[1] for k in shows} == {"twin"}
    assert added.reused == n - len(shows) and rendered(now, later) == shows
    # corrupt entries are rendered again, and said
    entries = sorted((root / "build" / "cache" / "pages" / "mini").iterdir())
    entries[0].write_bytes(b"short")
    warned, _ = check("corrupt")
    assert warned.reused == n - 1 and any("ignored and rebuilt" in w for w in warned.warnings)


@pytest.mark.slow
@needs_node
def test_sealed_records_read_from_the_cache_are_counted_as_when_scored(tmp_path):
    """Without private storage, private records are scored from their sealed records and scorer B does
    not see them; a build whose runs come from the cache says so the same (agreement.json's count)."""
    from generator.seal_command import seal_suite
    from generator.sealing import private_file

    root = project(tmp_path)
    seal_suite(root, "mini")
    shutil.rmtree(private_file(root, "mini", "rules-local").parents[2])  # the private storage is not here
    build(root, tmp_path / "clean", cache=False)
    build(root, tmp_path / "first")
    build(root, tmp_path / "again")  # every run from the cache now, vouched for by scorer B
    agreement = json.loads((tmp_path / "again" / "downloads" / "mini" / "agreement.json").read_text())
    assert agreement["sealed"] > 0 and agreement["status"] == "agree"
    assert digests(tmp_path / "clean") == digests(tmp_path / "first") == digests(tmp_path / "again")
