"""Manual faces: every mistake a GM can make when typing dice is a clear DiceError."""

from __future__ import annotations

import pytest

from service.dice import DiceError, ManualFaces, RollingDice


def rolling(*rolls: list[int]) -> RollingDice:
    return RollingDice(ManualFaces(rolls), next_roll_number=1)


def test_manual_rolls_are_recorded_as_manual() -> None:
    dice = rolling([4], [2, 5])
    assert dice.roll("d6", purpose="a").source == "manual"
    assert dice.roll("2d6", purpose="b").total == 7
    dice.ensure_all_used()


def test_face_must_fit_the_die() -> None:
    dice = rolling([3], [7])
    dice.roll("d6", purpose="a")
    with pytest.raises(DiceError) as caught:
        dice.roll("d6", purpose="b")
    assert str(caught.value) == "manual roll 2: face 7 does not fit a d6"
    with pytest.raises(DiceError, match="manual roll 1: face 0 does not fit a d20"):
        rolling([0]).roll("d20", purpose="a")


def test_too_few_faces_names_the_roll_and_how_many_it_needs() -> None:
    with pytest.raises(DiceError) as caught:
        rolling([3, 4]).roll("4d6kh3", purpose="a")
    assert str(caught.value) == "manual roll 1 (4d6kh3) needs 4 faces but 2 were given"
    with pytest.raises(DiceError) as caught:
        rolling([5]).roll("1d20+1d4", purpose="a")
    assert str(caught.value) == "manual roll 1 (1d20+1d4) needs 2 faces but 1 was given"


def test_too_few_faces_with_explosions_says_at_least() -> None:
    with pytest.raises(DiceError) as caught:
        rolling([6, 6, 2, 3]).roll("3d6!", purpose="a")
    assert str(caught.value) == "manual roll 1 (3d6!) needs at least 5 faces but 4 were given"


def test_too_many_faces_for_a_roll() -> None:
    with pytest.raises(DiceError) as caught:
        rolling([3, 4, 5]).roll("2d6", purpose="a")
    assert str(caught.value) == (
        "manual roll 1 (2d6) used 2 faces but 3 were given; enter exactly the dice the roll needs"
    )


def test_more_rolls_than_given() -> None:
    dice = rolling([3], [4])
    dice.roll("d6", purpose="a")
    dice.roll("d6", purpose="b")
    with pytest.raises(DiceError) as caught:
        dice.roll("d20", purpose="c")
    assert str(caught.value) == "manual roll 3 (d20) is missing: only 2 manual rolls were given"


def test_unused_manual_rolls_are_an_error_after_the_command() -> None:
    dice = rolling([3], [4], [5])
    dice.roll("d6", purpose="a")
    dice.roll("d6", purpose="b")
    with pytest.raises(DiceError) as caught:
        dice.ensure_all_used()
    assert str(caught.value) == "3 manual rolls were given but the command rolled 2 times"
    with pytest.raises(DiceError, match="1 manual roll was given but the command rolled 0 times"):
        rolling([1]).ensure_all_used()


def test_bad_notation_does_not_consume_a_manual_roll() -> None:
    dice = rolling([3])
    with pytest.raises(DiceError):
        dice.roll("3d", purpose="a")
    assert dice.roll("d6", purpose="a").total == 3
    dice.ensure_all_used()
