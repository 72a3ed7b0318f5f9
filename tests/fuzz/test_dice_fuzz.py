"""Hypothesis on the dice engine beyond parsing: whatever parses also rolls, quickly and
within the limits; whatever does not parse is a DiceError with a message, never a crash
or a hang (the parser's own properties are in tests/unit/dice/test_notation.py)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.dice import (
    MAX_DICE,
    MAX_EXPLOSION_DICE,
    DiceError,
    RollingDice,
    ServerFaces,
    parse,
)

SEED = bytes(range(32))


def _roll(notation: str) -> int:
    dice = RollingDice(ServerFaces(SEED, "fuzz", 1, 0), next_roll_number=1)
    record = dice.roll(notation, purpose="fuzz")
    return len(record.dice)


@st.composite
def notations(draw: st.DrawFn) -> str:
    """Notation-shaped text with numbers up to and past every limit."""
    number = st.one_of(st.integers(0, 30), st.integers(0, 20_000), st.integers(0, 10**12))
    term = st.one_of(
        st.builds(lambda c, s: f"{c}d{s}", number, number),
        st.builds(lambda s: f"d{s}", number),
        number.map(str),
        st.just("d%"),
    )
    suffix = st.sampled_from(["", "!", "kh1", "kl2", "dh1", "dl3", ">=5", ">4", "<3", "!>=6"])
    op = st.sampled_from(["+", "-", " + ", "*", ""])
    parts = draw(st.lists(st.tuples(op, term, suffix), min_size=1, max_size=25))
    return "".join(o + t + s for o, t, s in parts).lstrip("+")


@settings(max_examples=400, deadline=500)
@given(notations())
def test_anything_that_parses_rolls_within_the_limits(notation: str) -> None:
    try:
        expression = parse(notation)
    except DiceError as error:
        assert str(error)
        return
    rolled = _roll(expression.text)
    assert rolled <= MAX_DICE + MAX_EXPLOSION_DICE


@pytest.mark.parametrize(
    "notation",
    ["1000000d6", "1d1000000", "1001d6", "999999999999999999999d6", "1d6+" * 60, "9" * 201],
)
def test_oversized_notation_is_refused_at_once(notation: str) -> None:
    started = time.perf_counter()
    with pytest.raises(DiceError) as refused:
        _roll(notation)
    assert time.perf_counter() - started < 0.05
    assert "limit" in str(refused.value) or "MAX_" in str(refused.value)


@pytest.mark.parametrize("notation", ["1000d10000", "1000d2!", "500d6!+500d6!", "1000d6kh1"])
def test_largest_legal_rolls_are_fast(notation: str) -> None:
    started = time.perf_counter()
    rolled = _roll(notation)
    assert time.perf_counter() - started < 0.5
    assert rolled <= MAX_DICE + MAX_EXPLOSION_DICE
