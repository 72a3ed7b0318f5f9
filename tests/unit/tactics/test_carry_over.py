"""TACTICS carry-over, checked by hand: wounds with their source carry, shields stay as
left unless the option fills them, and the next encounter counts them as earlier scenes."""

from __future__ import annotations

from service.carry_over import CARRIED_REASON
from service.rulesets.tactics import RULESET
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics.carry_over import (
    CARRY,
    CarriedWound,
    TacticsCarryOptions,
    TacticsCondition,
)
from service.rulesets.tactics.state import State
from tests.unit.deciders import play as play_commands
from tests.unit.tactics.fixtures import OPTS, ZONES, fighter, play, ruling, state_of

VEX = fighter("vex", side="mercs", agility=2, endurance=1, armour=2, shields=2)


def _after_the_fight() -> State:
    """Vex's 2 shields gate Rex's first 4 wounds and are spent; then 6 more from Rex and
    3 from a fire: 9 wounds, unshielded."""
    return state_of(
        play(
            [
                *ZONES,
                fighter("rex", agility=2, endurance=1, armour=2),
                VEX,
                ruling(cmd.InflictWounds(combatant="vex", wounds=4, source="rex")),
                ruling(cmd.InflictWounds(combatant="vex", wounds=6, source="rex")),
                ruling(cmd.InflictWounds(combatant="vex", wounds=3, source="fire")),
                cmd.EndEncounter(),
            ]
        )
    )


WOUNDS = (CarriedWound(amount=6, source="rex"), CarriedWound(amount=3, source="fire"))


def test_wounds_carry_with_their_source_and_shields_as_left() -> None:
    assert CARRY.ended(_after_the_fight())
    carried = CARRY.carry_over(_after_the_fight(), TacticsCarryOptions())
    assert carried.characters["vex"] == TacticsCondition(wounds=WOUNDS, shields=0)
    assert carried.characters["rex"] == TacticsCondition()


def test_shields_can_start_full_by_option() -> None:
    carried = CARRY.carry_over(_after_the_fight(), TacticsCarryOptions(shields="full"))
    assert carried.characters["vex"].shields == 2


def test_seeding_lowers_the_shields_for_the_wounds_then_a_new_scene_begins() -> None:
    zones = [c for c in ZONES if not isinstance(c, tuple)]
    state = play_commands(RULESET, RULESET.initial_state(OPTS), zones)
    commands = CARRY.seed(state, VEX, TacticsCondition(wounds=WOUNDS, shields=2))
    assert commands == (
        VEX,
        *(
            cmd.Adjudicate(ruling=r, reason=CARRIED_REASON)
            for r in (
                cmd.SetValue(combatant="vex", field="shields", value=0),
                cmd.InflictWounds(combatant="vex", wounds=6, source="rex"),
                cmd.InflictWounds(combatant="vex", wounds=3, source="fire"),
                cmd.SetValue(combatant="vex", field="shields", value=2),
            )
        ),
    )
    state = play_commands(RULESET, state, commands)
    settle = CARRY.settle_table(state, CARRY.fresh_table)
    assert settle == (cmd.Adjudicate(ruling=cmd.NewScene(), reason=CARRIED_REASON),)
    state = play_commands(RULESET, state, settle)
    vex = state.combatants["vex"]
    assert (vex.wound_total, vex.shields, vex.status) == (9, 2, "active")
    assert {w.scene for w in vex.wounds} == {1} and state.scene == 2


def test_twenty_wounds_keep_a_creature_out() -> None:
    assert "incapacitated" in (CARRY.unfit(TacticsCondition(status="incapacitated")) or "")
    assert CARRY.unfit(TacticsCondition(status="dead")) is not None
