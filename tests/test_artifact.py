"""A scored run is one artifact (generator/pipeline/artifact.py): what its handle reads back equals what the
scorer produced, part by part; workers hand back only its name; a file changed after it was written
is refused; a temporary store goes with its handles; a site build reads each run's parts a bounded
number of times, through explicit calls."""

from __future__ import annotations

import gc
import os
from collections import Counter
from pathlib import Path

import pytest

from generator.errors import ErrorLog
from generator.pipeline import artifact, processes
from generator.pipeline.artifact import ArtifactProblem
from generator.pipeline.csv_columns import call_lines, verdict_lines
from generator.pipeline.run_score import RunScore, Store
from generator.pipeline.scorer_a import Scoring, score_run
from generator.pipeline.stages import load, load_and_score
from generator.sealing import read_run
from tests.site_support import build, make_project, missing_node

ROOT = Path(__file__).resolve().parents[1]
needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


@pytest.fixture(scope="module")
def extracting():
    (ls,) = load(ROOT, ["extracting"])
    log = ErrorLog(ROOT)
    return ls, log, {run.id: read_run(run.responses, log).data for run in ls.runs[:4]}


def _expected_public(scored, data: bytes) -> bytes:
    return b"".join(data[start:start + length] + b"\n" for _item, _repeat, start, length in scored.public)


def test_every_part_reads_back_exactly(extracting, tmp_path):
    ls, log, data = extracting
    store = Store(None, "extracting")
    for run in ls.runs[:4]:
        scored = score_run(run, data[run.id], Scoring(ls.plugin, ls.items, log))
        name, identity = artifact.write(store.folder, run.id, scored, data[run.id])
        r = store.open(run, name, identity)
        t, table = r.verdicts(), scored.table
        assert (t.item, t.repeat, t.unit, t.kind, t.verdict, t.points, t.reason, t.order) == (
            table.item, table.repeat, table.unit, table.kind, table.verdict, table.points, table.reason, table.order)
        assert r.calls() == scored.calls and r.verdict_csv() == verdict_lines(table)
        assert r.calls_csv() == call_lines(scored.calls)
        assert r.row_count == len(table)
        for item, (start, stop) in table.spans().items():
            assert r.has_rows(item) and r.rows_of(item) == list(table.rows(start, stop))
        assert r.rows_of("no such item") == [] and not r.has_rows("no such item")
        for item, repeat, start, length in scored.public:
            assert r.public_line(item, repeat) == data[run.id][start:start + length].decode()
        assert r.public_line("no such item", 0) is None
        r.copy_public_lines(tmp_path / "lines.jsonl")
        assert (tmp_path / "lines.jsonl").read_bytes() == _expected_public(scored, data[run.id])
        assert (r.digest, r.stored_rows, r.responses, r.missing, r.sealed, r.consistency) == (
            scored.digest, scored.stored_rows, scored.responses, scored.missing, scored.sealed, scored.consistency)
        assert r.sums.tolist() == scored.sums.tolist() and r.repeats.tolist() == scored.repeats.tolist()
        r.close()


def test_a_run_with_no_rows_and_no_public_line(extracting, tmp_path):
    ls, log, _data = extracting
    run = ls.runs[0]
    scored = score_run(run, b"", Scoring(ls.plugin, [], log))
    store = Store(None, "x")
    r = store.open(run, *artifact.write(store.folder, "empty", scored, b""))
    assert len(r.verdicts()) == 0 and r.calls() == [] and r.verdict_csv() == b"" and r.public_keys() == {}
    r.copy_public_lines(tmp_path / "lines.jsonl")
    assert (tmp_path / "lines.jsonl").read_bytes() == b""


def test_an_artifact_changed_after_it_was_written_is_refused(extracting):
    ls, log, data = extracting
    run = ls.runs[0]
    store = Store(None, "extracting")
    name, identity = artifact.write(store.folder, "a", score_run(run, data[run.id], Scoring(ls.plugin, ls.items, log)),
                                    data[run.id])
    r = store.open(run, name, identity)
    # replaced by another file (here: the same bytes, another file), before and after a first read
    blob = (store.folder / name).read_bytes()
    (store.folder / name).unlink()
    (store.folder / name).write_bytes(blob)
    with pytest.raises(ArtifactProblem, match="changed after it was written"):
        r.calls()
    with pytest.raises(ArtifactProblem):
        store.open(run, name, identity)


_SPIED: dict = {}


def _spy(task):
    """In a forked worker: what it hands back (kinds and size), noted in a file."""
    out = _SPIED["original"](task)
    with _SPIED["seen"].open("a") as fh:
        fh.write(f"{os.getpid()} {' '.join(type(x).__name__ for x in out)} {len(repr(out))}\n")
    return out


def test_workers_write_the_artifact_and_hand_back_only_its_name(extracting, monkeypatch, tmp_path):
    ls, _log, data = extracting
    runs = ls.runs[:4]
    seen = tmp_path / "seen"
    monkeypatch.setitem(_SPIED, "original", processes._score_in_worker)
    monkeypatch.setitem(_SPIED, "seen", seen)
    monkeypatch.setattr(processes, "_score_in_worker", _spy)
    alone, several = Store(None, "extracting"), Store(None, "extracting")
    one = list(processes.score_runs([(r, data[r.id], r.id) for r in runs], Scoring(ls.plugin, ls.items, ErrorLog(ROOT)),
                                    1, alone))
    two = list(processes.score_runs([(r, data[r.id], r.id) for r in runs], Scoring(ls.plugin, ls.items, ErrorLog(ROOT)),
                                    2, several))
    assert [r.run.id for r in two] == [r.run.id for r in one]
    for a, b in zip(one, two):
        assert b.path.parent == several.folder and b.path.read_bytes()[32:] == a.path.read_bytes()[32:]
    handed = [line.split() for line in seen.read_text().splitlines()]
    assert len(handed) == len(runs) and {pid for pid, *_ in handed} != {str(os.getpid())}
    assert all(kinds == ["str", "tuple", "list", "list"] and int(size) < 300 for _pid, *kinds, size in handed)


def test_a_temporary_store_goes_with_its_handles(tmp_path):
    root = make_project(tmp_path / "p")
    scored = load_and_score(root, None, 1, False, warn=lambda _w: None)
    folder = scored[0].runs[0].store.folder
    assert folder.is_dir() and sorted(p.name for p in folder.iterdir())  # artifacts, outside the project
    assert not (root / "build").exists()
    del scored
    gc.collect()
    assert not folder.exists()


@needs_node
def test_a_cached_build_reads_each_run_part_a_bounded_number_of_times(tmp_path, monkeypatch):
    root = make_project(tmp_path / "p")
    build(root, tmp_path / "first")
    reads: Counter = Counter()
    for method in ("calls", "verdicts", "verdict_csv", "calls_csv"):
        original = getattr(RunScore, method)

        def counted(self, _original=original, _method=method):
            reads[(_method, self.run.id)] += 1
            return _original(self)

        monkeypatch.setattr(RunScore, method, counted)
    build(root, tmp_path / "again")
    runs = {run for _method, run in reads}
    assert runs and os.listdir(root / "results" / "mini")
    for run in runs:
        assert reads[("calls", run)] == 0, reads  # the statistics come from the cache
        assert reads[("verdict_csv", run)] == reads[("calls_csv", run)] == 1, reads  # verdicts.csv, calls.csv
        # item pages read an item's rows, not the run's; the suite's own report table (extracting's list order)
        # reads each run's rows once
        assert reads[("verdicts", run)] == 1, reads


@needs_node
def test_a_run_not_to_be_reused_is_written_for_its_command_only(tmp_path):
    """A run with no stored response is written as `<key>.once`: the next command scores it again (its
    warnings come again); the other runs are taken from the cache."""
    import json
    import shutil

    from generator.pipeline.cache import Cache

    root = make_project(tmp_path / "p")
    runs = root / "results" / "mini"
    empty = runs / "zz-empty"
    shutil.copytree(sorted(runs.iterdir())[0], empty)
    (empty / "responses.jsonl").write_bytes(b"")
    meta = json.loads((empty / "run.json").read_text(encoding="utf-8"))
    (empty / "run.json").write_text(json.dumps(meta | {"run_id": "zz-empty", "model": "empty"}), encoding="utf-8")
    total = len(list(runs.iterdir()))
    first = Cache(root / "build" / "cache")
    scored = load_and_score(root, None, 1, True, cache=first, warn=lambda _w: None)
    (r,) = [r for r in scored[0].runs if r.run.id == "zz-empty"]
    assert r.responses == 0 and r.name.endswith(artifact.ONCE) and r.path.is_file()
    assert first.counts.written == total - 1
    again = Cache(root / "build" / "cache")
    scored = load_and_score(root, None, 1, True, cache=again, warn=lambda _w: None)
    assert again.counts.hits == total - 1 and again.counts.misses == 1
    names = sorted(p.name for p in (root / "build" / "cache" / "runs" / "mini").iterdir())
    assert names == sorted(r.name for r in scored[0].runs) and sum(n.endswith(artifact.ONCE) for n in names) == 1


def test_a_read_table_gives_the_rows_a_verdict_table_gives():
    """RunScore.verdicts' table (run_score.ReadTable) makes its rows with zip and map: the same Verdicts,
    in the same order, whole or a slice of them."""
    from generator.pipeline.run_score import ReadTable
    from generator.score.verdicts import Verdict, VerdictTable

    rows = [Verdict("r", f"item-{k // 3}", k % 3, f"u{k % 4}", "printed", ("correct", "wrong")[k % 2], k % 2,
                    "" if k % 5 else "a reason", ("same", "", "different")[k % 3], (k, 2) if k % 7 == 0 else ())
            for k in range(40)]
    base, read = VerdictTable("r"), ReadTable("r")
    base.extend(rows)
    read.extend(rows)
    assert list(read.rows()) == list(base.rows()) == rows
    for start, stop in ((0, None), (3, 17), (5, 40), (39, None), (10, 10)):
        assert list(read.rows(start, stop)) == list(base.rows(start, stop)) == rows[start:stop]
    assert all(type(v) is Verdict for v in read.rows())


_PARENT: list[int] = []


def _dying_worker(task):
    if os.getpid() not in _PARENT:
        os._exit(9)  # as an out-of-memory kill would
    raise AssertionError("scored here")


def test_a_scoring_process_that_dies_stops_the_scoring_with_a_clear_error(extracting, monkeypatch):
    """The pool says it broke (pipeline/forked.py): the command stops with what to do, never waits."""
    from generator.errors import TallyError

    ls, _log, data = extracting
    runs = ls.runs[:4]
    monkeypatch.setattr(processes, "_score_in_worker", _dying_worker)
    _PARENT[:] = [os.getpid()]
    try:
        with pytest.raises(TallyError, match="ended before it was done"):
            list(processes.score_runs([(r, data[r.id], r.id) for r in runs],
                                      Scoring(ls.plugin, ls.items, ErrorLog(ROOT)), 2, Store(None, "extracting")))
    finally:
        _PARENT.clear()


def test_an_error_reading_the_runs_is_raised_where_they_are_taken(extracting):
    ls, _log, data = extracting
    runs = ls.runs[:4]

    def stored():
        yield runs[0], data[runs[0].id], runs[0].id
        yield runs[1], data[runs[1].id], runs[1].id
        raise OSError("the disk went away")

    taken = []
    with pytest.raises(OSError, match="the disk went away"):
        for handle in processes.score_runs(stored(), Scoring(ls.plugin, ls.items, ErrorLog(ROOT)), 2,
                                           Store(None, "extracting")):
            taken.append(handle.run.id)
    assert taken == [runs[0].id, runs[1].id]
