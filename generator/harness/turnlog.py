"""turns.jsonl: every model call of a tool-calling episode, appended as it happens.

One line per turn `{item, repeat, turn, attempts, response, latency_ms, usage, sent}`, where
`sent` is the messages the harness added to the conversation before this turn's request (turn 0:
the system and user messages; later turns: the assistant message of the previous response, the
tool messages answering its tool calls and any pressure message). Request n is therefore the run's
request (model, tools, sampling) with the messages of `sent` of turns 0..n, in order.

Like responses.jsonl it is append-only: one write per line on an O_APPEND descriptor, a torn last
line moved to `turns.jsonl.torn`, a bad line or a repeated (item, repeat, turn) refused with the
file and line. Episodes whose turns are stored but whose record is not are continued from there.

With a private folder (private storage, see generator/sealing.py), the turns of `private_items` go to
`turns.jsonl` there instead (mode 0600), with the same guarantees: a private item's conversation
is never written into results/.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..inputs.jsonl import jsonl_lines
from .store import StoreError, open_private, record_line


class TurnLog:
    def __init__(self, run_dir: Path, private_dir: Path | None = None, private_items: frozenset[str] = frozenset()):
        self.path = Path(run_dir) / "turns.jsonl"
        self.private_path = Path(private_dir) / "turns.jsonl" if private_dir is not None else None
        self.private_items = private_items
        self.turns: dict[tuple[str, int], list[dict]] = {}
        self.torn_bytes = 0
        self._fds: dict[Path, int] = {}

    def _file_of(self, item: str) -> Path:
        return self.private_path if self.private_path is not None and item in self.private_items else self.path

    def open(self) -> None:
        """Read the stored turns (the run's store holds the lock on the run)."""
        for path in (self.path, self.private_path):
            if path is not None:
                self._fds[path] = self._open_one(path)

    def _open_one(self, path: Path) -> int:
        if path == self.private_path:
            fd = open_private(path)
        else:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        data = path.read_bytes()
        cut = data.rfind(b"\n") + 1
        for number, _line, turn, error in jsonl_lines(data[:cut]):
            try:
                if error is not None:
                    raise ValueError(error)
                key = (turn["item"], turn["repeat"])
                if not isinstance(key[0], str) or type(key[1]) is not int or type(turn["turn"]) is not int:
                    raise TypeError
            except (ValueError, KeyError, TypeError):
                os.close(fd)
                raise StoreError(f"{path}:{number}: not a stored turn; fix or remove it before resuming") from None
            stored = self.turns.setdefault(key, [])
            if turn["turn"] != len(stored):
                os.close(fd)
                raise StoreError(f"{path}:{number}: turn {turn['turn']} of item {key[0]!r} repeat {key[1]} "
                                 f"out of order (expected turn {len(stored)})")
            stored.append(turn)
        if cut < len(data):
            with open(path.with_name(path.name + ".torn"), "ab") as fh:
                fh.write(data[cut:] + b"\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.ftruncate(fd, cut)
            self.torn_bytes += len(data) - cut
        return fd

    def stored(self, item: str, repeat: int) -> list[dict]:
        return list(self.turns.get((item, repeat), []))

    def append(self, turn: dict) -> None:
        fd = self._fds.get(self._file_of(turn["item"]))
        if fd is None:
            raise StoreError("the turn log is not open")
        key = (turn["item"], turn["repeat"])
        stored = self.turns.setdefault(key, [])
        if turn["turn"] != len(stored):
            raise StoreError(f"{self._file_of(key[0])}: turn {turn['turn']} of item {key[0]!r} repeat {key[1]} "
                             "is not next")
        line = record_line(turn)
        view = memoryview(line)
        while view:
            view = view[os.write(fd, view):]
        stored.append(turn)

    def close(self) -> None:
        for fd in self._fds.values():
            os.fsync(fd)
            os.close(fd)
        self._fds = {}
