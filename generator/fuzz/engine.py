"""Cases for any suite, derived from what the suite interface declares.

The seeds are the suite's shared cases (`Suite.vector_cases`): their items, and their records' replies
read as answer trees, give the answer's shape (keys, nesting, which values are numbers or text) and a
vocabulary (every key and short value of the items and answers). A case is a seed's item with a reply
made from a seed answer by zero or more mutations (near-misses of values, changes of shape, hostile
JSON) put back in the seed's surrounding text (an `<answer>` block, say), then perhaps made hostile
as a whole text, or a record that is a failed call.

A suite adds boundaries of its own in an optional module `fuzzcases` next to it (in its package):
the names of `Hints` as module attributes (`DELTAS`, `RELATIVE`, `NUMBERS`, `WORDS`, `LIST_LIMIT`,
and the functions `answers(rnd, item)` for boundary answers of an item and `cases(rnd)` for whole
cases of its own). A suite without one gets the default generator.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from ..suite_api import Suite
from .mutate import DEFAULT_DELTAS, hostile_text, mutate_tree
from .tree import Num, Raw, dump, find_answer

__all__ = ["Case", "Generator", "Hints", "hints_of"]

JsonObject = dict
MAX_TEXT = 2_000_000  # characters of a generated reply


@dataclass(frozen=True)
class Hints:
    """What a suite's rule page says about its boundaries (all optional)."""

    deltas: tuple[str, ...] = DEFAULT_DELTAS  # absolute steps: tolerances ("0.01", "1.00")
    relative: tuple[str, ...] = ()  # relative steps: a share of the value ("0.01" for 1 %)
    numbers: tuple[str, ...] = ()  # literals worth trying anywhere a number goes (thresholds)
    words: tuple[str, ...] = ()  # strings worth trying anywhere a string goes (labels, codes)
    list_limit: int = 0  # a list length the rules cap (lists are grown to it and one past it)
    answers: Callable[[random.Random, JsonObject], list[object]] | None = None  # boundary answers of an item
    cases: Callable[[random.Random], tuple[JsonObject, JsonObject]] | None = None  # whole cases


def hints_of(suite: Suite) -> Hints:
    """The hints in the `fuzzcases` module next to the suite's class, or the defaults."""
    module = sys.modules.get(type(suite).__module__)
    if module is None:
        return Hints()
    package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
    name = f"{package}.fuzzcases" if package else "fuzzcases"
    try:
        if importlib.util.find_spec(name) is None:
            return Hints()
    except (ImportError, ValueError):
        return Hints()
    mod = importlib.import_module(name)
    return Hints(deltas=tuple(getattr(mod, "DELTAS", DEFAULT_DELTAS)), relative=tuple(getattr(mod, "RELATIVE", ())),
                 numbers=tuple(getattr(mod, "NUMBERS", ())), words=tuple(getattr(mod, "WORDS", ())),
                 list_limit=int(getattr(mod, "LIST_LIMIT", 0)), answers=getattr(mod, "answers", None),
                 cases=getattr(mod, "cases", None))


@dataclass
class Vocabulary:
    """Keys and values seen in the seeds' items and answers."""

    keys: list[str] = field(default_factory=list)
    values: list[object] = field(default_factory=list)

    def add(self, tree: object) -> None:
        keys, values = set(self.keys), set(map(repr, self.values))
        stack = [tree]
        while stack and len(self.values) < 5000:
            node = stack.pop()
            if isinstance(node, dict):
                for k, v in node.items():
                    if isinstance(k, str) and len(k) <= 40 and k not in keys:
                        keys.add(k)
                        self.keys.append(k)
                    stack.append(v)
            elif isinstance(node, list):
                stack.extend(node[:50])
            elif isinstance(node, (str, bool, int, float)) and len(str(node)) <= 60:
                value = Num(repr(node)) if isinstance(node, (int, float)) and not isinstance(node, bool) else node
                if repr(value) not in values:
                    values.add(repr(value))
                    self.values.append(value)

    def value(self, rnd: random.Random) -> object:
        return copy.deepcopy(rnd.choice(self.values)) if self.values else None


@dataclass
class Seed:
    item: JsonObject
    record: JsonObject
    before: str = ""
    answer: object = None  # the answer tree, None when the content holds none
    after: str = ""


@dataclass(frozen=True)
class Case:
    """One generated case: an item, a stored response record, and what made it (for a report)."""

    index: int
    item: JsonObject
    record: JsonObject
    how: str


def _content(record: JsonObject) -> str | None:
    try:
        content = record["response"]["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None
    return content if isinstance(content, str) else None


def _with_content(record: JsonObject, content: str) -> JsonObject:
    """A copy of a record that is a successful call answering `content`."""
    out = {k: v for k, v in record.items() if k not in ("response", "attempts")}
    out["attempts"] = [{"status": 200, "error": None}]
    out["response"] = {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}
    return out


FAILED: tuple[dict, ...] = ({"status": 500, "error": None}, {"status": 200, "error": "timeout"}, {"status": 429, "error": None},
          {"status": 200.0, "error": None}, {"status": "200", "error": None}, {"status": 200, "error": ""},
          {"status": 299, "error": None}, {"status": 300, "error": None}, {"status": True, "error": None})
ODD_RESPONSES: tuple[object, ...] = (None, {}, {"choices": []}, {"choices": [{}]}, {"choices": [{"message": {"content": None}}]},
                 {"choices": [{"message": {"content": 7}}]}, {"choices": [{"message": {"content": ["x"]}}]},
                 {"choices": [None]}, "text")


class Generator:
    """Seeded cases for one suite: `cases(n)` gives the next n (the same for the same seed)."""

    def __init__(self, suite: Suite, seed: int = 1, hints: Hints | None = None):
        self.suite = suite
        self.hints = hints if hints is not None else hints_of(suite)
        self.rnd = random.Random(seed)
        self.vocabulary = Vocabulary()
        self.seeds: list[Seed] = []
        for case in suite.vector_cases():
            self._add_seed(case.item, case.record)
        if not self.seeds and self.hints.cases is None:
            raise ValueError(f"suite {suite.name!r} has no shared cases to derive fuzz cases from")
        self.count = 0

    def _add_seed(self, item: JsonObject, record: JsonObject) -> None:
        content = _content(record)
        found = find_answer(content) if content is not None else None
        seed = Seed(item, record) if found is None else Seed(item, record, found[0], found[1], found[2])
        self.seeds.append(seed)
        self.vocabulary.add(item)
        if seed.answer is not None:
            self.vocabulary.add(seed.answer)

    def cases(self, n: int) -> list[Case]:
        out = []
        for _ in range(n):
            item, record, how = self._one()
            out.append(Case(self.count, item, record, how))
            self.count += 1
        return out

    def _one(self) -> tuple[JsonObject, JsonObject, str]:
        rnd, hints = self.rnd, self.hints
        roll = rnd.random()
        if hints.cases is not None and (roll < 0.15 or not self.seeds):
            item, record = hints.cases(rnd)
            return item, record, "suite case"
        seed = rnd.choice(self.seeds)
        if roll < 0.2:
            return seed.item, seed.record, "shared case"
        if roll < 0.24:
            return seed.item, self._failed(seed.record), "failed or odd call"
        answer, before, after, how = self._answer(seed)
        if answer is None:
            text = _content(seed.record) or ""
            how = "shared text"
        else:
            for _ in range(0 if isinstance(answer, Raw) else rnd.choice((0, 1, 1, 1, 2, 3, 5))):
                answer = mutate_tree(rnd, answer, hints, self.vocabulary)
                how += "+mutated"
            text = dump(answer, rnd)
        if rnd.random() < 0.25:
            text = hostile_text(rnd, text)
            how += "+hostile inside"
        if len(text) > MAX_TEXT:  # mutations compound: keep a reply to a size a model could send
            text = dump(copy.deepcopy(seed.answer), rnd) if seed.answer is not None else text[:MAX_TEXT]
            how = "seed answer (mutations too long)"
        content = before + text + after
        if rnd.random() < 0.1:
            content = hostile_text(rnd, content)
            how += "+hostile around"
        return seed.item, _with_content(seed.record, content), how

    def _answer(self, seed: Seed) -> tuple[object, str, str, str]:
        """An answer tree to start from: a boundary answer of the suite's own, or the seed's answer."""
        rnd = self.rnd
        if self.hints.answers is not None and rnd.random() < 0.4:
            made = self.hints.answers(rnd, seed.item)
            if made:
                choice = rnd.choice(made)
                if isinstance(choice, str) and not isinstance(choice, Num):
                    return Raw(choice), "", "", "boundary text"  # a whole content, written as it is
                if seed.answer is None:
                    return copy.deepcopy(choice), "", "", "boundary answer"
                return copy.deepcopy(choice), seed.before, seed.after, "boundary answer"
        return copy.deepcopy(seed.answer), seed.before, seed.after, "seed answer"

    def _failed(self, record: JsonObject) -> JsonObject:
        rnd = self.rnd
        out = dict(record)
        if rnd.random() < 0.5:
            out["attempts"] = [dict(rnd.choice(FAILED))]
        else:
            out["attempts"] = [{"status": 200, "error": None}]
            out["response"] = copy.deepcopy(rnd.choice(ODD_RESPONSES))
        return out
