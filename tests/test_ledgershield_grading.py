

def test_a_step_without_a_payload_repeats_an_empty_payload_and_null_is_its_own():
    """Efficiency's repeat test (rule page 4): a step without `payload` counts as {} (LedgerShield's reference
    reads a missing payload as {}), null is a payload of its own. By hand, for the careful episode of TLY-A-001
    (cost 130, ocr + zoom) with two lookup_policy steps (15 each) in front: budget = 1.60 / 15 x 12/100 = 0.0128;
    absent then {}: one repeat, 1 - 0.0128 - 0.03 = 0.9572; null then absent: none, 0.9872."""
    import json
    from pathlib import Path

    cases = json.loads((Path(__file__).parent / "vectors" / "ledgershield.json").read_text(encoding="utf-8"))["cases"]
    got = {c["id"]: dict(c["orders"])["dim:efficiency"] for c in cases if ":payload-" in c["id"]}
    assert got == {"TLY-A-001:payload-absent-then-empty": "9572", "TLY-A-001:payload-null-then-absent": "9872",
                   # out-of-range numbers (no value): equal only when written with the same characters
                   "TLY-A-001:payload-out-of-range-repeated": "9572",
                   "TLY-A-001:payload-out-of-range-written-apart": "9872",
                   "TLY-A-001:payload-out-of-range-then-zero": "9872"}


def test_out_of_range_numbers_are_equal_only_when_written_alike():
    """The fuzzer's case (seed 204): repeated zoom steps with `1e-1000001` in the box counted no repeat on scorer A
    (an out-of-range number compared by identity) and two on scorer B (by its text); the rule: by its text."""
    from generator.parse.jsonfind import OutOfRange
    from generator.suites.ledgershield.text import json_equal

    assert json_equal([OutOfRange("1e-1000001")], [OutOfRange("1e-1000001")])
    assert not json_equal(OutOfRange("1e-1000001"), OutOfRange("1E-1000001"))
    assert not json_equal(OutOfRange("1e-1000001"), 0)
    assert not json_equal(0, OutOfRange("1e-1000001"))
    assert not json_equal(OutOfRange("1e-1000001"), None)


def test_a_probability_past_the_decimal_context_is_out_of_bounds_not_a_crash():
    """`1e1000000` is a JSON number with a value (its exponent is within +-1,000,000) far beyond the bound
    of 10^9: the reading is out of bounds (calibration 0), where `abs()` once raised decimal.Overflow."""
    from decimal import Decimal
    from fractions import Fraction

    from generator.suites.ledgershield.grading import four_decimals

    for text in ("1e1000000", "-1e1000000", "1E+1000000"):
        assert four_decimals(Decimal(text)) is None
    assert four_decimals(Decimal("0.1234")) == Fraction(1234, 10000)
    assert four_decimals(Decimal("0.12345")) is None
