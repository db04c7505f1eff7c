"""Page images of items: validation (type by magic bytes, size, SHA-256, paths, links) with clear
errors, and the example corpus's rendered pages (byte-reproducible from the seed)."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest
from PIL import Image

from generator.errors import ErrorLog
from generator.example.page_render import render_item
from generator.inputs.content import load_items, load_suite
from generator.inputs.page_images import MAX_PAGE_BYTES, PageError, document_problems, input_problem, read_page
from generator.suites.extracting import SUITE as EXTRACTING

ROOT = Path(__file__).resolve().parents[1]
ITEMS = ROOT / "content" / "suites" / "extracting" / "items"


def _encoded(fmt: str) -> bytes:
    buf = io.BytesIO()
    Image.new("L", (40, 30), 200).save(buf, fmt)
    return buf.getvalue()


PNG, JPEG = _encoded("PNG"), _encoded("JPEG")  # small whole images (a page is decoded when it is read)


def _page(base: Path, name: str, data: bytes, **over) -> dict:
    path = base / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return {"path": name, "sha256": hashlib.sha256(data).hexdigest(), "alt": "Page 1: a receipt", **over}


def test_a_good_page_reads_back(tmp_path):
    page = _page(tmp_path, "pages/a-p1.png", PNG)
    assert read_page(tmp_path, page) == PNG
    assert document_problems({"pages": [page]}, tmp_path) == []  # pages instead of text
    assert document_problems({"text": "x", "pages": [_page(tmp_path, "b.jpeg", JPEG)]}, tmp_path) == []


@pytest.mark.parametrize("change, message", [
    (lambda p, base: p.update(sha256="0" * 64), "SHA-256"),
    (lambda p, base: (base / p["path"]).write_bytes(b"GIF89a....."), "not a PNG or JPEG"),
    (lambda p, base: (base / p["path"]).write_bytes(JPEG), "the file is image/jpeg but its name says image/png"),
    (lambda p, base: (base / p["path"]).unlink(), "no such page image file"),
    (lambda p, base: p.update(path="../outside.png"), "no '..'"),
    (lambda p, base: p.update(path="/etc/x.png"), "must be relative"),
    (lambda p, base: p.update(path="pages/a-p1.gif"), "must end in .png"),
    (lambda p, base: p.update(path="pages/a b.png"), "letters, digits"),
    (lambda p, base: p.update(sha256="ABC"), "64 lowercase hex"),
    (lambda p, base: p.update(alt=""), "alt must be"),
    (lambda p, base: p.update(extra=1), "unknown keys extra"),
])
def test_bad_pages_are_named_clearly(tmp_path, change, message):
    page = _page(tmp_path, "pages/a-p1.png", PNG)
    change(page, tmp_path)
    problems = document_problems({"text": "x", "pages": [page]}, tmp_path)
    assert len(problems) == 1 and message in problems[0] and problems[0].startswith("document.pages[0]"), problems


def test_size_limit_and_links(tmp_path):
    big = _page(tmp_path, "big.png", PNG + b"\0" * MAX_PAGE_BYTES)
    with pytest.raises(PageError, match="more than the limit"):
        read_page(tmp_path, big)
    target = _page(tmp_path, "real.png", PNG)
    (tmp_path / "link.png").symlink_to(tmp_path / "real.png")
    with pytest.raises(PageError, match="symbolic link"):
        read_page(tmp_path, dict(target, path="link.png"))
    assert document_problems({"pages": []}, tmp_path) == ["document.pages must be a list of 1 to 20 page images"]
    assert document_problems({}, tmp_path) == ["document needs text, pages, or both"]


def test_input_kinds_need_what_they_send():
    assert input_problem({"text": "x"}, "text") is None
    assert input_problem({"text": "x"}, "image") == "has no page images"
    assert input_problem({"pages": [{}]}, "text+image") == "has no text"
    assert "must be one of" in input_problem({"text": "x"}, "pdf")


def test_the_loader_reports_a_bad_page_with_file_and_line(tmp_path):
    suite_dir = tmp_path / "extracting"
    (suite_dir / "items").mkdir(parents=True)
    (suite_dir / "suite.toml").write_text(
        'name = "extracting"\ntitle = "T"\nversion = "1"\nreference_date = "2026-10-20"\n'
        '[[datasets]]\nid = "receipts"\ntitle = "Receipts"\n', encoding="utf-8")
    item = json.loads((ITEMS / "receipts.public.jsonl").read_text(encoding="utf-8").splitlines()[0])
    good = _page(suite_dir / "items", "pages/x-p1.png", PNG)
    bad = dict(good, sha256="1" * 64)
    lines = [dict(item, id="ok-1", document=dict(item["document"], pages=[good])),
             dict(item, id="bad-1", document=dict(item["document"], pages=[bad]))]
    (suite_dir / "items" / "receipts.public.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    log = ErrorLog(tmp_path)
    suite = load_suite(suite_dir, log)
    items = load_items(suite, EXTRACTING.parse_item, log)
    assert [i.id for i in items] == ["ok-1"]
    assert len(log.errors) == 1
    shown = str(log.errors[0])
    assert "receipts.public.jsonl" in shown and ":2" in shown and "SHA-256" in shown, shown


def _committed(item_id: str) -> dict:
    dataset = item_id.split("-")[0]
    for line in (ITEMS / f"{dataset}.public.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if item["id"] == item_id:
            return item
    raise KeyError(item_id)


@pytest.mark.parametrize("item_id", ["receipts-pub-0009", "invoices-pub-0001", "tables-pub-0002"])
def test_rendered_pages_are_byte_reproducible_and_committed(item_id):
    item = _committed(item_id)
    first, second = render_item(item, 20261020), render_item(item, 20261020)
    assert first == second
    assert [(name, alt) for name, _, alt in first] == [(p["path"], p["alt"]) for p in item["document"]["pages"]]
    for (name, data, _), page in zip(first, item["document"]["pages"]):
        assert hashlib.sha256(data).hexdigest() == page["sha256"]
        assert (ITEMS / name).read_bytes() == data
    image = Image.open(io.BytesIO(first[0][1]))
    if item["dataset"] == "receipts":
        assert image.format == "JPEG" and image.mode == "L"
        other = render_item(item, 1)  # the seed draws the photo's degradations and noise
        assert [d for _, d, _ in other] != [d for _, d, _ in first]
    else:
        assert image.format == "PNG" and image.mode == "1"


def test_every_public_item_has_its_pages_and_the_private_ones_none():
    total = 0
    for path in sorted(ITEMS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            pages = item["document"].get("pages")
            assert (pages is not None) == (item["half"] == "public"), item["id"]
            assert document_problems(item["document"], ITEMS) == []
            total += sum((ITEMS / p["path"]).stat().st_size for p in pages or [])
    referenced = {p.name for p in (ITEMS / "pages").iterdir()}
    assert len(referenced) >= 412
    assert total < 8_000_000  # the committed page images stay small (about 4 MB)
