"""The suites' own tables made by a forked process beside the statistics (generator/render/report_tables.py):
the same tables, taken in any order, a plugin's error raised when its suite's tables are taken."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from generator.render import report_tables as module
from generator.render.report_tables import Ahead
from generator.suite.report import InterfaceChange


@pytest.fixture
def made(monkeypatch):
    def tables(res):
        if res.name == "broken":
            raise InterfaceChange(f"suite plugin {res.name!r}: write r.calls()")
        return [res.name, os.getpid()]

    monkeypatch.setattr(module, "report_tables", tables)


def test_tables_come_from_a_forked_process_in_any_order(made):
    suites = [SimpleNamespace(name="a"), SimpleNamespace(name="b")]
    ahead = Ahead(2)
    try:
        ahead.start(suites)
        b, a = ahead.take(suites[1]), ahead.take(suites[0])
    finally:
        ahead.close()
    assert [a[0], b[0]] == ["a", "b"]
    assert a[1] == b[1] != os.getpid()  # made by the one process forked after scoring


def test_a_plugin_error_is_raised_when_its_tables_are_taken(made):
    suites = [SimpleNamespace(name="broken")]
    ahead = Ahead(2)
    try:
        ahead.start(suites)
        with pytest.raises(InterfaceChange, match="suite plugin 'broken': write r.calls()"):
            ahead.take(suites[0])
    finally:
        ahead.close()


def test_with_one_process_the_tables_are_made_when_taken(made):
    suite = SimpleNamespace(name="a")
    ahead = Ahead(1)
    ahead.start([suite])
    assert ahead.pool is None and ahead.take(suite) == ["a", os.getpid()]
    ahead.close()
