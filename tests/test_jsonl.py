"""One JSON Lines reader (generator/inputs/jsonl.py) for every file of records: LF-only lines, blank lines
skipped, the rescore's strict parser, and the line named when one is not JSON."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from generator.inputs.jsonl import JsonLine, jsonl_lines, jsonl_values

ROOT = Path(__file__).resolve().parents[1]


def test_lines_are_numbered_from_one_blank_ones_skipped_and_a_last_line_without_lf_read():
    data = b'{"a": 1}\n\n  \n["x\xe2\x80\xa8y"]\n{"b": 2}'
    assert list(jsonl_lines(data)) == [JsonLine(1, b'{"a": 1}', {"a": 1}, None),
                                       JsonLine(4, b'["x\xe2\x80\xa8y"]', ["x\u2028y"], None),  # U+2028 splits no line
                                       JsonLine(5, b'{"b": 2}', {"b": 2}, None)]
    assert list(jsonl_lines('{"a": 1}\n')) == [JsonLine(1, b'{"a": 1}', {"a": 1}, None)]


def test_a_line_that_is_not_json_is_named_and_the_parser_is_the_rescore_s():
    (bad,) = [line for line in jsonl_lines(b'{"a": 1}\n{"b": NaN}\n') if line.error is not None]
    assert bad.number == 2 and bad.value is None and bad.error.startswith("not valid JSON: ")  # json.loads reads NaN
    with pytest.raises(ValueError, match=r"^items\.jsonl:3: not valid JSON"):
        jsonl_values(b'1\n\n{"torn": \n', "items.jsonl")
    assert jsonl_values(b'1\n"two"\n', "x") == [1, "two"]


def test_the_readers_of_record_files_go_through_it():
    """Items, stored records, turns, audits, rounds and cases are read through jsonl.py, none parsing
    lines of its own (the rescore's record reader keeps its loop: it also bounds a record's size and
    refuses CRLF; sealing.py's are left to its split)."""
    converted = ["inputs/content.py", "commit/rounds.py", "audit/sample.py", "harness/store.py", "harness/turnlog.py",
                 "suites/rabench/commands.py", "suites/ledgershield/cases_import.py", "example/build.py",
                 "example/real_corpus.py", "pipeline/crosscheck.py", "sealed_check.py"]
    for name in converted:
        text = (ROOT / "generator" / name).read_text(encoding="utf-8")
        tree = ast.parse(text)
        own = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and n.func.attr == "loads" and n.args and isinstance(n.args[0], ast.Name)
               and n.args[0].id in ("line", "raw")]
        kept = {"sealed_check.py": 1,  # a sealed line found by its position, read alone
                "pipeline/crosscheck.py": 2}  # scorer B's output lines (its protocol, not a file): orjson, else json
        assert "jsonl import" in text and len(own) == kept.get(name, 0), name
