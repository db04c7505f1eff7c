"""A one-line progress bar on stderr: calls done of the total, failed and retried counts, ETA."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str = "", stream: TextIO | None = None, enabled: bool = True,
                 every_s: float = 0.2, width: int = 24):
        self.total, self.label, self.enabled = total, label, enabled
        self.stream = stream if stream is not None else sys.stderr
        self.every_s, self.width = every_s, width
        self.done = self.failed = self.retried = self.skipped = 0
        self._start = time.monotonic()
        self._shown = time.monotonic()
        self._tty = getattr(self.stream, "isatty", lambda: False)()

    def add_total(self, n: int) -> None:
        self.total += n

    def skip(self, n: int) -> None:
        """`n` calls already stored (resumed): counted as done, not in the rate."""
        self.skipped += n
        self.done += n

    def update(self, failed: bool, retried: bool) -> None:
        self.done += 1
        self.failed += failed
        self.retried += retried
        now = time.monotonic()
        if self.enabled and now - self._shown >= (self.every_s if self._tty else 10.0):
            self._shown = now  # a redrawn line on a terminal, a line every 10 s in a log
            self.stream.write("\r" + self.line() if self._tty else self.line() + "\n")
            self.stream.flush()

    def eta_s(self) -> float | None:
        fresh = self.done - self.skipped
        if fresh <= 0:
            return None
        rate = fresh / max(time.monotonic() - self._start, 1e-9)
        return (self.total - self.done) / rate

    def counts(self) -> str:
        filled = min(self.width, int(self.width * self.done / self.total)) if self.total else self.width
        return (f"{self.label}[{'#' * filled}{'-' * (self.width - filled)}] {self.done}/{self.total} "
                f"done, {self.failed} failed, {self.retried} retried")

    def line(self) -> str:
        eta = self.eta_s()
        eta_text = "--:--" if eta is None else f"{int(eta) // 60:d}:{int(eta) % 60:02d}"
        return f"{self.counts()}, ETA {eta_text}"

    def close(self) -> None:
        if not self.enabled:
            return
        elapsed = time.monotonic() - self._start
        end = "\r" if self._tty else ""
        skipped = f", {self.skipped} already stored" if self.skipped else ""
        self.stream.write(f"{end}{self.counts()}{skipped}, {elapsed:.1f} s\n")
        self.stream.flush()
