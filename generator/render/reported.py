"""Results a benchmark's own authors published (content/suites/<suite>/reported.toml, docs/formats.md):
shown on the suite page as they were published, each table with its source, apart from Tally's
rescored runs and never ranked with them. Nothing here is parsed as a number or scored."""

from __future__ import annotations

import tomllib
from pathlib import Path

from ..errors import InputProblem
from ..inputs.ids import id_problem
from .context import Column, Table, text

REPORTED = "reported.toml"
_TABLE_KEYS = {"id", "title", "source", "link", "columns", "rows", "note"}


class ReportedError(InputProblem):
    """reported.toml cannot be read or holds a malformed table; the message names the file."""


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def load_reported(suite_root: Path) -> list[dict]:
    """The tables of the suite's reported.toml ([] when there is none), checked."""
    path = suite_root / REPORTED
    if not path.is_file():
        return []
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ReportedError(f"{path}: not valid TOML: {exc}") from None
    tables = raw.get("table", [])
    if set(raw) - {"table"} or not isinstance(tables, list):
        raise ReportedError(f"{path}: only [[table]] entries are allowed")
    seen: set[str] = set()
    for k, t in enumerate(tables):
        where = f"{path}: table {k + 1}"
        if not isinstance(t, dict) or set(t) - _TABLE_KEYS:
            raise ReportedError(f"{where}: unknown keys {sorted(set(t) - _TABLE_KEYS) if isinstance(t, dict) else t}")
        for key in ("id", "title", "source"):
            if not isinstance(t.get(key), str) or not t[key].strip():
                raise ReportedError(f"{where}: {key} must be a non-empty string")
        if (p := id_problem(t["id"], "table id")) is not None or t["id"] in seen:
            raise ReportedError(f"{where}: {p or 'id ' + repr(t['id']) + ' repeats'}")
        seen.add(t["id"])
        link = t.get("link", "")
        if not isinstance(link, str) or (link and not link.startswith(("https://", "http://"))):
            raise ReportedError(f"{where}: link must be an http(s) address")
        if not _strings(t.get("columns")) or not t["columns"]:
            raise ReportedError(f"{where}: columns must be a list of strings")
        rows = t.get("rows")
        if not isinstance(rows, list) or not rows or not all(_strings(r) and len(r) == len(t["columns"]) for r in rows):
            raise ReportedError(f"{where}: rows must be lists of strings, one per column")
        if not isinstance(t.get("note", ""), str):
            raise ReportedError(f"{where}: note must be a string")
    return tables


def reported_tables(suite_root: Path, suite_name: str) -> list[dict]:
    """The reported tables as site tables ({"table", "source", "link"}): cells as published, in the
    published order, not sortable (nothing is ranked)."""
    out = []
    for t in load_reported(suite_root):
        table = Table(f"reported-{t['id']}", t["title"] + " (reported by the benchmark's authors, not rescored by Tally)",
                      [Column(f"c{k}", c) for k, c in enumerate(t["columns"])], sortable=False,
                      export=f"downloads/{suite_name}/reported/{t['id']}", note=t.get("note", ""))
        table.rows = [[text(v) for v in row] for row in t["rows"]]
        out.append({"table": table, "source": t["source"], "link": t.get("link", "")})
    return out
