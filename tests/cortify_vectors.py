"""Writes tests/vectors/cortifybench.json: the shared cases of CortifyBench, written from the rule page
(content/pages/scoring-cortifybench.md), not from scorer A. Each case states which true findings are
found and by which predictions; the expected rows follow from that statement.

    python -m tests.cortify_vectors
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).parent / "vectors" / "cortifybench.json"

F = [  # a small set of true findings, in the stored order (fecha, patron, clasificacion, monto)
    {"patron": "compra_duplicada", "clasificacion": "duplicidad", "fecha": "2026-03-03", "monto": "1400.00"},
    {"patron": "diferencia_captura", "clasificacion": "sobrecaptura", "fecha": "2026-03-05", "monto": "86.40"},
    {"patron": "factura_no_capturada", "clasificacion": "sin_captura", "fecha": "2026-03-09", "monto": "2318.84"},
    {"patron": "efectivo_mayor_2000", "clasificacion": "no_deducible", "fecha": "2026-03-12", "monto": "2450.00"},
]


def item(findings: list[dict], version: str = "v0") -> dict:
    return {"id": "case", "dataset": version, "half": "public", "strata": {"injection": "no"},
            "document": {"text": "(files omitted in shared cases)"}, "hallazgos": findings}


def record(content: object = None, *, status: object = 200, error: object = None, body: object = "default",
           attempts: object = "default") -> dict:
    if body == "default":
        body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}
    if attempts == "default":
        attempts = [{"start": "2026-11-01T00:00:00Z", "status": status, "error": error, "latency_ms": 1.0}]
    out = {"item": "case", "repeat": 0, "request": {}, "attempts": attempts}
    if body is not None:
        out["response"] = body
    return out


def rows(findings: list[dict], reply: str, pairs: dict[int, int] | None = None, n_pred: int = 0) -> list:
    """Expected rows: reply is correct/unparseable/failed_call; pairs maps finding index -> prediction
    index (1-based) of the found ones; every other prediction up to n_pred is a false flag."""
    out = [["respuesta", reply]]
    pairs = pairs or {}
    for k, f in enumerate(findings, 1):
        unit = f"H{k:02d}:{f['patron']}"
        out.append([unit, reply if reply != "correct" else ("found" if k in pairs else "missed")])
    if reply == "correct":
        used = set(pairs.values())
        out += [[f"P{p:02d}", "false_flag"] for p in range(1, n_pred + 1) if p not in used]
    return out


CASES: list[dict] = []


def add(cid: str, findings: list[dict], rec: dict, expected: list, note: str = "") -> None:
    CASES.append({"id": cid, "note": note, "item": item(findings), "record": rec, "expected": expected})


def answer(preds: list, shape: str = "object") -> str:
    return json.dumps({"hallazgos": preds} if shape == "object" else preds, ensure_ascii=False)


def parsing_cases() -> None:
    gold = answer(F)
    full = {k: k for k in range(1, 5)}
    add("gold-object", F, record(gold), rows(F, "correct", full, 4), "the key itself")
    add("gold-array", F, record(answer(F, "array")), rows(F, "correct", full, 4), "a bare array")
    add("fence-json", F, record("```json\n" + gold + "\n```"), rows(F, "correct", full, 4))
    add("fence-plain", F, record("```\n" + gold + "\n```"), rows(F, "correct", full, 4))
    add("fence-upper-json", F, record("```JSON\n" + gold + "\n```"), rows(F, "unparseable"))
    add("fence-javascript", F, record("```javascript\n" + gold + "\n```"), rows(F, "unparseable"))
    add("fence-around-whitespace", F, record(" \n```json\n" + gold + "\n```\n\t"), rows(F, "correct", full, 4))
    add("prose-before", F, record("Aquí está:\n" + gold), rows(F, "unparseable"))
    add("prose-after", F, record(gold + "\nListo."), rows(F, "unparseable"))
    add("two-objects", F, record(gold + gold), rows(F, "unparseable"))
    add("trailing-comma", F, record(gold[:-2] + ",]}"), rows(F, "unparseable"))
    add("truncated", F, record(gold[:40]), rows(F, "unparseable"))
    add("nan", F, record('{"hallazgos": [], "x": NaN}'), rows(F, "unparseable"))
    deep = lambda n: "[" * n + "]" * n  # noqa: E731
    add("depth-100-readable", F, record('{"hallazgos": [], "x": ' + deep(99) + "}"), rows(F, "correct"),
        "100 levels: the object and 99 arrays")
    add("depth-101-unparseable", F, record('{"hallazgos": [], "x": ' + deep(100) + "}"), rows(F, "unparseable"))
    add("depth-3000-unparseable", F, record(deep(3000)), rows(F, "unparseable"))
    add("brackets-in-strings-not-counted", F, record('{"hallazgos": [], "x": "' + "[" * 300 + '"}'),
        rows(F, "correct"))
    add("infinity-monto", F, record('[{"patron": "compra_duplicada", "clasificacion": "duplicidad", '
                                    '"fecha": "2026-03-03", "monto": Infinity}]'), rows(F, "unparseable"))
    add("empty-content", F, record(""), rows(F, "unparseable"))
    add("whitespace-content", F, record(" \n\u00a0"), rows(F, "unparseable"))
    add("null-content", F, record(None), rows(F, "unparseable"))
    add("no-choices", F, record(body={"choices": []}), rows(F, "unparseable"))
    add("object-without-hallazgos", F, record('{"findings": []}'), rows(F, "unparseable"))
    add("hallazgos-object", F, record('{"hallazgos": {"a": 1}}'), rows(F, "unparseable"))
    add("hallazgos-null", F, record('{"hallazgos": null}'), rows(F, "unparseable"))
    add("hallazgos-string", F, record('{"hallazgos": "ninguno"}'), rows(F, "unparseable"))
    add("top-string", F, record('"[]"'), rows(F, "unparseable"))
    add("top-number", F, record("0"), rows(F, "unparseable"))
    add("top-null", F, record("null"), rows(F, "unparseable"))
    add("empty-list", F, record("[]"), rows(F, "correct"), "a readable answer that predicts nothing")
    add("empty-hallazgos", F, record('{"hallazgos": []}'), rows(F, "correct"))
    add("extra-keys-top", F, record(json.dumps({"resumen": "x", "hallazgos": F})), rows(F, "correct", full, 4))
    add("repeated-key-last-wins", F, record('{"hallazgos": [], "hallazgos": ' + json.dumps(F) + "}"),
        rows(F, "correct", full, 4))
    add("repeated-key-last-invalid", F, record('{"hallazgos": ' + json.dumps(F) + ', "hallazgos": 3}'),
        rows(F, "unparseable"))
    add("nbsp-and-ideographic-space", F, record("\u00a0\u3000" + gold + "\u2028"), rows(F, "correct", full, 4))
    add("json-ws-inside-fence", F, record("```json\r\n\t" + gold + " \r\n```"), rows(F, "correct", full, 4))
    add("nbsp-inside-fence", F, record("```json\n\u00a0" + gold + "\n```"), rows(F, "unparseable"),
        "only JSON whitespace may surround the JSON text once the fence is removed")
    add("short-fence", F, record("`````"), rows(F, "unparseable"))
    junk = {"patron": "x", "clasificacion": "y", "fecha": "2026-01-01", "monto": 1}
    add("list-of-500", F, record(answer(F + [junk] * 496)), rows(F, "correct", full, 500), "the largest list read")
    add("list-of-501", F, record(answer(F + [junk] * 497)), rows(F, "unparseable"), "more than 500 elements")
    add("failed-status-500", F, record(gold, status=500), rows(F, "failed_call"))
    add("failed-error", F, record(gold, error="timeout"), rows(F, "failed_call"))
    add("error-empty-string-ok", F, record(gold, error=""), rows(F, "correct", full, 4))
    add("failed-status-string", F, record(gold, status="200"), rows(F, "failed_call"))
    add("failed-status-true", F, record(gold, status=True), rows(F, "failed_call"))
    add("status-204-ok", F, record(gold, status=204), rows(F, "correct", full, 4))
    add("failed-no-body", F, record(gold, body=None), rows(F, "failed_call"))
    add("failed-no-attempts", F, record(gold, attempts=[]), rows(F, "failed_call"))
    add("no-findings-empty-answer", [], record("[]"), rows([], "correct"), "nothing true, nothing predicted")
    add("no-findings-one-prediction", [], record(answer([F[0]])), rows([], "correct", {}, 1))
    add("no-findings-unparseable", [], record("nope"), rows([], "unparseable"))


def one(h: dict, **changes: object) -> dict:
    p = dict(h)
    for k, v in changes.items():
        if v is DROP:
            del p[k]
        else:
            p[k] = v
    return p


DROP = object()


def field_cases() -> None:
    h = F[0]
    hit, miss = (lambda p: rows([h], "correct", {1: 1}, p)), (lambda p: rows([h], "correct", {}, p))
    variants = [
        ("patron-upper", one(h, patron="COMPRA_DUPLICADA"), True),
        ("patron-mixed-case", one(h, patron="Compra_Duplicada"), True),
        ("patron-padded", one(h, patron="  compra_duplicada\n"), True),
        ("patron-nbsp-padded", one(h, patron="\u00a0compra_duplicada\u3000"), True),
        ("patron-inner-space", one(h, patron="compra duplicada"), False),
        ("patron-hyphen", one(h, patron="compra-duplicada"), False),
        ("patron-accent", one(h, patron="compra_duplicadá"), False),
        ("patron-non-ascii-capital", one(h, patron="COMPRA_DUPLİCADA"), False),
        ("patron-number", one(h, patron=7), False),
        ("patron-null", one(h, patron=None), False),
        ("patron-missing", one(h, patron=DROP), False),
        ("patron-list", one(h, patron=["compra_duplicada"]), False),
        ("clasificacion-upper", one(h, clasificacion="DUPLICIDAD"), True),
        ("clasificacion-padded", one(h, clasificacion=" duplicidad "), True),
        ("clasificacion-other", one(h, clasificacion="fuga"), False),
        ("clasificacion-missing", one(h, clasificacion=DROP), False),
        ("clasificacion-empty", one(h, clasificacion=""), False),
        ("fecha-padded", one(h, fecha=" 2026-03-03 "), True),
        ("fecha-datetime", one(h, fecha="2026-03-03T00:00:00"), False),
        ("fecha-dmy", one(h, fecha="03/03/2026"), False),
        ("fecha-no-zero", one(h, fecha="2026-3-3"), False),
        ("fecha-other-day", one(h, fecha="2026-03-04"), False),
        ("fecha-number", one(h, fecha=20260303), False),
        ("fecha-missing", one(h, fecha=DROP), False),
        ("monto-int", one(h, monto=1400), True),
        ("monto-float", one(h, monto=1400.0), True),
        ("monto-string-plain", one(h, monto="1400"), True),
        ("monto-string-dollar-commas", one(h, monto="$1,400.00"), True),
        ("monto-string-padded", one(h, monto=" 1400.00\u00a0"), True),
        ("monto-string-dollar-space", one(h, monto="$ 1,400.00"), True),
        ("monto-string-mxn", one(h, monto="1400 MXN"), False),
        ("monto-string-plus", one(h, monto="+1400"), False),
        ("monto-string-exponent", one(h, monto="1.4e3"), False),
        ("monto-string-empty", one(h, monto=""), False),
        ("monto-string-dot-only", one(h, monto="1400."), False),
        ("monto-string-decimal-comma", one(h, monto="1400,50"), False),
        ("monto-null", one(h, monto=None), False),
        ("monto-bool", one(h, monto=True), False),
        ("monto-missing", one(h, monto=DROP), False),
        ("extra-keys-ignored", one(h, evidencia="R017", nota="x"), True),
    ]
    for cid, p, ok in variants:
        add("field-" + cid, [h], record(json.dumps([p], ensure_ascii=False)), hit(1) if ok else miss(1))
    add("field-monto-exponent", [h], record(json.dumps([one(h, monto=0)]).replace('"monto": 0', '"monto": 1.4e3')),
        hit(1), "a JSON number with an exponent is read at its exact value")
    add("field-monto-exponent-fraction", [h], record(json.dumps([one(h, monto=0)]).replace('"monto": 0', '"monto": 14.0000E+2')),
        hit(1))
    add("field-monto-string-decimal-comma-note", [h], record(json.dumps([one(h, monto="1,400")])), hit(1),
        "commas are removed, so 1,400 reads as 1400")
    for cid, elem in (("string", "compra_duplicada"), ("number", 3), ("null", None), ("array", [h]),
                      ("empty-object", {})):
        add("element-" + cid, [h], record(json.dumps([elem, h])), rows([h], "correct", {1: 2}, 2),
            "an element that is not a finding object is a prediction that hits nothing")


def tolerance_cases() -> None:
    base = {"patron": "diferencia_captura", "clasificacion": "sobrecaptura", "fecha": "2026-03-05"}
    edges = [  # (true monto, predicted, hit?)
        ("50.00", "51.00", True), ("50.00", "51.01", False), ("50.00", "49.00", True), ("50.00", "48.99", False),
        ("50.00", "50.999", True), ("50.00", "51.001", False),
        ("100.00", "101.00", True), ("100.00", "101.01", False), ("100.00", "99.00", True), ("100.00", "98.99", False),
        ("500.00", "505.00", True), ("500.00", "505.01", False), ("500.00", "495.00", True),
        ("500.00", "494.99", False), ("500.00", "504.99", True), ("500.00", "505.001", False),
        ("1234.56", "1246.9056", True), ("1234.56", "1246.9057", False), ("1234.56", "1222.2144", True),
        ("1234.56", "1222.2143", False),
        ("0.00", "1.00", True), ("0.00", "-1.00", True), ("0.00", "1.01", False), ("0.00", "-1.01", False),
        ("0.00", "0", True),
        ("99.99", "100.99", True), ("99.99", "101.00", False), ("99.99", "98.99", True), ("99.99", "98.98", False),
        ("100.01", "101.0101", True), ("100.01", "101.0102", False),
        ("250000.00", "252500.00", True), ("250000.00", "252500.01", False), ("250000.00", "247500", True),
        ("250000.00", "247499.99", False),
        ("2000.00", "2020.00", True), ("2000.00", "2020.01", False), ("2000.00", "1980.00", True),
        ("86.40", "87.40", True), ("86.40", "87.41", False), ("86.40", "-86.40", False),
        ("0.50", "1.50", True), ("0.50", "-0.50", True), ("0.50", "-0.51", False),
        # past the edge by less than 28 digits can show: exact arithmetic, not rounded differences
        ("4702.20", "4749.222000000000000000000000000001", False), ("68.40", "67.399999999999999999999999999999", False),
        ("0.00", "1.00000000000000000000000000000000000001", False), ("1248.00", "1260.480000000000000000000001", False),
        ("1248.00", "1260.48", True),
        # exponents far beyond any amount: read exactly, never an overflow
        ("50.00", "1e1000000", False), ("50.00", "-1e1000000", False), ("50.00", "5e-1000000", False),
    ]
    for k, (true, pred, ok) in enumerate(edges):
        h = {**base, "monto": true}
        for form in ("string", "number"):
            if form == "number" and k % 3:
                continue
            value: object = pred if form == "string" else json.loads(pred)
            if form == "number":
                text = json.dumps([{**base, "monto": 0}]).replace('"monto": 0', '"monto": ' + pred)
            else:
                text = json.dumps([{**base, "monto": value}])
            add(f"tol-{true}-{pred}-{form}", [h], record(text),
                rows([h], "correct", {1: 1} if ok else {}, 1), "tolerance max(1.00, 1% of the true amount)")


def matching_cases() -> None:
    def fd(monto: str, patron: str = "diferencia_captura", fecha: str = "2026-03-05",
           clas: str = "sobrecaptura") -> dict:
        return {"patron": patron, "clasificacion": clas, "fecha": fecha, "monto": monto}

    def case(cid: str, trues: list[dict], preds: list, pairs: dict[int, int], note: str) -> None:
        add("match-" + cid, trues, record(answer(preds)), rows(trues, "correct", pairs, len(preds)), note)

    case("max-not-greedy", [fd("100.00"), fd("100.90")], [fd("100.50"), fd("99.50")], {1: 2, 2: 1},
         "P01 can hit H01 and H02, P02 only H01: maximum matching finds both")
    case("max-not-greedy-reversed", [fd("100.00"), fd("100.90")], [fd("99.50"), fd("100.50")], {1: 1, 2: 2},
         "P01 only H01, P02 both")
    case("tie-both-hit-both", [fd("100.00"), fd("100.50")], [fd("100.20"), fd("100.30")], {1: 1, 2: 2},
         "H01 takes the lowest prediction")
    case("tie-three-identical", [fd("100.00")], [fd("100.00"), fd("100.00"), fd("100.00")], {1: 1},
         "P02 and P03 are false flags")
    case("tie-identical-true-findings", [fd("100.00"), fd("100.00")], [fd("100.00"), fd("100.00")],
         {1: 1, 2: 2}, "two identical true findings, two identical predictions")
    case("tie-identical-true-one-pred", [fd("100.00"), fd("100.00")], [fd("100.00")], {1: 1},
         "H02 missed")
    case("tie-lowest-would-break-maximum", [fd("100.00"), fd("101.50")], [fd("100.80"), fd("99.50")],
         {1: 2, 2: 1}, "H01 could take P01, but then H02 has none: H01 gets P02")
    case("tie-chain-three", [fd("100.00"), fd("101.50"), fd("103.00")],
         [fd("100.80"), fd("102.30"), fd("99.20")], {1: 3, 2: 1, 3: 2},
         "P01 hits H01,H02; P02 hits H02,H03; P03 hits H01 only")
    case("tie-chain-three-shuffled", [fd("100.00"), fd("101.50"), fd("103.00")],
         [fd("102.30"), fd("99.20"), fd("100.80")], {1: 2, 2: 3, 3: 1}, "the same chain, other order")
    case("tie-extra-unmatchable", [fd("100.00"), fd("101.50")], [fd("100.80"), fd("100.70"), fd("100.90")],
         {1: 1, 2: 2}, "three predictions hit both; H01 P01, H02 P02, P03 false flag")
    case("tie-later-finding-only-choice", [fd("100.00"), fd("100.60"), fd("101.20")],
         [fd("100.60"), fd("100.60"), fd("102.20")], {1: 1, 2: 2, 3: 3},
         "P01,P02 hit all three; P03 hits only H03")
    case("tie-later-needs-low", [fd("100.00"), fd("100.60"), fd("101.20")],
         [fd("100.60"), fd("102.20"), fd("99.50")], {1: 3, 2: 1, 3: 2},
         "P01 hits all three, P02 only H03, P03 only H01: H01 taking P01 would leave H02 unmatched")
    case("prefers-match-over-lowest-index", [fd("100.00"), fd("98.50")], [fd("99.20"), fd("98.00")],
         {1: 1, 2: 2}, "both fit")
    case("first-finding-unmatched", [fd("100.00"), fd("200.00")], [fd("200.00")], {2: 1}, "H01 missed")
    case("different-patrons", [fd("100.00", patron="compra_duplicada", clas="duplicidad"), fd("100.00")],
         [fd("100.00"), fd("100.00", patron="compra_duplicada", clas="duplicidad")], {1: 2, 2: 1},
         "patron decides")
    case("different-fecha", [fd("100.00"), fd("100.00", fecha="2026-03-06")],
         [fd("100.00", fecha="2026-03-06"), fd("100.00", fecha="2026-03-07")], {2: 1}, "fecha decides")
    case("different-clas", [fd("100.00"), fd("100.00", clas="subcaptura")],
         [fd("100.00", clas="subcaptura"), fd("100.00", clas="SOBRECAPTURA")], {1: 2, 2: 1},
         "clasificacion decides; case is folded")
    case("duplicate-prediction", F, [F[0], F[0], F[1]], {1: 1, 2: 3}, "a finding reported twice")
    case("all-false", F, [fd("1.00", patron="otro")] * 3, {}, "three false flags")
    case("shuffled-oracle", F, [F[3], F[1], F[2], F[0]], {1: 4, 2: 2, 3: 3, 4: 1}, "order of the list is free")
    case("partial-with-extras", F, [F[2], fd("5.00"), F[0], fd("6.00")], {1: 3, 3: 1}, "two found, two false")
    case("tolerance-decides-pairing", [fd("100.00"), fd("150.00")], [fd("150.90"), fd("101.00")],
         {1: 2, 2: 1}, "each within tolerance of one only")
    case("1pct-large-both", [fd("10000.00"), fd("10150.00")], [fd("10100.00"), fd("10050.00")],
         {1: 1, 2: 2}, "tolerances 100 and 101.50: P01 hits both, P02 hits both")
    case("1pct-large-edge", [fd("10000.00"), fd("10150.00")], [fd("10100.01"), fd("10050.00")],
         {1: 2, 2: 1}, "P01 is 100.01 above H01, beyond its 100.00 tolerance")
    case("monto-zero-gaps", [fd("0.00", "hueco_compras", "2026-03-16", "sin_compras")],
         [fd("0", "hueco_compras", "2026-03-16", "sin_compras")], {1: 1}, "amount 0.00")
    big = [fd(f"{100 + 3 * k}.00", fecha=f"2026-03-{10 + k // 4:02d}") for k in range(12)]
    case("twelve-all", big, list(reversed(big)), {k: 13 - k for k in range(1, 13)}, "12 findings in reverse")
    case("twelve-half", big, big[::2] + [fd("7.00")], {k: (k + 1) // 2 for k in range(1, 13, 2)},
         "every other finding and one false")
    many = [fd("100.00")] * 3
    case("three-by-three", many, [fd("100.50"), fd("99.50"), fd("100.00"), fd("100.00")],
         {1: 1, 2: 2, 3: 3}, "identical findings take predictions in order")


def main() -> None:
    parsing_cases()
    field_cases()
    tolerance_cases()
    matching_cases()
    ids = [c["id"] for c in CASES]
    assert len(set(ids)) == len(ids), "case ids repeat"
    doc = {"suite": "cortifybench", "rules": "content/pages/scoring-cortifybench.md", "cases": CASES}
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(CASES)} cases -> {OUT.name}")


if __name__ == "__main__":
    main()
