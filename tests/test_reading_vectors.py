"""Scorer A on the shared cases of "Reading a reply" (tests/vectors/reading.json, content/pages/methodology.md):
every reading rule through every built-in suite; scorer B runs the same cases
(scorer-js/test/reading-vectors.test.js). Also: the file is what its builder writes, and no suite
module builds a JSON decoder of its own."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.suite.plugins import load_registry
from tests.reading_vectors import OUT, build, unpacked

ROOT = Path(__file__).resolve().parents[1]
DOC = json.loads(OUT.read_text(encoding="utf-8"))
REGISTRY = load_registry(ROOT)


def record(content: str) -> dict:
    return {"item": "x", "repeat": 0, "request": {},
            "attempts": [{"start": "2026-11-01T00:00:00Z", "status": 200, "error": None, "latency_ms": 1}],
            "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                      "finish_reason": "stop"}]}, "usage": None, "latency_ms": 1}


def rows(shape: str, content: str) -> list[tuple]:
    entry = DOC["items"][shape]
    plugin = REGISTRY.get(entry["suite"])
    raw = entry["item"]
    spec, problems = plugin.parse_item(raw)
    assert not problems, problems
    item = Item(str(raw.get("id", "x")), str(raw.get("dataset", "d")), "public", {}, raw["document"], spec)
    outcome = read_outcome(record(content), plugin.extract_answer, plugin.answer_what)
    return [(r.unit, r.verdict, r.points, r.order) for r in plugin.score(item, outcome, "vectors", 0)]


def test_the_file_is_what_its_builder_writes():
    assert DOC == json.loads(json.dumps(build(), ensure_ascii=False))


def test_every_suite_is_covered_and_its_right_answer_is_read():
    assert {e["suite"] for e in DOC["items"].values()} == {"extracting", "ra-bench", "ledgershield", "cortifybench",
                                                           "au-bas"}
    for shape, entry in DOC["items"].items():
        assert rows(shape, entry["right"]) != rows(shape, ""), shape  # not read as unparseable


@pytest.mark.parametrize("case", DOC["cases"], ids=[c["id"] for c in DOC["cases"]])
def test_case(case):
    got = rows(case["item"], unpacked(case["content"]))
    want = rows(case["item"], "" if case.get("unparseable") else case["same_as"])
    assert got == want


SUITES = ROOT / "generator" / "suites"
_DECODERS = {"loads", "load", "JSONDecoder", "raw_decode", "exact_decoder"}


def test_no_suite_module_builds_a_json_decoder_of_its_own():
    """A suite's Python reads a reply's JSON only through the core (generator/parse/reply.py): no suite
    module calls json.loads/json.load (but to read its own case file), builds a JSONDecoder or
    raw_decode, or the core's exact_decoder; and no suite script calls JSON.parse or the core's
    parseJSON / parseValueAt (scripts read replies with readReplyJSON, stripFence, firstReplyObject)."""
    offenders = []
    # an operator's import files (LedgerShield's episode and cases files), not replies: each episode is
    # stored as a reply's content and read by the core when scored
    # and RA-Bench's balance command, which reads the suite's item files (content the operator wrote)
    importers = {"ledgershield/episode_import.py", "ledgershield/cases_import.py", "rabench/commands.py"}
    for path in sorted(SUITES.rglob("*.py")):
        if path.relative_to(SUITES).as_posix() in importers:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # reading the suite's own case file (trusted, not a reply) is no reply reading
        skip = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "vector_cases"
                for n in ast.walk(f)}
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if name == "load" and isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                        and f.value.id not in ("json", "orjson", "simplejson"):
                    continue  # an image's or a file's own load(), not a JSON decoder
                if name in _DECODERS or any(k.arg in ("parse_float", "parse_int", "parse_constant")
                                            for k in node.keywords):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
            elif isinstance(node, ast.ImportFrom) and node.module in ("json", "orjson", "simplejson"):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module} import")
    allowed_js: dict[str, tuple[str, ...]] = {}
    for path in sorted(SUITES.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(SUITES).as_posix()
        for n, line in enumerate(text.splitlines(), start=1):
            for call in ("JSON.parse(", "C.parseJSON(", "C.parseValueAt(", "parseJSON("):
                if call in line and call[:-1].split(".")[-1] not in allowed_js.get(rel, ()):
                    offenders.append(f"{rel}:{n}: {call}")
    assert not offenders, offenders
