"""A plugin's error in the forked process that makes the suites' tables (render/report_tables.py) must
reach the user, as with one process: the build must never wait forever for tables that will not come."""

from __future__ import annotations

import os
import threading
from types import SimpleNamespace

import pytest

from generator.render import report_tables as module
from generator.render.report_tables import Ahead


class PluginError(Exception):
    """An exception a plugin may define: its constructor takes two arguments (pickling it keeps one)."""

    def __init__(self, table: str, why: str) -> None:
        super().__init__(f"table {table}: {why}")


def _take_within(ahead: Ahead, res, seconds: float = 20.0):
    out: dict = {}

    def take() -> None:
        try:
            out["value"] = ahead.take(res)
        except BaseException as exc:  # noqa: BLE001
            out["error"] = exc

    thread = threading.Thread(target=take, daemon=True)
    thread.start()
    thread.join(seconds)
    return thread.is_alive(), out


@pytest.mark.parametrize("failure", ["exception-with-two-arguments", "process-dies"])
def test_a_failing_plugin_is_reported_not_waited_for(monkeypatch, failure):
    """The process does not deliver: the suite's tables are made here when taken, so the plugin's own error
    is raised here (as with one process), or, when the process died, the tables made here are used."""
    parent = os.getpid()

    def tables(res):
        if os.getpid() == parent:
            if failure == "process-dies":
                return ["made here"]
            raise PluginError("list order", "a column is missing")
        if failure == "process-dies":
            os._exit(3)  # as an out-of-memory kill or a plugin calling os._exit would
        raise PluginError("list order", "a column is missing")  # can't be sent back: two arguments

    monkeypatch.setattr(module, "report_tables", tables)
    suite = SimpleNamespace(name="a")
    ahead = Ahead(2)
    try:
        ahead.start([suite])
        hung, out = _take_within(ahead, suite)
    finally:
        ahead.close()
    assert not hung, "the build waits forever for the suite's tables"
    if failure == "process-dies":
        assert out == {"value": ["made here"]}
    else:
        assert isinstance(out.get("error"), PluginError)
        assert "a column is missing" in str(out["error"])


def test_close_ends_a_process_still_making_tables(monkeypatch):
    import time

    def slow(res):
        time.sleep(60)
        return []

    monkeypatch.setattr(module, "report_tables", slow)
    suite = SimpleNamespace(name="a")
    ahead = Ahead(2)
    ahead.start([suite])
    pool = ahead.pool
    assert pool is not None
    processes = list(pool._processes.values())
    started = time.monotonic()
    ahead.close()
    assert time.monotonic() - started < 10
    assert processes and not any(p.is_alive() for p in processes)
