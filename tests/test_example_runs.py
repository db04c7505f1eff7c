"""The example results writer: formats.md shapes, determinism, no secrets, exact money."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from test_simulate import make_items

from generator.example.profiles import BASELINES, PROFILES
from generator.example.prompt import prompt_sha256
from generator.example.runs import sample_ids, write_example_results
from generator.example.simulate import find_json_object

REQUIRED = {"format", "suite", "run_id", "model", "provider", "hosting", "simulated", "started"}
ITEMS = make_items(200)


def printed_only(item: dict) -> dict:
    """A stand-in extractor for these tests: the printed answers, null elsewhere."""
    return {f["name"]: f["answer"] for f in item["fields"] if f["kind"] == "printed"}


def write(folder: Path, items=ITEMS) -> list[Path]:
    return write_example_results(folder, items, "2026-10-20", seed=11, extract=printed_only)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("results")
    write(folder)
    return folder / "extracting"


def load(results: Path) -> dict[str, tuple[dict, list[dict]]]:
    out = {}
    for run_dir in sorted(results.iterdir()):
        meta = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
        lines = (run_dir / "responses.jsonl").read_text(encoding="utf-8").splitlines()
        out[run_dir.name] = (meta, [json.loads(line) for line in lines])
    return out


def test_byte_identical(results, tmp_path):
    written = write(tmp_path)
    assert len(written) == 2 * (len(PROFILES) + len(BASELINES))
    for path in written:
        again = results / path.relative_to(tmp_path / "extracting")
        assert path.read_bytes() == again.read_bytes(), path.name


def test_run_json(results):
    runs = load(results)
    assert len(runs) >= 7
    assert {"baseline-rules", "baseline-null"} <= set(runs)
    for run_id, (meta, _) in runs.items():
        assert REQUIRED <= set(meta), run_id
        assert meta["run_id"] == run_id and meta["format"] == 1 and meta["suite"] == "extracting"
        assert meta["hosting"] in ("hosted", "self-hosted")
        assert isinstance(meta["simulated"], bool)
        assert meta["simulated"] == (not run_id.startswith("baseline-"))
        assert meta["prompt_sha256"] == prompt_sha256()
        assert meta["harness_version"] == "0.1.0" and meta["round"] == "2026-r1"
        assert meta["half"] == "both" and meta["sampling"] == {"temperature": 0,
                                                               "max_tokens": 2048}
        assert meta["finished"] > meta["started"]
        if meta["hosting"] == "hosted":
            prices = meta["prices"]
            assert re.fullmatch(r"\d+\.\d+", prices["input_per_mtok"])
            assert re.fullmatch(r"\d+\.\d+", prices["output_per_mtok"])
            assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", prices["date"])
        else:
            assert "prices" not in meta
    text = (results / "baseline-rules" / "run.json").read_text(encoding="utf-8")
    assert text.endswith("}\n") and '\n  "description"' in text


def test_records_unique_and_repeats(results):
    sample = set(sample_ids(ITEMS))
    assert len(sample) == math.ceil(len(ITEMS) / 10)
    for run_id, (_, records) in load(results).items():
        keys = [(r["item"], r["repeat"]) for r in records]
        assert len(keys) == len(set(keys)) == len(ITEMS) + 2 * len(sample), run_id
        assert keys == sorted(keys)
        by_item = Counter(item for item, _ in keys)
        assert all(by_item[i["id"]] == (3 if i["id"] in sample else 1) for i in ITEMS)


def test_record_shape(results):
    stamp = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")
    for run_id, (meta, records) in load(results).items():
        for r in records:
            assert set(r) == {"item", "repeat", "request", "attempts", "response", "usage",
                              "latency_ms"}
            assert set(r["request"]) == {"model", "messages", "temperature", "max_tokens"}
            assert r["request"]["model"] == meta["model"]
            starts = [a["start"] for a in r["attempts"]]
            assert all(stamp.fullmatch(s) for s in starts) and starts == sorted(starts)
            assert r["latency_ms"] == r["attempts"][-1]["latency_ms"]
            last = r["attempts"][-1]
            if r["response"] is None:  # a failed call
                assert last["error"] is not None or not 200 <= last["status"] <= 299
                assert r["usage"] is None
                continue
            assert last == {**last, "status": 200, "error": None}
            body = r["response"]
            assert body["id"].startswith("chatcmpl-") and body["object"] == "chat.completion"
            assert isinstance(body["created"], int) and body["model"] == meta["model"]
            usage = body["usage"]
            assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
            assert r["usage"] == {k: usage[k] for k in ("prompt_tokens", "completion_tokens")}


def _contents(records):
    for r in records:
        if r["response"] is not None:
            yield r, r["response"]["choices"][0]


def test_call_states_occur(results):
    states = Counter()
    for run_id, (_, records) in load(results).items():
        for r in records:
            statuses = [a["status"] for a in r["attempts"]]
            errors = [a["error"] for a in r["attempts"]]
            if r["response"] is None:
                states["timeout" if "timeout" in errors else "failed"] += 1
                assert all(s is None for s in statuses) or all(s >= 500 for s in statuses)
                continue
            if len(statuses) > 1:
                states[f"retry_{statuses[0]}"] += 1
            choice = r["response"]["choices"][0]
            content = choice["message"]["content"]
            if choice["finish_reason"] == "length":
                states["truncated"] += 1
                assert find_json_object(content) is None
                with pytest.raises(ValueError):
                    json.loads(content)
            elif content is None or "{" not in content:
                states["refusal"] += 1
            elif content.startswith("```") or "```json" in content:
                states["fence"] += 1
            elif not content.startswith("{"):
                states["prose"] += 1
    for state in ("timeout", "failed", "retry_429", "retry_503", "truncated", "refusal",
                  "fence", "prose"):
        assert states[state] > 0, state


def test_null_baseline_and_rules_baseline(results):
    runs = load(results)
    fields = {i["id"]: i["fields"] for i in ITEMS}
    for r, choice in _contents(runs["baseline-null"][1]):
        answer = json.loads(choice["message"]["content"])
        assert list(answer) == [f["name"] for f in fields[r["item"]]]
        assert all(value is None for value in answer.values())
    for r, choice in _contents(runs["baseline-rules"][1]):
        answer = json.loads(choice["message"]["content"], parse_float=Decimal)
        for f in fields[r["item"]]:
            if f["kind"] == "printed" and f["type"] == "money":
                assert isinstance(answer[f["name"]], (Decimal, int))  # a JSON number, not a string
                assert str(answer[f["name"]]) == f["answer"]


def test_money_exact_and_no_secrets(results):
    artefact = re.compile(r"\d\.\d*(?:0000000|9999999)\d")
    secret = re.compile(r"\bsk-[A-Za-z0-9_-]{12,}|\bbearer\s+\S{8,}|\"authorization\"|"
                        r"\"api[_-]?key\"|\"x-api-key\"", re.IGNORECASE)
    for path in sorted(results.rglob("*")):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert not artefact.search(text), path
            assert not secret.search(text), path
    answers = {i["id"]: {f["name"]: f for f in i["fields"]} for i in ITEMS}
    meta, records = load(results)["acme-lynx-1-cloudco"]
    exact = 0
    for r, choice in _contents(records):
        content = choice["message"]["content"]
        found = content and find_json_object(content)
        if not found:
            continue
        value, _ = json.JSONDecoder(parse_float=Decimal).raw_decode(content, found[0])
        total = answers[r["item"]]["total"]["answer"]
        if value["total"] is not None and str(value["total"]) == total:
            exact += 1
    assert exact > 0.8 * len(ITEMS)


def test_real_corpus_sample(tmp_path):
    """With the example corpus and the real rule-based extractor, on a few items per file."""
    from generator.example.corpus import generate_corpus

    items = [item for stem, part in sorted(generate_corpus().items()) for item in part[:4]]
    written = write_example_results(tmp_path, items, "2026-10-20", seed=5)
    runs = load(tmp_path / "extracting")
    assert len(written) == 2 * len(runs)
    assert all(len(records) == len(items) + 2 * len(sample_ids(items))
               for _, records in runs.values())
    fields = {i["id"]: i["fields"] for i in items}
    read = 0
    for r, choice in _contents(runs["baseline-rules"][1]):
        answer = json.loads(choice["message"]["content"], parse_float=Decimal)
        assert list(answer) == [f["name"] for f in fields[r["item"]]]
        read += sum(value is not None for value in answer.values())
    assert read > 0
