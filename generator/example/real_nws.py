"""Real US National Weather Service products (public domain): a deterministic labeller that reads
each product by its format (content/pages/scoring-extracting.md, "Real documents").

``document_text(raw)`` is the product as an item shows it; ``label_cli(text)`` reads a daily
climate report (CLI), ``label_lsr(text)`` the first report of a local storm report (LSR). Each
returns (fields, problems): a product the labeller can't read completely is left out, with the
problems as the reason.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

ATTRIBUTION = ("US National Weather Service text product: a work of the US federal government, in the "
               "public domain in the US (17 U.S.C. 105). Shown as issued (line ends and trailing spaces "
               "normalised).")
MONTHS = ("JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER",
          "OCTOBER", "NOVEMBER", "DECEMBER")
RULE = "labeller rule"


def document_text(raw: bytes) -> str:
    """The product's text: decoded as Latin-1 (NWS products are ASCII), CR LF and CR become LF,
    control characters other than LF are dropped, trailing spaces removed, leading and trailing
    blank lines removed."""
    text = raw.decode("latin-1").replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(ch for ch in text if ch == "\n" or ch >= " ")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n") + "\n"


def _f(name: str, ftype: str, kind: str, answer, places: int | None = None) -> dict:
    f = {"name": name, "type": ftype, "kind": kind, "answer": None if kind == "missing" else answer,
         "provenance": RULE}
    if places is not None:
        f["places"] = places
    return f


def _office(text: str) -> str | None:
    m = re.search(r"^NATIONAL WEATHER SERVICE (.+?)\s*$", text, re.M)
    return m.group(1) if m else None


# ------------------------------------------------------------------ CLI: daily climate report

SUMMARY = re.compile(r"\.\.\.\s*THE (.+?) CLIMATE SUMMARY FOR\s+([A-Z]+)\s+(\d{1,2})\s*,?\s*(\d{4})", re.S)
TEMP_ROW = re.compile(r"^\s+(MAXIMUM|MINIMUM)\s+(-?\d+|MM)\s+(.*)$", re.M)
TIME = re.compile(r"(\d{3,4} [AP]M|\d{1,2}:\d{2} [AP]M|MM)\s+(.*)$")
NUM = r"(-?\d+R?|MM)"


def _temp(name: str, row: str | None, fields: list, problems: list) -> None:
    """observed, time, record, record year, normal, departure (computed) of one temperature row."""
    m = None if row is None else TEMP_ROW.search(row)
    if m is None:
        problems.append(f"no {name} temperature row")
        return
    observed = m.group(2)
    rest = m.group(3)
    t = TIME.match(rest)
    time = t.group(1) if t else None
    tokens = (t.group(2) if t else rest).split()
    p = name[:3].lower()
    if observed == "MM":
        problems.append(f"{name} temperature is MM")
        return
    fields.append(_f(f"{p}_temperature", "number", "printed", str(int(observed)), 0))
    if time and time != "MM":
        fields.append(_f(f"{p}_temperature_time", "text", "printed", time))
    else:
        fields.append(_f(f"{p}_temperature_time", "text", "missing", None))
    # record value, record year, normal, departure, last year; a row without a record (blank or MM MM)
    # gives the record fields as missing
    if len(tokens) >= 4 and tokens[0] == tokens[1] == "MM":
        tokens = tokens[2:]
    if len(tokens) in (2, 3) and all(re.fullmatch(r"-?\d+", x) for x in tokens):
        record, year, (normal, departure) = None, None, tokens[:2]
    elif len(tokens) >= 4:
        record, year, normal, departure = tokens[:4]
    else:
        problems.append(f"{name} row has {len(tokens)} columns after the time, not 2 to 5")
        return
    if not ((record is None or (re.fullmatch(r"-?\d+R?", record) and re.fullmatch(r"\d{4}", year or "")))
            and re.fullmatch(r"-?\d+", normal) and re.fullmatch(r"-?\d+", departure)):
        problems.append(f"{name} row does not read as record, year, normal, departure: {tokens[:4]}")
        return
    if record is None:
        fields.append(_f(f"record_{p}_temperature", "number", "missing", None, 0))
        fields.append(_f(f"record_{p}_year", "identifier", "missing", None))
    else:
        fields.append(_f(f"record_{p}_temperature", "number", "printed", str(int(record.rstrip("R"))), 0))
        fields.append(_f(f"record_{p}_year", "identifier", "printed", year))
    fields.append(_f(f"normal_{p}_temperature", "number", "printed", str(int(normal)), 0))
    dep = int(observed) - int(normal)
    if dep != int(departure):
        problems.append(f"{name}: observed - normal = {dep}, printed departure {departure}")
        return
    fields.append(_f(f"{p}_departure_from_normal", "number", "computed", str(dep), 0))


def _precip(text: str, label: str, name: str, fields: list, problems: list) -> None:
    # the section runs to the next line that starts at the margin (the next heading)
    sec = re.search(r"^PRECIPITATION \(IN(?:CHES)?\)[ \t]*$(.*?)(?=^\S|\Z)", text, re.M | re.S)
    if sec is None:
        fields.append(_f(name, "number", "missing", None, 2))
        return
    m = re.search(r"^\s+" + label + r"\s+(\S+)", sec.group(1), re.M)
    if m is None or m.group(1) == "MM":
        fields.append(_f(name, "number", "missing", None, 2))
    elif re.fullmatch(r"\d+\.\d{2}", m.group(1)):
        fields.append(_f(name, "number", "printed", m.group(1), 2))
    elif m.group(1) != "T":  # a trace is not a number: the field is not requested
        problems.append(f"{label} precipitation {m.group(1)!r} is not a number")


def label_cli(text: str) -> tuple[list[dict], list[str]]:
    fields: list[dict] = []
    problems: list[str] = []
    m = SUMMARY.search(text)
    if m is None or m.group(2) not in MONTHS:
        return [], ["no '...THE <station> CLIMATE SUMMARY FOR <month> <day> <year>...' line"]
    station = " ".join(m.group(1).split())
    day = dt.date(int(m.group(4)), MONTHS.index(m.group(2)) + 1, int(m.group(3)))
    fields.append(_f("station", "text", "printed", station))
    fields.append(_f("report_date", "date", "printed", day.isoformat()))
    office = _office(text)
    if office:
        fields.append(_f("issuing_office", "text", "printed", office))
    temp = re.search(r"^TEMPERATURE \(F\)\s*$(.*?)^\s*$", text, re.M | re.S)
    block = temp.group(1) if temp else None
    rows: dict[str, str | None] = {k: None for k in ("MAXIMUM", "MINIMUM")}
    if block:
        for r in TEMP_ROW.finditer(block):
            rows[r.group(1)] = rows[r.group(1)] or r.group(0)
    _temp("MAXIMUM", rows["MAXIMUM"], fields, problems)
    _temp("MINIMUM", rows["MINIMUM"], fields, problems)
    _precip(text, "MONTH TO DATE", "precipitation_month_to_date", fields, problems)
    _precip(text, "SINCE JAN 1", "precipitation_year_to_date", fields, problems)
    sky = re.search(r"^\s+AVERAGE SKY COVER\s+(\S+)", text, re.M)
    if sky and re.fullmatch(r"\d\.\d", sky.group(1)):
        fields.append(_f("average_sky_cover", "number", "printed", sky.group(1), 1))
    elif sky is None or sky.group(1) == "MM":
        fields.append(_f("average_sky_cover", "number", "missing", None, 1))
    fields.append(_f("observer_name", "text", "missing", None))
    return fields, problems


# ------------------------------------------------------------------ LSR: local storm report

LSR_HEAD = re.compile(r"^\.\.TIME\.\.\..*\n\.\.DATE\.\.\..*\n.*REMARKS.*\n", re.M)
MAG = re.compile(r"^([EMU]?)(\d+(?:\.\d+)?)\s+([A-Z]+)$")


def label_lsr(text: str) -> tuple[list[dict], list[str]]:
    """The first report: fixed columns (time 0-12, event 12-29, place 29-53, lat/lon 53-;
    date 0-12, magnitude 12-29, county 29-48, state 48-53, source 53-)."""
    head = LSR_HEAD.search(text)
    if head is None:
        return [], ["no LSR column header"]
    lines = [ln for ln in text[head.end():].split("\n")]
    i = next((k for k, ln in enumerate(lines) if re.match(r"\d{4} [AP]M ", ln)), None)
    if i is None or i + 1 >= len(lines) or not re.match(r"\d\d/\d\d/\d{4} ", lines[i + 1]):
        return [], ["no report (time line followed by date line) after the header"]
    one, two = lines[i].ljust(80), lines[i + 1].ljust(80)
    time, event, place = one[0:12].strip(), one[12:29].strip(), one[29:53].strip()
    date, mag, county, state, source = (two[0:12].strip(), two[12:29].strip(), two[29:48].strip(),
                                        two[48:53].strip(), two[53:].strip())
    problems = []
    if not (event and place and county and re.fullmatch(r"[A-Z]{2}", state) and source):
        problems.append(f"a column is empty or misplaced: {[event, place, county, state, source]}")
    mo, d, y = (int(x) for x in date.split("/"))
    fields = []
    office = _office(text)
    if office:
        fields.append(_f("issuing_office", "text", "printed", office))
    fields += [_f("event_type", "text", "printed", event),
               _f("event_date", "date", "printed", dt.date(y, mo, d).isoformat()),
               _f("event_time", "text", "printed", time),
               _f("location", "text", "printed", place),
               _f("county", "text", "printed", county),
               _f("state", "identifier", "printed", state),
               _f("report_source", "text", "printed", source)]
    if mag:
        mm = MAG.match(mag)
        if mm is None:
            problems.append(f"magnitude {mag!r} does not read as [E|M|U]number unit")
        else:
            value = mm.group(2)
            places = len(value.partition(".")[2])
            fields.append(_f("magnitude", "number", "printed", str(Decimal(value)), places))
            fields.append(_f("magnitude_unit", "text", "printed", mm.group(3)))
    else:
        fields.append(_f("magnitude", "number", "missing", None, 2))
        fields.append(_f("magnitude_unit", "text", "missing", None))
    fields.append(_f("damage_estimate", "money", "missing", None))
    return fields, problems
