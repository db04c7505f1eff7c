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
    def tables(res):
        if failure == "process-dies":
            os._exit(3)  # as an out-of-memory kill or a plugin calling os._exit would
        raise PluginError("list order", "a column is missing")

    monkeypatch.setattr(module, "report_tables", tables)
    suite = SimpleNamespace(name="a")
    ahead = Ahead(2)
    try:
        ahead.start([suite])
        hung, out = _take_within(ahead, suite)
    finally:
        ahead.close()
    assert not hung, "the build waits forever for the suite's tables"
    assert "error" in out
