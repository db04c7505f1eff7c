"""Suites and their items, read from content/suites/<suite>/ and validated."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ErrorLog
from .ids import id_problem
from .iso_date import is_iso_date
from .jsonl import jsonl_lines
from .page_images import PageRecord, document_problems
from .stored_files import StoredFileError, both_problem, read_stored, stored_file

HALVES = ("public", "private")
RESERVED_IDS = {"index"}  # page names of the site's own index pages


@dataclass(frozen=True)
class Dataset:
    id: str
    title: str


@dataclass(frozen=True)
class SuiteConfig:
    """A suite as content/suites/<suite>/suite.toml describes it; `scorer` names its plugin."""

    name: str
    title: str
    version: str
    scorer: str
    reference_date: str
    headline_half: str
    comparison: str
    min_stratum_items: int
    strata: tuple[str, ...]
    datasets: tuple[Dataset, ...]
    description: str
    root: Path
    order: int = 100  # where the suite is listed (the flagship first)
    resamples: int = 10_000  # bootstrap resamples (tally stats --resamples overrides)
    # [strata_order]: a dimension's values in their natural order (easy, medium, hard), for the site
    strata_order: tuple[tuple[str, tuple[str, ...]], ...] = ()
    headline: str | None = None  # when given, the plugin's headline metric (checked when the plugin is found)
    # the date the test set was frozen: documents published on or before it (document.published, or a
    # stratum value named in `published_before_freeze`) get freeze = pre-freeze and never count in the
    # headline; the others freeze = post-freeze
    frozen: str | None = None
    published_before_freeze: tuple[tuple[str, str], ...] = ()  # (dimension, value) pairs
    # the source, authors and licence of hosted third-party material, shown on every page of the site
    attribution: str = ""


@dataclass(frozen=True)
class Item:
    id: str
    dataset: str
    half: str
    strata: dict[str, str]
    document: dict
    spec: object = field(repr=False)  # the suite module's parsed checked answer
    source: str = ""  # "file:line", for error messages
    line: bytes = field(default=b"", repr=False)  # the item's exact line in its file


_SUITE_KEYS = {"name": str, "title": str, "version": str, "reference_date": str}
# every key suite.toml may hold (docs/formats.md); any other is an error naming its line
KNOWN_KEYS = ("name", "title", "version", "scorer", "reference_date", "order", "description", "headline",
              "headline_half", "comparison", "min_stratum_items", "resamples", "strata", "datasets", "strata_order",
              "frozen", "published_before_freeze", "attribution")
FREEZE = "freeze"  # the stratum dimension a suite with `frozen` gets: its values PRE_FREEZE and POST_FREEZE
PRE_FREEZE, POST_FREEZE = "pre-freeze", "post-freeze"
COMPARISONS = ("holm", "max-t", "overlap")
DATASET_KEYS = ("id", "title")


def line_of(text: str, key: str, after: str | None = None) -> int | None:
    """The line where `key = ...` is written (after the line of `after`, a table header, when given)."""
    lines = text.splitlines()
    start = 0
    if after is not None:
        start = next((n + 1 for n, line in enumerate(lines) if line.strip() == after), 0)
    pattern = re.compile(rf"""\s*(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*=""")
    return next((n + 1 for n in range(start, len(lines)) if pattern.match(lines[n])), None)


def headline_problem(suite: SuiteConfig, headline: str, log: ErrorLog) -> bool:
    """Log an error when suite.toml writes a `headline` that is not the plugin's headline metric."""
    if suite.headline is None or suite.headline == headline:
        return False
    path = suite.root / "suite.toml"
    log.add(path, line_of(path.read_text(encoding="utf-8"), "headline"),
            f"headline {suite.headline!r} is not the headline metric of scorer {suite.scorer!r} ({headline!r})")
    return True


def _config_problems(raw: dict, text: str) -> list[tuple[int | None, str]]:
    """(line, message) of each unknown key and each value of a wrong kind (the keys checked elsewhere aside)."""
    out = []
    for key in raw:
        if key not in KNOWN_KEYS:
            out.append((line_of(text, key), f"unknown key {key!r} (known: {', '.join(KNOWN_KEYS)})"))
    for key in ("scorer", "description", "headline", "attribution"):
        if key in raw and not isinstance(raw[key], str):
            out.append((line_of(text, key), f"{key} must be a string, got {raw[key]!r}"))
    if "comparison" in raw and raw["comparison"] not in COMPARISONS:
        out.append((line_of(text, "comparison"), f"comparison must be one of {', '.join(map(repr, COMPARISONS))}, "
                                                  f"got {raw['comparison']!r}"))
    if "headline_half" in raw and raw["headline_half"] not in HALVES:
        out.append((line_of(text, "headline_half"), f"headline_half must be 'public' or 'private', "
                                                     f"got {raw['headline_half']!r}"))
    strata = raw.get("strata", [])
    if not isinstance(strata, list) or not all(isinstance(x, str) for x in strata) or len(set(strata)) != len(strata):
        out.append((line_of(text, "strata"), "strata must be a list of distinct strings"))
    if "datasets" in raw and not isinstance(raw["datasets"], list):
        out.append((line_of(text, "datasets"), "datasets must be an array of tables ([[datasets]])"))
    for d in raw.get("datasets", []) if isinstance(raw.get("datasets"), list) else []:
        for key in d if isinstance(d, dict) else ():
            if key not in DATASET_KEYS:
                out.append((line_of(text, key, "[[datasets]]"), f"unknown key {key!r} in [[datasets]] "
                                                                 f"(known: {', '.join(DATASET_KEYS)})"))
    return out


def load_suite(root: Path, log: ErrorLog) -> SuiteConfig | None:
    path = root / "suite.toml"
    for p in (root, path):
        if p.is_symlink():
            log.add(p, None, "is a symbolic link: suites are read from real files in content/ only")
            return None
    try:
        text = path.read_text(encoding="utf-8")
        raw = tomllib.loads(text)
    except FileNotFoundError:
        log.add(path, None, "suite.toml not found")
        return None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        log.add(path, None, f"not valid TOML: {exc}")
        return None
    placed = _config_problems(raw, text)
    for line, message in placed:
        log.add(path, line, message)
    problems = [f"{k} must be a {t.__name__}" for k, t in _SUITE_KEYS.items() if not isinstance(raw.get(k), t)]
    raw.setdefault("scorer", raw.get("name"))
    if not problems:
        for key in ("name", "scorer"):
            if (problem := id_problem(raw[key], key)) is not None:
                problems.append(problem)
        if raw["name"] != root.name:
            problems.append(f"name {raw['name']!r} differs from its folder {root.name!r}")
        if not is_iso_date(raw["reference_date"]):
            problems.append("reference_date must be YYYY-MM-DD")
    problems += _freeze_problems(raw)
    for key in ("order", "min_stratum_items", "resamples"):
        if key in raw and not (type(raw[key]) is int and raw[key] >= (100 if key == "resamples" else 0)):
            problems.append(f"{key} must be an integer" + (" of at least 100" if key == "resamples" else ""))
    datasets = []
    for i, d in enumerate(raw.get("datasets", [])):
        if not isinstance(d, dict) or id_problem(d.get("id")) is not None or not isinstance(d.get("title"), str):
            problems.append(f"datasets[{i}] needs a safe id and a title")
        else:
            datasets.append(Dataset(d["id"], d["title"]))
    if not datasets:
        problems.append("no datasets")
    order_raw = raw.get("strata_order", {})
    if not isinstance(order_raw, dict) or not all(
            isinstance(v, list) and all(isinstance(x, str) for x in v) and len(set(v)) == len(v)
            for v in order_raw.values()):
        problems.append("strata_order must be a table of lists of distinct strings "
                        "(a dimension = its values in their natural order)")
        order_raw = {}
    strata = tuple(raw.get("strata", ()))
    if "frozen" in raw and FREEZE not in strata:
        strata += (FREEZE,)  # a frozen test set always shows its pre-freeze documents apart
    for dim in order_raw:
        if dim not in strata:
            problems.append(f"strata_order names {dim!r}, which is not one of strata")
    if len({d.id for d in datasets}) != len(datasets):
        problems.append("dataset ids repeat")
    for problem in problems:
        log.add(path, None, problem)
    if problems or placed:
        return None
    return SuiteConfig(
        name=raw["name"], title=raw["title"], version=raw["version"], scorer=raw["scorer"],
        reference_date=raw["reference_date"], headline_half=str(raw.get("headline_half", "private")),
        headline=raw.get("headline"),
        comparison=str(raw.get("comparison", "holm")),
        min_stratum_items=int(raw.get("min_stratum_items", 10)), strata=strata,
        datasets=tuple(datasets), description=str(raw.get("description", "")), root=root,
        order=int(raw.get("order", 100)), resamples=raw.get("resamples", 10_000),
        strata_order=tuple((str(k), tuple(v)) for k, v in order_raw.items()),
        frozen=raw.get("frozen"),
        published_before_freeze=tuple(tuple(s.split("=", 1)) for s in raw.get("published_before_freeze", ())),
        attribution=str(raw.get("attribution", "")),
    )


def _freeze_problems(raw: dict) -> list[str]:
    """Problems of `frozen` (a date) and `published_before_freeze` (["dimension=value", ...], only with
    `frozen`)."""
    problems = []
    if "frozen" in raw and not is_iso_date(raw["frozen"]):
        problems.append("frozen must be a date, YYYY-MM-DD (the day the test set was frozen)")
    if "published_before_freeze" in raw:
        sel = raw["published_before_freeze"]
        if "frozen" not in raw:
            problems.append("published_before_freeze needs frozen (the day the test set was frozen)")
        if not isinstance(sel, list) or not all(isinstance(x, str) and "=" in x and x.split("=", 1)[0]
                                                 and x.split("=", 1)[0] not in (FREEZE, "half") for x in sel):
            problems.append('published_before_freeze must be a list of "dimension=value" strings (any stratum '
                            'dimension but half and freeze)')
    return problems

def load_items(suite: SuiteConfig, parse_spec, log: ErrorLog, pages: PageRecord | None = None) -> list[Item]:
    """Every item of every dataset and half, sorted by id. `parse_spec(raw) -> (spec, problems)`. `pages`:
    the record of page images checked in full (page_images.check_page), None to check every page in full."""
    items: dict[str, Item] = {}
    folded: dict[str, str] = {}  # item pages are files: ids that differ only in case would collide
    for dataset in suite.datasets:
        for half in HALVES:
            name = f"{dataset.id}.{half}.jsonl"
            if (problem := both_problem(suite.root / "items", name)) is not None:
                log.add(suite.root / "items", None, problem)
                continue
            path = stored_file(suite.root / "items", name)  # plain or .gz
            if path.is_symlink() or path.parent.is_symlink():
                log.add(path, None, "is a symbolic link: items are read from real files in content/ only")
                continue
            if not path.exists():
                continue
            for item in _read_item_file(path, dataset.id, half, parse_spec, log, suite, pages):
                line = int(item.source.rsplit(":", 1)[1])
                if item.id in items:
                    log.add(path, line, f"item id {item.id!r} already defined at {items[item.id].source}")
                elif item.id.casefold() in RESERVED_IDS:
                    log.add(path, line, f"item id {item.id!r} is reserved (its page would be the item index)")
                elif item.id.casefold() in folded:
                    log.add(path, line, f"item id {item.id!r} differs only in case from {folded[item.id.casefold()]!r}")
                else:
                    items[item.id] = item
                    folded[item.id.casefold()] = item.id
    if not items:
        log.add(suite.root / "items", None, "no items found")
    return [items[k] for k in sorted(items)]


def freeze_of(suite: SuiteConfig, strata: dict[str, str], document: dict) -> str:
    """PRE_FREEZE for a document published on or before the suite's freeze (its `published` date, or a
    stratum value the suite lists in published_before_freeze), else POST_FREEZE."""
    published = document.get("published")
    if isinstance(published, str) and suite.frozen is not None and published <= suite.frozen:
        return PRE_FREEZE
    if any(strata.get(dim) == value for dim, value in suite.published_before_freeze):
        return PRE_FREEZE
    return POST_FREEZE


def _read_item_file(path: Path, dataset: str, half: str, parse_spec, log: ErrorLog, suite: SuiteConfig,
                    pages: PageRecord | None = None):
    try:
        data = read_stored(path)
    except StoredFileError as exc:
        log.add(path, None, str(exc).removeprefix(f"{path}: "))
        return
    if data and not data.endswith(b"\n"):
        log.add(path, data.count(b"\n") + 1, "file does not end with a newline (truncated?)")
    for number, line, raw, error in jsonl_lines(data):
        if error is not None:
            log.add(path, number, error)
            continue
        problems = _common_problems(raw, dataset, half)
        if not problems:
            problems = document_problems(raw["document"], path.parent, pages)
        if problems:
            for p in problems:
                log.add(path, number, p)
            continue
        spec, spec_problems = parse_spec(raw)
        for p in spec_problems:
            log.add(path, number, f"item {raw['id']}: {p}")
        if spec_problems:
            continue
        strata = {**{str(k): str(v) for k, v in raw.get("strata", {}).items()}, "dataset": dataset, "half": half}
        if suite.frozen is not None:
            strata[FREEZE] = freeze_of(suite, strata, raw["document"])
        yield Item(raw["id"], dataset, half, strata, raw["document"], spec, f"{log.show(path)}:{number}", line)


def _common_problems(raw: object, dataset: str, half: str) -> list[str]:
    if not isinstance(raw, dict):
        return ["an item must be a JSON object"]
    problems = []
    if (p := id_problem(raw.get("id"), "item id")) is not None:
        problems.append(p)
    if raw.get("dataset") != dataset:
        problems.append(f"dataset must be {dataset!r} in this file, got {raw.get('dataset')!r}")
    if raw.get("half") != half:
        problems.append(f"half must be {half!r} in this file, got {raw.get('half')!r}")
    strata = raw.get("strata", {})
    if not isinstance(strata, dict) or not all(isinstance(v, str) for v in strata.values()):
        problems.append("strata must be an object of strings")
    document = raw.get("document")
    if not isinstance(document, dict):
        problems.append("document must be an object")
    elif "locale" in document and not isinstance(document["locale"], str):
        problems.append("document.locale must be a string")
    if isinstance(document, dict) and "published" in document and not is_iso_date(document["published"]):
        problems.append("document.published must be a date, YYYY-MM-DD (the day the document was first published)")
    return problems
