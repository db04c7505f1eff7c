"""Page contexts: tables whose cells carry the displayed text apart from the sortable value.

Nothing here computes a statistic: cells only format numbers read from the rescore and statistics
outputs (scaling a ratio to percent, rounding for display).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

MINUS = "\u2212"
# control characters and the invisible bidi controls: shown as a visible mark wherever a name is shown
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def shown(value: str) -> str:
    """`value` with control and bidi control characters made visible (U+202E becomes ⟨U+202E⟩)."""
    return _CONTROLS.sub(lambda m: f"\u27e8U+{ord(m.group()):04X}\u27e9", value)


@dataclass(frozen=True)
class Cell:
    text: str  # what the reader sees
    sort: str | None = None  # data-sort value (numbers as plain decimals); None: the text
    href: str | None = None  # a site path, made relative when the page is written
    title: str | None = None
    cls: str = ""
    export: tuple[tuple[str, object], ...] = ()  # (suffix, value) for CSV/JSON; () exports the text
    sub: str = ""  # shown after the text on a phone only, where the columns that tell rows apart give way

    def exported(self, key: str) -> list[tuple[str, object]]:
        if not self.export:
            return [(key, self.text)]
        return [(key + ("_" + s if s else ""), v) for s, v in self.export]


PRIORITIES = ("", "key", "low", "opt")


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    numeric: bool = False
    help: str | None = None
    # "key": the run's name, kept in view while a wide table scrolls; "low": gives way on a phone;
    # "opt": hidden until the reader shows it (the table's column chooser); "": always shown
    priority: str = ""

    def css(self) -> str:
        """The classes of this column's heading and cells."""
        return " ".join(c for c in ("num" if self.numeric else "", f"col-{self.priority}" if self.priority else "")
                        if c)


@dataclass
class Table:
    id: str  # stable within its page; with the page's folder, the stem of its download files
    caption: str
    columns: list[Column]
    rows: list[list[Cell]] = field(default_factory=list)
    sortable: bool = True
    export: str | None = None  # download path stem (site path without extension), None: not exported
    note: str = ""
    chart: dict | None = None  # a chart drawn above the table (charts.report_chart)

    def records(self) -> tuple[list[str], list[dict]]:
        """Flat header and rows for CSV and JSON downloads."""
        header: list[str] = []
        out = []
        for row in self.rows:
            rec = {}
            for col, cell in zip(self.columns, row):
                for k, v in cell.exported(col.key):
                    rec[k] = v
                    if k not in header:
                        header.append(k)
            out.append(rec)
        return header, out


def text(value: object, href: str | None = None, sort: object = None, **kw) -> Cell:
    return Cell("" if value is None else shown(str(value)), None if sort is None else _sort(sort), href, **kw)


def _sort(value: object) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(value)


def fmt(value: float | None, scale: float = 1.0, digits: int = 1) -> str:
    """A scaled value with `digits` decimals, through the site's one number formatter (generator.numbers)."""
    from ..numbers import fixed

    return "\u2013" if value is None else fixed(value * scale, digits)


def number(value: float | None, scale: float = 1.0, digits: int = 1, suffix: str = "", **kw) -> Cell:
    shown = fmt(value, scale, digits) + (suffix if value is not None else "")
    return Cell(shown, "" if value is None else repr(float(value)), cls="num", export=(("", value),), **kw)


def interval(est: dict | None, scale: float = 1.0, digits: int = 1, **kw) -> Cell:
    """An estimate with its 95% interval: {'estimate', 'low', 'high'} as written by the engine."""
    if not est or est.get("estimate") is None:
        return Cell("\u2013", "", cls="num", export=(("", None), ("low", None), ("high", None)), **kw)
    e, lo, hi = est["estimate"], est.get("low"), est.get("high")
    shown = f"{fmt(e, scale, digits)} [{fmt(lo, scale, digits)}, {fmt(hi, scale, digits)}]"
    return Cell(shown, repr(float(e)), cls="num", export=(("", e), ("low", lo), ("high", hi)), **kw)


RESERVED = {"index"}  # names of the site's own pages in a folder


def slug(value: str) -> str:
    """A stable file name for any string: safe ids stay as they are, others (and the names of the site's
    own pages) get a short hash, so two different strings never share a page."""
    base = re.sub(r"[^a-z0-9._-]+", "-", value.lower()).strip("-.") or "x"
    if base == value and base not in RESERVED:
        return base
    return f"{base[:60]}-{hashlib.sha256(value.encode()).hexdigest()[:8]}"
