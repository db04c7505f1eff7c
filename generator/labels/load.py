"""Read a suite's labels folder once: the agreement summary the report and the site show."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

from ..inputs.content import Item, SuiteConfig
from .agreement import summary
from .files import LabelError, load_config, read_flagged, read_labels, read_sample


class RawItems(Mapping[str, dict]):
    """The items' stored lines by id, each parsed when first looked up (the labels name a sample of a
    suite's items: the others are never parsed)."""

    def __init__(self, items: list[Item]) -> None:
        self._lines = {i.id: i.line for i in items}
        self._parsed: dict[str, dict] = {}

    def __getitem__(self, item: str) -> dict:
        if item not in self._parsed:
            self._parsed[item] = json.loads(self._lines[item])
        return self._parsed[item]

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)


def raw_items(items: list[Item]) -> Mapping[str, dict]:
    return RawItems(items)


def suite_labels(suite: SuiteConfig, items: list[Item]) -> dict | None:
    """The summary of agreement.summary, or None when the suite has no labels.toml."""
    config = load_config(suite.root)
    if config is None:
        return None
    sample = read_sample(config.folder)
    if sample is None:
        raise LabelError(f"{config.folder}: no sample.json: run `tally labels sample {suite.name}` first")
    first = read_labels(config.folder, config.first)
    second = read_labels(config.folder, config.second)
    adjudicator = read_labels(config.folder, config.adjudicator)
    titles = {d.id: d.title for d in suite.datasets}
    return summary(config, sample, first, second, adjudicator, read_flagged(config.folder, config.first),
                   raw_items(items), titles)
