

def test_a_step_without_a_payload_repeats_an_empty_payload_and_null_is_its_own():
    """Efficiency's repeat test (rule page 4): a step without `payload` counts as {} (LedgerShield's reference
    reads a missing payload as {}), null is a payload of its own. By hand, for the careful episode of TLY-A-001
    (cost 130, ocr + zoom) with two lookup_policy steps (15 each) in front: budget = 1.60 / 15 x 12/100 = 0.0128;
    absent then {}: one repeat, 1 - 0.0128 - 0.03 = 0.9572; null then absent: none, 0.9872."""
    import json
    from pathlib import Path

    cases = json.loads((Path(__file__).parent / "vectors" / "ledgershield.json").read_text(encoding="utf-8"))["cases"]
    got = {c["id"]: dict(c["orders"])["dim:efficiency"] for c in cases if ":payload-" in c["id"]}
    assert got == {"TLY-A-001:payload-absent-then-empty": "9572", "TLY-A-001:payload-null-then-absent": "9872"}
