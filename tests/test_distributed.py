"""Scoring on a Dask cluster (`--scheduler`): outputs byte-identical to a local run on a LocalCluster
of 2 worker processes, workers unlike the client refused, and Dask never imported without the option."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator.errors import TallyError
from generator.pipeline.outputs import write_outputs
from generator.pipeline.stages import load_and_score
from tests.site_support import build, make_project, missing_node
from tests.test_cache import digests

REPO = Path(__file__).resolve().parents[1]
needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


@needs_node
def test_cluster_outputs_equal_a_local_run(tmp_path, cluster):
    root = make_project(tmp_path / "p")
    local = load_and_score(root, None, 1, True, warn=lambda _w: None)
    write_outputs(tmp_path / "local", local)
    remote = load_and_score(root, None, 1, True, warn=lambda _w: None, scheduler=cluster)
    write_outputs(tmp_path / "remote", remote)
    assert digests(tmp_path / "local") == digests(tmp_path / "remote")
    assert remote[0].agreement == local[0].agreement and remote[0].agreement["status"] == "agree"
    assert remote[0].agreement["compared"] > 0


@needs_node
def test_a_site_scored_on_the_cluster_equals_a_local_one(tmp_path, cluster):
    root = make_project(tmp_path / "p")
    build(root, tmp_path / "local", cache=False)
    build(root, tmp_path / "remote", cache=False, scheduler=cluster)
    assert digests(tmp_path / "local") == digests(tmp_path / "remote")


def test_input_errors_found_on_workers_are_reported(tmp_path, cluster):
    root = make_project(tmp_path / "p")
    path = root / "results" / "mini" / "rules-local" / "responses.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:2] + [b"{not json\n"] + lines[2:]))
    with pytest.raises(TallyError) as info:
        load_and_score(root, None, 1, False, scheduler=cluster)
    assert "rules-local/responses.jsonl:3" in str(info.value) and "not valid JSON" in str(info.value)


def test_workers_unlike_the_client_are_refused(tmp_path, cluster, monkeypatch):
    from generator.pipeline import distributed

    root = make_project(tmp_path / "p")
    monkeypatch.setattr(distributed, "package_version", lambda _name: "0.0.0-not-the-workers")
    with pytest.raises(distributed.ClusterProblem) as info:
        load_and_score(root, None, 1, False, scheduler=cluster)
    text = str(info.value)
    assert "refusing to score on workers unlike this client" in text
    assert text.count("tally 0.1.0 (here: 0.0.0-not-the-workers)") == 2  # both workers named


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from generator.pipeline import distributed
    from generator.pipeline.distributed import ClusterProblem

    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT_S", 2.0)

    root = make_project(tmp_path / "p")
    with pytest.raises(ClusterProblem, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        load_and_score(root, None, 1, False, scheduler="tcp://127.0.0.1:9")


def test_dask_is_not_imported_without_the_option(tmp_path):
    root = make_project(tmp_path / "p")
    code = ("import sys\nfrom click.testing import CliRunner\nfrom generator.cli import main\n"
            f"result = CliRunner().invoke(main, ['rescore', '--root', {str(root)!r}, '-q', '--skip-scorer-b'])\n"
            "print(result.exit_code, sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed'}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert out.stdout.strip().splitlines()[-1] == "0 []", out.stdout + out.stderr


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("address", ["garbage string", "", "foo://127.0.0.1:8786", "tcp://host:abc", "tcp://[::1",
                                     "inproc://x", "ucx://127.0.0.1:9", "tls://127.0.0.1:{port}",
                                     "tcp://127.0.0.1:{port}", "ws://127.0.0.1:{port}", "tcp://a\x1b[31m:{port}"])
def test_every_bad_scheduler_address_is_one_clear_error(address, monkeypatch):
    import time

    pytest.importorskip("distributed")
    from generator.pipeline import distributed

    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT_S", 2.0)
    address = address.format(port=_free_port())
    started = time.monotonic()
    with pytest.raises(distributed.ClusterProblem, match="^cannot reach the Dask scheduler at ") as info:
        distributed.connect(address)
    assert time.monotonic() - started < 15
    assert "\x1b" not in str(info.value)


def test_a_scheduler_that_accepts_and_never_answers_is_an_error_within_the_timeout(monkeypatch):
    import socket
    import threading
    import time

    pytest.importorskip("distributed")
    from generator.pipeline import distributed

    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT_S", 2.0)
    held: list[socket.socket] = []
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.settimeout(0.2)
        stop = threading.Event()

        def accept() -> None:  # accepts every connection and never says a word
            while not stop.is_set():
                try:
                    held.append(listener.accept()[0])
                except OSError:
                    continue

        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        started = time.monotonic()
        try:
            with pytest.raises(distributed.ClusterProblem, match="no answer within 2 s"):
                distributed.connect(f"tcp://127.0.0.1:{listener.getsockname()[1]}")
            elapsed = time.monotonic() - started
        finally:
            stop.set()
            thread.join(10)
            for conn in held:
                conn.close()
    assert held and elapsed < 10  # it was reached, and given up on in about the timeout


def test_a_bad_scheduler_address_on_the_command_line_is_an_error_not_a_traceback(tmp_path):
    pytest.importorskip("distributed")
    from click.testing import CliRunner

    from generator.cli import main

    root = make_project(tmp_path / "p")
    result = CliRunner().invoke(main, ["rescore", "--root", str(root), "-q", "--scheduler", "garbage string"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.output.startswith("error: cannot reach the Dask scheduler at garbage string: missing port number")
    assert "Traceback" not in result.output
