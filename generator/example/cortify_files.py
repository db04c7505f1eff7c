"""The files of a CortifyBench case as the restaurant delivers them: purchase log, supplier catalogue,
CFDI 4.0 XML (invoices and, from v1, payment complements), evidence folder, daily sales, and from v1
the SAT status and a 69-B extract. v2 adds the noise of a real log (spellings, folios, amounts)."""

from __future__ import annotations

import csv
import io
import random
import unicodedata
from datetime import timedelta
from decimal import Decimal
from xml.sax.saxutils import quoteattr

from .cortify_case import Case, Invoice, invoices, money, week_figures

IVA = {"alimentos": Decimal(0), "bebidas": Decimal("0.16"), "limpieza": Decimal("0.16"), "gas": Decimal("0.16")}
_DAY_WEIGHTS = (10, 11, 12, 14, 19, 20, 14)  # Monday to Sunday


def _csv(header: list[str], rows: list[list[str]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def _deaccent(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def render(case: Case, noise: bool | None = None) -> dict[str, str]:
    noise = case.version == "v2" if noise is None else noise
    rng = random.Random(f"cortify|{case.seed}|{case.version}|noise")
    tax = case.version in ("v1", "v2")
    files = {
        "restaurante.txt": f"nombre: {case.nombre}\nrfc: {case.rfc}\nperiodo_inicio: {case.start}\n"
                           f"periodo_fin: {case.end}\nfecha_revision: {case.review}\n",
        "proveedores.csv": _csv(["rfc", "nombre", "categoria", "frecuente"],
                                [[s.rfc, s.nombre, s.categoria, "si" if s.frecuente else "no"] for s in case.suppliers]),
        "compras.csv": _log(case, rng, noise),
        "evidencias.txt": "".join(f"evidencias/R{k:03d}_{'ticket' if p.invoice is None else 'foto'}.jpg\n"
                                  for k, p in enumerate(case.purchases, 1) if p.evidence),
        "ventas.csv": _sales(case),
    }
    for inv in invoices(case):
        name = f"cfdi/{inv.sup.rfc}_{inv.sup.serie}{inv.folio}.xml"
        files[name] = _cfdi(case, inv, tax)
        if inv.copies > 1:
            files[f"cfdi/descarga_{inv.uuid[:8].lower()}.xml"] = files[name]
        if tax and inv.complement is not None:
            files[f"cfdi/{inv.sup.rfc}_P{inv.folio}.xml"] = _complement(case, inv)
    if tax:
        files["estatus_sat.csv"] = _csv(["uuid", "estado"], sorted([i.uuid, i.status] for i in invoices(case)))
        files["lista_69b.csv"] = _csv(["rfc", "nombre", "situacion"], [list(r) for r in case.list69b])
    return files


def _log(case: Case, rng: random.Random, noise: bool) -> str:
    rows = []
    for k, p in enumerate(case.purchases, 1):
        supplier, folio = p.sup.nombre, ""
        if p.invoice is not None:
            folio = f"{p.sup.serie}-{p.invoice.folio}"
        precio, total = f"{p.precio:.2f}", f"{p.total:.2f}"
        if noise:
            supplier = rng.choice((supplier, supplier.upper(), _deaccent(supplier).upper(), supplier + " SA de CV",
                                   p.sup.rfc))
            if p.invoice is not None:
                s, n = p.sup.serie, p.invoice.folio
                folio = rng.choice((f"{s}-{n}", f"{s}{n}", f"{s.lower()} {n}", f"{n}", p.invoice.uuid))
            if rng.random() < 0.5:
                precio, total = f"${p.precio:,.2f}", f"${p.total:,.2f}"
        rows.append([str(k), p.fecha.isoformat(), supplier, p.concepto, f"{p.cantidad}", p.unidad, precio, total,
                     p.pago, folio, p.capturo, p.notas])
    return _csv(["renglon", "fecha", "proveedor", "concepto", "cantidad", "unidad", "precio_unitario", "total",
                 "forma_pago", "folio", "capturo", "notas"], rows)


def _sales(case: Case) -> str:
    figs = week_figures(case)
    rows = []
    for w in range(7):
        week_sales = figs[w][2] / case.sales_ratio[w]
        for d in range(7):
            rows.append([(case.start + timedelta(days=7 * w + d)).isoformat(),
                         f"{money(week_sales * _DAY_WEIGHTS[d] / sum(_DAY_WEIGHTS)):.2f}"])
    return _csv(["fecha", "ventas"], rows)


def _cfdi(case: Case, inv: Invoice, tax: bool) -> str:
    rate = IVA[inv.sup.categoria]
    sub = money(inv.total / (1 + rate))
    iva = inv.total - sub
    pay = f' FormaPago="{inv.forma}" MetodoPago="{inv.metodo}"' if tax else ""
    receptor, nombre = case.rfc, case.nombre.upper()
    if tax and inv.receptor:
        receptor, nombre = inv.receptor, "PUBLICO EN GENERAL" if inv.receptor == "XAXX010101000" else "CLIENTE"
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" '
        'xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="4.0" '
        f'Serie="{inv.sup.serie}" Folio="{inv.folio}" Fecha="{inv.fecha}T10:00:00" SubTotal="{sub:.2f}" '
        f'Moneda="MXN" Total="{inv.total:.2f}" TipoDeComprobante="I" Exportacion="01"{pay} LugarExpedicion="06600">\n'
        f'  <cfdi:Emisor Rfc="{inv.sup.rfc}" Nombre={quoteattr(inv.sup.nombre.upper())} RegimenFiscal="601"/>\n'
        f'  <cfdi:Receptor Rfc="{receptor}" Nombre={quoteattr(nombre)} UsoCFDI="G03" '
        'DomicilioFiscalReceptor="06600" RegimenFiscalReceptor="601"/>\n'
        '  <cfdi:Conceptos>\n'
        f'    <cfdi:Concepto ClaveProdServ="50000000" Cantidad="{inv.cantidad}" ClaveUnidad="H87" '
        f'Descripcion={quoteattr(inv.concepto)} ValorUnitario="{money(sub / inv.cantidad):.2f}" Importe="{sub:.2f}" '
        'ObjetoImp="02"/>\n'
        '  </cfdi:Conceptos>\n'
        f'  <cfdi:Impuestos TotalImpuestosTrasladados="{iva:.2f}"/>\n'
        f'  <cfdi:Complemento><tfd:TimbreFiscalDigital Version="1.1" UUID="{inv.uuid}" '
        f'FechaTimbrado="{inv.fecha}T10:05:00"/></cfdi:Complemento>\n'
        '</cfdi:Comprobante>\n')


def _complement(case: Case, inv: Invoice) -> str:
    when = inv.complement
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:pago20="http://www.sat.gob.mx/Pagos20" '
        'xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="4.0" '
        f'Serie="P" Folio="{inv.folio}" Fecha="{when}T12:00:00" SubTotal="0" Moneda="XXX" Total="0" '
        'TipoDeComprobante="P" Exportacion="01" LugarExpedicion="06600">\n'
        f'  <cfdi:Emisor Rfc="{inv.sup.rfc}" Nombre={quoteattr(inv.sup.nombre.upper())} RegimenFiscal="601"/>\n'
        f'  <cfdi:Receptor Rfc="{case.rfc}" Nombre={quoteattr(case.nombre.upper())} UsoCFDI="CP01"/>\n'
        '  <cfdi:Complemento>\n'
        f'    <pago20:Pagos Version="2.0"><pago20:Pago FechaPago="{when}T09:00:00" FormaDePagoP="03" '
        f'MonedaP="MXN" Monto="{inv.total:.2f}"><pago20:DoctoRelacionado IdDocumento="{inv.uuid}" '
        f'Serie="{inv.sup.serie}" Folio="{inv.folio}" MonedaDR="MXN" NumParcialidad="1" '
        f'ImpPagado="{inv.total:.2f}"/></pago20:Pago></pago20:Pagos>\n'
        f'    <tfd:TimbreFiscalDigital Version="1.1" UUID="{_p_uuid(inv.uuid)}" FechaTimbrado="{when}T12:05:00"/>\n'
        '  </cfdi:Complemento>\n'
        '</cfdi:Comprobante>\n')


def _p_uuid(u: str) -> str:
    return u[:-4] + ("%04X" % ((int(u[-4:], 16) + 1) % 65536))
