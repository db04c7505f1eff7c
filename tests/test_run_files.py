"""A scored run's bulky parts in files (generator/run_files.py): read back exactly as they were held,
the same whether runs are scored on one process or several, and each stored responses file read once
by a site build."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from generator.errors import ErrorLog
from generator.outputs import verdict_lines
from generator.pipeline import load
from generator.processes import score_runs
from generator.rescore import RunScore, Scoring, score_run
from generator.run_files import offload, read_rows
from generator.score.verdicts import VerdictTable, verdict_row
from generator.sealing import read_run
from tests.site_support import build, make_project

ROOT = Path(__file__).resolve().parents[1]


def _columns(t: VerdictTable) -> tuple:
    return (t.run, t.item, t.repeat, t.unit, t.kind, t.verdict, t.points, t.reason, t.order)


def _heavy(r: RunScore) -> tuple:
    """Every bulky part, as the run gives it (held or read back)."""
    return _columns(r.verdicts), r.calls, verdict_lines(r)


def _light(r: RunScore) -> tuple:
    return (r.run.id, r.digest, r.stored_rows, r.responses, r.missing, r.sealed, r.sums.tolist(), r.repeats.tolist(),
            r.offsets, r.consistency)


@pytest.fixture(scope="module")
def extracting():
    (ls,) = load(ROOT, ["extracting"])
    log = ErrorLog(ROOT)
    return ls, {run.id: read_run(run.responses, log).data for run in ls.runs}


def test_offloaded_parts_read_back_exactly(extracting, tmp_path):
    ls, data = extracting
    public = {i.id: k for k, i in enumerate(i for i in ls.items if i.half == "public")}
    repeats = 0
    for run in ls.runs:
        r = score_run(run, data[run.id], Scoring(ls.plugin, ls.items, ErrorLog(ROOT)))
        held = copy.deepcopy(_heavy(r))
        light = _light(r)
        offload(r, tmp_path, public)
        assert r.held is None and r.held_calls is None and r.held_csv is None
        assert _heavy(r) == held and _light(r) == light, run.id
        repeats += len(r.consistency)
        # each public item's rows, read alone, are that item's rows of the table; an item without rows has none
        table = r.verdicts
        spans = table.spans()
        assert r.row_blocks.shape == (len(public), 2)
        with r.files.part("rows").open("rb") as fh:
            for item, k in public.items():
                if item in spans:
                    assert read_rows(fh, run.id, r.row_blocks[k]) == list(table.rows(*spans[item]))
                else:
                    assert tuple(r.row_blocks[k]) == (-1, 0)
        assert (r.row_blocks[:, 0] >= 0).any()
    assert repeats  # some item answered more than once: its consistency stays with the run


def test_unusual_strings_and_an_empty_run_read_back_exactly(tmp_path, extracting):
    ls, _data = extracting
    run = ls.runs[0]
    table = VerdictTable(run.id)
    rows = [verdict_row(run.id, "a", 0, "lone \udc80 surrogate", "printed", "wrong", "x" * 300, "1"),
            verdict_row(run.id, "a", 1, "u" * 100, "printed", "correct", "", ""),
            verdict_row(run.id, "b\u2028", 0, "total", "computed", "invented", "\u00e9\n,\"", "2")]
    table.extend(rows)
    r = RunScore(run, table, [("c", 1, 2.5, None)], consistency={"a": (1, 0)})
    held = copy.deepcopy(_heavy(r))
    offload(r, tmp_path, {"a": 0, "b\u2028": 1, "c": 2})
    assert _heavy(r) == held
    with r.files.part("rows").open("rb") as fh:
        assert read_rows(fh, run.id, r.row_blocks[0]) == rows[:2]
        assert read_rows(fh, run.id, r.row_blocks[1]) == rows[2:]
    assert tuple(r.row_blocks[2]) == (-1, 0)  # a public item without rows
    empty = RunScore(ls.runs[1], VerdictTable(ls.runs[1].id))
    offload(empty, tmp_path, {"a": 0})
    assert len(empty.verdicts) == 0 and empty.calls == [] and empty.consistency == {}
    assert empty.row_blocks.tolist() == [[-1, 0]]
    assert verdict_lines(empty) == b""


def test_several_processes_score_and_offload_as_one(extracting, tmp_path):
    ls, data = extracting
    public = {i.id: k for k, i in enumerate(i for i in ls.items if i.half == "public")}
    pairs = [(run, data[run.id]) for run in ls.runs]
    alone = list(score_runs(pairs, Scoring(ls.plugin, ls.items, ErrorLog(ROOT)), jobs=1))
    log = ErrorLog(ROOT)
    forked = list(score_runs(iter(pairs), Scoring(ls.plugin, ls.items, log), jobs=2,
                             then=lambda r: offload(r, tmp_path, public)))
    assert not log.errors and len(forked) == len(alone) > 1
    for a, b in zip(alone, forked, strict=True):
        assert b.held is None and b.files is not None  # offloaded in the worker: only the light parts came back
        assert _light(a) == _light(b) and _heavy(a) == _heavy(b), a.run.id


def test_several_processes_give_the_same_errors_and_warnings_as_one(extracting):
    ls, data = extracting
    pairs = [(run, data[run.id]) for run in ls.runs]
    pairs[0] = (pairs[0][0], b"")  # holds no response: a warning
    pairs[1] = (pairs[1][0], data[pairs[1][0].id] + b"not json\n")  # an error
    logs = []
    for jobs in (1, 2):
        log = ErrorLog(ROOT)
        scored = list(score_runs(iter(pairs), Scoring(ls.plugin, ls.items, log), jobs=jobs))
        assert len(scored) == len(pairs)
        logs.append((log.errors, log.warnings))
    assert logs[0] == logs[1]
    assert [w.message for w in logs[0][1]] == ["holds no response: every item of the run counts as a failed call"]
    assert len(logs[0][0]) == 1 and "not valid JSON" in logs[0][0][0].message


def test_several_processes_leave_no_file_behind(extracting, tmp_path, monkeypatch):
    import tempfile

    ls, data = extracting
    pairs = [(run, data[run.id]) for run in ls.runs]
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the runs' bytes go to the workers
    assert len(list(score_runs(iter(pairs), Scoring(ls.plugin, ls.items, ErrorLog(ROOT)), jobs=2))) == len(pairs)
    assert list(tmp_path.iterdir()) == []
    stopped = score_runs(iter(pairs), Scoring(ls.plugin, ls.items, ErrorLog(ROOT)), jobs=2)
    next(stopped)  # the caller stops after the first run (as on an error): the rest is cleaned up too
    stopped.close()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("cache", [True, False])
def test_a_site_build_reads_each_responses_file_once(tmp_path, monkeypatch, cache):
    root = make_project(tmp_path / "p")
    files = sorted(root.glob("results/*/*/responses.jsonl"))
    assert len(files) > 1
    reads: dict[str, int] = {}
    real = Path.read_bytes

    def counting(self: Path) -> bytes:
        if self.name == "responses.jsonl":
            reads[str(self)] = reads.get(str(self), 0) + 1
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    build(root, tmp_path / "site", cache=cache, jobs=2)
    assert reads == {str(p): 1 for p in files}
    if cache:  # built again (elsewhere) from the cache: each file read once more, for its key, not scored
        reads.clear()
        report = build(root, tmp_path / "again", cache=cache, jobs=2)
        assert not report.up_to_date and reads == {str(p): 1 for p in files}
