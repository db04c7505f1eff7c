"""Writes tests/vectors/ra-bench.json: the rule-by-rule cases of content/pages/scoring-ra-bench.md,
each expectation written by hand from the rule page (`python tests/rabench_vector_build.py`)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

OUT = Path(__file__).parent / "vectors" / "ra-bench.json"
FIELDS = {"merchant": "Café Rosé & Sons", "date": "2026-03-04", "subtotal": "10.00", "tax_total": "0.80",
          "total": "10.80", "currency": "USD", "receipt_number": "A-1023"}
LINES = [{"description": "Milk 2L", "total": "3.49"}, {"description": "Bread loaf", "total": "2.51"},
         {"description": "Eggs (12)", "total": "4.00"}]


def item(**label) -> dict:
    base = {"fields": dict(FIELDS), "line_items": copy.deepcopy(LINES), "adds_up": True, "fake": False,
            "fake_class": None, "edited_field": None, "provenance": "intact", "lineage": None,
            "hard_negative": False}
    base.update(label)
    if base["line_items"] is None:
        del base["line_items"]
    return {"id": "case", "dataset": "receipts", "half": "public", "strata": {}, "document": {"text": ""},
            "label": base}


def fake(cls="inpainted", field="total", **kw) -> dict:
    return item(fake=True, fake_class=cls, edited_field=field, **kw)


def record(content=None, *, status=200, error=None, body=None) -> dict:
    resp = body if body is not None else {"choices": [{"index": 0, "message": {"role": "assistant",
                                                                                "content": content}}]}
    return {"item": "case", "repeat": 0, "request": {},
            "attempts": [{"start": "2026-11-01T00:00:00Z", "status": status, "error": error, "latency_ms": 5.0}],
            "response": resp, "latency_ms": 5.0}


def answer(**kw) -> str:
    out = {"fields": dict(FIELDS), "line_items": copy.deepcopy(LINES), "risk": 0.1}
    out.update(kw)
    return json.dumps(out, ensure_ascii=False)


F = ["merchant", "date", "subtotal", "tax_total", "total", "currency", "receipt_number"]


def rows(fields=None, total_order="10.8", li=("counted", "3 0 0"), check="not_run", decision=("cleared", "0.1"),
         edited=None, proof="no_proof", dup="duplicate:genuine", dupv="no_match", lines=True) -> list:
    """Expected rows of a genuine base case; pass overrides."""
    fields = fields or {}
    out = [[f"field:{f}", fields.get(f, "correct")] for f in F if fields.get(f, "correct") is not None]
    out += [["line_items", li[0]]] if lines else []
    out += [["check:totals_add_up", check], ["decision", decision[0]]]
    out += [["edited_field", edited]] if edited else []
    out += [["proof", proof]]
    out += [[dup, dupv]] if dup else []
    return out


CASES: list[dict] = []
ORDERS: dict[str, dict] = {}


def case(cid, it, rec, expected, orders=None):
    CASES.append({"id": cid, "item": it, "record": rec, "expected": expected})
    if orders:
        ORDERS[cid] = orders


def all_fields(v):
    return {f: v for f in F}


# ---- 2: record states and answer reading
case("exact-answer", item(), record(answer()), rows(), {"field:total": "10.8", "line_items": "3 0 0", "decision": "0.1"})
case("failed-status-500", item(), record(None, status=500, body={}),
     rows(all_fields("failed_call"), li=("failed_call",), check="failed_call", decision=("cleared", "")),
     {"field:total": "", "line_items": "0 0 3", "decision": ""})
case("failed-error-timeout", item(), record(answer(), error="timeout"),
     rows(all_fields("failed_call"), li=("failed_call",), check="failed_call", decision=("cleared", "")))
case("failed-status-200.5", item(), record(answer(), status=200.5),
     rows(all_fields("failed_call"), li=("failed_call",), check="failed_call", decision=("cleared", "")))
case("status-200.0-is-ok", item(), record(answer(), status=200.0), rows())
case("no-choices-unparseable", item(), record(body={"choices": []}),
     rows(all_fields("unparseable"), li=("unparseable",), check="unparseable", decision=("cleared", "")))
case("content-null-unparseable", item(), record(None),
     rows(all_fields("unparseable"), li=("unparseable",), check="unparseable", decision=("cleared", "")))
case("no-object-unparseable", item(), record("I think it is genuine."),
     rows(all_fields("unparseable"), li=("unparseable",), check="unparseable", decision=("cleared", "")))
case("fields-not-object-unparseable", item(), record('{"fields": [1,2], "risk": 0.9}'),
     rows(all_fields("unparseable"), li=("unparseable",), check="unparseable", decision=("cleared", "")),
     {"decision": "", "line_items": "0 0 3"})
case("no-fields-member-unparseable", item(), record('{"risk": 0.9}'),
     rows(all_fields("unparseable"), li=("unparseable",), check="unparseable", decision=("cleared", "")))
case("fenced-with-prose", item(), record("Here you go:\n```json\n" + answer() + "\n```\nDone."), rows())
case("first-object-counts", item(), record('{"fields": {}} then ' + answer()),
     rows(all_fields("false_null"), li=("counted",), decision=("cleared", "")),
     {"line_items": "0 0 3", "field:total": "", "decision": ""})
case("nan-object-skipped-next-counts", item(), record('{"risk": NaN} ' + answer()), rows())
case("repeated-key-last-wins", item(), record('{"fields": {"total": "1.00"}, "fields": ' + json.dumps(FIELDS)
                                              + ', "line_items": ' + json.dumps(LINES) + ', "risk": 0.1}'), rows())

# ---- 3.1 fields
def fa(**changes):
    f = dict(FIELDS)
    for k, v in changes.items():
        if v == "<absent>":
            f.pop(k)
        else:
            f[k] = v
    return answer(fields=f)


case("merchant-accents-amp-punct", item(), record(fa(merchant="cafe rose and sons.")), rows())
case("merchant-one-typo-ok", item(fields={**FIELDS, "merchant": "Greenfield Market"}),
     record(fa(merchant="Greenfeld Market")), rows())  # 1 edit over 17: 0.941
case("merchant-two-typos-wrong", item(fields={**FIELDS, "merchant": "Greenfield Market"}),
     record(fa(merchant="Greenfeld Markt")), rows({"merchant": "wrong"}))  # 2 over 17: 0.882
case("merchant-exactly-0.9", item(fields={**FIELDS, "merchant": "abcdefghij"}), record(fa(merchant="abcdefghiX")),
     rows())
case("merchant-below-0.9", item(fields={**FIELDS, "merchant": "abcdefghi"}), record(fa(merchant="abcdefghX")),
     rows({"merchant": "wrong"}))  # 1 over 9: 0.889
case("merchant-number-wrong", item(), record(fa(merchant=7)), rows({"merchant": "wrong"}))
case("merchant-whitespace-null", item(), record(fa(merchant="  \u00a0")), rows({"merchant": "false_null"}))
case("merchant-absent-false-null", item(), record(fa(merchant="<absent>")), rows({"merchant": "false_null"}))
case("merchant-fullwidth-nfkd", item(fields={**FIELDS, "merchant": "ACME"}), record(fa(merchant="ＡＣＭＥ")), rows())
case("merchant-hyphen-dropped", item(fields={**FIELDS, "merchant": "Smith-Jones Deli"}),
     record(fa(merchant="SmithJones Deli")), rows())
case("date-exact", item(), record(fa(date="2026-03-04")), rows())
case("date-other-format-wrong", item(), record(fa(date="04/03/2026")), rows({"date": "wrong"}))
case("date-padded-wrong", item(), record(fa(date=" 2026-03-04")), rows({"date": "wrong"}))
case("amount-number-ok", item(), record(answer(fields={**FIELDS, "total": 10.8})), rows())
case("amount-within-cent", item(), record(fa(total="10.81")), rows(total_order="10.81"),
     {"field:total": "10.81"})
case("amount-off-by-more-than-cent", item(), record(fa(total="10.82")), rows({"total": "wrong"}),
     {"field:total": "10.82"})
case("amount-a-hair-past-the-cent-is-wrong", item(), record(fa(total="10.8100000000000000000000000000001")),
     rows({"total": "wrong"}), {"field:total": "10.8100000000000000000000000000001"})
case("amount-symbols-commas", item(fields={**FIELDS, "total": "1234.50"}), record(fa(total="$1,234.50")),
     rows(), {"field:total": "1234.5"})
case("amount-euro-suffix", item(), record(fa(total="10.80 €")), rows())
case("amount-comma-decimal-wrong", item(), record(fa(total="10,80")), rows({"total": "wrong"}),
     {"field:total": "1080"})
case("amount-text-not-amount", item(), record(fa(total="ten eighty")), rows({"total": "wrong"}),
     {"field:total": ""})
case("amount-exponent-number", item(fields={**FIELDS, "total": "100.00"}),
     record('{"fields": {"merchant": "Café Rosé & Sons", "date": "2026-03-04", "subtotal": "10.00", '
            '"tax_total": "0.80", "total": 1e2, "currency": "USD", "receipt_number": "A-1023"}, '
            '"line_items": ' + json.dumps(LINES) + ', "risk": 0.1}'), rows(), {"field:total": "100"})
case("amount-bool-wrong", item(), record(fa(tax_total=True)), rows({"tax_total": "wrong"}))
case("amount-null-false-null", item(), record(fa(subtotal=None)), rows({"subtotal": "false_null"}))
case("currency-exact", item(), record(fa(currency="USD")), rows())
case("currency-lowercase-wrong", item(), record(fa(currency="usd")), rows({"currency": "wrong"}))
case("currency-symbol-wrong", item(), record(fa(currency="$")), rows({"currency": "wrong"}))
case("receipt-number-alnum-lower", item(), record(fa(receipt_number="a 1023")), rows())
case("receipt-number-leading-zero-wrong", item(), record(fa(receipt_number="A-01023")),
     rows({"receipt_number": "wrong"}))
case("receipt-number-json-number-wrong", item(fields={**FIELDS, "receipt_number": "1023"}),
     record(fa(receipt_number=1023)), rows({"receipt_number": "wrong"}))
nulls = {**FIELDS, "tax_total": None, "receipt_number": None}
case("label-null-answer-null", item(fields=nulls), record(fa(tax_total=None, receipt_number="<absent>")),
     rows({"tax_total": "null_ok", "receipt_number": "null_ok"}))
case("label-null-answer-value-invented", item(fields=nulls), record(fa(tax_total="0.00", receipt_number="x")),
     rows({"tax_total": "invented", "receipt_number": "invented"}))
case("label-null-empty-string-ok", item(fields=nulls), record(fa(tax_total="", receipt_number=" ")),
     rows({"tax_total": "null_ok", "receipt_number": "null_ok"}))
case("label-covers-subset", item(fields={"total": "10.80", "date": "2026-03-04"}), record(answer()),
     rows({"merchant": None, "subtotal": None, "tax_total": None, "currency": None, "receipt_number": None}))
case("label-total-not-covered", item(fields={"merchant": "Café Rosé & Sons"}), record(answer()),
     rows({f: None for f in F if f != "merchant"}))
case("label-total-null-answer-null", item(fields={**FIELDS, "total": None}), record(fa(total=None)),
     rows({"total": "null_ok"}, total_order=""), {"field:total": ""})

# ---- 3.2 line items
case("lines-missing-one", item(), record(answer(line_items=LINES[:2])), rows(), {"line_items": "2 0 1"})
case("lines-extra-one", item(), record(answer(line_items=LINES + [{"description": "Bag", "total": "0.10"}])),
     rows(), {"line_items": "3 1 0"})
case("lines-total-off", item(), record(answer(line_items=[LINES[0], {"description": "Bread loaf", "total": "2.53"},
                                                           LINES[2]])), rows(), {"line_items": "2 1 1"})
case("lines-desc-fuzzy-ok", item(), record(answer(line_items=[{"description": "milk 2 l", "total": 3.49}])),
     rows(), {"line_items": "1 0 2"})
case("lines-desc-too-different", item(), record(answer(line_items=[{"description": "Whole milk", "total": "3.49"}])),
     rows(), {"line_items": "0 1 3"})
case("lines-not-array", item(), record(answer(line_items={"a": 1})), rows(), {"line_items": "0 0 3"})
case("lines-absent", item(), record('{"fields": ' + json.dumps(FIELDS) + ', "risk": 0.1}'), rows(),
     {"line_items": "0 0 3"})
case("lines-bad-entries-count-as-fp", item(), record(answer(line_items=["Milk", {"description": "Eggs (12)"}, LINES[2]])),
     rows(), {"line_items": "1 2 2"})
dup_lines = [{"description": "Coffee", "total": "3.00"}, {"description": "Coffee", "total": "3.00"}]
case("lines-one-to-one", item(line_items=dup_lines), record(answer(line_items=[dup_lines[0]] * 3)), rows(),
     {"line_items": "2 1 0"})
amb = [{"description": "Tea green", "total": "2.00"}, {"description": "Tea green", "total": "2.02"}]
case("lines-maximum-matching", item(line_items=amb),
     record(answer(line_items=[{"description": "Tea green", "total": "2.01"},
                               {"description": "Tea green", "total": "2.00"}])), rows(), {"line_items": "2 0 0"})
case("lines-not-labelled-no-row", item(line_items=None), record(answer()), rows(lines=False))

# ---- 3.3 checks
bad = dict(adds_up=False)
case("check-found", item(**bad), record(answer(checks={"totals_add_up": "failed"})), rows(check="found"))
case("check-missed", item(**bad), record(answer(checks={"totals_add_up": "passed"})), rows(check="missed"))
case("check-false-flag", item(), record(answer(checks={"totals_add_up": "failed"})), rows(check="false_flag"))
case("check-cleared", item(), record(answer(checks={"totals_add_up": "passed"})), rows(check="cleared"))
case("check-not-run-text", item(**bad), record(answer(checks={"totals_add_up": "not_run"})), rows(check="not_run"))
case("check-case-counts", item(**bad), record(answer(checks={"totals_add_up": "FAILED"})), rows(check="not_run"))
case("check-not-object", item(**bad), record(answer(checks="failed")), rows(check="not_run"))
case("check-bool", item(**bad), record(answer(checks={"totals_add_up": False})), rows(check="not_run"))

# ---- 3.4 decision
G = "duplicate:genuine"
case("risk-0.5-flags-genuine", item(), record(answer(risk=0.5)), rows(decision=("false_flag", "0.5")))
case("risk-0.4999-clears", item(), record(answer(risk=0.4999)), rows(decision=("cleared", "0.4999")))
case("risk-trailing-zeros", item(), record('{"fields": ' + json.dumps(FIELDS) + ', "line_items": ' + json.dumps(LINES)
                                           + ', "risk": 0.700}'), rows(decision=("false_flag", "0.7")))
case("risk-exponent", item(), record('{"fields": ' + json.dumps(FIELDS) + ', "line_items": ' + json.dumps(LINES)
                                     + ', "risk": 5E-1}'), rows(decision=("false_flag", "0.5")))
case("risk-one-int", item(), record(answer(risk=1)), rows(decision=("false_flag", "1")))
case("risk-zero", item(), record(answer(risk=0)), rows(decision=("cleared", "0")))
case("risk-negative-zero", item(), record('{"fields": ' + json.dumps(FIELDS) + ', "line_items": ' + json.dumps(LINES)
                                          + ', "risk": -0.0}'), rows(decision=("cleared", "0")))
case("risk-string-no-risk", item(), record(answer(risk="0.9")), rows(decision=("cleared", "")))
case("risk-above-one-no-risk", item(), record(answer(risk=1.5)), rows(decision=("cleared", "")))
case("risk-negative-no-risk", item(), record(answer(risk=-0.1)), rows(decision=("cleared", "")))
case("risk-bool-no-risk", item(), record(answer(risk=True)), rows(decision=("cleared", "")))
case("risk-absent-no-risk", item(), record('{"fields": ' + json.dumps(FIELDS) + ', "line_items": ' + json.dumps(LINES)
                                           + '}'), rows(decision=("cleared", "")))


def fake_rows(decision, edited="not_flagged", proof="no_proof", fields=None):
    return rows(fields, decision=decision, edited=edited, proof=proof, dup=None)


case("fake-caught", fake(), record(answer(risk=0.93)), fake_rows(("caught", "0.93"), "not_named"))
case("fake-missed", fake(), record(answer(risk=0.2)), fake_rows(("missed", "0.2")))
case("fake-no-risk-missed", fake(), record(answer(risk=None)), fake_rows(("missed", "")))
case("fake-failed-call-missed", fake(), record(None, status=429, body={}),
     [*[[f"field:{f}", "failed_call"] for f in F], ["line_items", "failed_call"], ["check:totals_add_up", "failed_call"],
      ["decision", "missed"], ["edited_field", "not_flagged"], ["proof", "no_proof"]])
case("fake-no-edited-field-no-row", fake("ai_full", None), record(answer(risk=0.9)),
     rows(decision=("caught", "0.9"), dup=None))

# ---- 3.5 edited field named
def reasons(*rs, risk=0.9):
    return answer(risk=risk, reasons=list(rs))


case("named-by-tag", fake(), record(reasons("changed @total")), fake_rows(("caught", "0.9"), "named"))
case("tag-needs-boundary", fake(), record(reasons({"text": "see @total_x", "kind": "visual"})), fake_rows(("caught", "0.9"), "not_named"))
case("tag-tax-total-not-total", fake(), record(reasons({"text": "@tax_total", "kind": "visual"})),
     fake_rows(("caught", "0.9"), "not_named"))
case("tag-tax-total-names-tax", fake(field="tax_total"), record(reasons({"text": "@tax_total", "kind": "visual"})),
     fake_rows(("caught", "0.9"), "named"))
case("tag-case-counts", fake(), record(reasons({"text": "@TOTAL", "kind": "visual"})),
     fake_rows(("caught", "0.9"), "not_named"))
case("keyword-total", fake(), record(reasons("The Total looks pasted")), fake_rows(("caught", "0.9"), "named"))
case("keyword-amount-due", fake(), record(reasons("amount due is odd")), fake_rows(("caught", "0.9"), "named"))
case("keyword-subtotal-not-total", fake(), record(reasons("the subtotal font differs")),
     fake_rows(("caught", "0.9"), "not_named"))
case("keyword-sub-total-hyphen-is-total", fake(), record(reasons("sub-total font differs")),
     fake_rows(("caught", "0.9"), "named"))
case("keyword-plural-no", fake(field="line_items"), record(reasons("items look off")),
     fake_rows(("caught", "0.9"), "not_named"))
case("keyword-price-line-items", fake(field="line_items"), record(reasons("a price was retouched")),
     fake_rows(("caught", "0.9"), "named"))
case("keyword-vat-tax", fake(field="tax_total"), record(reasons("VAT line blurred")),
     fake_rows(("caught", "0.9"), "named"))
case("keyword-logo-merchant", fake(field="merchant"), record(reasons("logo is pixelated")),
     fake_rows(("caught", "0.9"), "named"))
case("keyword-date", fake(field="date"), record(reasons("date digits misaligned")),
     fake_rows(("caught", "0.9"), "named"))
case("keyword-not-for-kinded", fake(), record(reasons({"text": "total looks off", "kind": "visual"})),
     fake_rows(("caught", "0.9"), "not_named"))
case("keyword-for-object-without-kind", fake(), record(reasons({"text": "total looks off"})),
     fake_rows(("caught", "0.9"), "named"))
case("check-kind-points-total", fake(), record(reasons({"text": "", "kind": "totals_add_up", "detail": "x"})),
     fake_rows(("caught", "0.9"), "named"))
case("check-kind-points-subtotal", fake(field="subtotal"),
     record(reasons({"text": "", "kind": "totals_add_up", "detail": ""})), fake_rows(("caught", "0.9"), "named"))
case("tax-rate-kind-points-tax", fake(field="tax_total"), record(reasons({"kind": "tax_rate"})),
     fake_rows(("caught", "0.9"), "named"))
case("receipt-age-kind-points-date", fake(field="date"), record(reasons({"kind": "receipt_age"})),
     fake_rows(("caught", "0.9"), "named"))
case("fourth-reason-too-late", fake(), record(reasons("font", "shadow", "noise", "total changed")),
     fake_rows(("caught", "0.9"), "not_named"))
case("non-object-reason-takes-a-place", fake(), record(reasons(1, None, ["x"], "total changed")),
     fake_rows(("caught", "0.9"), "not_named"))
case("third-reason-counts", fake(), record(reasons(1, "font", "total changed")),
     fake_rows(("caught", "0.9"), "named"))
case("named-but-not-flagged", fake(), record(reasons("total changed", risk=0.3)), fake_rows(("missed", "0.3")))
case("reasons-not-array", fake(), record(answer(risk=0.9, reasons="total changed")),
     fake_rows(("caught", "0.9"), "not_named"))

# ---- 3.6 proof
for kind in ("ai_generator_tag", "ai_source_type", "generator_tag", "pdf_modified", "thumbnail_mismatch",
             "capture_before_purchase", "duplicate_match"):
    case(f"proof-{kind}", fake("ai_full", None), record(reasons({"kind": kind, "detail": "Software: X"})),
         rows(decision=("caught", "0.9"), proof="proof", dup=None))
case("proof-arithmetic-needs-digits", fake("ai_full", None),
     record(reasons({"kind": "totals_add_up", "detail": "does not add up"})),
     rows(decision=("caught", "0.9"), proof="no_proof", dup=None))
case("proof-arithmetic-with-numbers", fake("ai_full", None),
     record(reasons({"kind": "totals_add_up", "detail": "10.00 + 0.80 != 11.80"})),
     rows(decision=("caught", "0.9"), proof="proof", dup=None))
case("proof-empty-detail", fake("ai_full", None), record(reasons({"kind": "pdf_modified", "detail": " \t"})),
     rows(decision=("caught", "0.9"), proof="no_proof", dup=None))
case("proof-no-detail", fake("ai_full", None), record(reasons({"kind": "pdf_modified"})),
     rows(decision=("caught", "0.9"), proof="no_proof", dup=None))
for kind in ("editor_tag", "no_camera_data", "tax_rate", "receipt_age", "currency", "visual"):
    case(f"not-proof-{kind}", fake("ai_full", None), record(reasons({"kind": kind, "detail": "yes 1"})),
         rows(decision=("caught", "0.9"), proof="no_proof", dup=None))
case("proof-beyond-third-reason", fake("ai_full", None),
     record(reasons("a", "b", "c", "d", {"kind": "pdf_modified", "detail": "Producer: X"})),
     rows(decision=("caught", "0.9"), proof="proof", dup=None))
case("proof-on-genuine-counts", item(), record(reasons({"kind": "generator_tag", "detail": "POS v2"}, risk=0.2)),
     rows(decision=("cleared", "0.2"), proof="proof"))
case("proof-free-text-not-proof", item(), record(reasons("pdf_modified: Producer X", risk=0.2)),
     rows(decision=("cleared", "0.2")))
case("proof-kind-case-counts", item(), record(reasons({"kind": "PDF_MODIFIED", "detail": "x"}, risk=0.2)),
     rows(decision=("cleared", "0.2")))

# ---- 3.7 and 3.8 duplicates
case("genuine-false-match", item(), record(answer(duplicate={"seen_before": True, "match": "near"})),
     rows(dupv="false_match"))
case("genuine-seen-false", item(), record(answer(duplicate={"seen_before": False})), rows())
case("genuine-seen-truthy-string", item(), record(answer(duplicate={"seen_before": "true"})), rows())
case("hard-negative-false-match", item(hard_negative=True),
     record(answer(duplicate={"seen_before": True, "match": "exact"})),
     rows(dup="duplicate:hard_negative", dupv="false_match"))
case("hard-negative-no-match", item(hard_negative=True), record(answer()), rows(dup="duplicate:hard_negative"))
case("fake-no-duplicate-row", fake("ai_full", None), record(answer(duplicate={"seen_before": True})),
     rows(decision=("missed", "0.1"), dup=None))
tr = item(lineage={"original": "rab-0001", "transform": "cropped"})
case("transform-exact", tr, record(answer(duplicate={"seen_before": True, "match": "exact"})),
     [["duplicate:transform", "exact_match"]])
case("transform-near", tr, record(answer(duplicate={"seen_before": True, "match": "near"})),
     [["duplicate:transform", "match"]])
case("transform-match-case-counts", tr, record(answer(duplicate={"seen_before": True, "match": "EXACT"})),
     [["duplicate:transform", "match"]])
case("transform-not-seen", tr, record(answer(duplicate={"seen_before": False, "match": "exact"})),
     [["duplicate:transform", "missed"]])
case("transform-no-duplicate", tr, record(answer()), [["duplicate:transform", "missed"]])
case("transform-failed", tr, record(None, status=503, body={}), [["duplicate:transform", "missed"]])
case("transform-unparseable", tr, record("no json"), [["duplicate:transform", "missed"]])
case("transform-duplicate-not-object", tr, record(answer(duplicate=True)), [["duplicate:transform", "missed"]])


def main() -> None:
    for c in CASES:
        if c["id"] in ORDERS:
            c["orders"] = ORDERS[c["id"]]
    doc = {"suite": "ra-bench", "rules": "content/pages/scoring-ra-bench.md",
           "note": "expected: [unit, verdict] in row order; orders (optional): unit -> the row's exact order text",
           "cases": CASES}
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(len(CASES), "cases")




def add_corpus_cases(limit: int = 70) -> None:
    """Regression cases from the example corpus and runs (real receipts and replies of every target)
    whose expected rows are scorer A's output (regression cases, not hand-derived)."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from generator.inputs.content import Item
    from generator.parse.response import read_outcome
    from generator.suites.rabench import SUITE

    root = Path(__file__).resolve().parents[1]
    items = {}
    for path in sorted((root / "content" / "suites" / "ra-bench" / "items").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            raw = json.loads(line)
            items[raw["id"]] = raw
    picked = 0
    for run in sorted((root / "results" / "ra-bench").iterdir()):
        lines = (run / "responses.jsonl").read_text(encoding="utf-8").splitlines()
        for k, line in enumerate(lines):
            if k % 31 or picked >= limit:
                continue
            rec = json.loads(line)
            raw = dict(items[rec["item"]])
            raw["document"] = {"text": "(not read by the scorers)"}
            rec["request"] = {}
            spec, _ = SUITE.parse_item(raw)
            item = Item(raw["id"], raw["dataset"], raw["half"], {}, raw["document"], spec)
            rows = SUITE.score(item, read_outcome(rec, SUITE.extract_answer, SUITE.answer_what), "run", 0)
            CASES.append({"id": f"corpus-{run.name}-{rec['item']}-{rec['repeat']}", "item": raw, "record": rec,
                          "expected": [[r.unit, r.verdict] for r in rows],
                          "orders": {r.unit: r.order for r in rows if r.order}})
            picked += 1


if __name__ == "__main__":
    add_corpus_cases()
    main()
