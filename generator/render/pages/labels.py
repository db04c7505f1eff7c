"""Label agreement on the suite page and the label check of each item (generator.labels: computed
while gathering; laid out here)."""

from __future__ import annotations

import json

from ..context import Column, Table, interval, number, text
from ..gather import SuiteView

OUTCOMES = {"agreed": "second labeller agreed", "upheld": "adjudicated: the first labeller's answer upheld",
            "overturned": "adjudicated: the first labeller's answer overturned",
            "unsettled": "the labellers disagree; not yet adjudicated", "awaiting": "awaiting the second labeller"}
WHY = {"sample": "random sample", "missing": "missing field", "computed": "computed field"}


def label_tables(sd: SuiteView) -> list[Table]:
    """Agreement and label error rate per document type."""
    s = sd.labels
    if not s:
        return []
    name = sd.suite.name
    t = Table("label-agreement", "Label agreement and estimated label error rate per document type (95% Wilson intervals)",
              [Column("type", "Document type"), Column("documents", "Documents", True),
               Column("sampled", "Drawn for the second labeller", True), Column("compared", "Fields compared", True),
               Column("agreement", "Raw agreement (%)", True),
               Column("kappa", "Cohen's kappa", True, help="agreement corrected for chance, over the answers as categories"),
               Column("error", "Label error rate (%)", True,
                      help="share of the first labeller's answers in the random sample that the adjudicator overturned"),
               Column("extra", "Missing and computed fields outside the sample: overturned", True),
               Column("flagged", "First labels flagged by machine checks (%)", True),
               Column("open", "Unsettled or awaiting", True)],
              export=f"downloads/{name}/label-agreement")
    for r in s["types"]:
        t.rows.append([text(r["title"]), number(r["documents"], digits=0), number(r["sampled_documents"], digits=0),
                       number(r["fields_compared"], digits=0), interval(r["agreement"], 100),
                       number(r["kappa"], digits=3), interval(r["error_rate"], 100),
                       text(f"{r['extra_overturned']} of {r['extra_fields']}", sort=r["extra_overturned"], cls="num"),
                       interval(r["flagged"], 100) if r["flagged"] else text("\u2013"),
                       number(r["unsettled"] + r["awaiting"], digits=0)])
    return [t]


def item_label_rows(sd: SuiteView, item_id: str) -> list[tuple[str, str, str, str, str, str]]:
    """The label check of one item's fields: (field, why, first, second, adjudicated, outcome)."""
    s = sd.labels
    if not s:
        return []

    def show(v: object) -> str:
        return json.dumps(v, ensure_ascii=False)

    return [(r["field"], WHY.get(r["why"], r["why"]), show(r["first"]),
             show(r["second"]) if r["outcome"] != "awaiting" else "", show(r["adjudicated"]) if r["adjudicated"] is not None
             or r["outcome"] in ("upheld", "overturned") else "", OUTCOMES.get(r["outcome"], r["outcome"]))
            for r in s["items"].get(item_id, [])]
