"""The sealed record: what `results/` publishes in place of a private item's full record (format v3).

    {"item", "repeat", "attempts", "latency_ms"  (the call's figures, as stored),
     "sealed": {"format", "record_sha256" (of the full line), "item_commitment" (SHA-256 of the
                item's salted commitment file, or null when the round's private storage is not here)},
     "outcome", "finish_reason", "refusal",
     "box": the per-item part, closed with the item (generator/sealed_box.py):
            {"verdicts": [[unit, kind, verdict, points, order], ...] (and the row's counts as a
                          sixth element, where the row has counts the suite lets a sealed record keep),
             "figures": [the suite's per-item figures of this response],
             "answers": [per unit, which of the item's repeats answered alike: "=0", "=1", ...],
             "usage": the call's token counts, as stored}}

No request, no response text, no rejected response body, no verdict reason; a unit naming something of
the item and an `order` quoting the key are blinded (`blind_rows`) inside the box too. What is in the
clear (the call's outcome, latency and attempts) is the model's, not the item's. `opened` gives the
record with its box's fields in place, as formats v1 and v2 stored them in the clear: the private
scores are recomputed from the stored figures. Records sealed in earlier formats are upgraded in place
by `tally results seal` without their private records (they need the item, to close the box).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import sealed_box
from .sealing import line_sha256

if TYPE_CHECKING:
    from .suite.api import Suite

SEALED_FORMAT = "tally-sealed-record-v3"
SEALED_FORMATS = ("tally-sealed-record-v1", "tally-sealed-record-v2", SEALED_FORMAT)
# Attempt fields a sealed record keeps: the call's figures; never a rejected response's body.
ATTEMPT_FIELDS = ("error", "latency_ms", "start", "status")
_ID_UNIT = re.compile(r"([^:]*[0-9][^:]*):(.+)")  # "<something of the item>:<what>", e.g. "T09:outside_period"


def blind_rows(plugin: Suite, rows: list) -> list[list]:
    """A response's verdict rows as a sealed record shows them: nothing from which the answer key can
    be read. A unit that names something of the item ("T09:outside_period": a transaction and its
    fault) shows only its position and what it is ("#4:outside_period"); `order` is kept only where the
    suite's `sealed_order_kept` says it is the model's own figure or a comparison; a suite that does not
    say shows positions only ("#4") and no `order`. A row's counts are kept as its `order` is, as a
    sixth element (none when the row has none). The kind, verdict and points stay: the private scores
    are recomputed from them and from the stored figures."""
    out = []
    for k, v in enumerate(rows):
        keep = plugin.sealed_order_kept(v.unit)
        if keep is None:
            out.append([f"#{k}", v.kind, v.verdict, v.points, ""])
            continue
        m = _ID_UNIT.fullmatch(v.unit)
        row = [f"#{k}:{m.group(2)}" if m else v.unit, v.kind, v.verdict, v.points, v.order if keep else ""]
        out.append(row + [list(v.counts)] if keep and v.counts else row)
    return out


def sealed_attempts(attempts: object) -> list:
    """A record's attempts with the call's figures only (a rejected response's body is dropped)."""
    if not isinstance(attempts, list):
        return []
    return [{k: a[k] for k in ATTEMPT_FIELDS if k in a} if isinstance(a, dict) else a for a in attempts]


def stub_figures(record: dict) -> tuple | None:
    """The per-item figures a sealed record stores (format v2), or None (v1: from its rows)."""
    figures = record.get("figures")
    return tuple(figures) if isinstance(figures, list) else None


def stub_rows(record: dict, run_id: str):
    """Verdict rows of a sealed record, as stored (the reason is not stored)."""
    from .score.verdicts import Verdict

    return [Verdict(run_id, record["item"], record["repeat"], str(row[0]), str(row[1]), str(row[2]), int(row[3]),
                    "", str(row[4]), tuple(row[5]) if len(row) > 5 else ()) for row in record["verdicts"]]


def stub_problem(record: dict) -> str | None:
    """Why a sealed record cannot be scored from its stored verdicts, or None."""
    verdicts, answers = record.get("verdicts"), record.get("answers")
    if not isinstance(verdicts, list) or not all(
            isinstance(v, list) and (len(v) == 5 or len(v) == 6 and _whole_numbers(v[5])) and type(v[3]) is int
            for v in verdicts):
        return "a sealed record's verdicts must be [unit, kind, verdict, points, order] rows (and counts, a list of whole numbers)"
    if not isinstance(answers, list) or len(answers) != len(verdicts):
        return "a sealed record needs one answer class per verdict row"
    if not isinstance(record.get("outcome"), str):
        return "a sealed record needs its outcome"
    figures = record.get("figures")
    if figures is not None and not (isinstance(figures, list) and all(
            type(f) in (int, float) for f in figures)):
        return "a sealed record's figures must be a list of numbers"
    if record["sealed"].get("format") not in SEALED_FORMATS:
        return f"a sealed record's format must be one of {', '.join(SEALED_FORMATS)}"
    return None


def _whole_numbers(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(type(n) is int for n in value)


def stub_call_record(record: dict) -> dict:
    """The sealed record with a minimal response, so that the call row is the one of the full record."""
    message = {"refusal": "(sealed)" if record.get("refusal") else None}
    choice = {"finish_reason": record.get("finish_reason") or None, "message": message}
    return {**record, "response": {"choices": [choice]}}


def _answer_classes(answers_by_repeat: dict[int, tuple[str, ...]]) -> dict[int, list[str]]:
    """Per repeat, per unit position: the index of the value among the distinct values at that
    position over the item's repeats (equality is all the consistency figures use)."""
    seen: dict[int, list[str]] = {}
    out = {}
    for repeat in sorted(answers_by_repeat):
        classes = []
        for j, value in enumerate(answers_by_repeat[repeat]):
            values = seen.setdefault(j, [])
            if value not in values:
                values.append(value)
            classes.append(f"={values.index(value)}")
        out[repeat] = classes
    return out


def answers_of(plugin, outcome, rows: list) -> tuple[str, ...]:
    """What the response answered for each unit, as the suite shows it (a failed call or an unreadable
    reply is one value for every unit): what `answers` classes are made from."""
    if outcome.answer is None:
        return tuple(f"<{outcome.status}>" for _ in rows)
    return plugin.answer_values(outcome.answer, [v.unit for v in rows])


def opened(record: dict, item_line: bytes) -> tuple[dict | None, str | None]:
    """A sealed record with its box's fields in place (format v3; earlier formats hold them in the
    clear and are given as stored), or None and why its box does not open with the item's line."""
    if "box" not in record and record.get("sealed", {}).get("format") != SEALED_FORMAT:
        return record, None
    fields = sealed_box.open_box(record.get("box"), sealed_box.item_key(item_line),
                                 record.get("sealed", {}).get("record_sha256"))
    if fields is None:
        return None, ("a sealed record's box does not open with its item (the box, its record_sha256 or the "
                      "item's line changed since `tally results seal` closed it)")
    out = {k: v for k, v in record.items() if k != "box" and k not in sealed_box.BOXED}
    return out | fields, None


def boxed(stub: dict, item_line: bytes) -> dict:
    """A sealed record whose per-item fields are in the clear (as `opened` gives it) with them closed
    in its box: the published form."""
    out = {k: v for k, v in stub.items() if k not in sealed_box.BOXED}
    out["box"] = sealed_box.close({k: stub[k] for k in sealed_box.BOXED if k in stub},
                                  sealed_box.item_key(item_line), stub["sealed"]["record_sha256"])
    return out


def stub_of(record: dict, full_line: bytes, rows: list, answers: list[str], commitment: str | None,
            outcome, plugin, item_line: bytes, form: str = SEALED_FORMAT) -> dict:
    """The sealed record of one full record (`item_line`: its item's line, which closes the box), in
    format `form` (v2, with no box, only to check what an earlier round committed to)."""
    from .pipeline.calls import call_row

    row = call_row("", record, outcome)
    stub = {k: record[k] for k in ("item", "repeat", "attempts", "latency_ms", "usage") if k in record}
    stub["attempts"] = sealed_attempts(stub.get("attempts"))
    stub["sealed"] = {"format": form, "record_sha256": line_sha256(full_line), "item_commitment": commitment}
    stub["outcome"] = outcome.status
    stub["finish_reason"] = row[11]
    stub["refusal"] = bool(row[12])
    stub["verdicts"] = blind_rows(plugin, rows)
    stub["figures"] = list(plugin.item_figures(rows))
    stub["answers"] = answers
    return boxed(stub, item_line) if form == SEALED_FORMAT else stub


def rows_by_record(run_score) -> dict[tuple[str, int], list]:
    """A scored run's verdict rows (scorer A's) by (item, repeat)."""
    rows: dict[tuple[str, int], list] = {}
    for v in run_score.verdicts().rows():
        rows.setdefault((v.item, v.repeat), []).append(v)
    return rows


def stubs_of(plugin, items: dict, rows: dict[tuple[str, int], list], parsed: list[tuple[bytes, dict]],
             commitments: dict[str, str]) -> dict[str, dict]:
    """The sealed record `seal` makes of each private record of a run, by the SHA-256 of its full line:
    `items` the suite's items by id, `parsed` every (full line, record) of the run, `rows` its verdict
    rows by (item, repeat); an item's answer classes are taken over its private records' repeats."""
    from .parse.response import read_outcome

    half = {i: item.half for i, item in items.items()}
    answers: dict[str, dict[int, tuple[str, ...]]] = {}
    outcomes = {}
    for _line, record in parsed:
        if half.get(record["item"]) == "private":
            key = (record["item"], record["repeat"])
            outcomes[key] = read_outcome(record, plugin.extract_answer, plugin.answer_what)
            answers.setdefault(key[0], {})[key[1]] = answers_of(plugin, outcomes[key], rows.get(key, []))
    classes = {item: _answer_classes(a) for item, a in answers.items()}
    out = {}
    for line, record in parsed:
        if half.get(record["item"]) == "private":
            key = (record["item"], record["repeat"])
            out[line_sha256(line)] = stub_of(record, line, rows.get(key, []), classes[key[0]][key[1]],
                                             commitments.get(key[0]), outcomes[key], plugin, items[key[0]].line)
    return out


def upgrade_stub(stub: dict, plugin, run_id: str, item_line: bytes) -> dict:
    """A sealed record of an earlier format as `stub_of` makes it now, from what it stores (its private
    record need not be here, its item must): v1's figures from its rows, the rows blinded, the attempts
    trimmed, then the per-item fields closed in the box."""
    if stub["sealed"].get("format") == SEALED_FORMAT:
        return stub
    out = dict(stub, attempts=sealed_attempts(stub.get("attempts")))
    if stub["sealed"].get("format") == "tally-sealed-record-v1":
        rows = stub_rows(stub, run_id)
        out |= {"verdicts": blind_rows(plugin, rows), "figures": list(plugin.item_figures(rows))}
    out["sealed"] = dict(stub["sealed"], format=SEALED_FORMAT)
    return boxed(out, item_line)
