"""The agreement gate: scorer B (JavaScript, run by Node) rescores every stored response, and its
verdicts are compared with scorer A's key by key: (run, item, repeat, unit) -> verdict, points, order.

Items are sent once; stored response lines are sent verbatim, so scorer B reads the same bytes.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path

import orjson

SCORER_B = Path(__file__).resolve().parents[1] / "scorer-js" / "cli.js"  # loads scorer-js/core.js itself
# Scorer B of each suite scorer (suite.toml's `scorer`): the suite's script, which cli.js loads after
# the core, and the name it registers there.
_SUITES = Path(__file__).resolve().parent / "suites"
SCORER_B_SUITES = {"extracting": (_SUITES / "extracting" / "scorer.js", "extracting"),
                   "aubas": (_SUITES / "aubas" / "scorer.js", "au-bas")}
NODE_MIN_MAJOR = 18
MAX_LISTED = 1000  # differences listed in the report; all are counted


def scorer_b_args(*scorers: str) -> list[str]:
    """cli.js and the scripts of these suite scorers (all when none is named), for `node`."""
    return [str(SCORER_B)] + [str(SCORER_B_SUITES[s][0]) for s in (scorers or SCORER_B_SUITES)]


class ScorerBUnavailable(RuntimeError):
    """Node.js is missing or too old, or scorer B is not where it should be."""


@dataclass(frozen=True)
class Difference:
    run: str
    item: str
    repeat: int
    unit: str
    scorer_a: str
    scorer_b: str
    value: str  # the model's value for the unit, as JSON text ("<absent>" when the key is absent)


@dataclass
class Agreement:
    suite: str
    status: str = "agree"  # agree | disagree | not run
    compared: int = 0
    differing: int = 0
    differences: list[Difference] = field(default_factory=list)
    scorer_b: str = "scorer-js/cli.js"
    node: str = ""

    def to_json(self) -> dict:
        return {**asdict(self), "differences": [asdict(d) for d in self.differences]}


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


def _record_lines(run_result):
    prefix = b'{"run":"' + run_result.run.id.encode() + b'","record":'
    for line in run_result.run.responses.read_bytes().split(b"\n"):
        if line.strip():
            yield prefix + line + b"}\n"


def _feed(proc: subprocess.Popen, suite_result, runs, digest: bool) -> None:
    try:
        stdin = proc.stdin
        scorer = SCORER_B_SUITES[suite_result.suite.scorer][1].encode()
        for item in suite_result.items:
            stdin.write(b'{"scorer":"' + scorer + b'","define":' + item.line + b"}\n")
        for r in runs:
            if digest:
                stdin.write(b'{"begin_run":"' + r.run.id.encode() + b'"}\n')
            stdin.writelines(_record_lines(r))
            if digest:
                stdin.write(b'{"end_run":"' + r.run.id.encode() + b'"}\n')
        stdin.close()
    except BrokenPipeError:
        pass


class _ScorerB:
    """Scorer B over some runs of a suite, as a context manager yielding its output lines."""

    def __init__(self, path: str, suite_result, runs, digest: bool):
        self.proc = subprocess.Popen([path, *scorer_b_args(suite_result.suite.scorer)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.stderr: list[bytes] = []
        self.threads = [threading.Thread(target=lambda: self.stderr.append(self.proc.stderr.read()), daemon=True),
                        threading.Thread(target=_feed, args=(self.proc, suite_result, runs, digest), daemon=True)]
        for t in self.threads:
            t.start()
        for _ in suite_result.items:
            if b'"defined"' not in self.proc.stdout.readline():
                self.close()
                raise ScorerBUnavailable("scorer B did not accept an item definition: " + self.error_text())

    def line(self) -> object:
        return orjson.loads(self.proc.stdout.readline() or b"null")

    def error_text(self) -> str:
        return b"".join(self.stderr).decode("utf-8", "replace")[:500]

    def close(self) -> int:
        self.proc.stdout.close()
        for t in self.threads:
            t.join()
        return self.proc.wait()


def _a_rows(run_result) -> dict[tuple[str, int], list[tuple]]:
    rows: dict[tuple[str, int], list[tuple]] = {}
    for r in csv.reader(io.StringIO(run_result.verdict_csv)):
        rows.setdefault((r[1], int(r[2])), []).append((r[3], r[5], int(r[6]), r[8]))
    return rows


def _value(run_result, item: str, repeat: int, unit: str) -> str:
    from .parse.response import read_outcome

    for line in run_result.run.responses.read_bytes().split(b"\n"):
        if line.strip():
            record = orjson.loads(line)
            if record.get("item") == item and record.get("repeat") == repeat:
                outcome = read_outcome(record)
                if outcome.answer is None:
                    return f"<{outcome.status}>"
                value = outcome.answer.get(unit, "<absent>")
                return value if value == "<absent>" else str(value)[:200]
    return "<not found>"


def crosscheck(suite_result, node: str | None = None, on_record=None) -> Agreement:
    """Run scorer B over every stored response of the suite and compare with scorer A.

    First every run is compared by digest (scorer B folds its rows into a SHA-256 that scorer A
    computed the same way while scoring); only runs whose digests differ are rescored row by row
    to name each difference.
    """
    path, version = node_version(node)
    agreement = Agreement(suite_result.suite.name, node=version)
    b = _ScorerB(path, suite_result, suite_result.runs, digest=True)
    mismatched = []
    try:
        for r in suite_result.runs:
            begun, end = b.line(), b.line()
            if not isinstance(begun, dict) or not isinstance(end, dict) or end.get("run") != r.run.id:
                raise ScorerBUnavailable(f"scorer B failed on run {r.run.id}: {end!r:.300} {b.error_text()}")
            agreement.compared += r.stored_rows
            if end["digest"] != r.verdict_digest or end["records"] != r.responses:
                mismatched.append(r)
            if on_record is not None:
                on_record(r.responses)
    finally:
        code = b.close()
    if code != 0:
        raise ScorerBUnavailable(f"scorer B exited with status {code}: {b.error_text()}")
    if mismatched:
        _detail(agreement, path, suite_result, mismatched)
    agreement.status = "agree" if agreement.differing == 0 else "disagree"
    return agreement


def _detail(agreement: Agreement, path: str, suite_result, runs) -> None:
    b = _ScorerB(path, suite_result, runs, digest=False)
    try:
        for r in runs:
            expected = _a_rows(r)
            for _ in range(r.responses):
                rows_b = b.line()
                if not isinstance(rows_b, list) or not rows_b:
                    raise ScorerBUnavailable(f"scorer B failed on a response of run {r.run.id}: {rows_b!r:.300}")
                key = (rows_b[0]["item"], rows_b[0]["repeat"])
                got = [(x["unit"], x["verdict"], x["points"], x["order"]) for x in rows_b]
                _compare(agreement, r, key, expected.get(key, []), got)
    finally:
        b.close()


def _compare(agreement: Agreement, run_result, key: tuple[str, int], rows_a: list, rows_b: list) -> None:
    for k in range(max(len(rows_a), len(rows_b))):
        a = rows_a[k] if k < len(rows_a) else None
        b = rows_b[k] if k < len(rows_b) else None
        if a == b:
            continue
        agreement.differing += 1
        if len(agreement.differences) < MAX_LISTED:
            unit = (a or b)[0]
            show = lambda row: "<no row>" if row is None else f"{row[1]} ({row[2]} points{', order ' + row[3] if row[3] else ''})"  # noqa: E731
            agreement.differences.append(Difference(run_result.run.id, key[0], key[1], unit, show(a), show(b),
                                                    _value(run_result, key[0], key[1], unit)))


class ScorerBProcess:
    """One long-lived scorer B process that scores batches of request lines (see scorer-js/cli.js), with
    every suite's script loaded: each line names its suite's registered scorer."""

    def __init__(self, node: str | None = None):
        path, self.version = node_version(node)
        self._proc = subprocess.Popen([path, *scorer_b_args()], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def score(self, lines: list[bytes]) -> list[object]:
        """One parsed output per input line, in order."""
        writer = threading.Thread(target=self._write, args=(lines,), daemon=True)
        writer.start()
        outputs = [orjson.loads(self._proc.stdout.readline() or b"null") for _ in lines]
        writer.join()
        return outputs

    def _write(self, lines: list[bytes]) -> None:
        self._proc.stdin.write(b"".join(line + b"\n" for line in lines))
        self._proc.stdin.flush()

    def close(self) -> None:
        self._proc.stdin.close()
        self._proc.wait(timeout=60)
        self._proc.stdout.close()

    def __enter__(self) -> "ScorerBProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
