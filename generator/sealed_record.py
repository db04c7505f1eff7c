"""The sealed record: what `results/` publishes in place of a private item's full record.

    {"item", "repeat", "attempts", "latency_ms", "usage"  (the call's figures, as stored),
     "sealed": {"format", "record_sha256" (of the full line), "item_commitment" (SHA-256 of the
                item's salted commitment file, or null when the round's private storage is not here)},
     "outcome", "finish_reason", "refusal", "verdicts": [[unit, kind, verdict, points, order], ...],
     "figures": [the suite's per-item figures of this response],
     "answers": [per unit, which of the item's repeats answered alike: "=0", "=1", ...]}

No request, no response text, no rejected response body, no verdict reason, and nothing of the answer
key: a unit naming something of the item and an `order` quoting the key are blinded (`blind_rows`);
the private scores are recomputed from the stored figures. Records sealed in format v1 (full units and
`order`s) are upgraded in place by `tally results seal` without their private records.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .sealing import line_sha256

if TYPE_CHECKING:
    from .suite_api import Suite

SEALED_FORMAT = "tally-sealed-record-v2"
SEALED_FORMATS = ("tally-sealed-record-v1", SEALED_FORMAT)
# Attempt fields a sealed record keeps: the call's figures; never a rejected response's body.
ATTEMPT_FIELDS = ("error", "latency_ms", "start", "status")
_ID_UNIT = re.compile(r"([^:]*[0-9][^:]*):(.+)")  # "<something of the item>:<what>", e.g. "T09:outside_period"


def blind_rows(plugin: Suite, rows: list) -> list[list]:
    """A response's verdict rows as a sealed record shows them: nothing from which the answer key can
    be read. A unit that names something of the item ("T09:outside_period": a transaction and its
    fault) shows only its position and what it is ("#4:outside_period"); `order` is kept only where the
    suite's `sealed_order_kept` says it is the model's own figure or a comparison; a suite that does not
    say shows positions only ("#4") and no `order`. The kind, verdict and points stay: the private
    scores are recomputed from them and from the stored figures."""
    out = []
    for k, v in enumerate(rows):
        keep = plugin.sealed_order_kept(v.unit)
        if keep is None:
            out.append([f"#{k}", v.kind, v.verdict, v.points, ""])
            continue
        m = _ID_UNIT.fullmatch(v.unit)
        out.append([f"#{k}:{m.group(2)}" if m else v.unit, v.kind, v.verdict, v.points, v.order if keep else ""])
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

    return [Verdict(run_id, record["item"], record["repeat"], str(u), str(k), str(v), int(p), "", str(o))
            for u, k, v, p, o in record["verdicts"]]


def stub_problem(record: dict) -> str | None:
    """Why a sealed record cannot be scored from its stored verdicts, or None."""
    verdicts, answers = record.get("verdicts"), record.get("answers")
    if not isinstance(verdicts, list) or not all(
            isinstance(v, list) and len(v) == 5 and type(v[3]) is int for v in verdicts):
        return "a sealed record's verdicts must be [unit, kind, verdict, points, order] rows"
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


def stub_of(record: dict, full_line: bytes, rows: list, answers: list[str], commitment: str | None,
            outcome, plugin) -> dict:
    from .calls import call_row

    row = call_row("", record, outcome)
    stub = {k: record[k] for k in ("item", "repeat", "attempts", "latency_ms", "usage") if k in record}
    stub["attempts"] = sealed_attempts(stub.get("attempts"))
    stub["sealed"] = {"format": SEALED_FORMAT, "record_sha256": line_sha256(full_line),
                      "item_commitment": commitment}
    stub["outcome"] = outcome.status
    stub["finish_reason"] = row[11]
    stub["refusal"] = bool(row[12])
    stub["verdicts"] = blind_rows(plugin, rows)
    stub["figures"] = list(plugin.item_figures(rows))
    stub["answers"] = answers
    return stub


def rows_by_record(run_score) -> dict[tuple[str, int], list]:
    """A scored run's verdict rows (scorer A's) by (item, repeat)."""
    rows: dict[tuple[str, int], list] = {}
    for v in run_score.verdicts().rows():
        rows.setdefault((v.item, v.repeat), []).append(v)
    return rows


def stubs_of(plugin, half: dict[str, str], rows: dict[tuple[str, int], list], parsed: list[tuple[bytes, dict]],
             commitments: dict[str, str]) -> dict[str, dict]:
    """The sealed record `seal` makes of each private record of a run, by the SHA-256 of its full line:
    `parsed` is every (full line, record) of the run, `rows` its verdict rows by (item, repeat), and an
    item's answer classes are taken over its private records' repeats."""
    from .parse.response import read_outcome

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
                                             commitments.get(key[0]), outcomes[key], plugin)
    return out


def upgrade_stub(stub: dict, plugin, run_id: str) -> dict:
    """A sealed record of an earlier format as `stub_of` makes it now, from what it stores (its private
    record need not be here): figures from its rows, then the rows blinded and the attempts trimmed."""
    if stub["sealed"].get("format") == SEALED_FORMAT:
        return stub
    rows = stub_rows(stub, run_id)
    out = dict(stub, attempts=sealed_attempts(stub.get("attempts")), verdicts=blind_rows(plugin, rows),
               figures=list(plugin.item_figures(rows)))
    out["sealed"] = dict(stub["sealed"], format=SEALED_FORMAT)
    return out
