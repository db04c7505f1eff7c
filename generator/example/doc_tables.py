"""Tables and financial figures: a plain-text table of quarterly figures with a caption."""

from __future__ import annotations

import random
from decimal import Decimal

from . import doc_common as C
from . import locales as L

YEARS = (2024, 2025)
LABELS = {
    "en-US": dict(rev="Revenue", cost="Operating costs", units="Units sold", q="Q{i}", fy="FY",
                  cap="Table {k}: Revenue, operating costs and units sold by quarter ({cur})",
                  title="{co} - Quarterly results", src="Source: management accounts, unaudited."),
    "en-GB": dict(rev="Turnover", cost="Operating costs", units="Units sold", q="Q{i}",
                  fy="Year", cap="Table {k}: Turnover, operating costs and units by quarter ({cur})",
                  title="{co} - Quarterly results", src="Source: management accounts (unaudited)."),
    "de-DE": dict(rev="Umsatz", cost="Betriebskosten", units="Verkaufte Einheiten", q="Q{i}",
                  fy="Jahr", cap="Tabelle {k}: Umsatz, Betriebskosten und Absatz je Quartal ({cur})",
                  title="{co} - Quartalszahlen", src="Quelle: interne Berichte, ungeprüft."),
    "fr-FR": dict(rev="Chiffre d'affaires", cost="Charges d'exploitation",
                  units="Unités vendues", q="T{i}", fy="Année",
                  cap="Tableau {k} : chiffre d'affaires, charges et volumes par trimestre ({cur})",
                  title="{co} - Résultats trimestriels", src="Source : comptes internes, non audités."),
    "es-MX": dict(rev="Ingresos", cost="Costos operativos", units="Unidades vendidas", q="T{i}",
                  fy="Año", cap="Tabla {k}: Ingresos, costos operativos y unidades por trimestre ({cur})",
                  title="{co} - Resultados trimestrales", src="Fuente: estados internos, sin auditar."),
    "ja-JP": dict(rev="売上高", cost="営業費用", units="販売数量", q="{i}Q", fy="通期",
                  cap="表{k}: 四半期別 売上高・営業費用・販売数量 ({cur})",
                  title="{co} 四半期業績", src="出所: 社内管理資料(未監査)"),
}


def plan(rng: random.Random, locale: str) -> dict:
    return {
        "locale": locale,
        "fy_column": C.chance(rng, 0.4),
        "units_row": C.chance(rng, 0.7),
        "n_rev": rng.randint(1, 3),
        "cost_cell": C.chance(rng, 0.6),
        "units_cell": C.chance(rng, 0.6),
        "profit": C.chance(rng, 0.5),
        "growth": C.chance(rng, 0.6),
        "growth_places": rng.choice([1, 2]),
        "q_growth": C.chance(rng, 0.35),
        "missing": [C.chance(rng, 0.35) for _ in range(4)],
    }


def render(p: dict, rng: random.Random) -> dict:
    loc = p["locale"]
    cur = L.DEFAULT_CURRENCY[loc]
    lab = LABELS[loc]
    co = C.company(rng, loc)
    base = rng.randint(150, 2000) * 1000
    rows: dict[tuple[str, int], list[Decimal]] = {}
    for y in YEARS:
        scale = Decimal(1) if y == 2024 else Decimal(rng.randint(85, 130)) / 100
        rev = [L.quantize(Decimal(base) * scale * Decimal(rng.randint(80, 125)) / 100
                          * L.SCALE[cur], 0) for _ in range(4)]
        rows[("rev", y)] = rev
        rows[("cost", y)] = [L.quantize(r * Decimal(rng.randint(55, 95)) / 100, 0) for r in rev]
        rows[("units", y)] = [Decimal(rng.randint(300, 40000)) for _ in range(4)]
    order = [("rev", 2024), ("rev", 2025), ("cost", 2024), ("cost", 2025)]
    if p["units_row"]:
        order += [("units", 2024), ("units", 2025)]
    heads = [lab["q"].format(i=i) for i in range(1, 5)] + ([lab["fy"]] if p["fy_column"] else [])
    cells = {}
    for key in order:
        vals = list(rows[key]) + ([sum(rows[key], Decimal(0))] if p["fy_column"] else [])
        cells[key] = [L.fmt_number(v, loc, 0) for v in vals]
    names = {k: f"{lab[k[0]]} {k[1]}" for k in order}
    w0 = max(len(n) for n in names.values()) + 2
    w = max(len(c) for row in cells.values() for c in row) + 2
    k = rng.randint(1, 9)
    out = [lab["title"].format(co=co), "", lab["cap"].format(k=k, cur=cur), "",
           " " * w0 + "".join(f"{h:>{w}}" for h in heads)]
    out += [f"{names[key]:<{w0}}" + "".join(f"{c:>{w}}" for c in cells[key]) for key in order]
    out += ["", lab["src"]]

    def cell(row: str, y: int) -> tuple[int, Decimal]:
        q = rng.randint(1, 4)
        return q, rows[(row, y)][q - 1]

    fields = [C.field("company_name", "text", "printed", co),
              C.field("currency", "currency", "printed", cur)]
    seen = set()
    for _ in range(p["n_rev"]):
        y = rng.choice(YEARS)
        q, v = cell("rev", y)
        if (q, y) not in seen:
            seen.add((q, y))
            fields.append(C.money_field(f"revenue_q{q}_{y}", "printed", v, cur))
    if p["cost_cell"]:
        y = rng.choice(YEARS)
        q, v = cell("cost", y)
        fields.append(C.money_field(f"operating_costs_q{q}_{y}", "printed", v, cur))
    if p["units_cell"]:
        y = rng.choice(YEARS)
        q, v = cell("units", y)
        fields.append(C.field(f"units_sold_q{q}_{y}", "count",
                              "printed" if p["units_row"] else "missing", int(v)))
    fy = {y: sum(rows[("rev", y)], Decimal(0)) for y in YEARS}
    fields.append(C.money_field("revenue_fy2025", "printed" if p["fy_column"] else "computed",
                                fy[2025], cur))
    multi = 0
    if p["profit"]:
        q = rng.randint(1, 4)
        profit = rows[("rev", 2025)][q - 1] - rows[("cost", 2025)][q - 1]
        fields.append(C.money_field(f"operating_profit_q{q}_2025", "computed", profit, cur))
    if p["growth"]:
        g = (fy[2025] - fy[2024]) / fy[2024] * 100
        places = p["growth_places"]
        fields.append(C.field("revenue_growth_fy2025_pct", "number", "computed",
                              L.canon_number(g, places), places=places))
        multi += 1
    if p["q_growth"]:
        r = rows[("rev", 2025)]
        g = (r[3] - r[2]) / r[2] * 100
        fields.append(C.field("revenue_growth_q4_vs_q3_2025_pct", "number", "computed",
                              L.canon_number(g, 1), places=1))
    miss = [("headcount", "count"), ("dividend_per_share", "money"), ("auditor_name", "text"),
            ("net_income_fy2025", "money")]
    for (name, ftype), on in zip(miss, p["missing"]):
        if on:
            fields.append(C.field(name, ftype, "missing"))
    return {"text": "\n".join(out) + "\n", "currency": cur, "fields": fields, "multi_step": multi}
