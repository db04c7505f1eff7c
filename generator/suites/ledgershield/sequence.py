"""Episodes served one after another by one environment (rule page section 12): the order of an
import of LedgerShield's episode files, and the state each stored episode carries in (`run_state`),
computed by scorer A from the episodes stored before it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from ...jsonl import jsonl_lines
from .run_state import INITIAL, RunState, read_state
from .scoring import extract_answer, grade


class OrderError(ValueError):
    """The files' recorded case counters show episodes of several environments."""


def recorded_counter(episode: dict) -> int | None:
    """The case counter LedgerShield's environment recorded after the episode (`case_counter` of
    `final_info.institutional_memory`, else of the top-level `institutional_memory`), when a positive
    integer."""
    for holder in (episode.get("final_info"), episode):
        memory = holder.get("institutional_memory") if isinstance(holder, dict) else None
        if isinstance(memory, dict) and "case_counter" in memory:
            value = memory["case_counter"]
            return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
    return None


def served_order(episodes: list[tuple[str, dict, bool]]) -> tuple[list[int], bool]:
    """(positions in served order, whether they form one sequence) of (where, episode, readable)
    triples given in the files' order: by the recorded counters when every readable episode records one
    (each alone when they are all 1; OrderError when two others are equal), else the files' order."""
    positions = list(range(len(episodes)))
    counters = [recorded_counter(ep) for _w, ep, readable in episodes if readable]
    if not counters or any(c is None for c in counters):
        return positions, True
    if all(c == 1 for c in counters):
        return positions, False
    seen: dict[int, str] = {}
    for where, ep, readable in episodes:
        count = recorded_counter(ep)
        if readable and count is not None:
            if count in seen:
                raise OrderError(f"{where}: LedgerShield's case counter {count} also in {seen[count]}: these files "
                                 "come from several environments (import each environment's files as a run of its own)")
            seen[count] = where
    big = 1 << 62  # an unreadable episode keeps its place among the files after the recorded ones
    return sorted(positions, key=lambda k: (recorded_counter(episodes[k][1]) or big if episodes[k][2] else big, k)), True


def state_after(item: dict, content: str) -> RunState | None:
    """S_out scorer A gives a stored episode (its `run_state:out` row), or None when it is unreadable."""
    episode = extract_answer(content)
    if episode is None:
        return None
    order = next(o for unit, _k, _v, _r, o in grade(item, episode) if unit == "run_state:out")
    pairs = dict(part.split("=", 1) for part in order.split(";"))
    state = read_state({k: (v if k == "level" else int(v)) for k, v in pairs.items()})
    assert state is not None
    return state


def stamped(episode: dict, state: RunState) -> str:
    """The episode's stored content: the episode with its incoming `run_state`."""
    return json.dumps({**episode, "run_state": state.as_json()}, ensure_ascii=False)


def carried(items: dict[str, dict], stored: Iterable[tuple[str, str | None]]) -> RunState:
    """The state left by stored (item id, content) episodes of one sequence, in order (an unreadable or
    failed one passes the state on)."""
    state = INITIAL
    for item_id, content in stored:
        if content is not None and item_id in items:
            state = state_after(items[item_id], content) or state
    return state


def _content(record: dict) -> str | None:
    response = record.get("response")
    try:
        content = response["choices"][0]["message"]["content"]  # type: ignore[index]
    except (TypeError, KeyError, IndexError):
        return None
    return content if isinstance(content, str) else None


class Carrier:
    """The state `tally run` carries from episode to episode of each repeat (rule page section 12): each
    repeat is its own environment, its episodes in the order the run stores them. Resuming starts from
    the stored episodes: the state they left is the S_out with the most episodes counted (every stored
    S_out counting that many episodes is the same state)."""

    def __init__(self, items: list[dict], stored: list[Path]):
        self.items = {i["id"]: i for i in items}
        self.states: dict[int, RunState] = {}
        for path in stored:
            if not path.is_file():
                continue
            for line in jsonl_lines(path.read_bytes()):
                rec = line.value  # a line that is not JSON has none: the store reports it
                if not isinstance(rec, dict) or not isinstance(rec.get("repeat"), int):
                    continue
                content = _content(rec)
                item = self.items.get(str(rec.get("item")))
                after = state_after(item, content) if content is not None and item is not None else None
                if after is not None and after.n >= self.states.get(rec["repeat"], INITIAL).n:
                    self.states[rec["repeat"]] = after

    def stamp(self, record: dict) -> dict:
        """The record with its episode's incoming `run_state`; the repeat's state moves on."""
        content = _content(record)
        item = self.items.get(record["item"])
        if content is None or item is None:
            return record  # a failed call carries nothing and passes the state on
        # the episode Tally assembled (a JSON object with keys) with run_state as its last key, which a
        # repeated key's rule makes the one read
        text = content.rstrip()
        if not (text.startswith("{") and text.endswith("}")) or text[1:-1].strip() == "":
            return record
        state = json.dumps(self.states.get(record["repeat"], INITIAL).as_json(), sort_keys=True)
        text = f'{text[:-1]}, "run_state": {state}}}'
        after = state_after(item, text)
        if after is not None:
            self.states[record["repeat"]] = after
        response = dict(record["response"])
        response["choices"] = [{**response["choices"][0], "message": {**response["choices"][0]["message"],
                                                                       "content": text}}]
        return {**record, "response": response}
