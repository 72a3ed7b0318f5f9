"""Turns and rounds advancing, skipping the downed, and conditions expiring on time."""

from __future__ import annotations

from service.rulesets.generic.commands import NextTurn
from service.rulesets.generic.events import (
    ConditionAdded,
    ConditionExpired,
    Damaged,
    RoundStarted,
    TurnStarted,
)
from service.rulesets.generic.options import GenericOptions
from service.rulesets.generic.state import Fighting
from tests.unit.deciders import given
from tests.unit.generic.fixtures import RULESET, alice, everyone_in_combat


def test_next_turn_passes_to_the_next_in_order() -> None:
    given(RULESET, *everyone_in_combat(turn="alice")).when(NextTurn()).then(
        TurnStarted(combatant="bob")
    )


def test_past_the_last_a_new_round_begins() -> None:
    when = given(RULESET, *everyone_in_combat(turn="goblin")).when(NextTurn())
    when.then(RoundStarted(round=2, combatant="alice"))
    assert when.state_after().phase == Fighting(round=2, turn="alice")
    assert RULESET.round_of(when.state_after()) == 2


def test_combatants_at_0_hp_are_skipped() -> None:
    bob_down = Damaged(target="bob", amount=10, hp_after=0)
    given(RULESET, *everyone_in_combat(turn="alice"), bob_down).when(NextTurn()).then(
        TurnStarted(combatant="goblin")
    )


def test_skipping_wraps_into_the_next_round() -> None:
    alice_down = Damaged(target="alice", amount=12, hp_after=0)
    given(RULESET, *everyone_in_combat(turn="goblin"), alice_down).when(NextTurn()).then(
        RoundStarted(round=2, combatant="bob")
    )


def test_downed_combatants_keep_their_turn_when_skipping_is_off() -> None:
    options = GenericOptions(skip_down_turns=False)
    bob_down = Damaged(target="bob", amount=10, hp_after=0)
    given(RULESET, *everyone_in_combat(turn="alice"), bob_down, options=options).when(
        NextTurn()
    ).then(TurnStarted(combatant="bob"))


def test_when_nobody_can_act_the_turn_still_passes() -> None:
    down = [Damaged(target=c, amount=20, hp_after=0) for c in ("alice", "bob", "goblin")]
    given(RULESET, *everyone_in_combat(turn="alice"), *down).when(NextTurn()).then(
        TurnStarted(combatant="bob")
    )


def test_a_condition_added_in_round_1_for_2_rounds_expires_as_round_3_begins() -> None:
    prone = ConditionAdded(
        combatant="goblin", condition="prone", duration_rounds=2, expires_at_round=3
    )
    in_round_2 = given(RULESET, *everyone_in_combat(turn="goblin", round=2), prone)
    in_round_1 = given(RULESET, *everyone_in_combat(turn="goblin", round=1), prone)
    in_round_1.when(NextTurn()).then(RoundStarted(round=2, combatant="alice"))
    when = in_round_2.when(NextTurn())
    when.then(
        RoundStarted(round=3, combatant="alice"),
        ConditionExpired(combatant="goblin", condition="prone", round=3),
    )
    assert when.state_after().combatants["goblin"].conditions == ()


def test_conditions_do_not_expire_between_turns_of_a_round() -> None:
    prone = ConditionAdded(
        combatant="bob", condition="prone", duration_rounds=1, expires_at_round=2
    )
    given(RULESET, *everyone_in_combat(turn="alice"), prone).when(NextTurn()).then(
        TurnStarted(combatant="bob")
    )


def test_conditions_without_duration_never_expire() -> None:
    cursed = ConditionAdded(combatant="bob", condition="cursed")
    given(RULESET, *everyone_in_combat(turn="goblin", round=9), cursed).when(NextTurn()).then(
        RoundStarted(round=10, combatant="alice")
    )


def test_next_turn_before_combat_is_refused() -> None:
    given(RULESET, alice()).when(NextTurn()).rejected(match="combat has not started")
