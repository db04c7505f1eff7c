"""RA-Bench's balance report: are the public and private halves built alike?

For every feature: the public and private means and the standardised difference
d = (mean_public - mean_private) / sqrt((var_public + var_private) / 2), as in the extracting suite's
report (the methodology page): shares use p(1 - p) as the variance, continuous features sample
variances over cases; 0/0 is 0; |d| > 0.1 flags an imbalance. Features, over base cases: the class
mix (genuine and each fake class), hard negatives, source, provenance, merchant type, amounts that
add up, the edited field, printed tax and receipt number, line items and text length; over duplicate
transforms: their share of the half's cases and their kinds. Written as the suite's `balance.json` (the suite page shows it)
and printed by `tally ra-bench balance`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

THRESHOLD = 0.1
HALVES = ("public", "private")
RULE = ("d = (mean_public - mean_private) / sqrt((var_public + var_private) / 2); shares use p(1-p), "
        f"continuous features sample variances over cases; 0/0 = 0; |d| > {THRESHOLD} flags imbalance")
CLASSES = ("genuine", "ai_full", "inpainted", "hand_edited", "template")
SOURCES = ("photo", "scan", "pdf")
PROVENANCE = ("intact", "stripped", "none")
EDITED = ("total", "subtotal", "tax_total", "date", "merchant", "line_items")
TRANSFORMS = ("re_encoded", "cropped", "re_shot")


def _r(x: float) -> float:
    return round(x, 6) + 0.0  # + 0.0 turns -0.0 into 0.0


def _entry(m1: float, m2: float, var1: float, var2: float) -> dict:
    pooled = math.sqrt((var1 + var2) / 2)
    d = (0.0 if m1 == m2 else math.copysign(math.inf, m1 - m2)) if pooled == 0 else (m1 - m2) / pooled
    return {"public": _r(m1), "private": _r(m2), "d": _r(d) if math.isfinite(d) else ("inf" if d > 0 else "-inf"),
            "flag": "imbalanced" if abs(d) > THRESHOLD else "ok"}


def _share(a: Sequence[dict], b: Sequence[dict], hit: Callable[[dict], bool]) -> dict:
    p1 = sum(map(hit, a)) / len(a) if a else 0.0
    p2 = sum(map(hit, b)) / len(b) if b else 0.0
    return _entry(p1, p2, p1 * (1 - p1), p2 * (1 - p2))


def _continuous(a: Sequence[float], b: Sequence[float]) -> dict:
    def mean_var(xs: Sequence[float]) -> tuple[float, float]:
        if not xs:
            return 0.0, 0.0
        m = sum(xs) / len(xs)
        return m, (sum((x - m) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0)
    (m1, v1), (m2, v2) = mean_var(a), mean_var(b)
    return _entry(m1, m2, v1, v2)


def _given(test: Callable[[dict, Any], bool], value: Any) -> Callable[[dict], bool]:
    """`test(item, value)` with `value` fixed, as a test of an item."""
    return lambda i: test(i, value)


def _features(pub: list[dict], prv: list[dict], pub_t: list[dict], prv_t: list[dict]) -> dict[str, dict]:
    label = lambda i: i["label"]  # noqa: E731
    feats = {f"class_share.{c}": _share(pub, prv, _given(lambda i, c: (label(i)["fake_class"] or "genuine") == c, c))
             for c in CLASSES}
    feats["hard_negative_share"] = _share(pub, prv, lambda i: label(i)["hard_negative"])
    feats |= {f"source_share.{s}": _share(pub, prv, _given(lambda i, s: i.get("strata", {}).get("source") == s, s))
              for s in SOURCES}
    feats |= {f"provenance_share.{p}": _share(pub, prv, _given(lambda i, p: label(i)["provenance"] == p, p))
              for p in PROVENANCE}
    types = sorted({i.get("strata", {}).get("merchant_type") for i in pub + prv} - {None})
    feats |= {f"merchant_type_share.{t}": _share(pub, prv, _given(lambda i, t: i["strata"].get("merchant_type") == t, t))
              for t in types}
    feats["adds_up_share"] = _share(pub, prv, lambda i: label(i)["adds_up"])
    feats |= {f"edited_field_share.{e}": _share(pub, prv, _given(lambda i, e: label(i)["edited_field"] == e, e)) for e in EDITED}
    feats["tax_printed_share"] = _share(pub, prv, lambda i: label(i)["fields"].get("tax_total") is not None)
    feats["receipt_number_printed_share"] = _share(pub, prv, lambda i: label(i)["fields"].get("receipt_number")
                                                   is not None)
    feats["line_items"] = _continuous([len(label(i).get("line_items") or []) for i in pub],
                                      [len(label(i).get("line_items") or []) for i in prv])
    feats["text_length_chars"] = _continuous([len(i["document"].get("text") or "") for i in pub],
                                             [len(i["document"].get("text") or "") for i in prv])
    feats["transform_share"] = _share(pub + pub_t, prv + prv_t, lambda i: label(i)["lineage"] is not None)
    feats |= {f"transform_share.{t}": _share(pub_t, prv_t, _given(lambda i, t: label(i)["lineage"]["transform"] == t, t))
              for t in TRANSFORMS}
    return feats


def balance_report(items: list[dict]) -> dict:
    """The report of RA-Bench items (raw item objects) in the suite's balance.json format: one dataset."""
    datasets: dict[str, dict] = {}
    for ds in sorted({i["dataset"] for i in items}):
        halves = {h: [i for i in items if i["dataset"] == ds and i["half"] == h] for h in HALVES}
        base = {h: [i for i in halves[h] if i["label"]["lineage"] is None] for h in HALVES}
        transforms = {h: [i for i in halves[h] if i["label"]["lineage"] is not None] for h in HALVES}
        feats = _features(base["public"], base["private"], transforms["public"], transforms["private"])
        ds_ = [abs(e["d"]) if isinstance(e["d"], float) else math.inf for e in feats.values()]
        worst = max(ds_) if ds_ else 0.0
        datasets[ds] = {"n_items": {h: len(halves[h]) for h in HALVES}, "features": feats,
                        "max_abs_d": _r(worst) if math.isfinite(worst) else "inf",
                        "imbalanced": [name for name, e in feats.items() if e["flag"] != "ok"]}
    worst_all = [d["max_abs_d"] for d in datasets.values()]
    return {"threshold": THRESHOLD, "rule": RULE, "datasets": datasets,
            "max_abs_d": "inf" if "inf" in worst_all else max(worst_all, default=0.0)}


def balance_lines(report: dict) -> list[str]:
    """The report as a text table (`tally ra-bench balance`)."""
    out = [f"rule: {report['rule']}"]
    for ds, rep in report["datasets"].items():
        n = rep["n_items"]
        out.append(f"{ds}: {n['public']} public and {n['private']} private items, largest |d| = {rep['max_abs_d']}, "
                   + ("imbalanced: " + ", ".join(rep["imbalanced"]) if rep["imbalanced"] else "no imbalanced feature"))
        out.append(f"  {'feature':<36}{'public':>12}{'private':>12}{'d':>10}  flag")
        for name, e in rep["features"].items():
            out.append(f"  {name:<36}{e['public']:>12}{e['private']:>12}{e['d']!s:>10}  {e['flag']}")
    return out
