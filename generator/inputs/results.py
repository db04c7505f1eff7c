"""Stored runs: results/<suite>/<run-id>/run.json and responses.jsonl (or responses.jsonl.gz, read through
stored_files), validated line by line."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Container
from dataclasses import dataclass
from pathlib import Path

import orjson

from ..errors import ErrorLog
from .ids import id_problem
from .iso_date import is_iso_date
from .money import read_price
from .page_images import STORED_INPUT_KINDS
from .stored_files import both_problem, read_stored, responses_file

HOSTING = ("hosted", "self-hosted")
RUN_HALVES = ("public", "private", "both")
_REQUIRED = {"format": int, "suite": str, "run_id": str, "model": str, "provider": str, "hosting": str,
             "simulated": bool, "started": str}


@dataclass(frozen=True)
class Run:
    id: str
    suite: str
    model: str
    provider: str
    hosting: str
    simulated: bool
    half: str
    meta: dict
    responses: Path
    input: str = "text"  # what the model was given: text | image | text+image | pdf (absent in run.json: text)


MAX_LATENCY_MS = 86_400_000  # a day: a stored latency above it is an error, not a measurement
MAX_RECORD_BYTES = 32 * 1024 * 1024  # one stored record (its request and response) at most


def list_run_dirs(results_root: Path, suite: str) -> list[Path]:
    """The run folders of a suite (symbolic links included, so that loading refuses them by name)."""
    base = results_root / suite
    if not base.is_dir():
        return []
    return sorted(p for p in base.iterdir() if p.is_dir() or p.is_symlink())


EARLIEST = dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)  # no run of a language model is older
SKEW = dt.timedelta(days=1)  # a clock that is a little ahead is not a lie


def _timestamp(value: object) -> dt.datetime | None:
    """The time `value` writes (UTC when it gives no offset), or None when it is no time."""
    if not isinstance(value, str):
        return None
    try:
        when = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.timezone.utc)


def _times_problems(meta: dict) -> list[str]:
    """`started` and `finished`: times, none before 2000 or after now (plus a day), finished not first."""
    problems, times = [], {}
    now = dt.datetime.now(dt.timezone.utc)
    for key in ("started", "finished"):
        if key not in meta:
            continue
        when = _timestamp(meta[key])
        if when is None:
            problems.append(f"{key} must be a date and time like 2026-11-01T09:00:00Z, got {str(meta[key])[:60]!r}")
        elif not EARLIEST <= when <= now + SKEW:
            problems.append(f"{key} {meta[key][:60]!r} is {'in the future' if when > now else 'before 2000'}: "
                            "a run's times are when it ran")
        else:
            times[key] = when
    if len(times) == 2 and times["finished"] < times["started"]:
        problems.append(f"finished {meta['finished']!r} is before started {meta['started']!r}")
    return problems


_CURRENCY = re.compile(r"[A-Z]{3}")


def _prices_problems(prices: object) -> list[str]:
    if prices is None:
        return []
    if not isinstance(prices, dict):
        return ["prices must be an object"]
    problems = []
    for key in ("input_per_mtok", "output_per_mtok"):
        if key in prices and read_price(prices[key]) is None:
            problems.append(f"prices.{key} must be a decimal string like \"0.40\" (per million tokens), "
                            f"got {prices[key]!r}")
    date = prices.get("date")
    if date is not None and not is_iso_date(date):
        problems.append(f"prices.date must be the date of the list prices, YYYY-MM-DD, got {str(date)[:60]!r}")
    currency = prices.get("currency")
    if currency is not None and not (isinstance(currency, str) and _CURRENCY.fullmatch(currency)):
        problems.append(f"prices.currency must be a currency code of three capitals (USD), got {str(currency)[:60]!r}")
    return problems


def load_run(run_dir: Path, suite_name: str, log: ErrorLog) -> Run | None:
    meta_path = run_dir / "run.json"
    if (p := id_problem(run_dir.name, "run folder")) is not None:
        log.add(run_dir, None, p)
        return None
    if (problem := both_problem(run_dir)) is not None:
        log.add(run_dir, None, problem)
        return None
    responses = responses_file(run_dir)
    for path in (run_dir, meta_path, responses):
        if path.is_symlink():
            log.add(path, None, "is a symbolic link: stored runs are read from real files in results/ only")
            return None
    if not meta_path.is_file():
        log.add(meta_path, None, "run without metadata: run.json is missing")
        return None
    try:
        meta = orjson.loads(meta_path.read_bytes())
    except orjson.JSONDecodeError as exc:
        log.add(meta_path, None, f"not valid JSON: {exc}")
        return None
    if not isinstance(meta, dict):
        log.add(meta_path, None, "run.json must hold a JSON object")
        return None
    problems = [f"{k} is required and must be a {t.__name__}"
                for k, t in _REQUIRED.items() if type(meta.get(k)) is not t]
    ok = {k for k, t in _REQUIRED.items() if type(meta.get(k)) is t}
    if "format" in ok and meta["format"] != 1:
        problems.append(f"unknown format {meta['format']}; this version reads format 1")
    if "suite" in ok and meta["suite"] != suite_name:
        problems.append(f"suite {meta['suite']!r} does not match the folder's suite {suite_name!r}")
    if "run_id" in ok and meta["run_id"] != run_dir.name:
        problems.append(f"run_id {meta['run_id']!r} differs from its folder name {run_dir.name!r}")
    if "hosting" in ok and meta["hosting"] not in HOSTING:
        problems.append(f"hosting must be one of {', '.join(HOSTING)}")
    if meta.get("half", "both") not in RUN_HALVES:
        problems.append(f"half must be one of {', '.join(RUN_HALVES)}")
    if meta.get("input", "text") not in STORED_INPUT_KINDS:
        problems.append(f"input must be one of {', '.join(STORED_INPUT_KINDS)}")
    for key in ("model", "provider"):
        if key in ok and (not meta[key].strip() or len(meta[key]) > 200):
            problems.append(f"{key} must be a non-blank string of at most 200 characters")
    problems += _times_problems(meta)
    if "round" in meta and (p := id_problem(meta["round"], "round")) is not None:
        problems.append(p)
    problems += _prices_problems(meta.get("prices"))
    if not responses.is_file():
        problems.append("responses.jsonl (or responses.jsonl.gz) is missing")
    for p in problems:
        log.add(meta_path, None, p)
    if problems:
        return None
    return Run(meta["run_id"], suite_name, meta["model"], meta["provider"], meta["hosting"], meta["simulated"],
               meta.get("half", "both"), meta, responses, meta.get("input", "text"))


def _record_problem(record: object, known: Container[str] = ()) -> str | None:
    """Why a stored record is malformed, or None; `known` item ids (already checked) skip the id check."""
    if not isinstance(record, dict):
        return "a response record must be a JSON object"
    item = record.get("item")
    if not (item.__class__ is str and item in known) and (p := id_problem(item, "item")) is not None:
        return p
    repeat = record.get("repeat")
    if type(repeat) is not int or not 0 <= repeat < 1000:
        return "repeat must be an integer from 0 to 999"
    attempts = record.get("attempts")
    if not isinstance(attempts, list) or not attempts:
        return "attempts must be a non-empty array of objects"
    for a in attempts:
        if not isinstance(a, dict):
            return "attempts must be a non-empty array of objects"
    latency = record.get("latency_ms")
    if latency is not None and (isinstance(latency, bool) or not isinstance(latency, (int, float))
                                or not 0 <= latency <= MAX_LATENCY_MS):
        return f"latency_ms must be a number of milliseconds from 0 to {MAX_LATENCY_MS:,} or null"
    for k, a in enumerate(attempts):
        status = a.get("status")
        if status is not None and (isinstance(status, bool) or not isinstance(status, (int, float))
                                   or status != int(status) or not 100 <= status <= 599):
            return f"attempts[{k}].status must be an HTTP status (a whole number from 100 to 599) or null"
    usage = record.get("usage")
    if usage is not None and not isinstance(usage, dict):
        return "usage must be an object or null"
    for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
        value = (usage or {}).get(key)
        if value is not None and (type(value) is not int or value < 0):
            return f"usage.{key} must be a non-negative integer, got {value!r}"
    return None


def iter_records(run: Run, item_half: dict[str, str], log: ErrorLog, data: bytes | None = None):
    """Yield (line number, record, start, length) for each valid line of the run's stored bytes (read
    from its file when not given); log every bad line and every duplicate."""
    seen: dict[tuple[str, int], int] = {}
    if data is None:
        data = read_stored(run.responses)
    if not data or data.isspace():
        log.warn(run.responses, None, "holds no response: every item of the run counts as a failed call")
    if data and not data.endswith(b"\n"):
        log.add(run.responses, data.count(b"\n") + 1, "last line has no newline: the file looks truncated")
    start = 0
    for number, line in enumerate(data.split(b"\n"), start=1):
        here, start = start, start + len(line) + 1
        if not line or line.isspace():  # blank (as `not line.strip()`, without copying the line)
            continue
        if len(line) > MAX_RECORD_BYTES:
            log.add(run.responses, number, f"stored record of {len(line):,} bytes: more than the "
                                           f"{MAX_RECORD_BYTES // 2**20} MiB a record may hold")
            continue
        if line.endswith(b"\r"):
            log.add(run.responses, number, "line ends with a carriage return (CRLF): stored responses use LF line endings")
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            log.add(run.responses, number, f"not valid JSON: {exc}")
            continue
        problem = _record_problem(record, item_half)
        if problem is None:
            half = item_half.get(record["item"])
            if half is None:
                problem = f"response for unknown item {record['item']!r}"
            elif run.half != "both" and half != run.half:
                problem = f"item {record['item']!r} is {half}, but this run is on the {run.half} half"
        if problem is None:
            key = (record["item"], record["repeat"])
            if key in seen:
                problem = f"second response for item {key[0]!r} repeat {key[1]} (first at line {seen[key]})"
            else:
                seen[key] = number
        if problem is not None:
            log.add(run.responses, number, problem)
            continue
        yield number, record, here, len(line)
