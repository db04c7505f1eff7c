"""Content pages' HTML kept in the build cache (render/prose.py): the same HTML as converted afresh, a
page converted again only when its text changes, and entries of pages that are gone pruned."""

from __future__ import annotations

from generator.pipeline.cache import Cache
from generator.render import prose


def test_pages_are_converted_once_and_again_when_changed(tmp_path, monkeypatch):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "about.md").write_text("# About\n\nSee [the method](methodology.md).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
                                     encoding="utf-8")
    (folder / "methodology.md").write_text("---\ntitle: Method\n---\n# Method\n\n*Holm*, <b>escaped?</b>\n",
                                           encoding="utf-8")
    fresh = prose.load_pages(folder)
    cache = Cache(tmp_path / "cache")
    converted: list[str] = []
    real = prose.render_markdown

    def counted(body: str, where: str):
        converted.append(where)
        return real(body, where)

    monkeypatch.setattr(prose, "render_markdown", counted)
    first = prose.load_pages(folder, cache)
    assert len(converted) == 2 and [(p.html, p.title) for p in first] == [(p.html, p.title) for p in fresh]
    converted.clear()
    again = prose.load_pages(folder, cache)
    assert converted == [] and [p.html for p in again] == [p.html for p in fresh]
    assert type(again[0].html) is type(fresh[0].html)  # Markup: not escaped again by the templates
    (folder / "about.md").write_text("# About\n\nChanged.\n", encoding="utf-8")
    (folder / "methodology.md").unlink()
    changed = prose.load_pages(folder, cache)
    assert len(converted) == 1 and "Changed." in changed[0].html
    assert len(list((tmp_path / "cache" / prose.KIND / "pages").iterdir())) == 1  # the others pruned
