"""`tally run --input image` against the local simulation server: the pages go as image parts of the
chat request, the stored request carries their SHA-256 instead of the bytes, and rebuilds exactly."""

from __future__ import annotations

import base64
import hashlib
import json

from click.testing import CliRunner
from test_harness_support import CLEAN, LiveServer, harness_project, records  # noqa: F401

from generator.cli import main
from generator.example.image_profiles import image_profile
from generator.example.simmodels import SimModels
from generator.harness.commands import run
from generator.harness.images import IMAGE_PLACEHOLDER, expand_request, page_bytes
from generator.harness.plan import load_plan


def invoke(command, args: list[str]):
    return CliRunner().invoke(command, args, catch_exceptions=False)


def test_image_run_sends_pages_as_content_parts_and_stores_their_hashes(harness_project):
    root = harness_project
    args = ["extracting", "--model", "clean-1", "--provider", "testprov", "--root", str(root), "--limit", "8",
            "--input", "image", "-q"]
    with LiveServer(root, scale=0.0) as server:
        sent: list[bytes] = []
        original = server.server.models.reply

        def spy(provider, raw, repeat, attempt):
            sent.append(raw)
            return original(provider, raw, repeat, attempt)

        server.server.models.reply = spy
        result = invoke(run, [*args, "--base-url", server.url()])
    assert result.exit_code == 0, result.output
    run_dir = root / "results" / "extracting" / "clean-1-testprov-image"
    meta = json.loads((run_dir / "run.json").read_text())
    assert meta["input"] == "image" and meta["simulated"] is True
    plan = load_plan(root, "extracting", "public")
    items = {i["id"]: i for i in plan.items}
    got = records(run_dir)
    assert len(got) == 8 and all(r["response"] is not None for r in got)
    bodies = {}
    for raw in sent:
        body = json.loads(raw)
        bodies[_item_of(body, items)] = body
    for record in got:
        item = items[record["item"]]
        pages = page_bytes(item, plan.suite.root / "items")
        user = record["request"]["messages"][-1]
        assert user["role"] == "user" and user["content"][0]["type"] == "text"
        assert IMAGE_PLACEHOLDER.format(n=len(pages)) in user["content"][0]["text"]
        assert item["document"]["text"] not in user["content"][0]["text"]
        urls = [p["image_url"]["url"] for p in user["content"][1:]]
        assert urls == ["sha256:" + hashlib.sha256(d).hexdigest() for d in pages]  # hashes, not bytes
        assert "base64" not in json.dumps(record)
        sent_body = bodies[record["item"]]
        assert expand_request(record["request"], pages) == sent_body  # the stored request is the one sent
        data_url = sent_body["messages"][-1]["content"][1]["image_url"]["url"]
        mime = "image/jpeg" if item["dataset"] == "receipts" else "image/png"
        assert data_url.startswith(f"data:{mime};base64,") and base64.b64decode(data_url.split(",", 1)[1]) == pages[0]
    rescored = invoke(main, ["rescore", "--root", str(root), "-q", "--out", str(root / "out")])
    assert rescored.exit_code == 0, rescored.output


def _item_of(body: dict, items: dict) -> str:
    url = body["messages"][-1]["content"][1]["image_url"]["url"]
    digest = hashlib.sha256(base64.b64decode(url.split(",", 1)[1])).hexdigest()
    return next(i for i, it in items.items() if it["document"]["pages"][0]["sha256"] == digest)


def test_an_image_run_needs_pages_and_a_text_run_is_unchanged(harness_project):
    root = harness_project
    base = ["extracting", "--model", "clean-1", "--provider", "testprov", "--root", str(root), "-q", "--limit", "2"]
    private = invoke(run, [*base, "--input", "image", "--half", "private"])
    assert private.exit_code == 2 and "can't be sent as image input" in private.stderr and "has no page images" in private.stderr
    with LiveServer(root, scale=0.0) as server:
        assert invoke(run, [*base, "--base-url", server.url()]).exit_code == 0
    meta = json.loads((root / "results/extracting/clean-1-testprov/run.json").read_text())
    assert "input" not in meta  # a text run is stored as before
    stored = records(root / "results/extracting/clean-1-testprov")[0]["request"]["messages"][-1]["content"]
    assert isinstance(stored, str)


def test_simulated_models_read_images_worse(harness_project):
    plan = load_plan(harness_project, "extracting", "public")
    receipt = image_profile(CLEAN, photo=True)
    scan = image_profile(CLEAN, photo=False)
    assert receipt.run_id == scan.run_id == "clean-1-testprov-image"
    assert 0 < scan.misread_digit < receipt.misread_digit and scan.false_null > CLEAN.false_null
    models = SimModels(plan.items, plan.suite.reference_date, template=plan.template, profiles=[CLEAN])
    differ = 0
    for item in plan.items[:60]:
        answers = {}
        for kind in ("text", "image"):
            body = {"model": "clean-1", "messages": plan.messages(item, kind)}
            reply = models.reply("testprov", json.dumps(body).encode(), 0, 0)
            assert reply.status == 200
            answers[kind] = json.loads(json.loads(reply.body)["choices"][0]["message"]["content"])
        differ += sum(answers["image"][k] != v for k, v in answers["text"].items())  # clean on text: the truth
    assert differ >= 10


def test_text_and_images_together_carry_both_and_are_read_as_text(harness_project):
    plan = load_plan(harness_project, "extracting", "public")
    item = next(i for i in plan.items if i["dataset"] == "receipts")
    both = plan.messages(item, "text+image")
    parts = both[-1]["content"]
    assert item["document"]["text"] in parts[0]["text"]
    assert [p["type"] for p in parts[1:]] == ["image_url"] * len(item["document"]["pages"])
    models = SimModels(plan.items, plan.suite.reference_date, template=plan.template, profiles=[CLEAN])
    replies = [models.reply("testprov", json.dumps({"model": "clean-1", "messages": m}).encode(), 0, 0)
               for m in (plan.messages(item, "text"), both)]
    contents = [json.loads(r.body)["choices"][0]["message"]["content"] for r in replies]
    assert contents[0] == contents[1]  # the text is there to read: the text profile answers
