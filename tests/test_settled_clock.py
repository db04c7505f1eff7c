"""Whether a file had settled must be judged at the time its status was taken (before it is read), not
once it has been read: on a file system whose times tick coarsely (1 s, 2 s: FAT, some network file
systems, kernels without fine-grained times), a change made while a slow read was under way, in the tick
of the status taken, leaves the status as it was; the record must then not be trusted.

Simulated here: the file's times are those of one tick (T0); its status is taken 0.5 s after that tick,
the search takes 2.1 s, and a key is written into the file (the same size) during it."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from generator.commit import CommitError, publish, sealed_memo
from generator.pipeline import file_status
from generator.pipeline.cache import Cache

KEY = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
T0 = 1_800_000_000 * 10**9


def test_a_key_written_during_a_slow_search_in_the_same_tick_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "results" / "suite" / "run" / "responses.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"x" * 200)
    clock = {"now": T0 + 500_000_000}  # the status is taken half a second into the tick of the last change

    def coarse_stat(p, *args, **kw):  # the file system's times: the tick, whatever was written in it
        st = os.stat(p, *args, **kw)
        return SimpleNamespace(st_size=st.st_size, st_mtime_ns=T0, st_ctime_ns=T0, st_ino=st.st_ino, st_dev=st.st_dev)

    monkeypatch.setattr(file_status, "os", SimpleNamespace(stat=coarse_stat))
    monkeypatch.setattr(file_status, "_TAKEN", {})
    monkeypatch.setattr(file_status.time, "time_ns", lambda: clock["now"])
    real = publish.holds_private_key

    def slow_search(p):
        found = real(p)  # the file searched (clean)...
        path.write_bytes(KEY + b"x" * (200 - len(KEY)))  # ...while a key is written into it, in the same tick
        clock["now"] += 2_100_000_000  # the search took 2.1 s
        return found

    monkeypatch.setattr(publish, "holds_private_key", slow_search)
    cache = Cache(tmp_path / "cache")
    with sealed_memo.remembered(cache):
        publish.refuse_private_keys(tmp_path)  # clean when read
    monkeypatch.setattr(publish, "holds_private_key", real)
    with sealed_memo.remembered(cache), pytest.raises(CommitError, match="holds a private key"):
        publish.refuse_private_keys(tmp_path)
