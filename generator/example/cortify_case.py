"""A CortifyBench case: a fictitious restaurant's seven weeks of purchases, with planted anomalies and
the generator's plan of the findings they make (the reference solver re-derives them from the files
alone; tests/test_cortify_generator.py compares the two)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
V0_KINDS = ("compra_duplicada", "xml_duplicado", "diferencia_captura", "factura_no_capturada",
            "efectivo_sin_comprobante", "alza_precio", "hueco_compras", "semana_atipica", "costo_fuera_rango",
            "efectivo_semanal")
#        name, category, frequent, payment, invoices, days between purchases, concepts (name, unit, price, qty)
SUPPLIERS = (
    ("Carnes Selectas del Bajío", "alimentos", True, "transferencia", True, (2, 3),
     (("Arrachera", "kg", "289.00", (5, 7)), ("Pechuga de pollo", "kg", "118.00", (12, 15)))),
    ("Frutas y Verduras Doña Chelo", "alimentos", True, "efectivo", False, (2, 3),
     (("Jitomate", "kg", "32.00", (8, 10)), ("Aguacate", "kg", "78.00", (3, 4)), ("Cebolla", "kg", "26.00", (9, 11)))),
    ("Tortillería La Güera", "alimentos", True, "efectivo", False, (2, 2), (("Tortilla", "kg", "24.00", (8, 10)),)),
    ("Lácteos San Marcos", "alimentos", False, "transferencia", True, (7, 7),
     (("Queso Oaxaca", "kg", "165.00", (4, 5)), ("Crema", "lt", "58.00", (11, 13)))),
    ("Distribuidora de Bebidas del Centro", "bebidas", False, "transferencia", True, (7, 7),
     (("Refresco 600 ml caja 24", "caja", "312.00", (3, 4)), ("Cerveza caja 24", "caja", "456.00", (2, 3)))),
    ("Abarrotes El Faro", "alimentos", False, "tarjeta", True, (3, 4),
     (("Arroz", "kg", "29.00", (10, 12)), ("Frijol", "kg", "38.00", (8, 10)), ("Aceite 1 lt", "pza", "42.00", (8, 10)))),
    ("Pescados y Mariscos del Golfo", "alimentos", False, "efectivo", True, (7, 7),
     (("Camarón", "kg", "330.00", (4, 6)),)),
    ("Limpieza Integral del Centro", "limpieza", False, "transferencia", True, (10, 11),
     (("Desengrasante", "pza", "145.00", (3, 4)),)),
    ("Gas del Valle", "gas", False, "tarjeta", True, (7, 7), (("Gas LP", "lt", "11.80", (120, 140)),)),
)
NAMES = ("Fonda La Cazuela", "Restaurante El Molcajete", "Cocina Doña Tere", "Taquería Los Arcos",
         "Restaurante La Ceiba", "Comedor Santa Fe")
COOKS = ("Chuy", "Lupita", "Memo", "Rosy")
# share of invoiced purchases that also have a photo in the evidence folder, per base draw (v0 and v1
# share theirs); calibrated with TAX_DENSITY (cortify_plant.py) so that the seed's naive auditor scores
# what the seed publishes (tests/test_cortify_generator.py)
PHOTO_INVOICED = {"v0": 0.64, "v2": 0.97}
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def money(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def rfc(rng: random.Random, moral: bool = True) -> str:
    head = "".join(rng.choice(_LETTERS) for _ in range(3 if moral else 4))
    born = date(1995, 1, 1) + timedelta(days=rng.randrange(9000))
    return head + born.strftime("%y%m%d") + "".join(rng.choice(_LETTERS + "0123456789") for _ in range(3))


def uuid(rng: random.Random) -> str:
    h = "".join(rng.choice("0123456789ABCDEF") for _ in range(32))
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


@dataclass
class Supplier:
    rfc: str
    nombre: str
    categoria: str
    frecuente: bool
    pago: str
    factura: bool
    every: tuple[int, int]
    concepts: tuple
    serie: str
    next_folio: int


@dataclass
class Invoice:
    sup: Supplier
    folio: int
    uuid: str
    fecha: date
    total: Decimal
    concepto: str
    cantidad: Decimal
    unidad: str
    copies: int = 1
    metodo: str = "PUE"
    forma: str = ""
    receptor: str = ""  # "" = the restaurant
    status: str = "Vigente"
    complement: date | None = None  # the day a payment complement was issued (PPD)


@dataclass
class Purchase:
    fecha: date
    sup: Supplier
    concepto: str
    unidad: str
    cantidad: Decimal
    precio: Decimal
    pago: str
    invoice: Invoice | None = None
    evidence: bool = False
    notas: str = ""
    capturo: str = ""
    copy_of: Purchase | None = None

    @property
    def total(self) -> Decimal:
        return money(self.cantidad * self.precio)


@dataclass
class Case:
    seed: int
    version: str
    nombre: str
    rfc: str
    start: date
    suppliers: list[Supplier]
    purchases: list[Purchase]
    invoices: list[Invoice]
    sales_ratio: dict[int, Decimal] = field(default_factory=dict)  # week -> A&B cost of sales
    planted: list[tuple] = field(default_factory=list)  # (kind, object, extra)
    injection: str = ""
    list69b: list[tuple[str, str, str]] = field(default_factory=list)  # (rfc, name, situation)

    @property
    def end(self) -> date:
        return self.start + timedelta(days=48)

    @property
    def review(self) -> date:
        return self.end + timedelta(days=10)

    def week(self, d: date) -> int:
        return (d - self.start).days // 7


def base_case(seed: int, version: str, rng: random.Random) -> Case:
    start = date(2026, 1, 5) + timedelta(weeks=rng.randrange(30))
    suppliers = []
    for k, (nombre, cat, freq, pago, fact, every, concepts) in enumerate(SUPPLIERS):
        serie = nombre[0] + rng.choice(_LETTERS)
        suppliers.append(Supplier(rfc(rng), nombre, cat, freq, pago, fact, every, concepts, serie,
                                  rng.randrange(1000, 8000)))
    case = Case(seed, version, rng.choice(NAMES), rfc(rng), start, suppliers, [], [])
    for s in suppliers:
        d = start + timedelta(days=rng.randrange(0, 2 if s.frecuente else 5))
        k = rng.randrange(len(s.concepts))
        while d <= case.end:
            concepto, unidad, price, (lo, hi) = s.concepts[k % len(s.concepts)]
            qty = Decimal(rng.randint(lo * 2, hi * 2)) / 2 if unidad not in ("pza", "caja") else Decimal(rng.randint(lo, hi))
            p = Purchase(d, s, concepto, unidad, qty, Decimal(price), s.pago, capturo=rng.choice(COOKS))
            if s.factura:
                p.invoice = new_invoice(s, d, p.total, concepto, qty, unidad, rng)
            else:
                p.evidence = True
            if s.factura and rng.random() < PHOTO_INVOICED["v2" if version == "v2" else "v0"]:
                p.evidence = True
            case.purchases.append(p)
            d += timedelta(days=rng.randint(*s.every))
            k += 1
    for w in range(7):
        case.sales_ratio[w] = Decimal(rng.randint(3050, 3350)) / 10000
    return case


def new_invoice(s: Supplier, d: date, total: Decimal, concepto: str, qty: Decimal, unidad: str,
                rng: random.Random) -> Invoice:
    s.next_folio += rng.randint(1, 9)
    return Invoice(s, s.next_folio, uuid(rng), d, total, concepto, qty, unidad)


def invoices(case: Case) -> list[Invoice]:
    """Every invoice of the case (those of purchases, and those nobody captured)."""
    return [p.invoice for p in case.purchases if p.invoice is not None and p.copy_of is None] + case.invoices


def week_figures(case: Case) -> dict[int, tuple[Decimal, Decimal, Decimal]]:
    """Per week: (total, cash, food and beverage) of the purchases that are not duplicated copies."""
    out = {w: [Decimal(0)] * 3 for w in range(7)}
    for p in case.purchases:
        if p.copy_of is None:
            f = out[case.week(p.fecha)]
            f[0] += p.total
            f[1] += p.total if p.pago == "efectivo" else 0
            f[2] += p.total if p.sup.categoria in ("alimentos", "bebidas") else 0
    return {w: (a, b, c) for w, (a, b, c) in out.items()}
