"""Forked processes that die (killed, out of memory, ended by a plugin) never leave a build waiting
(pipeline/forked.py): the page renderers' pool stops the build with a clear error."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from generator.render import build
from generator.render.gather import BuildError

_PARENT: list[int] = []


def _dying_chunk(bounds):
    if os.getpid() not in _PARENT:
        os._exit(9)
    raise AssertionError("rendered here")


def test_a_page_renderer_that_dies_stops_the_build_with_a_clear_error(monkeypatch):
    monkeypatch.setattr(build, "_render_chunk", _dying_chunk)
    writer = SimpleNamespace(cache=None, pages=0, reused=0, used={})
    _PARENT[:] = [os.getpid()]
    try:
        with pytest.raises(BuildError, match="ended before it was done"):
            build.Writer.write_parallel(writer, [object()] * (2 * build.CHUNK), 2)
    finally:
        _PARENT.clear()
    assert build._FORKED is None


def test_a_pool_is_stopped_with_its_processes(tmp_path):
    import time

    from generator.pipeline.forked import fork_pool, stop

    pool = fork_pool(2)
    futures = [pool.submit(time.sleep, 60) for _ in range(3)]
    processes = list(pool._processes.values())
    started = time.monotonic()
    stop(pool)
    assert time.monotonic() - started < 10
    assert processes and not any(p.is_alive() for p in processes)
    assert futures[2].cancelled() or futures[2].done()


def _sigint_handler():
    import signal

    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_the_processes_leave_ctrl_c_to_the_command(monkeypatch):
    """Ctrl-C reaches every process of the terminal's group: the pool's ignore it, the command's own
    process hears it once and ends them."""
    from generator.pipeline.forked import fork_pool, stop

    pool = fork_pool(1)
    try:
        assert pool.submit(_sigint_handler).result(timeout=60) is True
    finally:
        stop(pool)
    assert not _sigint_handler()  # this process still hears it
