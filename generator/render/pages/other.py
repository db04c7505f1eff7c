"""Prose pages (content/pages/*.md), the agreement gate's figures and the commitments page."""

from __future__ import annotations

from ..context import Column, Table, text
from ..gather import SiteData
from ..prose import SPECIAL
from . import Page

HIDDEN = "(private item)"


def shown_difference(d: dict, public: set[str]) -> dict:
    """A difference of the two scorers as the site shows it: on a private item its unit and the model's
    value are not shown (a unit can name a part of the answer key, e.g. a transaction and its fault)."""
    return d if d.get("item") in public else d | {"unit": HIDDEN, "value": HIDDEN}


def prose_pages(site: SiteData):
    for p in site.pages:
        if p.name not in SPECIAL:
            yield Page(p.path, "prose.html", p.title, {"prose": p}, [], ())


def agreement_page(site: SiteData):
    sections = []
    for sd in site.suites:
        a = sd.agreement
        t = Table(f"differences-{sd.suite.name}", f"{sd.suite.title}: verdicts where the scorers differ",
                  [Column("run", "Run"), Column("item", "Item"), Column("repeat", "Repeat", True),
                   Column("unit", "Field"), Column("scorer_a", "Scorer A"), Column("scorer_b", "Scorer B"),
                   Column("value", "Value")], export=None)
        public = {i.id for i in sd.public_items}
        for d in (shown_difference(x, public) for x in a.get("differences", [])):
            t.rows.append([text(d["run"]), text(d["item"]), text(d["repeat"], sort=d["repeat"]), text(d["unit"]),
                           text(d["scorer_a"]), text(d["scorer_b"]), text(d["value"])])
        sections.append({"suite": sd.suite, "agreement": a, "table": t})
    yield Page("agreement.html", "agreement.html", "Agreement of the two scorers", {"sections": sections},
               [s["table"] for s in sections if s["table"].rows])


def commitments_page(site: SiteData):
    prose = next((p for p in site.pages if p.name == "commitments"), None)
    yield Page("commitments/index.html", "commitments.html", prose.title if prose else "Commitments",
               {"prose": prose, "rounds": site.commitments}, [], ())
