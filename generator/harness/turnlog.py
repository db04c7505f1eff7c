"""turns.jsonl: every model call of a tool-calling episode, appended as it happens.

One line per turn `{item, repeat, turn, attempts, response, latency_ms, usage, sent}`, where
`sent` is the messages the harness added to the conversation before this turn's request (turn 0:
the system and user messages; later turns: the assistant message of the previous response, the
tool messages answering its tool calls and any pressure message). Request n is therefore the run's
request (model, tools, sampling) with the messages of `sent` of turns 0..n, in order.

Like responses.jsonl it is append-only: one write per line on an O_APPEND descriptor, a torn last
line moved to `turns.jsonl.torn`, a bad line or a repeated (item, repeat, turn) refused with the
file and line. Episodes whose turns are stored but whose record is not are continued from there.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .store import StoreError, record_line


class TurnLog:
    def __init__(self, run_dir: Path):
        self.path = Path(run_dir) / "turns.jsonl"
        self.torn_path = Path(run_dir) / "turns.jsonl.torn"
        self.turns: dict[tuple[str, int], list[dict]] = {}
        self.torn_bytes = 0
        self._fd: int | None = None

    def open(self) -> None:
        """Read the stored turns (the run's store holds the lock on the run)."""
        self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        data = self.path.read_bytes()
        cut = data.rfind(b"\n") + 1
        for number, line in enumerate(data[:cut].split(b"\n")[:-1], start=1):
            if not line.strip():
                continue
            try:
                turn = json.loads(line)
                key = (turn["item"], turn["repeat"])
                if not isinstance(key[0], str) or type(key[1]) is not int or type(turn["turn"]) is not int:
                    raise TypeError
            except (ValueError, KeyError, TypeError):
                raise StoreError(f"{self.path}:{number}: not a stored turn; fix or remove it before resuming") from None
            stored = self.turns.setdefault(key, [])
            if turn["turn"] != len(stored):
                raise StoreError(f"{self.path}:{number}: turn {turn['turn']} of item {key[0]!r} repeat {key[1]} "
                                 f"out of order (expected turn {len(stored)})")
            stored.append(turn)
        if cut < len(data):
            with open(self.torn_path, "ab") as fh:
                fh.write(data[cut:] + b"\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.ftruncate(self._fd, cut)
            self.torn_bytes = len(data) - cut

    def stored(self, item: str, repeat: int) -> list[dict]:
        return list(self.turns.get((item, repeat), []))

    def append(self, turn: dict, scrub=None) -> None:
        if self._fd is None:
            raise StoreError("the turn log is not open")
        key = (turn["item"], turn["repeat"])
        stored = self.turns.setdefault(key, [])
        if turn["turn"] != len(stored):
            raise StoreError(f"{self.path}: turn {turn['turn']} of item {key[0]!r} repeat {key[1]} is not next")
        line = record_line(turn)
        if scrub is not None:
            line = scrub(line.decode("utf-8")).encode("utf-8")
        view = memoryview(line)
        while view:
            view = view[os.write(self._fd, view):]
        stored.append(turn)

    def close(self) -> None:
        if self._fd is not None:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = None
