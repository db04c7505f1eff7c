"""What a run sends: the suite's items of one half, the prompt, the repeats and the anchor block.

Every target of a suite gets the same items, the same prompt template (the suite's prompt.toml)
and the same document preparation (the item's document text as stored, inside the template), so
the request bodies of two runs differ only in the model name.

Jobs run in this order: the anchor block (with --anchors), then every item once (repeat 0, by
sorted id), then one pass per further repeat over the repeat sample.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from generator.errors import ErrorLog, TallyError
from generator.inputs.content import SuiteConfig, load_items, load_suite
from generator.inputs.page_images import INPUT_KINDS, PageError, input_problem
from generator.inputs.prompts import Template, load_template
from generator.suite.api import Suite
from generator.suite.plugins import load_registry

from .images import page_bytes, text_view, with_images

HALVES = ("public", "private", "both")
ANCHORS_FILE = "anchors.toml"


class PlanError(ValueError):
    """The suite, its items, anchors or the repeat sample can't be used."""


@dataclass
class SuitePlan:
    suite: SuiteConfig
    plugin: Suite
    template: Template
    items: list[dict]  # of the run's half, sorted by id
    anchors: list[str]

    def messages(self, item: dict, kind: str = "text") -> list[dict]:
        """The messages sent for `item` with input `kind` (text, image or text+image: images.py)."""
        base = self.plugin.messages(text_view(item, kind), self.suite.reference_date, self.template)
        if kind == "text":
            return base
        try:  # each page as the suite prepares it for a model (Suite.prepare_page; default: as it is)
            pages = [self.plugin.prepare_page(data) for data in page_bytes(item, self.suite.root / "items")]
        except PageError as exc:
            raise PlanError(f"item {item['id']}: {exc}") from None
        return with_images(base, pages, kind)

    def check_input(self, kind: str, items: list[dict]) -> None:
        """PlanError naming the items that can't be sent as `kind` input."""
        if kind not in INPUT_KINDS:
            raise PlanError(f"input kind must be one of {', '.join(INPUT_KINDS)}")
        bad = [(i["id"], p) for i in items if (p := input_problem(i["document"], kind)) is not None]
        if bad:
            shown = "; ".join(f"{item_id} {problem}" for item_id, problem in bad[:5])
            raise PlanError(f"{len(bad)} item(s) can't be sent as {kind} input: {shown}"
                            + (" ..." if len(bad) > 5 else ""))


def load_plan(root: Path, suite_name: str, half: str) -> SuitePlan:
    if half not in HALVES:
        raise PlanError(f"half must be one of {', '.join(HALVES)}")
    log = ErrorLog(root)
    suite = load_suite(Path(root) / "content" / "suites" / suite_name, log)
    if suite is None:
        raise PlanError("; ".join(str(e) for e in log.errors[:5]))
    try:
        plugin = load_registry(Path(root)).get(suite.scorer)
    except TallyError as exc:
        raise PlanError(str(exc)) from None
    items = load_items(suite, plugin.parse_item, log)
    if log.errors:
        raise PlanError("; ".join(str(e) for e in log.errors[:5]))
    try:
        template = load_template(suite.root)
    except (OSError, ValueError) as exc:
        raise PlanError(f"the suite's prompt template: {exc}") from None
    raw = [json.loads(i.line) for i in items if half in ("both", i.half)]
    known = {i["id"] for i in raw}
    anchors = [a for a in _anchors(suite.root, {i.id: i.half for i in items}) if a in known]
    return SuitePlan(suite, plugin, template, raw, anchors)


def _anchors(suite_dir: Path, halves: dict[str, str]) -> list[str]:
    path = suite_dir / ANCHORS_FILE
    if not path.exists():
        return []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise PlanError(f"{path}: not valid TOML: {exc}") from None
    out: list[str] = []
    for half in ("public", "private"):
        ids = data.get(half, [])
        if not isinstance(ids, list):
            raise PlanError(f"{path}: {half} must be a list of item ids")
        for item_id in ids:
            if halves.get(item_id) != half:
                raise PlanError(f"{path}: {item_id!r} is not an item of the {half} half")
            out.append(item_id)
    return out


def sample_ids(ids: list[str], spec: str, root: Path | None = None) -> list[str]:
    """Items of the repeat sample: "all", "none", "every:N" (every N-th id in sorted order, from
    the first) or "@FILE" (ids, one a line)."""
    ordered = sorted(ids)
    if spec == "all":
        return ordered
    if spec == "none":
        return []
    if spec.startswith("every:") and spec[6:].isdigit() and int(spec[6:]) >= 1:
        return ordered[:: int(spec[6:])]
    if spec.startswith("@"):
        path = Path(spec[1:])
        if root is not None and not path.is_absolute():
            path = Path(root) / path
        try:
            wanted = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        except OSError as exc:
            raise PlanError(f"repeat sample {spec}: {exc}") from None
        unknown = sorted(set(wanted) - set(ordered))
        if unknown:
            raise PlanError(f"repeat sample {path}: not items of this run: {', '.join(unknown[:5])}")
        return sorted(set(wanted))
    raise PlanError(f"repeat sample {spec!r}: use all, none, every:N or @FILE")


def jobs(plan: SuitePlan, repeats: int = 1, sample: str = "every:10", anchors: bool = False,
         limit: int | None = None, root: Path | None = None) -> list[tuple[dict, int]]:
    """(item, repeat) in the order they run; each key once."""
    if not 1 <= repeats <= 1000:
        raise PlanError("repeats must be from 1 to 1000")
    items = plan.items if limit is None else plan.items[:limit]
    by_id = {i["id"]: i for i in plan.items}
    out: list[tuple[dict, int]] = []
    seen: set[tuple[str, int]] = set()

    def add(item: dict, repeat: int) -> None:
        if (item["id"], repeat) not in seen:
            seen.add((item["id"], repeat))
            out.append((item, repeat))

    if anchors:
        for item_id in plan.anchors:
            add(by_id[item_id], 0)
    for item in items:
        add(item, 0)
    chosen = set(sample_ids([i["id"] for i in items], sample, root)) if repeats > 1 else set()
    for repeat in range(1, repeats):
        for item in items:
            if item["id"] in chosen:
                add(item, repeat)
    return out
