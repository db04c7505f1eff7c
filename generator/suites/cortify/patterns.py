"""The audit manual's patterns (content/pages/manual-cortifybench-en.md): code, version that
introduced it, family, and the classifications a finding of it can carry."""

from __future__ import annotations

# family: documento = one invoice alone; cruce = matching across files; agregacion = weekly
# aggregates and history
PATTERNS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "compra_duplicada": ("v0", "cruce", ("duplicidad",)),
    "xml_duplicado": ("v0", "cruce", ("duplicidad",)),
    "diferencia_captura": ("v0", "cruce", ("sobrecaptura", "subcaptura")),
    "factura_no_capturada": ("v0", "cruce", ("sin_captura",)),
    "efectivo_sin_comprobante": ("v0", "cruce", ("sin_evidencia",)),
    "alza_precio": ("v0", "agregacion", ("alza",)),
    "hueco_compras": ("v0", "agregacion", ("sin_compras",)),
    "semana_atipica": ("v0", "agregacion", ("alta", "baja")),
    "costo_fuera_rango": ("v0", "agregacion", ("alto", "bajo")),
    "efectivo_semanal": ("v0", "agregacion", ("efectivo_alto",)),
    "efectivo_mayor_2000": ("v1", "documento", ("no_deducible",)),
    "publico_general": ("v1", "documento", ("no_deducible",)),
    "rfc_ajeno": ("v1", "documento", ("no_deducible",)),
    "cfdi_cancelado": ("v1", "documento", ("no_deducible",)),
    "ppd_sin_complemento": ("v1", "cruce", ("pendiente_complemento",)),
    "efos_presunto": ("v1", "cruce", ("riesgo_69b",)),
    "efos_definitivo": ("v1", "cruce", ("no_deducible",)),
}
V0_PATTERNS = tuple(p for p, (v, _, _) in PATTERNS.items() if v == "v0")
V1_PATTERNS = tuple(p for p, (v, _, _) in PATTERNS.items() if v == "v1")
FAMILIES = ("documento", "cruce", "agregacion")


def family(patron: str) -> str:
    return PATTERNS[patron][1] if patron in PATTERNS else ""
