"""`tally provider serve`: a real HTTP/1.1 server on 127.0.0.1 speaking the chat-completions API.

Routes: POST /<provider>/v1/chat/completions (and /v1/chat/completions when the model name is
served by one provider only), GET /<provider>/v1/models, GET /health, GET /stats
(chat-completions requests read so far). Answers come from a `Simulation` (the simulated
models, `SimModels`, or a suite's own `local_simulation`); this module is only the HTTP plumbing
(asyncio streams, keep-alive, Content-Length bodies). `SimServer.start_in_thread()` runs it on its
own event loop in a background thread, for tests and for regenerating the example.
"""

from __future__ import annotations

import asyncio
import json
import threading
from http import HTTPStatus
from typing import Protocol

from .simulation import Reply, error_reply

MAX_HEAD = 64 * 1024
MAX_BODY = 32 * 1024 * 1024


class Simulation(Protocol):
    """What the server answers with: the providers and models it serves, and one reply per request."""

    seen: list  # (provider, model, item, repeat, attempt) of each request answered

    def providers(self) -> dict[str, list[str]]: ...

    def reply(self, provider: str, raw: bytes, repeat: int | None, attempt: int | None) -> Reply: ...


class SimServer:
    def __init__(self, models: Simulation, host: str = "127.0.0.1", port: int = 0, hang_s: float = 600.0,
                 api_key: str | None = None):
        self.models, self.host, self.port, self.hang_s = models, host, port, hang_s
        self.api_key = api_key  # when set, a request without it gets 401 (echoing what it sent)
        self.requests = 0
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._handle, self.host, self.port, limit=MAX_HEAD,
                                                  backlog=1024)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None

    def start_in_thread(self) -> int:
        """Start on a background thread's event loop; return the port."""
        ready = threading.Event()
        loop = self._loop = asyncio.new_event_loop()

        def run() -> None:
            asyncio.set_event_loop(loop)
            loop.run_until_complete(self.start())
            ready.set()
            loop.run_forever()

        self._thread = threading.Thread(target=run, name="tally-sim-server", daemon=True)
        self._thread.start()
        ready.wait(10)
        return self.port

    def stop_thread(self) -> None:
        if self._loop is None or self._thread is None:
            return
        asyncio.run_coroutine_threadsafe(self.stop(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)
        self._loop.close()
        self._loop = self._thread = None

    def __enter__(self) -> "SimServer":
        self.start_in_thread()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_thread()

    # ------------------------------------------------------------ HTTP

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is None:  # asyncio.start_server runs each connection's handler as a task
            raise RuntimeError("a connection handler must run as an asyncio task")
        self._tasks.add(task)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                    return
                method, path, headers = _parse_head(head)
                length = headers.get("content-length", "0")
                if method is None or not length.isdigit() or int(length) > MAX_BODY \
                        or "transfer-encoding" in headers:
                    await _send(writer, error_reply(400, "bad request", "invalid_request_error"), False)
                    return
                body = await reader.readexactly(int(length))
                reply = self._route(method, path, headers, body)
                if reply.delay_s > 0:
                    await asyncio.sleep(reply.delay_s)
                if reply.action == "hang":  # until the client gives up (closes) or hang_s
                    try:
                        await asyncio.wait_for(reader.read(1), self.hang_s)
                    except asyncio.TimeoutError:
                        pass
                    return
                if reply.action == "disconnect":
                    return
                keep = headers.get("connection", "").lower() != "close"
                await _send(writer, reply, keep)
                if not keep:
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            return
        except asyncio.CancelledError:
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    def _route(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Reply:
        path = path.split("?", 1)[0]
        parts = [p for p in path.split("/") if p]
        if parts == ["health"]:
            return Reply("send", 200, b'{"status": "ok"}')
        if parts == ["stats"]:  # chat-completions requests read so far, and the calls they were
            return Reply("send", 200, json.dumps({"requests": self.requests, "seen": self.models.seen}).encode())
        served = self.models.providers()
        provider = None
        if len(parts) == 4 and parts[1:] == ["v1", "chat", "completions"]:
            provider = parts[0]
        elif parts == ["v1", "chat", "completions"]:
            provider = self._only_provider(body, served)
        elif len(parts) == 3 and parts[1:] == ["v1", "models"] and method == "GET":
            if parts[0] not in served:
                return error_reply(404, "unknown provider", "not_found_error")
            data = [{"id": m, "object": "model", "owned_by": parts[0]} for m in served[parts[0]]]
            return Reply("send", 200, json.dumps({"object": "list", "data": data}).encode())
        else:
            return error_reply(404, "not found", "not_found_error")
        self.requests += 1
        if method != "POST":
            return error_reply(405, "use POST", "invalid_request_error")
        if self.api_key is not None and headers.get("authorization") != f"Bearer {self.api_key}":
            sent = headers.get("authorization", "").removeprefix("Bearer ")
            return error_reply(401, f"Incorrect API key provided: {sent}", "authentication_error")
        if provider not in served:
            return error_reply(404, "unknown provider", "not_found_error")
        return self.models.reply(provider, body, _int(headers.get("x-tally-repeat")),
                                 _int(headers.get("x-tally-attempt")))

    @staticmethod
    def _only_provider(body: bytes, served: dict[str, list[str]]) -> str | None:
        try:
            model = json.loads(body).get("model")
        except (ValueError, AttributeError):
            return None
        owners = [p for p, models in served.items() if model in models]
        return owners[0] if len(owners) == 1 else None


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() and len(text) < 6 else None


def _parse_head(head: bytes) -> tuple[str | None, str, dict[str, str]]:
    try:
        lines = head.decode("latin-1").split("\r\n")
        method, path, _version = lines[0].split(" ", 2)
    except ValueError:
        return None, "", {}
    headers = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return method, path, headers


async def _send(writer: asyncio.StreamWriter, reply: Reply, keep: bool) -> None:
    reason = HTTPStatus(reply.status).phrase if reply.status in HTTPStatus._value2member_map_ else "Status"
    lines = [f"HTTP/1.1 {reply.status} {reason}", "content-type: application/json",
             f"content-length: {len(reply.body)}", f"connection: {'keep-alive' if keep else 'close'}"]
    lines += [f"{k}: {v}" for k, v in (reply.headers or {}).items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + reply.body)
    await writer.drain()
