"""Balance report: do the public and private halves look alike?

For every feature the report gives the public mean, the private mean and the standardized
difference d = (mean_public - mean_private) / sqrt((s_public^2 + s_private^2) / 2).
Continuous features (document length, number of fields) use sample SDs over items; shares
(field kind, field type: over fields; locale: over items) use p(1-p) as the variance. 0/0 is 0.
A feature with |d| > 0.1 is flagged as imbalanced.
"""

from __future__ import annotations

import json
import math
import pathlib

THRESHOLD = 0.1
KINDS = ("printed", "computed", "missing")
TYPES = ("money", "count", "number", "date", "text", "identifier", "currency", "list")
LOCALES = ("en-US", "en-GB", "de-DE", "fr-FR", "es-MX", "ja-JP")
HALVES = ("public", "private")
RULE = ("d = (mean_public - mean_private) / sqrt((sd_public^2 + sd_private^2) / 2); "
        "continuous features use sample SDs over items, shares use p(1-p); 0/0 = 0; "
        f"|d| > {THRESHOLD} flags imbalance")


def _r(x: float) -> float:
    return round(x, 6) + 0.0  # + 0.0 turns -0.0 into 0.0


def _d(diff: float, var1: float, var2: float) -> float:
    pooled = math.sqrt((var1 + var2) / 2)
    if pooled == 0:
        return 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return diff / pooled


def _mean_var(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, 0.0
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
    return m, var


def _entry(m1: float, m2: float, d: float) -> dict:
    flag = "imbalanced" if abs(d) > THRESHOLD else "ok"
    d_out = _r(d) if math.isfinite(d) else ("inf" if d > 0 else "-inf")
    return {"public": _r(m1), "private": _r(m2), "d": d_out, "flag": flag}


def _continuous(a: list[float], b: list[float]) -> dict:
    (m1, v1), (m2, v2) = _mean_var(a), _mean_var(b)
    return _entry(m1, m2, _d(m1 - m2, v1, v2))


def _share(k1: int, n1: int, k2: int, n2: int) -> dict:
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    return _entry(p1, p2, _d(p1 - p2, p1 * (1 - p1), p2 * (1 - p2)))


def _compare(pub: list[dict], prv: list[dict]) -> dict:
    feats: dict[str, dict] = {}
    feats["doc_length_chars"] = _continuous([len(i["document"]["text"]) for i in pub],
                                            [len(i["document"]["text"]) for i in prv])
    feats["n_fields"] = _continuous([len(i["fields"]) for i in pub],
                                    [len(i["fields"]) for i in prv])
    f1 = [f for i in pub for f in i["fields"]]
    f2 = [f for i in prv for f in i["fields"]]
    for k in KINDS:
        feats[f"kind_share.{k}"] = _share(sum(f["kind"] == k for f in f1), len(f1),
                                          sum(f["kind"] == k for f in f2), len(f2))
    for t in TYPES:
        feats[f"type_share.{t}"] = _share(sum(f["type"] == t for f in f1), len(f1),
                                          sum(f["type"] == t for f in f2), len(f2))
    for loc in LOCALES:
        feats[f"locale_share.{loc}"] = _share(
            sum(i["document"]["locale"] == loc for i in pub), len(pub),
            sum(i["document"]["locale"] == loc for i in prv), len(prv))
    ds = [abs(e["d"]) if isinstance(e["d"], float) else math.inf for e in feats.values()]
    worst = max(ds) if ds else 0.0
    return {"n_items": {"public": len(pub), "private": len(prv)},
            "features": feats,
            "max_abs_d": _r(worst) if math.isfinite(worst) else "inf",
            "imbalanced": [name for name, e in feats.items() if e["flag"] != "ok"]}


def balance_report(items: list[dict]) -> dict:
    """Compare the public and private halves overall and per dataset."""
    datasets = sorted({i["dataset"] for i in items})
    split = {h: [i for i in items if i["half"] == h] for h in HALVES}
    overall = _compare(split["public"], split["private"])
    per_dataset = {ds: _compare([i for i in split["public"] if i["dataset"] == ds],
                                [i for i in split["private"] if i["dataset"] == ds])
                   for ds in datasets}
    report: dict[str, object] = {"threshold": THRESHOLD, "rule": RULE, "overall": overall, "datasets": per_dataset}
    worst = [overall["max_abs_d"]] + [v["max_abs_d"] for v in per_dataset.values()]
    report["max_abs_d"] = "inf" if "inf" in worst else max(worst)
    return report


def write_balance(path: pathlib.Path, items: list[dict]) -> pathlib.Path:
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(balance_report(items), sort_keys=True, indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8", newline="\n")
    return path
