"""Manual faces: every mistake a GM can make when typing dice is a clear DiceError; dice
still to roll are asked for precisely (DiceNeeded), dice not needed are recorded."""

from __future__ import annotations

import pytest

from service.dice import DiceError, ManualFaces, RollingDice, ServerFaces
from service.dice.model import DiceNeeded, NeededDice


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


def test_too_few_faces_asks_for_exactly_the_dice_still_needed() -> None:
    with pytest.raises(DiceNeeded) as caught:
        rolling([3, 4]).roll("4d6kh3", purpose="a", roller="alice")
    assert caught.value.needed == NeededDice(
        roll=1,
        roll_id="r1",
        roller="alice",
        purpose="a",
        notation="4d6kh3",
        faces_entered=(3, 4),
        dice=(6, 6),
    )
    assert str(caught.value) == (
        "manual roll 1 (4d6kh3, a for alice) needs 2 more dice: d6, d6; roll them and send "
        "the command again with the faces added"
    )
    with pytest.raises(DiceNeeded) as caught:
        rolling([5]).roll("1d20+1d4", purpose="a")
    assert caught.value.needed.dice == (4,)
    assert "needs 1 more die: d4; roll it" in str(caught.value)


def test_too_few_faces_with_explosions_names_the_next_die_and_says_more_may_follow() -> None:
    with pytest.raises(DiceNeeded) as caught:
        rolling([6, 6, 2, 3]).roll("3d6!", purpose="a")
    needed = caught.value.needed
    assert (needed.dice, needed.exact, needed.faces_entered) == ((6,), False, (6, 6, 2, 3))
    assert "(and more if it explodes)" in str(caught.value)


def test_too_many_faces_for_a_roll() -> None:
    with pytest.raises(DiceError) as caught:
        rolling([3, 4, 5]).roll("2d6", purpose="a")
    assert str(caught.value) == (
        "manual roll 1 (2d6) used 2 faces but 3 were given; enter exactly the dice the roll needs"
    )


def test_a_roll_with_no_faces_at_all_asks_for_all_its_dice() -> None:
    dice = RollingDice(ManualFaces([[3], [4]]), next_roll_number=7, hidden=True)
    dice.roll("d6", purpose="a")
    dice.roll("d6", purpose="b")
    with pytest.raises(DiceNeeded) as caught:
        dice.roll("2d8+3", purpose="damage", roller="goblin")
    assert caught.value.needed == NeededDice(
        roll=3,
        roll_id="r9",
        roller="goblin",
        purpose="damage",
        notation="2d8+3",
        dice=(8, 8),
        hidden=True,
    )


def test_rolls_the_command_did_not_make_are_recorded_as_unused() -> None:
    dice = RollingDice(ManualFaces([[3], [4, 2], [5]]), next_roll_number=4, hidden=True)
    dice.roll("d6", purpose="a")
    unused = dice.unused_records()
    assert [r.roll_id for r in unused] == ["r5", "r6"]
    assert [[d.face for d in r.dice] for r in unused] == [[4, 2], [5]]
    assert all(r.outcome == "unused" and r.total == 0 and r.hidden for r in unused)
    assert all(r.source == "manual" and not any(d.kept for d in r.dice) for r in unused)
    assert dice.records[-2:] == unused and dice.next_roll_number == 7
    # Server faces leave nothing unused.
    assert RollingDice(ServerFaces(b"s", "c", 1, 0), next_roll_number=1).unused_records() == ()


def test_ensure_all_used_still_refuses_them_for_callers_that_want_exact_rolls() -> None:
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
