"""Checks: against a target number, opposed (ties to the opposition), or plain."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.generic.commands import Check, OpposedRoll
from service.rulesets.generic.events import CheckRolled
from tests.unit.deciders import given
from tests.unit.generic.fixtures import RULESET, alice, goblin, rolls_of, without_rolls

GIVEN = given(RULESET, alice(), goblin())


def test_check_against_a_number_succeeds_on_meet_or_beat() -> None:
    check = Check(combatant="alice", notation="1d20+3", label="Athletics", target_number=15)
    events = GIVEN.when(check, manual=[[12]]).events
    assert without_rolls(events) == [
        CheckRolled(combatant="alice", label="Athletics", outcome="success", rolls=())
    ]
    assert rolls_of(events) == [("r1", "alice", "Athletics check", [12], 15, 15, "success")]


def test_check_against_a_number_fails_below_it() -> None:
    check = Check(combatant="alice", notation="1d20+3", label="Athletics", target_number=15)
    assert GIVEN.when(check, manual=[[11]]).events[0].outcome == "failure"  # type: ignore[union-attr]


def test_opposed_check_higher_total_wins() -> None:
    check = Check(
        combatant="alice",
        notation="1d20+3",
        label="Grapple",
        opposed=OpposedRoll(combatant="goblin", notation="1d20", modifiers=(Modifier("str", 1),)),
    )
    events = GIVEN.when(check, manual=[[10], [11]]).events
    assert without_rolls(events) == [
        CheckRolled(
            combatant="alice", label="Grapple", opponent="goblin", outcome="success", rolls=()
        )
    ]
    assert rolls_of(events) == [
        ("r1", "alice", "Grapple check", [10], 13, None, "success"),
        ("r2", "goblin", "Grapple check opposing Alice", [11], 12, None, "failure"),
    ]
    first, second = events[0].rolls  # type: ignore[union-attr]
    assert (first.opposed_by, second.opposed_by) == ("r2", "r1")


def test_opposed_check_tie_goes_to_the_opposition() -> None:
    check = Check(
        combatant="alice",
        notation="1d20",
        label="Grapple",
        opposed=OpposedRoll(combatant="goblin", notation="1d20"),
    )
    events = GIVEN.when(check, manual=[[9], [9]]).events
    assert events[0].outcome == "failure"  # type: ignore[union-attr]
    assert [r[-1] for r in rolls_of(events)] == ["failure", "success"]


def test_plain_roll_has_no_outcome() -> None:
    check = Check(combatant="goblin", notation="3d6", label="Perception")
    events = GIVEN.when(check, manual=[[1, 2, 3]]).events
    assert without_rolls(events) == [CheckRolled(combatant="goblin", label="Perception", rolls=())]
    assert rolls_of(events) == [("r1", "goblin", "Perception check", [1, 2, 3], 6, None, None)]


def test_a_downed_combatant_may_still_make_checks() -> None:
    check = Check(combatant="goblin", notation="1d20", label="Death save", target_number=10)
    events = given(RULESET, goblin(hp=0)).when(check, manual=[[10]]).events
    assert events[0].outcome == "success"  # type: ignore[union-attr]


def test_target_number_and_opposed_together_are_refused() -> None:
    check = Check(
        combatant="alice",
        notation="1d20",
        label="Grapple",
        target_number=10,
        opposed=OpposedRoll(combatant="goblin", notation="1d20"),
    )
    GIVEN.when(check).rejected(match="target number or an opposing roll, not both")


def test_unknown_opponent_and_empty_label_are_refused() -> None:
    opposed = OpposedRoll(combatant="orc", notation="1d20")
    GIVEN.when(Check(combatant="alice", notation="1d20", label="x", opposed=opposed)).rejected(
        match="no combatant with id 'orc'"
    )
    GIVEN.when(Check(combatant="alice", notation="1d20", label=" ")).rejected(
        match="label cannot be empty"
    )
