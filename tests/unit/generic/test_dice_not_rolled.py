"""The dice rule in the generic ruleset: a command that never rolls refuses a manual die,
naming itself; an attack's damage die thrown with a miss is kept as unused."""

from __future__ import annotations

from service.dice import ManualFaces, RollingDice
from service.ruleset import refuse_dice_not_rolled
from service.rulesets.generic import RULESET
from service.rulesets.generic.commands import AddCombatant, Attack
from tests.unit.deciders import given
from tests.unit.generic.fixtures import alice, goblin


def test_adding_a_combatant_with_a_die_is_refused() -> None:
    refused = (
        given(RULESET)
        .when(AddCombatant(id="orc", name="Orc", hp=9), manual=[[6]])
        .rejected(
            match=r"^No die is rolled: the command generic\.add_combatant rolls none; send "
            "the command without manual dice$"
        )
    )
    assert refused.rule is None


def test_a_damage_die_thrown_with_a_miss_is_kept_as_unused() -> None:
    state = given(RULESET, alice(), goblin()).state
    attack = Attack(attacker="alice", target="goblin", notation="1d20", damage="1d6")
    dice = RollingDice(ManualFaces([[2], [5]]), next_roll_number=1)
    assert RULESET.decide(state, attack, dice)
    refuse_dice_not_rolled(dice, attack)  # the attack die decided: nothing to refuse
    assert [r.dice[0].face for r in dice.unused_records()] == [5]
