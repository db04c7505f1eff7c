"""Parsing details beyond the shared vectors: object finding, response states, locale grammar."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from generator.parse.jsonfind import JsonInt, first_object
from generator.parse.numbers import NotANumber, read_locale_number
from generator.parse.response import ANSWER, FAILED, UNPARSEABLE, read_outcome
from tests.conftest import chat_record


def test_first_complete_object_wins_over_later_ones():
    assert first_object('x {"a": 1} then {"a": 2}') == {"a": 1}
    assert first_object('{"a": [1, {"b": 2}]} {"c": 3}') == {"a": [1, {"b": 2}]}


def test_broken_object_is_skipped_for_a_later_complete_one():
    assert first_object('{"a": 1,} and {"b": 2}') == {"b": 2}
    assert first_object('{"a": NaN} {"b": 1}') == {"b": 1}
    assert first_object('{"a": {"b": 1}') == {"b": 1}  # truncated outer, complete inner


def test_numbers_keep_exact_decimal_value():
    obj = first_object('{"a": 12.10, "b": 7, "c": 1e400}')
    assert obj["a"] == Decimal("12.10") and str(obj["a"]) == "12.10"
    assert isinstance(obj["b"], JsonInt) and not isinstance(obj["a"], JsonInt)
    assert obj["c"] == Decimal("1e400")


def test_nesting_limit_is_100_levels():
    assert first_object('{"a":' * 99 + "1" + "}" * 99) is not None  # 99 objects
    assert first_object('{"a":' + "[" * 99 + "1" + "]" * 99 + "}") is not None  # exactly 100 levels
    assert first_object('{"a":' + "[" * 100 + "1" + "]" * 100 + "}") is None  # 101 levels
    # Too deep at the first `{`: the scan goes on, and the first `{` whose object nests at most
    # 100 levels is the 4,901st; but only the first 1,000 `{` are tried.
    assert first_object('{"a":' * 5000 + "1" + "}" * 5000) is None
    assert first_object('{"a":' * 1050 + "1" + "}" * 1050) == first_object('{"a":' * 100 + "1" + "}" * 100)


def test_nesting_is_counted_on_the_text_a_repeated_key_hides_none():
    """A value a repeated key replaces is gone from the decoded object but nested in the text: 101 levels."""
    deep = "[" * 100 + "]" * 100
    assert first_object('{"total": ' + deep + ', "total": "12.00"}') is None
    assert first_object('{"x": {"total": ' + deep + ', "total": "12.00"}} {"total": "1"}') == {"total": "1"}
    assert first_object('{"total": ' + deep[1:-1] + ', "total": "12.00"}') == {"total": "12.00"}  # 100 levels
    assert first_object('{"total": "' + "[" * 200 + '", "t": 1}') is not None  # brackets inside strings


def test_only_the_first_thousand_braces_are_tried():
    assert first_object("{" * 999 + '{"a": 1}') == {"a": 1}
    assert first_object("{" * 1000 + '{"a": 1}') is None


def test_adversarial_contents_stay_fast():
    start = time.perf_counter()
    for text in ("{" * 200_000, '{"a":"' + "{" * 200_000, "{[" * 100_000, '{"a":' * 3000 + "x" * 100_000,
                 '{"' * 500_000):
        assert first_object(text) is None
    assert time.perf_counter() - start < 20  # generous: without the cap the first case alone took 7 s


def _record(**changes):
    rec = chat_record("x", '{"a": 1}')
    rec.update(changes)
    return rec


@pytest.mark.parametrize("record, status", [
    (_record(), ANSWER),
    (_record(attempts=[{"status": 200, "error": "timeout"}]), FAILED),
    (_record(attempts=[{"status": 503, "error": None}]), FAILED),
    (_record(attempts=[{"status": None, "error": None}]), FAILED),
    (_record(attempts=[{"status": "200", "error": None}]), FAILED),
    (_record(response=None), FAILED),
    (_record(response={"choices": []}), UNPARSEABLE),
    (_record(response={"choices": [{"message": {"content": None, "refusal": "no"}}]}), UNPARSEABLE),
    (_record(response={"choices": [{"message": {"content": ["a"]}}]}), UNPARSEABLE),
    (_record(response={"choices": [{"message": {"content": "I cannot help with that."}}]}), UNPARSEABLE),
    (_record(response={"choices": [{"message": {"content": '["a", 1]'}}]}), UNPARSEABLE),
])
def test_response_states(record, status):
    assert read_outcome(record).status == status


@pytest.mark.parametrize("text, locale, money, value", [
    ("1.234,56", "de-DE", False, "1234.56"),
    ("1234,56", "de-DE", False, "1234.56"),
    ("1\u202f234,56", "fr-FR", False, "1234.56"),
    ("1\u00a0234,56", "fr-FR", False, "1234.56"),
    ("1 234,56", "fr-FR", False, "1234.56"),
    ("\u22121,234.5", "en-GB", False, "-1234.5"),
    ("+12", "es-MX", False, "12"),
    ("¥12,340", "ja-JP", True, "12340"),
    ("12.340 EUR", "de-DE", True, "12340"),
    ("1,234", "de-DE", False, "1.234"),
    ("1,234", "en-US", False, "1234"),
])
def test_locale_numbers(text, locale, money, value):
    assert read_locale_number(text, locale, money=money) == Decimal(value)


@pytest.mark.parametrize("text, locale, money", [
    ("1,234.56", "de-DE", False), ("1.234,56", "en-US", False), ("1,23,456.00", "en-US", False),
    ("12.", "en-US", False), (".5", "en-US", False), ("1e3", "en-US", False), ("１２", "en-US", False),
    ("(12.00)", "en-US", False), ("--1", "en-US", False), ("$12 USD", "en-US", True), ("$12", "en-US", False),
    ("1 234,56", "de-DE", False), ("12,34", "en-US", False), ("1.234,5.6", "de-DE", False),
])
def test_not_locale_numbers(text, locale, money):
    with pytest.raises(NotANumber):
        read_locale_number(text, locale, money=money)
