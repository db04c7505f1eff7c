"""CortifyBench: baselines on the committed items, hand-computed tax cases, item checks, parser robustness."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.suites.cortify import SUITE
from generator.suites.cortify.baselines import naive
from generator.suites.cortify.files import join_files
from generator.suites.cortify.scoring import extract_answer
from generator.suites.cortify.solver import solve
from tests.cortify_support import score_content, score_rows

ROOT = Path(__file__).resolve().parents[1]
ITEMS = [json.loads(line) for p in sorted((ROOT / "content/suites/cortifybench/items").glob("*.jsonl"))
         for line in p.read_text(encoding="utf-8").splitlines()]
F1, PRECISION, RECALL, EXACT = 0, 1, 2, 3


def test_oracle_scores_1_and_empty_scores_0_on_every_item():
    assert len(ITEMS) == 72
    for item in ITEMS[::5]:
        oracle = score_content(item, json.dumps({"hallazgos": solve(item["document"]["text"], item["dataset"])}))
        assert oracle[:4] == (1.0, 1.0, 1.0, 1)
        assert score_content(item, '{"hallazgos": []}')[:4] == (0, 0, 0, 0)


def test_naive_auditor_is_weak_but_not_zero():
    f1 = [score_content(i, json.dumps(naive(i["document"]["text"], i["dataset"])))[F1] for i in ITEMS if i["half"] == "public"]
    assert 0.02 < sum(f1) / len(f1) < 0.5


def test_an_item_whose_findings_differ_from_the_files_is_rejected():
    item = dict(ITEMS[0])
    spec, problems = SUITE.parse_item(item)
    assert spec is not None and not problems
    tampered = {**item, "hallazgos": item["hallazgos"][1:]}
    spec, problems = SUITE.parse_item(tampered)
    assert spec is None and "differ" in problems[0]
    bad = {**item, "hallazgos": [{**item["hallazgos"][0], "monto": "12.5"}]}
    assert SUITE.parse_item(bad)[0] is None


def test_per_pattern_figures_come_from_the_verdict_rows():
    item = next(i for i in ITEMS if i["dataset"] == "v1")
    truth = item["hallazgos"]
    rows = score_rows(item, json.dumps(truth[:1]))
    figs = dict(zip(SUITE.figures, SUITE.item_figures(rows)))
    p = truth[0]["patron"]
    assert figs[f"found_{p}"] == 1 and figs[f"true_{p}"] == sum(h["patron"] == p for h in truth)
    assert figs["tp"] == 1 and figs["fn"] == len(truth) - 1 and figs["fp"] == 0
    assert sum(figs[f"true_{f}"] for f in ("documento", "cruce", "agregacion")) == len(truth)


# ---------------------------------------------------------------- hand-computed tax cases

RFC = "RCO210315AB1"
SUP = "CSB100101AA1"


def _cfdi(folio: str, uuid: str, fecha: str, total: str, forma: str = "03", metodo: str = "PUE",
          receptor: str = RFC, kind: str = "I", paid: str = "") -> str:
    pago = (f'<pago20:Pagos Version="2.0"><pago20:Pago FechaPago="{fecha}T09:00:00" Monto="1">'
            f'<pago20:DoctoRelacionado IdDocumento="{paid}"/></pago20:Pago></pago20:Pagos>') if paid else ""
    return ('<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:pago20="http://www.sat.gob.mx/Pagos20" '
            'xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="4.0" '
            f'Serie="CS" Folio="{folio}" Fecha="{fecha}T10:00:00" Total="{total}" TipoDeComprobante="{kind}" '
            f'FormaPago="{forma}" MetodoPago="{metodo}"><cfdi:Emisor Rfc="{SUP}" Nombre="CARNES"/>'
            f'<cfdi:Receptor Rfc="{receptor}" Nombre="X"/><cfdi:Complemento>{pago}'
            f'<tfd:TimbreFiscalDigital UUID="{uuid}"/></cfdi:Complemento></cfdi:Comprobante>')


def _tax_findings(cfdis: dict[str, str], status: str = "", list69b: str = "") -> list[tuple[str, str, str]]:
    """The v1 findings of a hand-made case whose log captures every invoice (so only tax rules fire
    besides the weekly ones, which are left out here)."""
    rows, n = [], 0
    for text in cfdis.values():
        if 'TipoDeComprobante="I"' in text:
            n += 1
            folio = text.split('Folio="')[1].split('"')[0]
            fecha = text.split('Fecha="')[1][:10]
            total = text.split('Total="')[1].split('"')[0]
            rows.append(f"{n},{fecha},Carnes,Arrachera {n},1,kg,{total},{total},transferencia,CS-{folio},Chuy,")
    files = {"restaurante.txt": f"rfc: {RFC}\nperiodo_inicio: 2026-03-02\nperiodo_fin: 2026-04-19\n"
                                "fecha_revision: 2026-04-29\n",
             "proveedores.csv": f"rfc,nombre,categoria,frecuente\n{SUP},Carnes,alimentos,no\n",
             "compras.csv": "renglon,fecha,proveedor,concepto,cantidad,unidad,precio_unitario,total,forma_pago,folio,"
                            "capturo,notas\n" + "\n".join(rows) + "\n",
             "ventas.csv": "fecha,ventas\n2026-03-02,1000.00\n",
             "estatus_sat.csv": "uuid,estado\n" + status, "lista_69b.csv": "rfc,nombre,situacion\n" + list69b}
    files |= cfdis
    weekly = ("semana_atipica", "costo_fuera_rango", "efectivo_semanal")
    return [(h["patron"], h["fecha"], h["monto"]) for h in solve(join_files(files), "v1") if h["patron"] not in weekly]


def test_cash_over_2000_is_strictly_over_including_iva():
    got = _tax_findings({"cfdi/a.xml": _cfdi("1", "U1", "2026-03-03", "2000.00", forma="01"),
                         "cfdi/b.xml": _cfdi("2", "U2", "2026-03-04", "2000.01", forma="01"),
                         "cfdi/c.xml": _cfdi("3", "U3", "2026-03-05", "9000.00", forma="03")})
    assert got == [("efectivo_mayor_2000", "2026-03-04", "2000.01")]


def test_receiver_rules_and_cancelled_invoices():
    got = _tax_findings({"cfdi/a.xml": _cfdi("1", "U1", "2026-03-03", "500.00", receptor="XAXX010101000"),
                         "cfdi/b.xml": _cfdi("2", "U2", "2026-03-04", "600.00", receptor="OTR990101XX1"),
                         "cfdi/c.xml": _cfdi("3", "U3", "2026-03-05", "3000.00", forma="01", receptor="XAXX010101000")},
                        status="U3,Cancelado\nU1,Vigente\n")
    assert got == [("publico_general", "2026-03-03", "500.00"), ("rfc_ajeno", "2026-03-04", "600.00"),
                   ("cfdi_cancelado", "2026-03-05", "3000.00")]  # a cancelled CFDI only under its own rule


def test_ppd_complement_by_day_5_of_the_following_month():
    got = _tax_findings({
        "cfdi/a.xml": _cfdi("1", "U1", "2026-03-31", "100.00", "99", "PPD"),  # complement on 04-05: in time
        "cfdi/p1.xml": _cfdi("P1", "P1", "2026-04-05", "0", kind="P", paid="U1"),
        "cfdi/b.xml": _cfdi("2", "U2", "2026-03-10", "200.00", "99", "PPD"),  # complement on 04-06: late
        "cfdi/p2.xml": _cfdi("P2", "P2", "2026-04-06", "0", kind="P", paid="U2"),
        "cfdi/c.xml": _cfdi("3", "U3", "2026-03-12", "300.00", "99", "PPD"),  # none: finding
        "cfdi/d.xml": _cfdi("4", "U4", "2026-04-02", "400.00", "99", "PPD"),  # due 05-05 > review 04-29
    })
    assert got == [("ppd_sin_complemento", "2026-03-10", "200.00"), ("ppd_sin_complemento", "2026-03-12", "300.00")]


def test_69b_presumed_and_definitive_count_cleared_does_not():
    cfdis = {"cfdi/a.xml": _cfdi("1", "U1", "2026-03-09", "100.00"), "cfdi/b.xml": _cfdi("2", "U2", "2026-03-03", "250.50")}
    assert _tax_findings(cfdis, list69b=f"{SUP},CARNES,Presunto\n") == [("efos_presunto", "2026-03-03", "350.50")]
    assert _tax_findings(cfdis, list69b=f"{SUP},CARNES,Definitivo\n") == [("efos_definitivo", "2026-03-03", "350.50")]
    assert _tax_findings(cfdis, list69b=f"{SUP},CARNES,Desvirtuado\nAAA010101AAA,OTRA,Definitivo\n") == []


# ---------------------------------------------------------------- parser robustness

@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_read_or_refused_without_error(text):
    value = extract_answer(text)
    assert value is None or isinstance(value["predictions"], list)


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
                    max_leaves=20))
def test_any_json_value_scores_without_error(value):
    figs = score_content(ITEMS[0], json.dumps({"hallazgos": value if isinstance(value, list) else [value]}))
    assert 0 <= figs[F1] <= 1 and figs[EXACT] in (0, 1)


def test_deep_nesting_and_huge_lists_are_unparseable():
    assert extract_answer("[" * 100_000 + "]" * 100_000) is None
    assert extract_answer(json.dumps([{}] * 501)) is None
