"""`tally labels sample`: what the second labeller labels, independently of the first.

Per dataset, a seeded uniform draw of ceil(share x n) of the documents the first labeller labelled
(every field of each), plus every field the first labeller's item marks missing or computed in the
other documents (the answers most often wrong). The second labeller is shown the documents and the
field names, never the first labeller's answers.
"""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path

from .files import SAMPLE, SAMPLE_FORMAT, LabelConfig, Labels, refuse_links

WHY_SAMPLE, WHY_MISSING, WHY_COMPUTED = "sample", "missing", "computed"


def draw(config: LabelConfig, first: Labels, raw_items: Mapping[str, dict]) -> dict:
    """The sample document: the drawn documents per dataset and every (item, field) request."""
    by_dataset: dict[str, list[str]] = defaultdict(list)
    for item in sorted(first.items):
        by_dataset[first.items[item][0]].append(item)
    drawn: dict[str, list[str]] = {}
    requests = []
    for dataset in sorted(by_dataset):
        ids = by_dataset[dataset]
        rng = random.Random(f"{config.seed}:{dataset}")
        chosen = set(rng.sample(ids, math.ceil(config.share * len(ids))))
        drawn[dataset] = sorted(chosen)
        for item in ids:
            raw = raw_items.get(item)
            if raw is None:
                continue  # a label of an item the suite no longer has: the report lists it
            for f in raw["fields"]:
                if (item, f["name"]) not in first.answers:
                    continue
                why = WHY_SAMPLE if item in chosen else {"missing": WHY_MISSING, "computed": WHY_COMPUTED}.get(f["kind"])
                if why:
                    requests.append({"item": item, "dataset": dataset, "half": first.items[item][1],
                                     "field": f["name"], "type": f["type"], "why": why})
    return {"format": SAMPLE_FORMAT, "first": config.first, "second": config.second, "seed": config.seed,
            "share": config.share, "documents": drawn, "requests": requests}


def write_sample(config: LabelConfig, doc: dict) -> Path:
    """sample.json: the settings and drawn documents, then one request a line."""
    path = config.folder / SAMPLE
    refuse_links(config.folder, path)
    head = json.dumps({k: v for k, v in doc.items() if k != "requests"}, ensure_ascii=False, indent=1, sort_keys=True)
    rows = ",\n".join("  " + json.dumps(r, ensure_ascii=False, sort_keys=True) for r in doc["requests"])
    text = head[:-2] + ',\n "requests": [\n' + rows + "\n ]\n}\n"
    path.write_text(text, encoding="utf-8", newline="\n")
    return path


def counts(doc: dict) -> dict[str, dict[str, int]]:
    """dataset -> why -> requested fields."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in doc["requests"]:
        out[r["dataset"]][r["why"]] += 1
    return {d: dict(v) for d, v in sorted(out.items())}
