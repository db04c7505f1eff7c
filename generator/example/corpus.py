"""Entry point of the example corpus of the extracting suite.

``generate_corpus(seed)`` builds 720 items: six datasets, a public and a private half of 60 items
each. Both halves of a dataset share one *blueprint*: a list of 60 document plans (locale,
template, which fields are requested, which are printed, computed or missing) drawn once per
dataset. Each half shuffles the plans with its own seed and fills every document (names,
amounts, dates, identifiers) with its own per-item seed, so the halves have the same design and
different content. Only ``random.Random`` instances seeded from strings are used: the output is
byte-identical for the same seed.
"""

from __future__ import annotations

import datetime as dt
import json
import pathlib
import random
import re

from . import doc_emails, doc_govforms, doc_invoices, doc_receipts, doc_sparse, doc_tables
from . import locales as L

DEFAULT_SEED = 20261020
REFERENCE_DATE = "2026-10-20"
DATASETS = ("receipts", "invoices", "govforms", "emails", "tables", "sparse")
MODULES = {"receipts": doc_receipts, "invoices": doc_invoices, "govforms": doc_govforms,
           "emails": doc_emails, "tables": doc_tables, "sparse": doc_sparse}
HALVES = (("public", "pub"), ("private", "prv"))
HALF_TAGS = dict(HALVES)
ITEMS_PER_HALF = 60
ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}$")
FIELD_TYPES = ("money", "count", "number", "date", "text", "identifier", "currency", "list")
KINDS = ("printed", "computed", "missing")


def _rng(seed: int, *parts) -> random.Random:
    return random.Random(":".join(str(x) for x in (seed, *parts)))


def blueprint(seed: int, dataset: str) -> list[dict]:
    """The 60 document plans both halves of a dataset are built from (locales balanced)."""
    rng = _rng(seed, dataset, "blueprint")
    if dataset == "govforms":
        locs = ["en-US"] * ITEMS_PER_HALF
    else:
        locs = [L.LOCALES[i % len(L.LOCALES)] for i in range(ITEMS_PER_HALF)]
    return [MODULES[dataset].plan(rng, loc) for loc in locs]


def field_band(n: int) -> str:
    return "1-4" if n <= 4 else "5-8" if n <= 8 else "9-12" if n <= 12 else "13+"


def length_band(n: int) -> str:
    return "short" if n < 350 else "medium" if n < 600 else "long"


def shows(text: str, rendering: str) -> bool:
    """Whether ``rendering`` occurs in ``text`` not glued to further digits ("Jul 2" vs "Jul 20")."""
    return re.search(r"(?<!\d)" + re.escape(rendering) + r"(?!\d)", text) is not None


def yearless_dates(item: dict) -> list[str]:
    """Names of printed date fields whose date is shown only without a year."""
    text, loc = item["document"]["text"], item["document"]["locale"]
    names = []
    for f in item["fields"]:
        if f["type"] != "date" or f["kind"] != "printed":
            continue
        day = dt.date.fromisoformat(f["answer"])
        full = [L.fmt_date(day, loc, s) for s in ("numeric", "long", "short")]
        full.append(f"{day.day} {L.MONTHS_SHORT['en'][day.month - 1]} {day.year}")  # mail header
        if not any(shows(text, r) for r in full) and shows(text, L.fmt_date(day, loc, "noyear")):
            names.append(f["name"])
    return names


def difficulty(item: dict, multi_step: int) -> str:
    """easy | medium | hard from a points rule.

    One point each for: 9 or more fields (two for 13 or more); every computed field (at most
    three); every computed field that needs several steps; a decimal-comma locale (de-DE,
    fr-FR) or ja-JP; a date printed without its year. 0-2 points is easy, 3-4 medium, 5+ hard.
    """
    fields = item["fields"]
    n = len(fields)
    pts = (n >= 9) + (n >= 13)
    pts += min(3, sum(f["kind"] == "computed" for f in fields)) + multi_step
    pts += item["document"]["locale"] in ("de-DE", "fr-FR", "ja-JP")
    pts += bool(yearless_dates(item))
    return "easy" if pts <= 2 else "medium" if pts <= 4 else "hard"


def _item(dataset: str, half: str, tag: str, k: int, plan: dict, rng: random.Random) -> dict:
    doc = MODULES[dataset].render(plan, rng)
    names = [f["name"] for f in doc["fields"]]
    assert len(names) == len(set(names)), (dataset, names)
    item = {
        "id": f"{dataset}-{tag}-{k:04d}",
        "dataset": dataset,
        "half": half,
        "document": {"text": doc["text"], "locale": plan["locale"], "currency": doc["currency"],
                     "reference_date": REFERENCE_DATE},
        "fields": doc["fields"],
    }
    item["strata"] = {"locale": plan["locale"], "field_band": field_band(len(names)),
                      "doc_length": length_band(len(doc["text"])),
                      "difficulty": difficulty(item, doc["multi_step"]),
                      "source": "generated", "collection": "generated"}
    return item


def _real_item(body: dict, half: str, k: int) -> dict:
    """A real document's item (real_corpus): the same strata rules as a generated one."""
    dataset, collection = body["dataset"], body["collection"]
    doc = dict(body["document"], reference_date=REFERENCE_DATE)
    item = {"id": f"{dataset}-{HALF_TAGS[half]}-{collection}-{k:04d}", "dataset": dataset, "half": half,
            "document": doc, "fields": body["fields"]}
    item["strata"] = {"locale": doc["locale"], "field_band": field_band(len(body["fields"])),
                      "doc_length": length_band(len(doc["text"])),
                      "difficulty": difficulty(item, 0), "source": "real", "collection": collection}
    return item


def add_real(out: dict[str, list[dict]], data=None) -> list[dict]:
    """Append the real documents to their datasets' halves; returns the labelling report's left-out list."""
    from . import real_corpus as R

    bodies, left = R.candidates(data or R.DATA)
    for dataset in DATASETS:
        if not bodies.get(dataset):
            continue
        generated = out[f"{dataset}.public"] + out[f"{dataset}.private"]
        placed, odd = R.split(dataset, bodies[dataset], generated, _real_item)
        left += odd
        for half in ("public", "private"):
            out[f"{dataset}.{half}"] += [i for i in placed if i["half"] == half]
    return left


def generate_corpus(seed: int = DEFAULT_SEED, real: bool = True, data=None) -> dict[str, list[dict]]:
    """All items, keyed by file stem ``<dataset>.<half>``: the generated ones, then (``real``) the real
    documents of data/real-documents/ (or ``data``), placed by real_corpus."""
    out: dict[str, list[dict]] = {}
    for dataset in DATASETS:
        plans = blueprint(seed, dataset)
        for half, tag in HALVES:
            order = list(range(len(plans)))
            _rng(seed, dataset, half, "order").shuffle(order)
            out[f"{dataset}.{half}"] = [
                _item(dataset, half, tag, k, plans[idx], _rng(seed, dataset, half, k))
                for k, idx in enumerate(order, start=1)]
    if real:
        add_real(out, data)
    return out


def dumps_jsonl(items: list[dict]) -> str:
    return "".join(json.dumps(it, sort_keys=True, ensure_ascii=False) + "\n" for it in items)


def write_corpus(items_dir: pathlib.Path, seed: int = DEFAULT_SEED, data=None,
                 pages: bool = False) -> list[pathlib.Path]:
    """Write ``items_dir/<dataset>.<half>.jsonl`` (with ``pages``: and the page images of every
    public document, items_dir/pages/, recorded in its ``document.pages``); returns the paths written.

    Private items stay text only: the example's signed commitments (content/commitments/) hold their
    exact lines, so adding pages to them would need a new round of commitments."""
    items_dir = pathlib.Path(items_dir)
    items_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    corpus = generate_corpus(seed, data=data)
    if pages:
        from .page_render import add_pages

        paths += add_pages(items_dir, [i for i in all_items(corpus) if i["half"] == "public"], seed)
    for stem, items in corpus.items():
        path = items_dir / f"{stem}.jsonl"
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(dumps_jsonl(items))
        paths.append(path)
    return paths


def all_items(corpus: dict[str, list[dict]]) -> list[dict]:
    return [it for stem in corpus for it in corpus[stem]]


if __name__ == "__main__":  # pragma: no cover
    import sys
    for p in write_corpus(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "items")):
        print(p)
