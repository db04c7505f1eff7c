"""CortifyBench's real baselines (content/pages/scoring-cortifybench.md, section 8): the empty answer,
the seed's naive auditor and the oracle (the reference solver). Each maps a case's files, joined in
one text, and its version to a list of findings."""

from __future__ import annotations

from collections.abc import Callable

from .files import compact, money, plain, read_cfdi, read_csv, split_files, supplier_key
from .solver import solve


def empty(text: str, version: str) -> list[dict]:
    """Reports nothing."""
    return []


def oracle(text: str, version: str) -> list[dict]:
    """The reference solver: every finding of the audit manual."""
    return solve(text, version)


def naive(text: str, version: str) -> list[dict]:
    """The seed's naive auditor: identical rows, unmatched folios, missing photo. It reads the files
    as the manual says (suppliers, folios and amounts normalised; section 8 of the rule page) but
    applies three rules only, each without the cross-checks of the manual: a row equal to an earlier
    one is a duplicated purchase; a type I invoice whose folio no row of the log cites (by series and
    folio, folio alone or UUID, whatever the supplier) was not captured; a cash row without a photo in
    the evidence folder has no receipt, even when an invoice covers it."""
    files = split_files(text)
    rows = read_csv(files["compras.csv"])
    catalogue = read_csv(files["proveedores.csv"])
    names = {supplier_key(s["nombre"]): s["rfc"] for s in catalogue} | {s["rfc"]: s["rfc"] for s in catalogue}
    photos = {line.split("/")[-1].split("_")[0] for line in files.get("evidencias.txt", "").splitlines()}
    out, seen = [], set()
    for r in rows:
        total = f"{money(r['total']):.2f}"
        supplier = supplier_key(r["proveedor"])
        supplier = names.get(supplier, names.get(supplier.replace(" ", ""), supplier))
        key = (r["fecha"].strip(), supplier, plain(r["concepto"]), r["cantidad"].strip(), total)
        if key in seen:
            out.append({"patron": "compra_duplicada", "clasificacion": "duplicidad", "fecha": r["fecha"], "monto": total})
        seen.add(key)
        if f"R{int(r['renglon']):03d}" not in photos and plain(r["forma_pago"]) == "EFECTIVO":
            out.append({"patron": "efectivo_sin_comprobante", "clasificacion": "sin_evidencia", "fecha": r["fecha"],
                        "monto": total})
    cited = {compact(r["folio"]) for r in rows if r["folio"].strip()}
    for name in sorted(n for n in files if n.startswith("cfdi/")):
        c = read_cfdi(name, files[name])
        if c.kind == "I" and not cited & {compact(c.serie + c.folio), compact(c.folio), compact(c.uuid)}:
            out.append({"patron": "factura_no_capturada", "clasificacion": "sin_captura",
                        "fecha": c.fecha.isoformat(), "monto": f"{c.total:.2f}"})
    return out


BASELINES: dict[str, Callable[[str, str], list[dict]]] = {"vacia": empty, "ingenua": naive, "oraculo": oracle}
