"""The agreement gate: scorer B rescores every response; any difference is caught and reported."""

from __future__ import annotations

import json
import stat

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.pipeline import crosscheck
from generator.suite.api import ScorerB
from generator.suites.extracting import Extracting
from tests.conftest import GOOD, chat_record

ALL_ITEMS = ["i-prv-1", "i-pub-1", "r-prv-1", "r-pub-1", "r-pub-2"]


def rescore(project, *args):
    return CliRunner().invoke(main, ["rescore", "--root", str(project.root), "-q", *args])


@pytest.fixture
def mutant_scorer_b(tmp_path, monkeypatch):
    """A copy of scorer B's extracting script with one planted bug: a correct date is reported wrong."""
    script = Extracting.scorer_b.scripts[0]
    copy = tmp_path / "extracting.js"
    source = script.read_text(encoding="utf-8")
    marker = "function scoreItem(item, record, run, repeat) {"
    assert marker in source
    source = source.replace(marker, marker + "\n    return mutate(scoreItemReal(item, record, run, repeat));\n  }\n"
                            "  function mutate(rows) {\n    return rows.map(function (r) {\n"
                            "      return r.unit === 'date' && r.verdict === 'correct' ? Object.assign({}, r, "
                            "{verdict: 'wrong', points: 0}) : r;\n    });\n  }\n"
                            "  function scoreItemReal(item, record, run, repeat) {", 1)
    copy.write_text(source, encoding="utf-8")
    monkeypatch.setattr(Extracting, "scorer_b", ScorerB("extracting", (copy,)))
    return copy


def test_agreeing_scorers_write_an_agreement_report(project):
    project.add_run("good", [chat_record(i, GOOD) for i in ALL_ITEMS])
    result = rescore(project)
    assert result.exit_code == 0, result.output
    report = json.loads((project.root / "build/rescore/extracting/agreement.json").read_text())
    assert report["status"] == "agree" and report["compared"] == 15 and report["differing"] == 0
    assert "compared 15 verdicts, 0 differ" in result.output


def test_a_disagreement_fails_rescore_and_names_every_difference(project, mutant_scorer_b):
    project.add_run("good", [chat_record(i, GOOD) for i in ALL_ITEMS])
    result = rescore(project)
    assert result.exit_code == 3, result.output
    report = json.loads((project.root / "build/rescore/extracting/agreement.json").read_text())
    assert report["status"] == "disagree" and report["differing"] == 5 and report["compared"] == 15
    first = report["differences"][0]
    assert first == {"run": "good", "item": "i-prv-1", "repeat": 0, "unit": "date",
                     "scorer_a": "correct (1 points)", "scorer_b": "wrong (0 points)", "value": "2026-03-14"}
    assert "DISAGREE" in result.output


def test_missing_node_is_a_clear_error(project, monkeypatch):
    project.add_run("good", [chat_record("r-pub-1", GOOD)])
    monkeypatch.setattr(crosscheck.shutil, "which", lambda name: None)
    result = rescore(project)
    assert result.exit_code == 4
    assert "Node.js 18 or newer" in result.output and "apt-get install nodejs" in result.output
    assert not (project.root / "build").exists()


def test_old_node_is_a_clear_error(project, monkeypatch, tmp_path):
    fake = tmp_path / "node"
    fake.write_text("#!/bin/sh\necho v16.20.0\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(crosscheck.shutil, "which", lambda name: str(fake))
    project.add_run("good", [chat_record("r-pub-1", GOOD)])
    result = rescore(project)
    assert result.exit_code == 4 and "found v16.20.0" in result.output


def test_skipping_scorer_b_is_recorded(project):
    project.add_run("good", [chat_record("r-pub-1", GOOD)])
    result = rescore(project, "--skip-scorer-b")
    assert result.exit_code == 0
    report = json.loads((project.root / "build/rescore/extracting/agreement.json").read_text())
    assert report == {"status": "not run", "suite": "extracting", "reason": "scorer B was skipped (--skip-scorer-b)"}
    assert "not run" in result.output


def _lines_one_by_one(run_id: str, data: bytes) -> list[bytes]:
    """What scorer B is sent, written the plain way: each non-blank line that is not a sealed record,
    with its line number."""
    from generator import sealing

    return [b'{"run":"' + run_id.encode() + b'","line":' + str(n).encode() + b',"record":' + line + b"}\n"
            for n, line in enumerate(data.split(b"\n"), start=1) if line.strip() and sealing.sealed_info(line) is None]


@pytest.mark.parametrize("data", [
    b"", b"\n", b"\n\n", b'{"a":1}', b'{"a":1}\n', b' \n{"a":1}\n\t\r\n\x0b\x0c\n{"b":2}',
    b'{"item":"x","sealed":{"k":1}}\n{"b":2}\n  {"sealed":{}}  \n{"sealed":{"not closed"\n',
    b"".join(b'{"n":%d}\n' % n + (b"\n" if n % 7 == 0 else b"") for n in range(2000)),
])
def test_scorer_b_is_sent_each_record_line_once_in_pieces(data):
    """The lines written to scorer B in pieces (a view of each stored line between its head and its
    end, a few hundred lines a write) are the lines written one by one."""
    pieces = list(crosscheck._record_pieces("run-1", data))
    assert all(0 < len(p) <= crosscheck._PIECES and len(p) % 3 == 0 for p in pieces)
    assert b"".join(b"".join(p) for p in pieces) == b"".join(_lines_one_by_one("run-1", data))
    assert list(crosscheck._record_lines("run-1", data)) == _lines_one_by_one("run-1", data)


def test_every_piece_is_written_when_the_system_writes_part_of_them(monkeypatch):
    """os.writev may write fewer bytes than asked (a pipe, a signal): the rest is written next, in order."""
    written: list[bytes] = []

    def writev(fd, buffers):  # writes at most 5 bytes a call
        data = b"".join(bytes(b) for b in buffers)[:5]
        written.append(data)
        return len(data)

    monkeypatch.setattr(crosscheck.os, "writev", writev)
    pieces = [b"abc", memoryview(b"defghij")[1:], b"", b"klmnopqrstu", b"v"]
    crosscheck._write_all(99, list(pieces))
    assert b"".join(written) == b"".join(bytes(p) for p in pieces)
    assert all(len(w) <= 5 for w in written)
