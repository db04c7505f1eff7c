"""Both scorers on generated cases, every verdict row compared: differences and crashes counted.

Scorer A is the suite's Python rules, called as rescoring calls them (`read_outcome`, then `score`);
scorer B is one long-lived Node process (`crosscheck.ScorerBProcess`, as the agreement gate's shared
cases use) that is sent each item once (a `define` line) and then the records that answer it. A row
is compared as the gate compares it: (unit, verdict, points, order, counts). A crash is scorer A raising or
scorer B answering a line with an error (or ending): each one is a failure, like a difference.

Each record goes through the line a results file would hold before either scorer sees it: written as
a stored line and read back by the reader every command uses (`jsonl.jsonl_lines`: orjson), so both
scorers see what a rescore would (an integer past 64 bits, say, is read as the nearest binary64). A
record no stored line can carry (a lone surrogate in a string) is refused there, as `tally rescore`
refuses its line: it is counted apart (`refused`) and scored by neither.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import orjson

from ..content import Item
from ..crosscheck import ScorerBProcess
from ..jsonl import jsonl_lines
from ..parse.response import read_outcome
from ..score.verdicts import compared, compared_b
from ..suite_api import Suite
from .engine import Case, Generator, Hints

__all__ = ["Finding", "FuzzReport", "fuzz_suite"]

_RUNS = re.compile(r"(.{1,8}?)\1{9,}", re.S)  # a repeated piece, shown as <piece xN> in a report
SHOWN_CHARS = 600  # of a finding's reply, in a report
SLOW_SECONDS = 10.0  # scorer A taking longer on one reply is a failure ("slow A"); loose for a loaded machine


@dataclass(frozen=True)
class Finding:
    """One failing case: a difference of the scorers, or a crash of one of them."""

    kind: str  # "difference" | "crash A" | "crash B" | "slow A"
    case: int
    how: str
    item: str
    content: str  # the reply (cut to SHOWN_CHARS), or the record when it has no content
    scorer_a: str
    scorer_b: str

    def describe(self) -> str:
        return (f"{self.kind} in case {self.case} ({self.how}), item {self.item}: reply {self.content!r}\n"
                f"    scorer A: {self.scorer_a}\n    scorer B: {self.scorer_b}")


@dataclass
class FuzzReport:
    suite: str
    seed: int
    cases: int = 0
    rows: int = 0
    differences: int = 0
    crash_a: int = 0
    crash_b: int = 0
    slow_a: int = 0  # replies scorer A took more than SLOW_SECONDS to score (a reply must not stall a rescore)
    skipped: int = 0  # cases whose item the suite itself rejects (not scored)
    refused: int = 0  # cases whose record no stored line can carry (the reader refuses it; not scored)
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)

    @property
    def failures(self) -> int:
        return self.differences + self.crash_a + self.crash_b + self.slow_a

    @property
    def ok(self) -> bool:
        return self.failures == 0

    def summary(self) -> str:
        return (f"{self.suite}: {self.cases:,} cases ({self.rows:,} verdict rows, seed {self.seed}) in "
                f"{self.seconds:.1f} s: {self.differences} differences, {self.crash_a} crashes of scorer A, "
                f"{self.crash_b} crashes of scorer B, {self.slow_a} slow replies"
                + (f", {self.skipped} items rejected" if self.skipped else "")
                + (f", {self.refused} records no stored line can carry" if self.refused else ""))


def _line(obj: dict) -> bytes:
    try:
        return orjson.dumps(obj)
    except (orjson.JSONEncodeError, TypeError):  # a lone surrogate: written as a \u escape
        return json.dumps(obj, ensure_ascii=True).encode()


def stored(record: dict) -> dict | None:
    """The record as a command reads it back from a results file, or None when the reader refuses
    every line that could hold it."""
    try:
        line = orjson.dumps(record)
    except (orjson.JSONEncodeError, TypeError):
        line = json.dumps(record, ensure_ascii=True).encode()  # the only line that could hold it
    for read in jsonl_lines(line):
        return read.value if read.error is None and isinstance(read.value, dict) else None
    return None


def _shown(record: dict) -> str:
    try:
        content = record["response"]["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        content = None
    text = content if isinstance(content, str) else json.dumps(record, default=str)
    short = _RUNS.sub(lambda m: f"<{m.group(1)} x{len(m.group(0)) // len(m.group(1))}>", text)
    return short if len(short) <= SHOWN_CHARS else short[:SHOWN_CHARS] + f"... ({len(text):,} characters)"


Row = tuple[str, str, object, str, object]


class _ScorerA:
    """Scorer A as rescoring calls it, with each item's checked answer parsed once."""

    def __init__(self, suite: Suite):
        self.suite = suite
        self.items: dict[int, tuple[dict, Item | None]] = {}

    def item(self, raw: dict) -> Item | None:
        got = self.items.get(id(raw))
        if got is not None and got[0] is raw:
            return got[1]
        if len(self.items) > 5000:
            self.items.clear()
        spec, problems = self.suite.parse_item(raw)
        item = None if problems else Item(str(raw["id"]), str(raw.get("dataset", "cases")),
                                          str(raw.get("half", "public")), dict(raw.get("strata") or {}),
                                          raw.get("document") or {}, spec)
        self.items[id(raw)] = (raw, item)
        return item

    def rows(self, item: Item, record: dict) -> list[Row]:
        outcome = read_outcome(record, self.suite.extract_answer, self.suite.answer_what)
        return [compared(v) for v in self.suite.score(item, outcome, "fuzz", 0)]


def _requests(name: bytes, cases: list[Case]) -> tuple[list[bytes], list[int | None]]:
    """Scorer B's input lines (each item defined before the records that answer it) and, per line,
    the index in `cases` it answers (None for a define line)."""
    lines: list[bytes] = []
    index: list[int | None] = []
    current: object = None
    for k in sorted(range(len(cases)), key=lambda k: id(cases[k].item)):
        case = cases[k]
        if case.item is not current:
            current = case.item
            lines.append(b'{"scorer":' + name + b',"define":' + _line(case.item) + b"}")
            index.append(None)
        lines.append(b'{"item_id":' + orjson.dumps(str(case.item["id"])) + b',"run":"fuzz","record":'
                     + _line(case.record) + b"}")
        index.append(k)
    return lines, index


def _rows_b(out: object) -> list[Row] | None:
    if not isinstance(out, list) or not all(isinstance(r, dict) for r in out):
        return None
    try:
        return [compared_b(r) for r in out]
    except KeyError:
        return None


def fuzz_suite(suite: Suite, cases: int, seed: int = 1, batch: int = 2000, hints: Hints | None = None,
               keep: int = 20, node: str | None = None, stop_after: int = 0,
               progress: Callable[[FuzzReport], None] | None = None) -> FuzzReport:
    """`cases` generated cases (seeded) through both scorers; the first `keep` failures are kept.
    With `stop_after`, stops after the batch in which that many failures were found."""
    gen = Generator(suite, seed, hints)
    report = FuzzReport(suite.name, seed)
    scorer_a = _ScorerA(suite)
    name = orjson.dumps(suite.scorer_b.name)
    start = time.perf_counter()
    process = ScorerBProcess([suite], node)
    try:
        while report.cases < cases:
            chunk = gen.cases(min(batch, cases - report.cases))
            items = [scorer_a.item(c.item) for c in chunk]
            usable = [c for c, item in zip(chunk, items) if item is not None]
            report.skipped += len(chunk) - len(usable)
            readable = [(c, stored(c.record)) for c in usable]
            usable = [replace(c, record=r) for c, r in readable if r is not None]
            report.refused += len(readable) - len(usable)
            # scorer B (its own process) scores the batch while scorer A does, here
            got_b: list[tuple[dict[int, object], ScorerBProcess]] = []
            thread = threading.Thread(target=lambda: got_b.append(_score_b(process, suite, node, name, usable)))
            thread.start()
            try:
                got_a = [_run_a(scorer_a, case) for case in usable]
            finally:
                thread.join()
            by_case, process = got_b[0]
            for k, case in enumerate(usable):
                _compare(report, case, got_a[k], by_case.get(k), keep)
            report.cases += len(chunk)
            if stop_after and report.failures >= stop_after:
                break
            if progress is not None:
                report.seconds = time.perf_counter() - start
                progress(report)
    finally:
        _close(process)
    report.seconds = time.perf_counter() - start
    return report


def _score_b(process: ScorerBProcess, suite: Suite, node: str | None, name: bytes,
             cases: list[Case]) -> tuple[dict[int, object], ScorerBProcess]:
    """Scorer B's output for each case (by position in `cases`), and the process to go on with. When
    scorer B ends on a line, that line's case gets no output (a crash); a new process scores the rest."""
    by_case: dict[int, object] = {}
    todo = list(range(len(cases)))
    while todo:
        lines, index = _requests(name, [cases[k] for k in todo])
        outputs = process.score(lines)
        define_error: object = None
        died_at = None
        for at, (out, j) in enumerate(zip(outputs, index)):
            if out is None:  # the line scorer B was reading when it ended (an item's: its first case)
                died_at = j if j is not None else next((x for x in index[at:] if x is not None), None)
                break
            if j is None:
                define_error = None if isinstance(out, dict) and "defined" in out else out
            else:
                by_case[todo[j]] = define_error if define_error is not None else out
        if died_at is None:
            break
        _close(process)
        process = ScorerBProcess([suite], node)
        if died_at is not None:
            by_case[todo[died_at]] = None
        todo = [k for k in todo if k not in by_case]
    return by_case, process


def _close(process: ScorerBProcess) -> None:
    try:
        process.close()
    except Exception:  # noqa: BLE001 - a scorer B that has ended already is closed enough
        pass


def _run_a(scorer_a: _ScorerA, case: Case) -> tuple[list[Row] | str, float]:
    """Scorer A's rows for a case (or what it raised, as text) and the seconds it took."""
    start = time.perf_counter()
    try:
        a: list[Row] | str = scorer_a.rows(scorer_a.item(case.item), case.record)  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001 - a crash of scorer A is what is counted
        a = f"raised {type(exc).__name__}: {str(exc)[:300]}"
    return a, time.perf_counter() - start


def _compare(report: FuzzReport, case: Case, got_a: tuple[list[Row] | str, float], out_b: object,
             keep: int) -> None:
    a, took = got_a
    kinds = []
    if isinstance(a, str):
        report.crash_a += 1
        kinds.append("crash A")
    if took > SLOW_SECONDS:
        report.slow_a += 1
        kinds.append("slow A")
    b = _rows_b(out_b)
    if b is None:
        report.crash_b += 1
        kinds.append("crash B")
    elif isinstance(a, list):
        report.rows += len(b)
        if a != b:
            report.differences += 1
            kinds.append("difference")
    if kinds and len(report.findings) < keep:
        a_text = a if isinstance(a, str) else _show_rows(a, b)
        if "slow A" in kinds:
            a_text = f"took {took:.1f} s; " + a_text
        b_text = f"error: {str(out_b)[:300]}" if b is None else _show_rows(b, a if isinstance(a, list) else None)
        report.findings.append(Finding(", ".join(kinds), case.index, case.how, str(case.item.get("id")),
                                       _shown(case.record), a_text, b_text))


def _show_rows(rows: list[Row], other: list[Row] | None) -> str:
    """The rows that differ from `other`'s (all rows when there is nothing to compare with)."""
    if other is None:
        return "; ".join(f"{r[0]}={r[1]}" for r in rows[:12])
    diff = [r for k, r in enumerate(rows) if k >= len(other) or other[k] != r]
    extra = f" ({len(rows)} rows, {len(other)} on the other side)" if len(rows) != len(other) else ""
    return "; ".join(f"{r[0]}={r[1]} ({r[2]} points{', order ' + repr(r[3]) if r[3] else ''}"
                     f"{', counts ' + repr(r[4]) if r[4] else ''})" for r in diff[:8]) + extra
