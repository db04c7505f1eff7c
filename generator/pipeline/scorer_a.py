"""Scorer A: one run's stored bytes -> verdict rows -> per-item figures, calls and the digest the
agreement gate compares (processes.py scores runs on several processes).
"""

from __future__ import annotations

import gc
import hashlib
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from operator import and_, eq, itemgetter

import numpy as np
import orjson

from .. import sealed_record, sealing
from ..errors import ErrorLog
from ..inputs.content import Item
from ..inputs.results import Run, iter_records
from ..parse.response import FAILED, UNPARSEABLE, Outcome, content_outcome, read_content
from ..score.verdicts import Verdict, VerdictTable, verdict_digest_line
from ..suite.api import Suite
from .calls import call_row, missing_row
from .csv_columns import verdict_cell, verdict_tail

NO_RESPONSE = Outcome(FAILED, None, "no stored response")


@dataclass
class ScoredRun:
    """One run just scored, every part held: what the artifact writer (artifact.write) is given, in
    the process that scored the run, and never kept after (a scored run is then its artifact)."""

    run: Run
    table: VerdictTable  # its verdict rows, sorted by item, then repeat
    calls: list[tuple] = field(default_factory=list)  # one row per stored call (see calls.py), sorted
    digest: str = ""  # SHA-256 over the rows of stored responses, as scorer B digests them
    stored_rows: int = 0  # verdict rows of stored responses (not of missing ones)
    responses: int = 0
    missing: int = 0
    sealed: int = 0  # private records scored from their stored verdicts (private storage not here)
    suite_failures: int = 0  # replies the suite's scorer could not handle, scored as unparseable (warned)
    sums: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # items x figures, summed over repeats
    repeats: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # items: responses scored
    # public items' stored lines, in file order: (item, repeat, start, length) in the run's stored bytes
    public: list[tuple[str, int, int, int]] = field(default_factory=list)
    # item -> (units compared, units answered the same in every repeat), for items answered more than
    # once (repeat consistency; `_consistency`)
    consistency: dict[str, tuple[int, int]] = field(default_factory=dict)
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)  # item -> (first row, end row) in `table`
    csv: bytes | None = None  # the run's rows of verdicts.csv (csv_columns.verdict_lines of `table`)


@dataclass
class Scoring:
    """What scoring one suite's runs needs: the plugin and the items (in id order)."""

    suite: Suite
    items: list[Item]
    log: ErrorLog

    def __post_init__(self) -> None:
        self.by_id = {i.id: i for i in self.items}
        self.position = {i.id: k for k, i in enumerate(self.items)}
        self.half = {i.id: i.half for i in self.items}
        self.memo = _Memo()  # what each outcome of an item scores to, shared by the suite's runs
        self.item_cells: list[bytes | None] = [None] * len(self.items)  # each item's cell in verdicts.csv


def score_run(run: Run, data: bytes, s: Scoring) -> ScoredRun:
    # Scoring allocates millions of small acyclic objects; the cycle collector would scan them over
    # and over (measured: a fifth of the time) while finding nothing to free. They are then moved out
    # of its sight (`gc.freeze`), or the first collection after each run would scan them all (measured:
    # a tenth of the time); freed by reference counting all the same. `release_frozen` gives the
    # collector back what is left when scoring is over.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _score_run(run, data, s)
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def release_frozen() -> None:
    """Hand what `score_run` froze back to the cycle collector (after the last run is scored)."""
    gc.unfreeze()


class _Scored:
    """What one outcome of one item scores to, whoever's response it was: its status, the verdict rows'
    tails column by column (interned), the per-item figures, the rows' digest tails and (once asked)
    the answers. Rows differ between two responses with the same outcome only in their run and
    repeat: a suite's `score` writes them only into the rows' heads and `item_figures` reads only the
    tails. Only tuples of strings and numbers are kept (which the cycle collector soon stops
    scanning), not the rows or the answer object: the answers are read again from `source` when asked."""

    __slots__ = ("status", "source", "columns", "figures", "tails", "csv", "answers", "failure")

    def __init__(self, status: str, source: str | Outcome | None, rows: list[Verdict],
                 figures: tuple[float, ...], answers: tuple[str, ...] | None = None,
                 failure: str | None = None) -> None:
        self.status = status
        self.failure = failure  # what the suite's scorer raised on this reply (scored as unparseable)
        self.source = source  # the content, or the outcome of a response with no content to read
        self.columns = _columns(rows)
        self.figures = tuple(figures)
        self.tails, self.csv = _tails(rows, self.columns)
        self.answers = answers

    def __len__(self) -> int:
        return len(self.columns[0])

    def rows_of(self, run: str, item: str, repeat: int) -> list[Verdict]:
        return [Verdict(run, item, repeat, *tail) for tail in zip(*self.columns)]

    def answers_of(self, suite: Suite, outcome: Outcome | None = None) -> tuple[str, ...]:
        """The answers (`_answers`); `outcome` is this entry's when the caller still has it, else it is
        read again from the content."""
        if self.answers is None:
            source = self.source
            if outcome is None:
                outcome = source if isinstance(source, Outcome) else content_outcome(
                    source or "", suite.extract_answer, suite.answer_what)
            try:
                self.answers = _answers_of(suite, outcome, self.columns[0])
            except Exception:  # noqa: BLE001 - a reply the suite cannot show: shown as unparseable
                self.answers = tuple(f"<{UNPARSEABLE}>" for _ in self.columns[0])
        return self.answers


def _columns(rows: list[Verdict]) -> tuple[tuple, ...]:
    """(unit, kind, verdict, points, reason, order, counts) of the rows, column by column, strings
    interned as VerdictTable keeps them."""
    if not rows:
        return ((),) * 7
    intern = sys.intern
    _run, _item, _repeat, unit, kind, verdict, points, reason, order, counts = zip(*rows)
    return (_interned(unit, 64), tuple(map(intern, kind)), tuple(map(intern, verdict)), points,
            _interned(reason, 200), tuple(map(intern, order)), counts)


def _interned(column: tuple[str, ...], limit: int) -> tuple[str, ...]:
    """The strings shorter than `limit` interned (a long one, e.g. model-chosen, is not hashed)."""
    if max(map(len, column)) < limit:
        return tuple(map(sys.intern, column))
    return tuple(sys.intern(u) if len(u) < limit else u for u in column)


def _tails(rows: list[Verdict], columns: tuple[tuple, ...]) -> tuple[tuple[bytes, ...] | None, tuple[bytes, ...]]:
    """Each row's digest line after its (item, repeat) head (`verdict_digest_line` is head + tail; None
    for them all when a row can't be encoded: a lone surrogate in a model-chosen unit), and its line
    of verdicts.csv after its (run, item, repeat) cells (csv_columns.verdict_tail). Tails recur from
    response to response (150,000 RA-Bench responses have 13,070 distinct ones): each is written once,
    then looked up, by the row's last seven cells; with the points' type (1, 1.0 and True are equal
    keys but written apart) and a float's text (0.0 and -0.0 too) unless every point is an int."""
    if not rows:
        return (), ()
    known = _TAILS
    if len(known) > _TAILS_KEPT:
        known.clear()
    points = columns[3]
    if set(map(type, points)) == _INTS:
        keys: tuple = tuple(map(_LAST_SEVEN, rows))
    else:
        keys = tuple(zip(map(_LAST_SEVEN, rows), map(type, points),
                         [repr(p) if p.__class__ is float else None for p in points]))
    out = tuple(map(known.get, keys))
    if None in out:
        made = []
        for key, row, tail in zip(keys, rows, out):
            if tail is None:
                tail = (_digest_tail(row), verdict_tail(*row[3:]))
                if len(tail[1]) <= _TAIL_BYTES:  # a long one (a model-chosen unit or reason) is not kept
                    known[key] = tail
            made.append(tail)
        out = tuple(made)
    digest, csv = zip(*out)
    return (None if None in digest else digest), csv


def _digest_tail(v: Verdict) -> bytes | None:
    tail = (v.unit, v.verdict, v.points, v.order, v.counts) if v.counts else (v.unit, v.verdict, v.points, v.order)
    try:
        return orjson.dumps(tail)[1:] + b"\n"
    except TypeError:
        return None


_TAILS: dict[tuple, tuple[bytes | None, bytes]] = {}
_TAILS_KEPT = 1 << 16  # distinct tails remembered (then forgotten all at once): a bound on memory
_TAIL_BYTES = 512  # with the longest row remembered
_INTS = {int}
_LAST_SEVEN = itemgetter(slice(3, None))  # a row's (unit, kind, verdict, points, reason, order, counts)


class _Memo:
    """(item position, what the outcome depends on) -> _Scored, in two generations of at most `size`
    entries each: an entry used again is kept, the others are dropped when a generation fills, so the
    memory stays bounded whatever the number of runs. Measured on the benches' corpora, 8,192 entries a
    generation answer 47.9% of extracting's 204,930 responses (32,768: 50.1%, for about 115 MB more) and
    13.6% of RA-Bench's 150,000 (32,768: 14.0%)."""

    def __init__(self, size: int = 1 << 13) -> None:
        self.size = size
        self.new: dict[tuple, _Scored] = {}
        self.old: dict[tuple, _Scored] = {}

    def get(self, key: tuple) -> _Scored | None:
        hit = self.new.get(key)
        if hit is None:
            hit = self.old.get(key)
            if hit is not None:
                self.put(key, hit)
        return hit

    def put(self, key: tuple, value: _Scored) -> None:
        if len(self.new) >= self.size:
            self.old, self.new = self.new, {}
        self.new[key] = value


def _score_run(run: Run, data: bytes, s: Scoring) -> ScoredRun:
    suite = s.suite
    width = len(suite.figures)
    table = VerdictTable(run.id)
    calls: list[tuple] = []
    result = ScoredRun(run, table, calls, sums=np.zeros((len(s.items), width)),
                       repeats=np.zeros(len(s.items), dtype=np.int64))
    # one entry per response: (position of the item, repeat, what it scored to, stored?)
    per_response: list[tuple[int, int, _Scored, bool]] = []
    extract, what, score, item_figures = suite.extract_answer, suite.answer_what, suite.score, suite.item_figures
    by_id, position, public, memo, run_id = s.by_id, s.position, result.public, s.memo, run.id
    done: set[tuple[str, int]] = set()
    outcomes: dict[_Scored, Outcome] = {}  # the outcomes scored in this run, while their answers may be wanted
    # item position -> the entry every response to it so far scored to, or None once two differ: an
    # item's answers are formatted as soon as two of its responses differ (repeats are usually next to
    # each other in a file, while the answer objects are still at hand); alike throughout, never
    firsts: dict[int, _Scored | None] = {}
    for _line, record, start, length in iter_records(run, s.half, s.log, data):
        item = by_id[record["item"]]
        repeat = record["repeat"]
        k = position[item.id]
        if sealing.is_sealed(record):  # private storage not here: the stored verdicts, not re-derived
            if item.half != "private":
                s.log.add(run.responses, _line, f"item {item.id!r} is public: it is never sealed")
                continue
            record, problem = sealed_record.opened(record, item.line)
            if record is None or (problem := sealed_record.stub_problem(record)) is not None:
                s.log.add(run.responses, _line, problem or "the sealed record does not open with its item")
                continue
            rows = sealed_record.stub_rows(record, run_id)
            stored = sealed_record.stub_figures(record)
            if stored is not None and len(stored) != width:
                s.log.add(run.responses, _line, f"a sealed record's figures must be {width} numbers")
                continue
            scored = _Scored(record["outcome"], None, rows, stored or item_figures(rows), tuple(record["answers"]))
            per_response.append((k, repeat, scored, False))
            calls.append(call_row(run_id, sealed_record.stub_call_record(record), record["outcome"]))
            result.sealed += 1
        else:
            source = read_content(record)
            key = (k, source) if source.__class__ is str else (k, source.status, source.reason)  # type: ignore[union-attr]
            hit = memo.get(key)
            if hit is None:
                try:
                    outcome = source if isinstance(source, Outcome) else content_outcome(source, extract, what)
                    rows = score(item, outcome, run_id, repeat)
                    hit = _Scored(outcome.status, source, rows, item_figures(rows))
                except Exception as exc:  # noqa: BLE001 - a reply the suite cannot handle: its unparseable
                    outcome = Outcome(UNPARSEABLE, None, f"the suite's scorer failed on this reply: {_said(exc)}")
                    rows = score(item, outcome, run_id, repeat)
                    hit = _Scored(outcome.status, outcome, rows, item_figures(rows), failure=outcome.reason)
                memo.put(key, hit)
                outcomes[hit] = outcome  # for its answers, while this run is scored
            scored = hit
            if scored.failure is not None:
                s.log.warn(run.responses, _line, f"{scored.failure}; scored as unparseable")
                result.suite_failures += 1
            if k not in firsts:
                firsts[k] = scored
            elif (first := firsts[k]) is not scored:
                if first is not None:
                    first.answers_of(suite, outcomes.pop(first, None))
                    firsts[k] = None
                scored.answers_of(suite, outcomes.pop(scored, None))
            per_response.append((k, repeat, scored, True))
            calls.append(call_row(run_id, record, scored.status))
        done.add((item.id, repeat))
        if item.half == "public":
            public.append((item.id, repeat, start, length))
    result.responses = len(per_response)
    for k, item in enumerate(s.items):  # a missing response is a failure on that item, never a drop
        if run.half in ("both", item.half) and (item.id, 0) not in done:
            key = (k, NO_RESPONSE.status, NO_RESPONSE.reason)
            hit = memo.get(key)
            if hit is None:
                rows = score(item, NO_RESPONSE, run_id, 0)
                hit = _Scored(NO_RESPONSE.status, NO_RESPONSE, rows, item_figures(rows))
                memo.put(key, hit)
            per_response.append((k, 0, hit, False))
            calls.append(missing_row(run_id, item.id))
            result.missing += 1
    calls.sort(key=itemgetter(1, 2))
    if per_response:
        where = np.fromiter(map(itemgetter(0), per_response), dtype=np.int64, count=len(per_response))
        figures = np.array([r[2].figures for r in per_response], dtype=float).reshape(len(per_response), width)
        n = len(s.items)
        # each item's figures summed in the order of its responses (as np.add.at would, much faster)
        for c in range(width):
            result.sums[:, c] = np.bincount(where, weights=figures[:, c], minlength=n)
        result.repeats[:] = np.bincount(where, minlength=n)
    del firsts
    result.consistency = _consistency(suite, s.items, per_response, outcomes)
    outcomes.clear()
    per_response.sort(key=itemgetter(0, 1))  # positions follow item ids: sorted by item, then repeat
    digest = hashlib.sha256()
    items, spans = s.items, result.spans
    csv: list[bytes] = []  # the rows of verdicts.csv, each response's: its head before each of its tails
    run_cell = verdict_cell(run_id) + b","
    cells = s.item_cells
    for k, repeat, scored, is_stored in per_response:
        item_id = items[k].id
        start = len(table)
        table.extend_columns(item_id, repeat, scored.columns)
        if len(scored):
            span = spans.get(item_id)
            spans[item_id] = (start if span is None else span[0], start + len(scored))
            cell = cells[k]
            if cell is None:
                cell = cells[k] = verdict_cell(item_id) + b","
            head = b"%b%b%d," % (run_cell, cell, repeat)
            csv.append(head + head.join(scored.csv))
        if is_stored:
            digest.update(_digest_lines(run_id, item_id, repeat, scored))
            result.stored_rows += len(scored)
    result.digest = digest.hexdigest()
    result.csv = b"".join(csv)
    return result


def _said(exc: BaseException) -> str:
    """An exception in a few words, for a reason and a warning."""
    return f"{type(exc).__name__}: {str(exc)[:160]}"


def _digest_lines(run: str, item: str, repeat: int, scored: _Scored) -> bytes:
    """The digest lines of one response's rows (verdict_digest_line, row by row): the (item, repeat)
    head before each of the memoised tails."""
    if not len(scored):
        return b""
    if scored.tails is not None:
        try:
            head = orjson.dumps((item, repeat))[:-1] + b","
        except TypeError:
            pass
        else:
            return head + head.join(scored.tails)
    return b"".join(verdict_digest_line(v) for v in scored.rows_of(run, item, repeat))


def _consistency(suite: Suite, items: list[Item], responses: list[tuple],
                 outcomes: dict[_Scored, Outcome]) -> dict[str, tuple[int, int]]:
    """item -> (units compared, units whose answer was the same in every response), for the items
    answered more than once. Units are compared position by position, as far as the response with
    the fewest units goes; what a response answered for a unit is `_answers` (as the suite shows it).
    Only those items' answers are formatted (not when every response had the same content), and only
    the two counts are kept."""
    given: dict[int, list[_Scored]] = {}
    for k, _repeat, scored, _stored in responses:
        if k in given:
            given[k].append(scored)
        else:
            given[k] = [scored]
    out: dict[str, tuple[int, int]] = {}
    for k, scored_as in given.items():
        if len(scored_as) < 2:
            continue
        if scored_as.count(scored_as[0]) == len(scored_as):  # one content every time: alike, unformatted
            out[items[k].id] = (len(scored_as[0]), len(scored_as[0]))
            continue
        answers = [s.answers_of(suite, outcomes.get(s)) for s in scored_as]
        first = answers[0]
        if answers.count(first) == len(answers):  # every response answered every unit alike
            out[items[k].id] = (len(first), len(first))
            continue
        alike: Iterator[bool] = map(eq, first, answers[1])  # (as far as the shortest goes, as zip)
        for other in answers[2:]:
            alike = map(and_, alike, map(eq, first, other))
        out[items[k].id] = (min(map(len, answers)), sum(alike))
    return out


def _answers(suite: Suite, outcome: Outcome, rows: list[Verdict]) -> tuple[str, ...]:
    """What the response answered for each unit, as the suite shows it (a failed call or an unreadable
    reply is one value for every unit)."""
    return _answers_of(suite, outcome, [v.unit for v in rows])


def _answers_of(suite: Suite, outcome: Outcome, units: Iterable[str]) -> tuple[str, ...]:
    if outcome.answer is None:
        return tuple(f"<{outcome.status}>" for _ in units)
    return suite.answer_values(outcome.answer, units)
