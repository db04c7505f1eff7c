"""Shared helpers of the harness tests: a project on disk and a simulation server on a free port.

The project is a copy of the repository's content (suite, items, prompt, anchors) with a test
provider "testprov" serving "clean-1", a simulated model with no faults of its own: faults come
only from what a test injects.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.errors import ErrorLog
from generator.example.profiles import PROFILES, Profile
from generator.example.simmodels import Faults, SimModels
from generator.harness.plan import load_plan
from generator.harness.server import SimServer
from generator.sealing import read_run

ROOT = Path(__file__).resolve().parents[1]
CLEAN = Profile(run_id="clean-1-testprov", model="clean-1", provider="testprov", summary="no faults.",
                started="2026-11-01T00:00:00Z", prices=("1.00", "2.00"), latency_median_ms=5,
                latency_sigma=0.1, ms_per_output_token=0)
TEST_PROVIDERS = """
[providers.testprov]
title = "Test provider"
base_url = "http://127.0.0.1:9/testprov/v1"
hosting = "hosted"
simulation_server = true
concurrency = 8
timeout_s = 5
prices_date = "2026-11-01"

[providers.testprov.models.clean-1]
input_per_mtok = "1.00"
output_per_mtok = "2.00"
simulated = true
served_as = ["clean-1-2026-11-01"]

[providers.keyed]
title = "Provider with a key"
base_url = "http://127.0.0.1:9/testprov/v1"
api_key_env = "TALLY_TEST_API_KEY"
hosting = "hosted"
simulation_server = true
concurrency = 4
timeout_s = 5
prices_date = "2026-11-01"

[providers.keyed.models.clean-1]
input_per_mtok = "1.00"
output_per_mtok = "2.00"
simulated = true
"""


def make_project(base: Path) -> Path:
    top = str(ROOT / "content")  # leave out the site's pages (content/pages), not the items' page images
    shutil.copytree(ROOT / "content", base / "content", ignore=lambda d, names: ["pages"] if d == top else [])
    shutil.copytree(ROOT / "plugins", base / "plugins")  # LongListBench's suite is an outside plugin folder
    (base / "tally.toml").write_text('[suites]\npaths = ["plugins"]\n', encoding="utf-8")
    with (base / "content" / "providers.toml").open("a", encoding="utf-8") as fh:
        fh.write(TEST_PROVIDERS)
    return base


class LiveServer:
    """The simulation server on a free loopback port, on a thread of the test process."""

    def __init__(self, root: Path, faults: Faults = Faults(), scale: float = 1.0, api_key: str | None = None,
                 profiles: list[Profile] | None = None, hang_s: float = 30.0):
        plan = load_plan(root, "extracting", "both")
        self.plan = plan
        models = SimModels(plan.items, plan.suite.reference_date, scale=scale, faults=faults,
                           template=plan.template, profiles=[CLEAN, *PROFILES] if profiles is None else profiles)
        self.server = SimServer(models, hang_s=hang_s, api_key=api_key)

    def __enter__(self) -> "LiveServer":
        self.port = self.server.start_in_thread()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.stop_thread()

    def url(self, provider: str = "testprov") -> str:
        return f"http://127.0.0.1:{self.port}/{provider}/v1"


def records(run_dir: Path) -> list[dict]:
    """The run's records: results/ and, for private items, private storage (as rescore reads them)."""
    data = read_run(run_dir / "responses.jsonl", ErrorLog(run_dir)).data
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


@pytest.fixture
def harness_project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


class ScriptedServer:
    """An HTTP server on a free loopback port whose every POST is answered by `reply(headers, request)`:
    (status, headers, body), the body bytes (sent with its Content-Length unless the headers give one)
    or an iterable of byte chunks (sent chunked). `sent` counts the body bytes written (a client that
    stops reading ends the writing)."""

    def __init__(self, reply):
        import http.server
        import threading

        outer = self
        self.reply, self.sent, self.requests = reply, 0, 0
        self._lock = threading.Lock()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                size = int(self.headers.get("content-length") or 0)
                request = json.loads(self.rfile.read(size) or b"null")
                with outer._lock:
                    outer.requests += 1
                status, headers, body = outer.reply(self.headers, request)
                self.close_connection = True
                try:
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("connection", "close")
                    if isinstance(body, bytes):
                        if "content-length" not in {k.lower() for k in headers}:
                            self.send_header("content-length", str(len(body)))
                        self.end_headers()
                        self._write(body)
                    else:
                        self.send_header("transfer-encoding", "chunked")
                        self.end_headers()
                        for chunk in body:
                            self._write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _write(self, data: bytes) -> None:
                self.wfile.write(data)
                with outer._lock:
                    outer.sent += len(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "ScriptedServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(30)

    def url(self, provider: str = "testprov") -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/{provider}/v1"


def chat_body(model: str = "clean-1", content: str = '{"total": null}', **extra: object) -> dict:
    """A chat-completions body naming `model`, answering `content`."""
    return {"id": "chatcmpl-1", "object": "chat.completion", "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5}, **extra}
