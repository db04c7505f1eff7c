"""A run on disk: run.json and an append-only responses.jsonl that survives being killed.

- `open()` writes run.json (without `finished`) before the first call, or checks that an existing
  run.json was made with the same settings, then reads the stored records: the (item, repeat)
  keys it returns are skipped by the runner, so rerunning the same command resumes.
- A torn last line (a record cut off by a kill: bytes after the last newline) is moved to
  `responses.jsonl.torn` (appended, never dropped) and cut from the file. A bad line anywhere
  else, or a second record for one (item, repeat), stops the run: it is never repaired silently.
- `append()` writes one record as one line with a single write on an O_APPEND descriptor, so a
  kill loses at most the calls in flight; it refuses a key that is already stored. A record whose
  line would be longer than MAX_RECORD_BYTES (which `tally rescore` refuses) is stored without its
  response, its last attempt an error ("response too large"), so the run goes on and stays scorable.
- An exclusive lock on responses.jsonl keeps a second `tally run` off the same run.
- `finish()` writes `finished` into run.json. run.json is always replaced atomically.
- With `private_path`, the records of `private_items` go to that file instead (private storage,
  mode 0600, outside the repository; see generator/sealing.py), with the same guarantees; the keys
  of both files count as stored (a sealed record in responses.jsonl too).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from pathlib import Path

from ..inputs.jsonl import jsonl_lines
from ..inputs.results import MAX_RECORD_BYTES
from ..inputs.stored_files import RESPONSES_GZ

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]

# run.json keys that must match when a stored run is resumed
SAME_ON_RESUME = ("format", "suite", "suite_version", "run_id", "model", "provider", "hosting",
                  "simulated", "prompt_sha256", "sampling", "half", "input")
FSYNC_EVERY_S = 2.0


class StoreError(RuntimeError):
    """The stored run can't be resumed safely; the message names the file and line."""


def utc_now() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def record_line(record: dict) -> bytes:
    """One record as one JSONL line (sorted keys, compact, UTF-8)."""
    text = json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      allow_nan=False)
    return text.encode("utf-8") + b"\n"


def without_response(record: dict, size: int, limit: int) -> dict:
    """`record` with its response dropped because its line was `size` bytes (over `limit`)."""
    attempts = [dict(a) for a in record.get("attempts") or [{"start": None, "status": None, "latency_ms": None}]]
    attempts[-1]["error"] = (f"response too large: its record would be {size:,} bytes, more than the "
                             f"{limit:,} a stored record may hold (not stored)")
    attempts[-1].pop("body", None)
    return {**record, "attempts": attempts, "response": None, "usage": None}


def write_json_atomic(path: Path, data: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


class RunStore:
    def __init__(self, run_dir: Path, private_path: Path | None = None, private_items: frozenset[str] = frozenset()):
        self.dir = Path(run_dir)
        self.private_path = private_path
        self.private_items = private_items
        self._private_fd: int | None = None
        self.meta_path = self.dir / "run.json"
        self.path = self.dir / "responses.jsonl"
        self.torn_path = self.dir / "responses.jsonl.torn"
        self.meta: dict = {}
        self.done: set[tuple[str, int]] = set()
        self.torn_bytes = 0
        self._fd: int | None = None
        self._last_sync = time.monotonic()

    # ------------------------------------------------------------ opening and resuming

    def open(self, meta: dict) -> set[tuple[str, int]]:
        """Create or resume the run; return the (item, repeat) keys already stored."""
        if (self.dir / RESPONSES_GZ).exists():
            raise StoreError(f"{self.dir / RESPONSES_GZ}: the run's records are stored compressed, so it is not "
                             f"appended to; to add to it, decompress it first (gunzip {RESPONSES_GZ})")
        self.dir.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                self.close()
                raise StoreError(f"{self.path}: another process is writing this run") from None
        try:
            if self.meta_path.exists():
                self.meta = self._check_resume(meta)
            else:
                self.meta = {k: v for k, v in meta.items() if k != "finished"}
            self.meta.pop("finished", None)
            self.done = self._read_keys(self.path)  # every complete line, before anything is changed
            if self.private_path is not None:
                self._private_fd = open_private(self.private_path)
                self.done |= self._read_keys(self.private_path)
        except StoreError:
            self.close()
            raise
        self._repair_torn_tail(self.path, self._fd, self.torn_path)
        if self.private_path is not None and self._private_fd is not None:
            self._repair_torn_tail(self.private_path, self._private_fd,
                                   self.private_path.with_name(self.private_path.name + ".torn"))
        write_json_atomic(self.meta_path, self.meta)
        return set(self.done)

    def _check_resume(self, meta: dict) -> dict:
        try:
            old = json.loads(self.meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"{self.meta_path}: unreadable, can't resume: {exc}") from None
        if not isinstance(old, dict):
            raise StoreError(f"{self.meta_path}: not a JSON object, can't resume")
        differ = [k for k in SAME_ON_RESUME if old.get(k) != meta.get(k)]
        if differ:
            raise StoreError(f"{self.meta_path}: a stored run with other settings ({', '.join(differ)} "
                             "differ); use another run id or remove the folder")
        return {**meta, "started": old.get("started", meta.get("started"))}

    def _repair_torn_tail(self, path: Path, fd: int, torn_path: Path) -> None:
        data = path.read_bytes()
        if not data or data.endswith(b"\n"):
            return
        cut = data.rfind(b"\n") + 1
        torn = data[cut:]
        with open(torn_path, "ab") as fh:  # kept aside, one torn tail per line
            fh.write(torn + b"\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.ftruncate(fd, cut)
        os.fsync(fd)
        self.torn_bytes += len(torn)

    def _read_keys(self, path: Path) -> set[tuple[str, int]]:
        keys: dict[tuple[str, int], int] = {}
        data = path.read_bytes()
        complete = data[: data.rfind(b"\n") + 1]  # a torn tail is not a record
        if complete:
            for number, _line, record, error in jsonl_lines(complete):
                try:
                    if error is not None:
                        raise ValueError(error)
                    key = (record["item"], record["repeat"])
                    if not isinstance(key[0], str) or type(key[1]) is not int:
                        raise TypeError
                except (ValueError, KeyError, TypeError):
                    raise StoreError(f"{path}:{number}: not a stored response record; "
                                     "fix or remove it before resuming") from None
                if key in keys:
                    raise StoreError(f"{path}:{number}: second record for item {key[0]!r} "
                                     f"repeat {key[1]} (first at line {keys[key]})")
                keys[key] = number
        return set(keys)

    # ------------------------------------------------------------ writing

    def append(self, record: dict) -> bool:
        """Store one record; True when it was too large and was stored without its response."""
        key = (record["item"], record["repeat"])
        if self._fd is None:
            raise StoreError("the store is not open")
        if key in self.done:
            raise StoreError(f"{self.path}: item {key[0]!r} repeat {key[1]} is already stored")
        line = record_line(record)
        cut = len(line) - 1 > MAX_RECORD_BYTES  # the newline is not part of the record
        if cut:
            line = record_line(without_response(record, len(line) - 1, MAX_RECORD_BYTES))
            if len(line) - 1 > MAX_RECORD_BYTES:
                raise StoreError(f"{self.path}: the record of item {key[0]!r} repeat {key[1]} is larger than "
                                 f"the {MAX_RECORD_BYTES:,} bytes a stored record may hold even without its "
                                 "response")
        fd = self._private_fd if self._private_fd is not None and key[0] in self.private_items else self._fd
        view = memoryview(line)
        while view:  # one write unless the disk is full or a signal interrupts it
            view = view[os.write(fd, view):]
        self.done.add(key)
        if time.monotonic() - self._last_sync > FSYNC_EVERY_S:
            self._sync()
            self._last_sync = time.monotonic()
        return cut

    def _sync(self) -> None:
        for fd in (self._fd, self._private_fd):
            if fd is not None:
                os.fsync(fd)

    def finish(self, finished: str | None = None, **extra: object) -> dict:
        """Sync and write run.json with `finished`: now, or when an imported run's harness says it ended."""
        self._sync()
        self.meta = {**self.meta, **extra, "finished": finished or utc_now()}
        write_json_atomic(self.meta_path, self.meta)
        return self.meta

    def close(self) -> None:
        if self._private_fd is not None:
            os.close(self._private_fd)
            self._private_fd = None
        if self._fd is not None:
            os.close(self._fd)  # releases the lock
            self._fd = None


def open_private(path: Path) -> int:
    """The private file for appending: owner-only folders and file (0700, 0600), whatever the umask."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    os.fchmod(fd, 0o600)
    return fd
