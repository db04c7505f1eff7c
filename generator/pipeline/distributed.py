"""Scoring on a Dask distributed cluster (`--scheduler ADDRESS`): one task per run; and what the later
stages share (`Cluster`, `in_order`) to run theirs there (stats/cluster.py: a stratum per task,
render/cluster_pages.py: a chunk of item pages per task).

The client reads each stored run once and sends its bytes with the task (workers need no access to
results/); the suite's plugin and items travel once per suite, scattered to every worker. A task
scores the run with scorer A and, when the gate is on, with scorer B (a Node.js process on the
worker), and sends back the run's artifact (artifact.py) unsigned, its input errors and scorer B's
digest of the run; the client signs the artifact with the user's cache key (which never leaves the
client, and a worker need not share its file system) and writes it once into the suite's store, and
compares the digests (crosscheck.Gate.accept) exactly as for a local run. At most two tasks per
worker thread are in flight, so the client holds a bounded number of runs.

Before any task, every worker is asked for its Tally version, the hash of its scoring sources
(scorer A, scorer B, every suite's plugin) and its Node.js version; a worker that differs from the
client is refused with an error that names it. This module is imported only with `--scheduler`, so
Dask is never imported otherwise.

Connecting is bounded by CONNECT_TIMEOUT_S (30 s) whatever the address: the scheduler is first asked
who it is over a connection of its own (`_probe`, under a deadline), so an address that is not one
(garbage, an unknown scheme), a port nobody listens on, or a listener that accepts and never speaks
are all one ClusterProblem, never a traceback or a hang.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Iterator
from importlib.metadata import version as package_version
from itertools import chain, islice

import orjson
from distributed import Client, as_completed

from ..errors import ErrorLog, TallyError
from ..inputs.results import Run
from . import artifact
from .cache import code_hash, plugin_folder
from .run_score import RunScore, Store
from .scorer_a import Scoring, score_run


class ClusterProblem(TallyError):
    """The cluster cannot score these runs (unreachable, or workers unlike the client)."""


CONNECT_TIMEOUT_S = 30.0  # read at each connect (tests lower it)


def _shown(address: str) -> str:
    """The address as an error message may show it (printable, bounded)."""
    return address if address.isprintable() and 0 < len(address) <= 200 else repr(address[:200])


async def _probe(address: str, timeout_s: float) -> object:
    """The scheduler's answer to `identity`, over a connection opened (and aborted) here."""
    from distributed.comm import connect as open_comm

    comm = await open_comm(address, timeout=timeout_s)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def connect(address: str, timeout_s: float | None = None) -> Client:
    """A client of the Dask scheduler at `address`, or ClusterProblem within about `timeout_s`
    (CONNECT_TIMEOUT_S by default) saying why not."""
    timeout_s = CONNECT_TIMEOUT_S if timeout_s is None else timeout_s
    where = f"cannot reach the Dask scheduler at {_shown(address)}"
    try:
        answer = asyncio.run(asyncio.wait_for(_probe(address, timeout_s), timeout_s))
    except TimeoutError:
        raise ClusterProblem(f"{where}: no answer within {timeout_s:g} s (is a Dask scheduler listening "
                             "there?)") from None
    except Exception as exc:  # noqa: BLE001 - Dask raises ValueError, TypeError, OSError... for bad addresses
        raise ClusterProblem(f"{where}: {_reason(exc)}") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise ClusterProblem(f"{where}: what answers there is not a Dask scheduler")
    try:
        return Client(address, timeout=f"{timeout_s}s")
    except Exception as exc:  # noqa: BLE001
        raise ClusterProblem(f"{where}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in " ".join(str(exc).split()))[:300]
    return text or type(exc).__name__


def _plugin_hash(plugin) -> str:
    import hashlib

    from .cache import SOURCE_SUFFIXES, _files, hash_files

    h = hashlib.sha256()
    folder = plugin_folder(plugin)
    hash_files(h, "plugin", _files(folder, SOURCE_SUFFIXES), folder)
    hash_files(h, "scorer-b", plugin.scorer_b.scripts)
    return h.hexdigest()


def _pages_hash() -> str:
    """The page sources: the renderer's code and its templates."""
    import hashlib

    from .cache import ROOT, _files, hash_files

    h = hashlib.sha256(code_hash("render").encode())
    hash_files(h, "templates", _files(ROOT / "templates"), ROOT / "templates")
    return h.hexdigest()


def describe(plugins: list, gate: bool) -> dict:
    """What must be equal on the client and on every worker for their verdicts, statistics and pages
    to be the same."""
    import numpy

    from .crosscheck import node_version

    out = {"tally": package_version("tally"), "scoring sources": code_hash("scoring"),
           "statistics sources": code_hash("stats"), "numpy": numpy.__version__, "page sources": _pages_hash(),
           "jinja2": package_version("jinja2"), "suites": {p.name: _plugin_hash(p) for p in plugins}}
    if gate:
        try:
            out["node"] = node_version()[1]
        except TallyError as exc:
            out["node"] = f"unusable: {exc}"
    return out


def check_workers(client: Client, plugins: list, gate: bool) -> None:
    """Refuse (ClusterProblem) when a worker's versions or sources differ from the client's."""
    mine = describe(plugins, gate)
    theirs = client.run(describe, plugins, gate)
    if not theirs:
        raise ClusterProblem("the Dask cluster has no worker")
    problems = []
    for worker, info in sorted(theirs.items()):
        for what in mine:
            if info.get(what) != mine[what]:
                problems.append(f"{worker}: {what} {_short(info.get(what))} (here: {_short(mine[what])})")
    if problems:
        raise ClusterProblem("refusing to score on workers unlike this client (same Tally version, scoring "
                             "sources and Node.js needed):\n  " + "\n  ".join(problems))


class Cluster:
    """The scheduler at `address` for a stage after scoring (statistics, pages): connected, and its
    workers checked against the client (check_workers, without Node.js), on first use only, so a
    stage with nothing to compute never connects. Close it (or use it in a `with`)."""

    def __init__(self, address: str, plugins: list) -> None:
        self.address, self.plugins = address, plugins
        self._client: Client | None = None

    def client(self) -> Client:
        if self._client is None:
            client = connect(self.address)
            try:
                check_workers(client, self.plugins, False)
            except BaseException:
                client.close()
                raise
            self._client = client
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def in_order(client: Client, function, shared, tasks: Iterable, limit: int | None = None) -> Iterator:
    """`function(shared, task)` for each task on the cluster, the results in the tasks' order, with at
    most `limit` tasks (default: two per worker thread) in flight or waiting to be taken."""
    from collections import deque

    limit = limit or 2 * max(sum(client.nthreads().values()), 1)
    pending = iter(tasks)
    window: deque = deque()
    try:
        for task in islice(pending, limit):
            window.append(client.submit(function, shared, task, pure=False))
        while window:
            future = window.popleft()
            result = future.result()
            future.release()
            if (task := next(pending, None)) is not None:
                window.append(client.submit(function, shared, task, pure=False))
            yield result
    finally:
        for future in window:
            future.cancel()


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _task(shared: tuple, run: Run, data: bytes) -> tuple:
    """On a worker: (the run's artifact unsigned, whether a later command may reuse it, input errors,
    warnings, scorer B's end record or None)."""
    plugin, items, item_lines, root, gate = shared
    log = ErrorLog(root)
    scored = score_run(run, data, Scoring(plugin, items, log))
    keep = artifact.reusable(scored, len(log.errors))
    unsigned = artifact.payload(scored, data)
    del scored
    end = _scorer_b(plugin, item_lines, run.id, data) if gate and not log.errors else None
    return unsigned, keep, log.errors, log.warnings, end


class _ScorerB:
    """A scorer B process kept on a worker for one suite and one set of items: defined once, then
    fed run after run (begin_run, the stored lines, end_run), one run at a time."""

    def __init__(self, plugin, item_lines: list[bytes]) -> None:
        import subprocess
        import threading

        from .crosscheck import _command, node_version

        self.lock = threading.Lock()
        self.proc = subprocess.Popen(_command(node_version()[0], [plugin]), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        name = orjson.dumps(plugin.scorer_b.name)
        defines = [b'{"scorer":' + name + b',"define":' + line + b"}\n" for line in item_lines]
        self._write(defines)
        assert self.proc.stdout is not None
        for _ in defines:
            reply = orjson.loads(self.proc.stdout.readline() or b"null")
            if not isinstance(reply, dict) or "defined" not in reply:
                raise RuntimeError(f"scorer B did not accept an item definition: {reply!r:.300}")

    def _write(self, lines) -> None:
        """Write from a thread, so that scorer B's replies never fill the pipe while we write."""
        import threading

        def feed() -> None:
            assert self.proc.stdin is not None
            self.proc.stdin.writelines(lines)
            self.proc.stdin.flush()

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        self._writer = writer

    def run(self, run_id: str, data: bytes) -> object:
        from .crosscheck import _loads, _record_lines

        with self.lock:
            rid = orjson.dumps(run_id)
            self._write([b'{"begin_run":' + rid + b"}\n", *_record_lines(run_id, data), b'{"end_run":' + rid + b"}\n"])
            assert self.proc.stdout is not None
            error = None
            while True:
                line = self.proc.stdout.readline()
                if not line:
                    self._writer.join()
                    return {"error": "scorer B exited", "previous": error}
                reply = _loads(line)
                if isinstance(reply, dict) and "error" in reply and error is None:
                    error = reply
                if isinstance(reply, dict) and reply.get("run") == run_id and "digest" in reply:
                    self._writer.join()
                    return reply if error is None else error


_SCORER_B: dict[tuple[str, str], _ScorerB] = {}  # on a worker: (suite, items' hash) -> its scorer B


def _scorer_b(plugin, item_lines: list[bytes], run_id: str, data: bytes) -> object:
    """Scorer B's end record of the run ({"run", "digest", "records"}), from the worker's process for
    the suite (started on the worker's first run of it)."""
    import hashlib

    key = (plugin.name, hashlib.sha256(b"\n".join(item_lines)).hexdigest())
    process = _SCORER_B.get(key)
    if process is None or process.proc.poll() is not None:
        process = _SCORER_B[key] = _ScorerB(plugin, item_lines)
    return process.run(run_id, data)


def score_runs(client: Client, runs: Iterable[tuple[Run, bytes, str]], s: Scoring, item_lines: list[bytes],
               gate, store: Store) -> Iterator[RunScore]:
    """Score each (run, its stored bytes, its artifact's base name) on the cluster, yielding each run's
    handle as it comes back, its artifact written into `store`; `gate` (crosscheck.Gate or None) hears
    scorer B's record of each run."""
    pending = iter(runs)
    first = list(islice(pending, 1))
    if not first:
        return
    shared = client.scatter((s.suite, s.items, item_lines, s.log.root, gate is not None), broadcast=True)
    limit = 2 * max(sum(client.nthreads().values()), 1)
    task_of: dict = {}  # future -> (run, base name)

    def submit(task: tuple[Run, bytes, str]):
        run, data, base = task
        future = client.submit(_task, shared, run, data, pure=False)
        task_of[future] = (run, base)
        return future

    queue = as_completed([submit(t) for _, t in zip(range(limit), chain(first, pending))])
    del first
    for future in queue:
        unsigned, keep, errors, warnings, end = future.result()
        run, base = task_of.pop(future)
        future.release()
        if (nxt := next(pending, None)) is not None:
            queue.add(submit(nxt))
        s.log.errors.extend(errors)
        s.log.warnings.extend(warnings)
        name, identity = artifact.put(store.folder, base, unsigned, keep)
        del unsigned
        if gate is not None and end is not None:
            gate.accept(run.id, end)
        yield store.open(run, name, identity)
