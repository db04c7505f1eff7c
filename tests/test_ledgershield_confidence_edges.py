"""LedgerShield's carried state (generator/suites/ledgershield/run_state.py): a confidence within 10^-40
of 0 or 1, or beyond 10^40 in size, is read at that distance, which changes no figure. Checked here
against the plain exact arithmetic of section 12 (step 3: error and debt), on states chosen to put the
new error on a tie of its rounding; the shortest hostile numbers no longer make long arithmetic."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest

from generator.suites.ledgershield import run_state as rs


def plain(state: rs.RunState, confidence: Decimal, correct: bool) -> tuple[int, int, str]:
    """(error, debt, level) by section 12's arithmetic on the exact value, nothing read at a distance."""
    value = Fraction(confidence)
    c = min(max(value, Fraction(0)), Fraction(1))
    x = (c - (1 if correct else 0)) ** 2
    n = state.n + 1
    error = round((state.error * (n - 1) + 10000 * x) / n)
    level, _ = rs._level(state, error, True, value)
    return error, state.debt + round(10000 * x), level


def fast(state: rs.RunState, confidence: Decimal, correct: bool) -> tuple[int, int, str]:
    out = rs.update(state, effective="PAY", correct=correct, risky=False, tools_ok=set(), campaign=False,
                    confidence=confidence, breaches=0, gate_blocked=False)
    return out.error, out.debt, out.level


def tie_states() -> list[rs.RunState]:
    """States whose next error, for a confidence at exactly 0 or 1, is a tie (error*(n-1)+10000 or +0
    an odd multiple of n/2), with odd and even rounded neighbours, and ordinary ones."""
    out = []
    for n in (2, 4, 6, 10, 20000, 10**15):
        for error in range(0, 10001):
            for extra in (0, 10000):
                twice = 2 * (error * (n - 1) + extra)
                if twice % n == 0 and (twice // n) % 2 == 1:
                    out.append(replace(rs.INITIAL, n=n - 1, error=error))
                    break
            if len([s for s in out if s.n == n - 1]) >= 4:
                break
    return out + [replace(rs.INITIAL, n=k, error=e) for k, e in ((0, 0), (1, 10000), (7, 1234), (999, 5000))]


EDGE_NUMBERS = ["1e-41", "-1e-41", "9.9e-41", "1e-40", "1.0000000001e-40", "5e-1000000", "-5e-1000000",
                "0." + "9" * 41, "0." + "9" * 39 + "8", "1." + "0" * 50 + "1", "1e41", "-1e41", "7e999999",
                "0", "0e-1000000", "1", "0.5", "1e-40", "0." + "0" * 39 + "1"]


@pytest.mark.parametrize("text", EDGE_NUMBERS)
def test_a_confidence_at_the_edges_changes_no_figure(text):
    states = tie_states()
    assert sum(1 for s in states if s.n > 0) >= 20  # the tie states were found
    value = Decimal(text)
    for state in states:
        for correct in (True, False):
            if value != 0 and not -100000 < value.adjusted() < 100000:  # too slow for the plain rule
                value_plain = Decimal(f"{'-' if value < 0 else ''}1e-60") if abs(value) < 1 else value.scaleb(0)
                if abs(value) >= 1:
                    continue
                assert fast(state, value, correct) == plain(state, value_plain, correct), (text, state, correct)
            else:
                assert fast(state, value, correct) == plain(state, value, correct), (text, state, correct)


def test_random_confidences_agree_with_the_plain_rule():
    rnd = random.Random(20261204)
    states = tie_states()
    for _ in range(3000):
        digits = rnd.choice((1, 2, 5, 40, 41, 45, 60))
        exp = rnd.randint(-70, 2)
        value = Decimal(f"{'-' if rnd.random() < 0.1 else ''}{rnd.randint(1, 10**digits)}e{exp - digits}")
        if rnd.random() < 0.2:
            value = 1 - abs(value)
        state = rnd.choice(states)
        correct = rnd.random() < 0.5
        assert fast(state, value, correct) == plain(state, value, correct), (value, state, correct)


def test_the_shortest_hostile_confidences_keep_the_arithmetic_short():
    """1e-1000000 took about a second of exact arithmetic on a million-digit denominator: it is read at
    10^-40, a short number, as are the others past the edges."""
    for text, read in (("1e-1000000", rs.EDGE), ("-1e-1000000", -rs.EDGE), ("1e1000000", Fraction(10**41)),
                       ("-9e999999", Fraction(-(10**41))), ("0e-1000000", Fraction(0)), ("0.25", Fraction(1, 4))):
        present, value = rs.confidence_reading(Decimal(text))
        assert present and value == read
        present, value = rs.confidence_reading(text)  # a decimal numeral in a string: read, not present
        assert not present and value == read
    assert rs._near_ends(Fraction(1, 10**50)) == rs.EDGE and rs._near_ends(1 - Fraction(1, 10**50)) == 1 - rs.EDGE
    assert rs._near_ends(Fraction(0)) == 0 and rs._near_ends(Fraction(1)) == 1 and rs._near_ends(rs.EDGE) == rs.EDGE
