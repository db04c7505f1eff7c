"""The agreement gate: scorer B (JavaScript, run by Node) rescores every stored response, and its
verdicts are compared with scorer A's key by key: (run, item, repeat, unit) -> verdict, points, order, counts.

Items are sent once; each run's stored lines are sent verbatim, from the bytes the pipeline read
once, while scorer A scores the same run. Scorer B folds each run's rows into a SHA-256 that scorer
A computed the same way while scoring; only a run whose digests differ is rescored row by row to
name each difference.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import orjson

from .. import sealing
from ..errors import ErrorLog, ScorerBFailed, ScorerBUnavailable, visible
from ..inputs.jsonl import jsonl_lines
from ..parse.response import read_outcome
from ..score.verdicts import compared, compared_b, show_row
from ..suite.api import Suite

SCORER_B = Path(__file__).resolve().parents[2] / "scorer-js" / "cli.js"
NODE_MIN_MAJOR = 18
MAX_LISTED = 1000  # differences listed in the report; all are counted

__all__ = ["Agreement", "Gate", "ScorerBFailed", "ScorerBProcess", "ScorerBUnavailable", "node_version"]


@dataclass(frozen=True)
class Difference:
    run: str
    item: str
    repeat: int
    unit: str
    scorer_a: str
    scorer_b: str
    value: str  # the model's value for the unit ("<absent>" when the answer has none)


@dataclass
class Agreement:
    suite: str
    status: str = "agree"  # agree | disagree | not run
    compared: int = 0
    differing: int = 0
    differences: list[Difference] = field(default_factory=list)
    scorer_b: str = "scorer-js/cli.js"
    node: str = ""
    sealed: int = 0  # private records whose full record is not here: scorer B did not see them

    def to_json(self) -> dict:
        out = {**asdict(self), "differences": [asdict(d) for d in self.differences]}
        if not self.sealed:
            del out["sealed"]
        return out


def node_version(node: str | None = None) -> tuple[str, str]:
    """(path, version) of a usable Node.js; raises ScorerBUnavailable with what to install."""
    path = node or shutil.which("node") or shutil.which("nodejs")
    hint = "scorer B needs Node.js {} or newer: install it (Debian/Ubuntu: apt-get install nodejs)"
    if path is None:
        raise ScorerBUnavailable(hint.format(NODE_MIN_MAJOR) + "; no `node` was found on PATH")
    try:
        version = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        raise ScorerBUnavailable(hint.format(NODE_MIN_MAJOR) + f"; running {path} failed: {exc}") from None
    m = re.fullmatch(r"v(\d+)\.\d+\.\d+.*", version)
    if m is None or int(m.group(1)) < NODE_MIN_MAJOR:
        raise ScorerBUnavailable(hint.format(NODE_MIN_MAJOR) + f"; found {version or 'no version'} at {path}")
    if not SCORER_B.is_file():
        raise ScorerBUnavailable(f"scorer B is missing: {SCORER_B.name} not found next to the package")
    return path, version


def _command(path: str, suites: Sequence[Suite]) -> list[str]:
    scripts = [str(s) for suite in suites for s in suite.scorer_b.scripts]
    return [path, str(SCORER_B), *scripts]


def _record_lines(run_id: str, data: bytes) -> Iterator[bytes]:
    """Each stored line for scorer B, with its line number in the run's file (which scorer B's warnings
    and errors name); sealed records (scored from their stored verdicts) are not sent."""
    for pieces in _record_pieces(run_id, data):
        for k in range(0, len(pieces), 3):
            yield b"".join(pieces[k:k + 3])


def _record_pieces(run_id: str, data: bytes) -> Iterator[list]:
    """The lines of `_record_lines` in pieces, a few hundred lines at a time (what one `os.writev`
    writes): each line's head, its stored line (a view of `data`, not a copy) and its end. Copying a
    run's lines into new lines took a second of the gate's 150,000 RA-Bench records."""
    prefix = b'{"run":"' + run_id.encode() + b'","line":'
    view = memoryview(data)
    sealed = sealing.may_hold_sealed(data)  # else no line is a sealed record: not looked for line by line
    pieces: list = []
    start, end, number, find = 0, len(data), 0, data.find
    while start <= end:
        stop = find(b"\n", start)
        if stop < 0:
            stop = end
        number += 1
        # not blank (a line that is not empty and not all white space, as `line.strip()`)
        if stop > start and (data[start] == 123 or not data[start:stop].isspace()) and not (
                sealed and sealing.sealed_info(data[start:stop]) is not None):
            pieces += (b'%b%d,"record":' % (prefix, number), view[start:stop], b"}\n")
            if len(pieces) >= _PIECES:
                yield pieces
                pieces = []
        start = stop + 1
    if pieces:
        yield pieces


_PIECES = 3 * 300  # pieces written by one os.writev (the system takes at most 1,024)


def _write_all(fd: int, pieces: list) -> None:
    """Write every piece to the file descriptor, in order, with as few system calls as it takes."""
    while pieces:
        n = os.writev(fd, pieces)
        k = 0
        while k < len(pieces) and n >= len(pieces[k]):
            n -= len(pieces[k])
            k += 1
        pieces = pieces[k:]
        if pieces and n:
            pieces[0] = memoryview(pieces[0])[n:]


def responses_file(suite: str, run_id: str) -> str:
    """Where a run's stored responses are, relative to the project (results/<suite>/<run>/responses.jsonl)."""
    return f"results/{suite}/{run_id}/responses.jsonl"


def _failure(suite: str, out: Sequence[object], code: int, stderr: str) -> ScorerBFailed:
    """Scorer B failed (exit status `code`): name the run, file and line of each error line it wrote."""
    named = []
    for o in out:
        if isinstance(o, dict) and "error" in o:
            run, line = o.get("run"), o.get("line")
            where = f"{responses_file(suite, run)}:{line}" if isinstance(run, str) else "an input line"
            named.append(f"{where}: scorer B failed on run {run!r}: {o['error']}" if isinstance(run, str)
                         else f"{where}: scorer B failed: {o['error']}")
    if not named:  # it stopped (a crash, no memory): the run it was reading, when it had begun one
        ended = {o.get("run") for o in out if isinstance(o, dict) and "digest" in o}
        open_runs = [o["begun"] for o in out if isinstance(o, dict) and "begun" in o and o["begun"] not in ended]
        where = f"{responses_file(suite, open_runs[-1])}: " if open_runs and isinstance(open_runs[-1], str) else ""
        named.append(f"{where}scorer B stopped on suite {suite} (exit status {code})"
                     + (f" while reading run {open_runs[-1]!r}" if where else "") + f": {stderr.strip()[:500]}")
    return ScorerBFailed("\n".join(visible(n)[:600] for n in named[:20]) + (
        f"\n... and {len(named) - 20} more" if len(named) > 20 else ""))


class _Node:
    """One scorer B process for a suite: item definitions first, then whatever is queued."""

    def __init__(self, path: str, suite: Suite, item_lines: Sequence[bytes]):
        self.proc = subprocess.Popen(_command(path, [suite]), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.stderr: list[bytes] = []
        self.out: list[bytes] = []
        self.jobs: queue.Queue = queue.Queue(maxsize=2)  # bounded: scorer A waits when scorer B lags
        name = orjson.dumps(suite.scorer_b.name)
        self.defines = [b'{"scorer":' + name + b',"define":' + line + b"}\n" for line in item_lines]
        self.threads = [threading.Thread(target=self._drain_err, daemon=True),
                        threading.Thread(target=self._drain_out, daemon=True),
                        threading.Thread(target=self._feed, daemon=True)]
        for t in self.threads:
            t.start()

    def _drain_err(self) -> None:
        assert self.proc.stderr is not None
        self.stderr.append(self.proc.stderr.read())

    def _drain_out(self) -> None:
        assert self.proc.stdout is not None
        self.out.extend(self.proc.stdout)

    def _feed(self) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        fd = stdin.fileno()  # written unbuffered, by os.writev (nothing goes through stdin's buffer)
        done = False
        try:
            for k in range(0, len(self.defines), _PIECES):
                _write_all(fd, self.defines[k:k + _PIECES])
            while (job := self.jobs.get()) is not None:
                run_id, data, digest = job
                if digest:
                    _write_all(fd, [b'{"begin_run":' + orjson.dumps(run_id) + b"}\n"])
                for pieces in _record_pieces(run_id, data):
                    _write_all(fd, pieces)
                if digest:
                    _write_all(fd, [b'{"end_run":' + orjson.dumps(run_id) + b"}\n"])
            done = True
            stdin.close()
        except (BrokenPipeError, ValueError):  # scorer B has gone: let the producer finish
            while not done and self.jobs.get() is not None:
                pass

    def send(self, run_id: str, data: bytes, digest: bool = True) -> None:
        self.jobs.put((run_id, data, digest))

    def finish(self, suite: str) -> list[object]:
        """Close the input, wait for scorer B, and return its output lines, parsed; ScorerBFailed
        naming the run, file and line of every record scorer B could not score."""
        self.jobs.put(None)
        for t in self.threads:
            t.join()
        code = self.proc.wait()
        out = [_loads(line) for line in self.out]
        if code != 0 or any(isinstance(o, dict) and "error" in o for o in out):
            raise _failure(suite, out, code, self.error_text())
        return out

    def error_text(self) -> str:
        return b"".join(self.stderr).decode("utf-8", "replace")[:500]

    def warnings(self) -> list[tuple[str, int | None, str]]:
        """(run, line, message) of each warning scorer B wrote on stderr (a reply its suite scorer
        could not handle, scored as unparseable)."""
        found = []
        for text in b"".join(self.stderr).splitlines():
            try:
                w = json.loads(text)
            except ValueError:
                continue
            if isinstance(w, dict) and isinstance(w.get("warning"), str) and isinstance(w.get("run"), str):
                line = w.get("line")
                found.append((w["run"], line if isinstance(line, int) else None, w["warning"]))
        return found

    def abort(self) -> None:
        self.proc.kill()
        self.jobs.put(None)
        for t in self.threads:
            t.join()
        self.proc.wait()


class Gate:
    """The agreement gate of one suite, fed each run's stored bytes while scorer A scores it."""

    def __init__(self, suite: Suite, suite_name: str, item_lines: Sequence[bytes], node: str | None = None):
        self.path, self.version = node_version(node)
        self.suite, self.suite_name, self.item_lines = suite, suite_name, item_lines
        self.node = _Node(self.path, suite, item_lines)
        self.order: list[str] = []
        self.vouched: list[str] = []  # runs scorer B agreed with before (build cache), not sent again
        self.remote: dict[str, object] = {}  # run -> scorer B's end record, computed on a cluster worker
        self.warned: list[tuple[str, int | None, str]] = []  # scorer B's warnings: (run, line, message)

    def vouch(self, run_id: str) -> None:
        """A run whose unchanged inputs and scorer A results scorer B agreed with before, under this
        Node.js version and the same scorer sources (the build cache's key covers them)."""
        self.vouched.append(run_id)

    def accept(self, run_id: str, end: object) -> None:
        """Scorer B's end record of a run ({"run", "digest", "records"}), computed elsewhere (a
        cluster worker, generator/pipeline/distributed.py), compared in `finish` like a local one."""
        self.remote[run_id] = end

    def send(self, run_id: str, data: bytes) -> None:
        self.order.append(run_id)
        self.node.send(run_id, data)

    def abort(self) -> None:
        """Stop scorer B without a report (scoring found input errors)."""
        self.node.abort()

    def finish(self, runs: Sequence) -> Agreement:
        """Compare with scorer A's results (`runs`: RunScore, any order) and name every difference."""
        out = self.node.finish(self.suite_name)
        self.warned = self.node.warnings()
        defined, rest = out[:len(self.item_lines)], out[len(self.item_lines):]
        if not all(isinstance(d, dict) and "defined" in d for d in defined):
            bad = next(d for d in defined if not (isinstance(d, dict) and "defined" in d))
            raise ScorerBFailed(f"scorer B did not accept an item definition: {bad!r:.300}")
        by_id = {r.run.id: r for r in runs}
        agreement = Agreement(self.suite_name, node=self.version)
        mismatched: list = []
        for run_id in self.vouched:  # counted as when scorer B reads them, so a cached build says the same
            agreement.compared += by_id[run_id].stored_rows
            agreement.sealed += by_id[run_id].sealed
        for run_id, end in self.remote.items():
            if not isinstance(end, dict) or end.get("run") != run_id or "digest" not in end:
                where = responses_file(self.suite_name, run_id)
                raise ScorerBFailed(f"{where}: scorer B failed on run {run_id} on a cluster worker: {end!r:.300}")
            _tally(agreement, by_id[run_id], end, mismatched)
        for k, run_id in enumerate(self.order):
            begun, end = (rest[2 * k], rest[2 * k + 1]) if 2 * k + 1 < len(rest) else (None, None)
            if not isinstance(begun, dict) or not isinstance(end, dict) or end.get("run") != run_id:
                where = responses_file(self.suite_name, run_id)
                raise ScorerBFailed(f"{where}: scorer B failed on run {run_id}: {end!r:.300} {self.node.error_text()}")
            _tally(agreement, by_id[run_id], end, mismatched)
        if mismatched:
            self._detail(agreement, mismatched)
        agreement.status = "agree" if agreement.differing == 0 else "disagree"
        return agreement

    def _detail(self, agreement: Agreement, runs: Sequence) -> None:
        node = _Node(self.path, self.suite, self.item_lines)
        for r in runs:
            node.send(r.run.id, _run_bytes(r.run.responses), digest=False)
        out = node.finish(self.suite_name)[len(self.item_lines):]
        k = 0
        for r in runs:
            expected: dict[tuple[str, int], list[tuple]] = {}
            for v in r.verdicts().rows():
                expected.setdefault((v.item, v.repeat), []).append(compared(v))
            for _ in range(r.responses - r.sealed):
                rows_b = out[k]
                k += 1
                if not isinstance(rows_b, list) or not rows_b:
                    where = responses_file(self.suite_name, r.run.id)
                    raise ScorerBFailed(f"{where}: scorer B failed on a response of run {r.run.id}: {rows_b!r:.300}")
                key = (rows_b[0]["item"], rows_b[0]["repeat"])
                got = [compared_b(x) for x in rows_b]
                self._compare(agreement, r, key, expected.get(key, []), got)

    def _compare(self, agreement: Agreement, run_score, key: tuple[str, int], rows_a: list, rows_b: list) -> None:
        for k in range(max(len(rows_a), len(rows_b))):
            a = rows_a[k] if k < len(rows_a) else None
            b = rows_b[k] if k < len(rows_b) else None
            if a == b:
                continue
            agreement.differing += 1
            if len(agreement.differences) < MAX_LISTED:
                row = a if a is not None else b
                assert row is not None  # a == b when both are missing
                unit = row[0]
                agreement.differences.append(Difference(run_score.run.id, key[0], key[1], unit, _show(a), _show(b),
                                                        self._value(run_score, key, unit)))

    def _value(self, run_score, key: tuple[str, int], unit: str) -> str:
        for _number, _line, record, _error in jsonl_lines(_run_bytes(run_score.run.responses)):
            if isinstance(record, dict) and record.get("item") == key[0] and record.get("repeat") == key[1]:
                outcome = read_outcome(record, self.suite.extract_answer, self.suite.answer_what)
                if outcome.answer is None:
                    return f"<{outcome.status}>"
                return self.suite.answer_value(outcome.answer, unit)
        return "<not found>"


def _tally(agreement: Agreement, r, end: dict, mismatched: list) -> None:
    """A run's rows counted as compared; the run listed when scorer B's digest or count of records is
    not scorer A's."""
    agreement.compared += r.stored_rows
    agreement.sealed += r.sealed
    if end["digest"] != r.digest or end["records"] != r.responses - r.sealed:
        mismatched.append(r)


def _run_bytes(responses: Path) -> bytes:
    return sealing.read_run(responses, ErrorLog(responses.parent)).data


def _loads(line: bytes) -> object:
    """One output line of scorer B. A lone surrogate (a model can put one in a unit it names) is written
    as a \\udXXX escape, which orjson refuses and the json module reads."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return json.loads(line)


def _show(row: tuple | None) -> str:
    if row is None:
        return "<no row>"
    return show_row(row)


class ScorerBProcess:
    """One long-lived scorer B process that scores batches of request lines (see scorer-js/cli.js),
    with the scorer B scripts of the given suites loaded."""

    def __init__(self, suites: Sequence[Suite], node: str | None = None):
        path, self.version = node_version(node)
        self._proc = subprocess.Popen(_command(path, suites), stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def score(self, lines: list[bytes]) -> list[object]:
        """One parsed output per input line, in order."""
        writer = threading.Thread(target=self._write, args=(lines,), daemon=True)
        writer.start()
        assert self._proc.stdout is not None
        outputs = [_loads(self._proc.stdout.readline() or b"null") for _ in lines]
        writer.join()
        return outputs

    def _write(self, lines: list[bytes]) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.write(b"".join(line + b"\n" for line in lines))
        self._proc.stdin.flush()

    def close(self) -> None:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.close()
        self._proc.wait(timeout=60)
        self._proc.stdout.close()

    def __enter__(self) -> ScorerBProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
