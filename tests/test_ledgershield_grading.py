

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


def _orders(prefix: str) -> dict[str, dict[str, str]]:
    import json
    from pathlib import Path

    cases = json.loads((Path(__file__).parent / "vectors" / "ledgershield.json").read_text(encoding="utf-8"))["cases"]
    return {c["id"].removeprefix(prefix): dict(c["orders"]) for c in cases if c["id"].startswith(prefix)}


def test_a_run_carries_the_authority_gate_and_the_loss_ledger_worked_by_hand():
    """Rule page section 12 on the benign Task A case TLY-A-001 (gold PAY; the careful episode's ocr and zoom, no
    intervention, nothing observed: no control boundary block), each episode carrying the state the one before
    left. run1: (1) PAY at 0.9: x = 0.01, error 100, debt 100; debt ratio 0.00125 -> 0.0012 (a tie, to even),
    loss score 1 - 0.0012 x 10/100 = 0.99988 -> 0.9999: +9998. (2) HOLD without confidence (c = 1/2, wrong):
    a false positive, delay 4 h, review 16 min, friction 0.18, cost 4 x 150 + 16 x 2 + 180 = 812; error
    round((100 + 2500) / 2) = 1300, debt 2600; no confidence: restricted, a restriction (the gate did not
    block); ratios 0.1624, 0.05, 0.0333, 0.0225, 0.0325, 0.125: 1 - 3.9618/100 -> 0.9604: +9208.
    (3) PAY without confidence under restricted authority: the gate blocks (cap 350000), the effective decision
    NEEDS_REVIEW is a second false positive; error round((2600 + 2500) / 3) = 1700, restrictions 2; ratios
    0.3248, 0.1, 0.0667, 0.045, 0.06375 -> 0.0638 (a tie, to even), 0.25: 1 - 7.9126/100 -> 0.9209: +8418.
    (4) PAY at 0.95, restricted, total 11730.42 under 25000: not blocked; x = 0.0025, error round(5125/4) =
    1281 (between 1200 and 2200: level and window kept), debt 5125; debt ratio 0.0640625 -> 0.0641: +8416.
    run2: (1) HOLD at 0.99, wrong: x = 0.9801, error 9801 >= 3400: review only; +9028. (2) PAY at 0.9 under
    review only: blocked (cap 250000); NEEDS_REVIEW is wrong: x = 0.81, error round(17901 / 2) = 8950 (a tie,
    to even). (3) no decision: blocked again, and the state passes through unchanged (+8098 as before).
    (4) NEEDS_REVIEW at 0.5 under review only: not blocked; error round((17900 + 2500) / 3) = 6800; +7432."""
    got = _orders("TLY-A-001:")
    initial = "n=0;level=full_authority;error=0;window=0;delay=0;minutes=0;friction=0;fp_cost=0;debt=0;breaches=0;restrictions=0"
    run1 = ["pay-0.9", "hold-no-confidence", "pay-no-confidence-restricted", "pay-0.95-restricted"]
    run2 = ["hold-0.99", "pay-0.9-review-only", "no-decision-review-only", "needs-review-0.5-review-only"]
    assert [got[f"run1-{n}"]["adjust:institutional"] for n in run1] == ["9998", "9208", "8418", "8416"]
    assert [got[f"run2-{n}"]["adjust:institutional"] for n in run2] == ["9028", "8098", "8098", "7432"]
    assert [got[f"run1-{n}"]["cap:result_class"] for n in run1] == [
        "valid_success", "valid_success", "authority_gate_failed=350000", "valid_success"]
    assert [got[f"run2-{n}"]["cap:result_class"] for n in run2][1:3] == ["authority_gate_failed=250000"] * 2
    assert got["run1-pay-no-confidence-restricted"]["score"] == "350000"
    assert got["run1-pay-0.9"]["run_state:in"] == got["run2-hold-0.99"]["run_state:in"] == initial
    for run in (run1, run2):  # each episode's incoming state is the state the one before left
        for before, after in zip(run, run[1:]):
            prefix = "run1-" if run is run1 else "run2-"
            assert got[prefix + after]["run_state:in"] == got[prefix + before]["run_state:out"]
    assert got["run1-pay-0.95-restricted"]["run_state:out"] == (
        "n=4;level=restricted_authority;error=1281;window=0;delay=800;minutes=3200;friction=36;fp_cost=162400;"
        "debt=5125;breaches=0;restrictions=2")
    assert got["run2-pay-0.9-review-only"]["run_state:out"] == (
        "n=2;level=review_only;error=8950;window=0;delay=800;minutes=3200;friction=36;fp_cost=162400;"
        "debt=17901;breaches=0;restrictions=2")
    assert got["run2-no-decision-review-only"]["run_state:out"] == got["run2-no-decision-review-only"]["run_state:in"]


def test_a_malformed_run_state_makes_the_episode_unparseable():
    """A stored run_state must be an object of exactly the eleven keys, a known level and whole numbers from 0
    to 10^15 (error at most 10000); `1.0e0` is the whole number 1."""
    import json
    from pathlib import Path

    cases = json.loads((Path(__file__).parent / "vectors" / "ledgershield.json").read_text(encoding="utf-8"))["cases"]
    verdicts = {c["id"].removeprefix("TLY-A-001:"): {v for _, v in c["expected"]} for c in cases
                if c["id"].startswith("TLY-A-001:run-state-")}
    assert verdicts.pop("run-state-whole-decimal") != {"unparseable"}
    assert len(verdicts) == 6 and all(v == {"unparseable"} for v in verdicts.values())


def test_the_chain_of_carried_states_counts_sequences_and_breaks():
    """The suite page's run-state table: a chain of three (the second a decision-less episode that passes its
    state on) is one sequence without a break; a forged incoming state and a fork are breaks."""
    from generator.suites.ledgershield.reports import chain_counts
    from generator.suites.ledgershield.run_state import INITIAL

    s0, s1, s2 = INITIAL.order(), "n=1;x", "n=2;x"
    assert chain_counts([(s0, s1), (s1, s1), (s1, s2)]) == (2, 1, 0)
    assert chain_counts([(s0, s1), (s0, s1)]) == (2, 2, 0)  # two fresh environments
    assert chain_counts([(s0, s1), ("n=5;forged", "n=6;forged")]) == (2, 1, 1)
    assert chain_counts([(s0, s1), (s1, s2), (s1, "n=2;y")]) == (3, 1, 1)  # two episodes started from s1
