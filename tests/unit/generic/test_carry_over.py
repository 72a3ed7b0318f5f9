"""Generic carry-over, checked by hand: hit points and conditions without a duration
carry; a duration counts the rounds of one fight; the down condition follows 0 hp."""

from __future__ import annotations

from service.carry_over import CARRIED_REASON
from service.rulesets.generic import RULESET, GenericOptions
from service.rulesets.generic.carry_over import CARRY, GenericCarryOptions, GenericCondition
from service.rulesets.generic.commands import (
    AddCombatant,
    AddCondition,
    AddConditionRuling,
    Adjudicate,
    Command,
    Damage,
    EndEncounter,
    RollInitiative,
    SetValue,
)
from service.rulesets.generic.state import State
from tests.unit.deciders import play

ARIA = AddCombatant(id="aria", name="Aria", hp=22, stats={"ac": 15})
BORIN = AddCombatant(id="borin", name="Borin", hp=28)


def _after_the_fight(options: GenericOptions | None = None) -> State:
    state = RULESET.initial_state(options or GenericOptions())
    commands: list[Command] = [
        ARIA,
        BORIN,
        RollInitiative(),
        AddCondition(target="aria", condition="cursed"),
        AddCondition(target="aria", condition="blessed", duration_rounds=2),
        Damage(target="aria", amount=9),
        Damage(target="borin", amount=30),
        EndEncounter(),
    ]
    return play(RULESET, state, commands, manual=[[12], [7]])


def test_hit_points_and_lasting_conditions_carry() -> None:
    assert CARRY.ended(_after_the_fight())
    carried = CARRY.carry_over(_after_the_fight(), GenericCarryOptions())
    assert carried.characters == {
        "aria": GenericCondition(hp=13, conditions=("cursed",)),
        "borin": GenericCondition(hp=0),
    }


def test_conditions_can_be_left_behind_by_option() -> None:
    carried = CARRY.carry_over(_after_the_fight(), GenericCarryOptions(carry_conditions=False))
    assert carried.characters["aria"] == GenericCondition(hp=13)


def test_hit_points_a_sheet_cannot_start_with_are_ruled() -> None:
    state = RULESET.initial_state(GenericOptions(allow_negative_hp=True))
    above = CARRY.seed(state, ARIA, GenericCondition(hp=25, conditions=("cursed",)))
    assert above == (
        AddCombatant(id="aria", name="Aria", hp=22, max_hp=22, stats={"ac": 15}),
        Adjudicate(ruling=SetValue(combatant="aria", field="hp", value=25), reason=CARRIED_REASON),
        Adjudicate(
            ruling=AddConditionRuling(target="aria", condition="cursed"), reason=CARRIED_REASON
        ),
    )
    below = CARRY.seed(state, BORIN, GenericCondition(hp=-4))
    seeded = play(RULESET, play(RULESET, state, above), below)
    assert (seeded.combatants["aria"].hp, seeded.combatants["borin"].hp) == (25, -4)
    assert [c.name for c in seeded.combatants["borin"].conditions] == ["down"]
