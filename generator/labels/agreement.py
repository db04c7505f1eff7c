"""Agreement of two labellers and the estimated label error rate, per document type (dataset).

Two answers agree when their canonical forms are equal: text squashed (Unicode NFC, case folded,
runs of white space as one space), amounts and numbers as decimals (65.7 = 65.70), lists and objects
element by element, null only with null. Chance-corrected agreement is Cohen's kappa over the
canonical answers as categories (scikit-learn's `cohen_kappa_score`); it is undefined (shown as
none) when every answer of both labellers is one category.

The adjudicator settles each disagreement; the checked answer used for scoring is the adjudicated
answer there and the first labeller's elsewhere. The label error rate is the share of the first
labeller's answers in the random sample that the adjudicator overturned (95% Wilson interval);
the extra missing and computed fields are corrected too but, not being a random draw, are counted apart.
"""

from __future__ import annotations

import json
import unicodedata
from collections import defaultdict
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation

import numpy as np

from ..stats.wilson import rate
from .files import LabelConfig, Labels
from .sample import WHY_SAMPLE

NUMERIC = ("money", "number", "count", "percent")
AGREED, UPHELD, OVERTURNED, UNSETTLED, AWAITING = "agreed", "upheld", "overturned", "unsettled", "awaiting"


def _norm(value: object, ftype: str) -> object:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, list):
        return [_norm(v, ftype) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v, "money" if k == "amount" else "text") for k, v in value.items()}
    if ftype in NUMERIC and isinstance(value, (int, float, str)):
        try:
            d = Decimal(str(value).replace(",", "").strip())
            if d.is_finite():
                return "#" + format(d.normalize(), "f")
        except InvalidOperation:
            pass
    if isinstance(value, str):
        return " ".join(unicodedata.normalize("NFC", value).casefold().split())
    return value


def canon(value: object, ftype: str = "text") -> str:
    """The canonical form two answers are compared by (a string, usable as a category)."""
    return json.dumps(_norm(value, ftype), ensure_ascii=False, sort_keys=True)


def kappa(first: list[str], second: list[str]) -> float | None:
    """Cohen's kappa of two labellers' categories; None when undefined or no pairs. One minus the
    disagreement observed over the disagreement expected by chance (the product of the two labellers'
    category shares), over every cell off the diagonal of the categories' confusion matrix; computed
    in the order scikit-learn's `cohen_kappa_score` computes it, so the same float (tests/test_labels.py)."""
    if not first or len(set(first) | set(second)) < 2:
        return None
    categories = sorted(set(first) | set(second))
    index = {c: k for k, c in enumerate(categories)}
    n = len(categories)
    confusion = np.zeros((n, n), dtype=np.int64)
    np.add.at(confusion, ([index[c] for c in first], [index[c] for c in second]), 1)
    by_second, by_first = confusion.sum(axis=0), confusion.sum(axis=1)
    expected = np.outer(by_second, by_first) / np.sum(by_second)
    off = np.ones((n, n), dtype=np.int64)
    off.flat[::n + 1] = 0
    chance = np.sum(off * expected)
    return None if chance == 0 else float(1 - np.sum(off * confusion) / chance)


def compare(sample: dict, first: Labels, second: Labels, adjudicator: Labels) -> list[dict]:
    """One row per requested (item, field): both answers, the adjudicated one and the outcome."""
    rows = []
    for r in sample["requests"]:
        key = (r["item"], r["field"])
        a1 = first.answers.get(key)
        row = {**r, "first": a1, "second": None, "adjudicated": None, "outcome": AWAITING}
        if key not in first.answers:
            row["outcome"] = "not labelled by the first labeller"
        elif key in second.answers:
            a2 = second.answers[key]
            row["second"] = a2
            if canon(a1, r["type"]) == canon(a2, r["type"]):
                row["outcome"] = AGREED
            elif key in adjudicator.answers:
                adj = adjudicator.answers[key]
                row["adjudicated"] = adj
                row["outcome"] = UPHELD if canon(adj, r["type"]) == canon(a1, r["type"]) else OVERTURNED
            else:
                row["outcome"] = UNSETTLED
        rows.append(row)
    return rows


def checked_answers(first: Labels, rows: list[dict]) -> dict[tuple[str, str], object]:
    """The answers used for scoring: the adjudicated answer where a disagreement was settled, else the first."""
    out = dict(first.answers)
    for r in rows:
        if r["outcome"] in (UPHELD, OVERTURNED):
            out[(r["item"], r["field"])] = r["adjudicated"]
    return out


def mismatches(raw_items: Mapping[str, dict], first: Labels, rows: list[dict]) -> list[str]:
    """Items whose checked answer is not the labels' (adjudicated) answer, and labels of unknown items."""
    want = checked_answers(first, rows)
    out = []
    for item in sorted(first.items):
        raw = raw_items.get(item)
        if raw is None:
            out.append(f"{item}: labelled by {first.name} but not an item of the suite")
            continue
        if "dataset" in raw and (raw["dataset"], raw.get("half")) != first.items[item]:
            out.append(f"{item}: in {first.name}'s {'.'.join(first.items[item])} file but the item is of "
                       f"{raw['dataset']}.{raw.get('half')}")
        for f in raw["fields"]:
            key = (item, f["name"])
            if key not in want:
                out.append(f"{item} {f['name']}: no label by {first.name}")
            elif canon(want[key], f["type"]) != canon(f.get("answer"), f["type"]):
                out.append(f"{item} {f['name']}: the item's checked answer {json.dumps(f.get('answer'))} is not "
                           f"the labels' {json.dumps(want[key])}")
    return out


def summary(config: LabelConfig, sample: dict, first: Labels, second: Labels, adjudicator: Labels,
            flagged: list[dict], raw_items: Mapping[str, dict], titles: dict[str, str] | None = None) -> dict:
    """Per document type: agreement, kappa, the label error rate, machine-check flags; and per item rows."""
    rows = compare(sample, first, second, adjudicator)
    by_dataset: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_dataset[r["dataset"]].append(r)
    docs: dict[str, int] = defaultdict(int)
    for dataset, _half in first.items.values():
        docs[dataset] += 1
    flags: dict[str, int] = defaultdict(int)
    for f in flagged:
        flags[f["dataset"]] += 1
    types = []
    for dataset in sorted(set(docs) | set(flags)):
        group = by_dataset.get(dataset, [])
        pairs = [r for r in group if r["outcome"] in (AGREED, UPHELD, OVERTURNED, UNSETTLED)]
        agreed = sum(r["outcome"] == AGREED for r in pairs)
        settled_sample = [r for r in pairs if r["why"] == WHY_SAMPLE and r["outcome"] != UNSETTLED]
        extra = [r for r in pairs if r["why"] != WHY_SAMPLE]
        types.append({
            "dataset": dataset, "title": (titles or {}).get(dataset, dataset),
            "documents": docs.get(dataset, 0), "sampled_documents": len(sample["documents"].get(dataset, [])),
            "fields_requested": len(group), "fields_compared": len(pairs),
            "agreement": rate(agreed, len(pairs)),
            "kappa": kappa([canon(r["first"], r["type"]) for r in pairs], [canon(r["second"], r["type"]) for r in pairs]),
            "disagreements": len(pairs) - agreed,
            "unsettled": sum(r["outcome"] == UNSETTLED for r in pairs),
            "awaiting": sum(r["outcome"] == AWAITING for r in group),
            "error_rate": rate(sum(r["outcome"] == OVERTURNED for r in settled_sample), len(settled_sample)),
            "extra_fields": len(extra), "extra_overturned": sum(r["outcome"] == OVERTURNED for r in extra),
            "flagged": rate(flags[dataset], docs.get(dataset, 0) + flags[dataset]) if flags.get(dataset) else None,
        })
    items: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        items[r["item"]].append({k: r[k] for k in ("field", "why", "first", "second", "adjudicated", "outcome")})
    return {"first": config.first, "second": config.second, "adjudicator": config.adjudicator,
            "simulated": [n for n in (config.first, config.second, config.adjudicator) if config.is_simulated(n)],
            "note": config.note, "share": config.share, "seed": config.seed, "types": types,
            "labelled_items": sorted(first.items), "items": dict(items), "flagged": flagged,
            "mismatches": mismatches(raw_items, first, rows)}
