"""judgeapp.numbers: one reading of a whole number, checked against Python's own for the forms it
takes, and refusing every other."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from judgeapp import numbers


@given(st.integers(min_value=-(10**30) + 1, max_value=10**30 - 1))
def test_an_integer_and_its_digits_read_as_itself(n):
    assert numbers.whole(n) == n
    assert numbers.whole(str(n)) == n
    assert numbers.whole(f"  {n} ") == n


@given(st.text())
def test_text_reads_only_when_it_is_plain_ascii_digits(text):
    read = numbers.whole(text)
    body = text.strip()
    plain = body.removeprefix("-")
    if plain and plain.isascii() and plain.isdigit() and len(plain) <= 30:
        assert read == int(body)
    else:
        assert read is None


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_a_float_reads_only_when_finite_and_whole(x):
    expected = int(x) if math.isfinite(x) and x.is_integer() else None
    assert numbers.whole(x) == expected
    assert numbers.whole(x, floats=False) is None


def test_no_bool_list_or_null_is_a_number():
    assert [numbers.whole(v) for v in (True, False, None, [], {}, "")] == [None] * 6


def test_decimal_seconds():
    assert [numbers.decimal(t) for t in ("5", "2.5", ".5", "30.", "1e1", "-1")] == [
        5.0,
        2.5,
        0.5,
        30.0,
        10.0,
        -1.0,
    ]
    assert numbers.decimal("6.525875691132231e-228") > 0  # as a client's JSON library writes one
    assert [numbers.decimal(t) for t in ("1_0", "nan", "inf", "1e400", " 5", "", "\u0663")] == [
        None
    ] * 7
