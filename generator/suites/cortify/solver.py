"""The reference solver: every finding of the audit manual (content/pages/manual-cortifybench-en.md),
re-derived from the case's files alone."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from .files import Cfdi, compact, day, money, plain, read_cfdi, read_csv, split_files, supplier_key

CENT = Decimal("0.01")
PUBLICO = "XAXX010101000"
AB = ("alimentos", "bebidas")  # the categories of food and beverage cost


@dataclass
class Row:
    renglon: int
    fecha: date
    rfc: str
    concepto: str
    cantidad: Decimal
    precio: Decimal
    total: Decimal
    efectivo: bool
    folio: str
    invoice: Cfdi | None = None


def _finding(patron: str, clas: str, fecha: date, monto: Decimal) -> dict:
    return {"patron": patron, "clasificacion": clas, "fecha": fecha.isoformat(),
            "monto": f"{monto.quantize(CENT, rounding=ROUND_HALF_UP):.2f}"}


def _sort(findings: list[dict]) -> list[dict]:
    return sorted(findings, key=lambda h: (h["fecha"], h["patron"], h["clasificacion"], Decimal(h["monto"])))


class Case:
    """The files of one case, read."""

    def __init__(self, files: dict[str, str]) -> None:
        info = dict(line.split(": ", 1) for line in files["restaurante.txt"].splitlines() if ": " in line)
        self.rfc = info["rfc"].strip()
        self.start, self.end = day(info["periodo_inicio"]), day(info["periodo_fin"])
        self.review = day(info["fecha_revision"])
        catalogue = read_csv(files["proveedores.csv"])
        self.category = {s["rfc"]: s["categoria"] for s in catalogue}
        self.frequent = sorted(s["rfc"] for s in catalogue if s["frecuente"] == "si")
        self._names = {supplier_key(s["nombre"]): s["rfc"] for s in catalogue} | {s["rfc"]: s["rfc"] for s in catalogue}
        self.evidence = {line.split("/")[-1].split("_")[0] for line in files.get("evidencias.txt", "").splitlines()
                         if line.strip()}
        self.sales = {day(r["fecha"]): money(r["ventas"]) for r in read_csv(files["ventas.csv"])}
        self.cfdis = [read_cfdi(name, text) for name, text in sorted(files.items()) if name.startswith("cfdi/")]
        self.rows = [Row(int(r["renglon"]), day(r["fecha"]), self._supplier(r["proveedor"]), plain(r["concepto"]),
                         Decimal(r["cantidad"]), money(r["precio_unitario"]), money(r["total"]),
                         plain(r["forma_pago"]) == "EFECTIVO", compact(r["folio"])) for r in read_csv(files["compras.csv"])]
        self.status = {compact(r["uuid"]): plain(r["estado"]) for r in read_csv(files.get("estatus_sat.csv", ""))}
        self.list69b = {r["rfc"].strip(): plain(r["situacion"]) for r in read_csv(files.get("lista_69b.csv", ""))}

    def _supplier(self, text: str) -> str:
        key = supplier_key(text)
        if key in self._names:
            return self._names[key]
        if key.replace(" ", "") in self._names:
            return self._names[key.replace(" ", "")]
        raise ValueError(f"supplier not in the catalogue: {text!r}")

    def week(self, d: date) -> date:
        return d - timedelta(days=d.weekday())

    def weeks(self) -> list[date]:
        return [self.start + timedelta(weeks=k) for k in range((self.end - self.start).days // 7 + 1)]


def solve(document_text: str, version: str) -> list[dict]:
    case = Case(split_files(document_text))
    out: list[dict] = []
    invoices = _invoices(case, out)
    rows = _rows(case, out)
    _match(case, rows, invoices, out)
    _price(rows, out)
    _gaps(case, rows, out)
    _weekly(case, rows, out)
    if version in ("v1", "v2"):
        _tax(case, invoices, out)
    return _sort(out)


def _invoices(case: Case, out: list[dict]) -> list[Cfdi]:
    """Type I invoices, each UUID once; every later file of a UUID is a duplicated XML (rule 2)."""
    seen: dict[str, Cfdi] = {}
    for c in case.cfdis:
        if c.kind != "I":
            continue
        if c.uuid in seen:
            out.append(_finding("xml_duplicado", "duplicidad", c.fecha, c.total))
        else:
            seen[c.uuid] = c
    return list(seen.values())


def _rows(case: Case, out: list[dict]) -> list[Row]:
    """The log without its duplicated rows (rule 1)."""
    seen, kept = set(), []
    for r in sorted(case.rows, key=lambda r: r.renglon):
        key = (r.fecha, r.rfc, r.concepto, r.cantidad, r.total)
        if key in seen:
            out.append(_finding("compra_duplicada", "duplicidad", r.fecha, r.total))
        else:
            seen.add(key)
            kept.append(r)
    return kept


def _match(case: Case, rows: list[Row], invoices: list[Cfdi], out: list[dict]) -> None:
    """Rules 3, 4 and 5: captured vs invoiced, invoices nobody captured, cash without receipt."""
    refs: dict[tuple[str, str], Cfdi] = {}
    for c in invoices:
        for ref in {compact(c.serie + c.folio), compact(c.folio), compact(c.uuid)}:
            refs[(c.emisor, ref)] = c
    captured = set()
    for r in rows:
        r.invoice = refs.get((r.rfc, r.folio)) if r.folio else None
        if r.invoice is not None:
            captured.add(r.invoice.uuid)
            diff = r.total - r.invoice.total
            if abs(diff) > 1:
                out.append(_finding("diferencia_captura", "sobrecaptura" if diff > 0 else "subcaptura", r.fecha,
                                    abs(diff)))
        elif r.efectivo and f"R{r.renglon:03d}" not in case.evidence:
            out.append(_finding("efectivo_sin_comprobante", "sin_evidencia", r.fecha, r.total))
    for c in invoices:
        if c.uuid not in captured:
            out.append(_finding("factura_no_capturada", "sin_captura", c.fecha, c.total))


def _price(rows: list[Row], out: list[dict]) -> None:
    """Rule 6: a unit price more than 10% above the previous purchase of the same concept."""
    last: dict[tuple[str, str], Decimal] = {}
    for r in sorted(rows, key=lambda r: (r.fecha, r.renglon)):
        prev = last.get((r.rfc, r.concepto))
        if prev is not None and r.precio > prev * Decimal("1.10"):
            out.append(_finding("alza_precio", "alza", r.fecha, (r.precio - prev) * r.cantidad))
        last[(r.rfc, r.concepto)] = r.precio


def _gaps(case: Case, rows: list[Row], out: list[dict]) -> None:
    """Rule 7: ten or more days in a row without a purchase from a frequent supplier."""
    for rfc in case.frequent:
        bought = {r.fecha for r in rows if r.rfc == rfc}
        run_start, d = None, case.start
        while d <= case.end + timedelta(days=1):
            if d <= case.end and d not in bought:
                run_start = run_start or d
            else:
                if run_start is not None and (d - run_start).days >= 10:
                    out.append(_finding("hueco_compras", "sin_compras", run_start, Decimal(0)))
                run_start = None
            d += timedelta(days=1)


def _weekly(case: Case, rows: list[Row], out: list[dict]) -> None:
    """Rules 8, 9 and 10: out-of-pattern weeks, food and beverage cost, weekly cash share."""
    total: defaultdict[date, Decimal] = defaultdict(Decimal)
    ab: defaultdict[date, Decimal] = defaultdict(Decimal)
    cash: defaultdict[date, Decimal] = defaultdict(Decimal)
    sales: defaultdict[date, Decimal] = defaultdict(Decimal)
    for r in rows:
        w = case.week(r.fecha)
        total[w] += r.total
        cash[w] += r.total if r.efectivo else 0
        ab[w] += r.total if case.category.get(r.rfc) in AB else 0
    for d, v in case.sales.items():
        sales[case.week(d)] += v
    weeks = case.weeks()
    for w in weeks:
        others = sum((total[x] for x in weeks if x != w), Decimal(0)) / (len(weeks) - 1)
        if total[w] > others * Decimal("1.35"):
            out.append(_finding("semana_atipica", "alta", w, total[w]))
        elif total[w] < others * Decimal("0.65"):
            out.append(_finding("semana_atipica", "baja", w, total[w]))
        if sales[w] > 0 and ab[w] > sales[w] * Decimal("0.36"):
            out.append(_finding("costo_fuera_rango", "alto", w, ab[w]))
        elif sales[w] > 0 and ab[w] < sales[w] * Decimal("0.28"):
            out.append(_finding("costo_fuera_rango", "bajo", w, ab[w]))
        if total[w] > 0 and cash[w] > total[w] * Decimal("0.40"):
            out.append(_finding("efectivo_semanal", "efectivo_alto", w, cash[w]))


def _tax(case: Case, invoices: list[Cfdi], out: list[dict]) -> None:
    """Rules 11 to 17 (v1): the SAT layer."""
    paid: dict[str, date] = {}
    for c in case.cfdis:
        if c.kind == "P" and case.status.get(compact(c.uuid), "VIGENTE") != "CANCELADO":
            for uuid, _payment in c.pagados:  # the complement counts from the day it was issued
                paid[compact(uuid)] = min(c.fecha, paid.get(compact(uuid), c.fecha))
    by_supplier: dict[str, list[Cfdi]] = defaultdict(list)
    for c in invoices:
        if case.status.get(compact(c.uuid), "VIGENTE") == "CANCELADO":
            out.append(_finding("cfdi_cancelado", "no_deducible", c.fecha, c.total))
            continue
        by_supplier[c.emisor].append(c)
        if c.forma == "01" and c.total > 2000:
            out.append(_finding("efectivo_mayor_2000", "no_deducible", c.fecha, c.total))
        if c.receptor == PUBLICO:
            out.append(_finding("publico_general", "no_deducible", c.fecha, c.total))
        elif c.receptor != case.rfc:
            out.append(_finding("rfc_ajeno", "no_deducible", c.fecha, c.total))
        if c.metodo == "PPD":
            deadline = (c.fecha.replace(day=1) + timedelta(days=32)).replace(day=5)
            when = paid.get(compact(c.uuid))
            if deadline <= case.review and (when is None or when > deadline):
                out.append(_finding("ppd_sin_complemento", "pendiente_complemento", c.fecha, c.total))
    for rfc, cfdis in by_supplier.items():
        situation = case.list69b.get(rfc)
        if situation in ("PRESUNTO", "DEFINITIVO"):
            patron, clas = ("efos_presunto", "riesgo_69b") if situation == "PRESUNTO" else ("efos_definitivo", "no_deducible")
            out.append(_finding(patron, clas, min(c.fecha for c in cfdis), sum((c.total for c in cfdis), Decimal(0))))
