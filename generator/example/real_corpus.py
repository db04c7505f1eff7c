"""Real documents of the extracting suite's example: SROIE receipts and NWS products.

Read from the repository's copy in data/real-documents/ (PROVENANCE.md there). Each document gets
its checked answers from a labeller (real_sroie, real_nws); a document whose labels fail a machine
check, or that the labeller can't read, is left out with the reason (``report``).

Halves: a dataset's real documents are sorted by text length (then origin) and taken in pairs;
a pair's two documents go to different halves, the orientation that keeps the dataset's balance
report (generated items plus the real ones placed so far) the most even (smallest max |d|, the
public-first orientation on a tie). An odd document out is left out.
"""

from __future__ import annotations

import json
import pathlib

from ..inputs.jsonl import jsonl_values
from . import real_nws, real_sroie
from .balance import balance_report

DATA = pathlib.Path(__file__).resolve().parents[2] / "data" / "real-documents"
SROIE_FILE = "sroie/test.metadata.first60.jsonl"
NWS_SETS = (("tables", "CLI", real_nws.label_cli), ("govforms", "LSR", real_nws.label_lsr))
TAGS = {"public": "pub", "private": "prv"}


def candidates(data: pathlib.Path = DATA) -> tuple[dict[str, list[dict]], list[dict]]:
    """Labelled real documents per dataset (item bodies without id and half), and the left-out list."""
    out: dict[str, list[dict]] = {"receipts": [], "tables": [], "govforms": []}
    left: list[dict] = []
    for record in jsonl_values((data / SROIE_FILE).read_bytes(), data / SROIE_FILE):
        origin = f"SROIE test set, receipt {record['key']}"
        body, problems = real_sroie.label(record)
        if body is None:
            left.append({"origin": origin, "dataset": "receipts", "reasons": problems})
            continue
        out["receipts"].append(_body("receipts", "sroie", origin, body["text"], real_sroie.LOCALE,
                                     real_sroie.CURRENCY, real_sroie.ATTRIBUTION, body["fields"]))
    for dataset, folder, labeller in NWS_SETS:
        for path in sorted((data / "nws" / folder).glob("*.txt")):
            origin = f"NWS product nws/{folder}/{path.name}"
            text = real_nws.document_text(path.read_bytes())
            fields, problems = labeller(text)
            if problems:
                left.append({"origin": origin, "dataset": dataset, "reasons": problems})
                continue
            out[dataset].append(_body(dataset, "nws", origin, text, "en-US", "USD", real_nws.ATTRIBUTION, fields))
    return out, left


def _body(dataset: str, collection: str, origin: str, text: str, locale: str, currency: str,
          attribution: str, fields: list[dict]) -> dict:
    return {"dataset": dataset, "collection": collection,
            "document": {"text": text, "locale": locale, "currency": currency, "attribution": attribution,
                         "origin": origin},
            "fields": fields}


def _worst(report: dict, dataset: str) -> float:
    d = report["datasets"][dataset]["max_abs_d"]
    return float("inf") if d == "inf" else d


def split(dataset: str, bodies: list[dict], generated: list[dict], finish) -> tuple[list[dict], list[dict]]:
    """(placed items, left-out entries): pairs by length, each pair's orientation chosen by balance."""
    order = sorted(bodies, key=lambda b: (len(b["document"]["text"]), b["document"]["origin"]))
    left = []
    if len(order) % 2:
        odd = order.pop()
        left.append({"origin": odd["document"]["origin"], "dataset": dataset,
                     "reasons": ["odd one out: no partner for the half split"]})
    placed: list[dict] = []
    counts = {"public": 0, "private": 0}
    for a, b in zip(order[0::2], order[1::2]):
        best = None
        for first, second in (("public", "private"), ("private", "public")):
            trial = [finish(a, first, counts[first] + 1), finish(b, second, counts[second] + 1)]
            score = _worst(balance_report(generated + placed + trial), dataset)
            if best is None or score < best[0]:
                best = (score, trial)
        assert best is not None
        placed += best[1]
        counts["public"] += 1
        counts["private"] += 1
    return placed, left


def write_report(path: pathlib.Path, items: list[dict], data: pathlib.Path = DATA) -> pathlib.Path:
    """Write the labelling report of the real items among ``items`` (the corpus as written)."""
    bodies, left = candidates(data)
    placed = [i for i in items if i["strata"].get("source") == "real"]
    origins = {i["document"]["origin"] for i in placed}
    for dataset, group in bodies.items():
        left += [{"origin": b["document"]["origin"], "dataset": dataset,
                  "reasons": ["odd one out: no partner for the half split"]}
                 for b in group if b["document"]["origin"] not in origins]
    text = json.dumps(report(left, placed), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8", newline="\n")
    return path


def report(left: list[dict], placed: list[dict]) -> dict:
    """The labelling report: what was used, what was left out and why."""
    used: dict[str, int] = {}
    for item in placed:
        key = f"{item['dataset']}/{item['strata']['collection']}"
        used[key] = used.get(key, 0) + 1
    return {"used": dict(sorted(used.items())), "left_out": left,
            "left_out_count": len(left),
            "rule": "content/pages/scoring-extracting.md, section Real documents"}
