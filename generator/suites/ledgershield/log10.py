"""log10 of a rational, truncated to LOG_DIGITS decimals, computed digit by digit in integers (rule page
section 4, `calibration`; section 2, the readiness of resolution), so both scorers get the same digits."""

from __future__ import annotations

from fractions import Fraction

LOG_DIGITS, WORK_DIGITS = 12, 40


def log10_digits(x: Fraction) -> Fraction:
    """log10(x) for a rational x >= 1, truncated to LOG_DIGITS decimals by the digit-by-digit method:
    y = x / 10^k in [1, 10) kept as an integer of WORK_DIGITS decimals, then LOG_DIGITS times
    y := y^10 (truncated to WORK_DIGITS decimals), whose integer part has d + 1 digits: the next
    decimal is d and y := y / 10^d (truncated)."""
    k = len(str(x.numerator // x.denominator)) - 1
    scale = 10**WORK_DIGITS
    y = x.numerator * scale // (x.denominator * 10**k)
    digits = 0
    for _ in range(LOG_DIGITS):
        y = y**10 // scale**9
        d = len(str(y // scale)) - 1
        y //= 10**d
        digits = digits * 10 + d
    return k + Fraction(digits, 10**LOG_DIGITS)
