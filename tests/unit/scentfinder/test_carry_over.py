"""Scentfinder carry-over, checked by hand: HP, FP, persistent damage and Death's Door
stay as the fight left them (the text has no rest); FP may start full by option."""

from __future__ import annotations

from service.carry_over import CARRIED_REASON
from service.rulesets.scentfinder import RULESET
from service.rulesets.scentfinder.carry_over import (
    CARRY,
    ScentfinderCarryOptions,
    ScentfinderCondition,
)
from service.rulesets.scentfinder.commands import Adjudicate, EndCombat
from service.rulesets.scentfinder.state import State
from tests.unit.deciders import play
from tests.unit.scentfinder.fixtures import AREAS, Table, alice, fight, goblin


def _after_the_fight() -> State:
    """Alice (14 HP, 3 FP of 3) ends at -2 HP on Death's Door with burns of 3 and 1, 1 FP."""
    table = Table()
    for area in AREAS:
        table.do(area)
    table.do(alice(max_fp=3))
    table.do(goblin())
    table.do(
        Adjudicate(
            reason="the goblin's firepot",
            combatant="alice",
            hp=-2,
            fp=1,
            persistent=(3, 1),
            deaths_door=True,
        )
    )
    return table.state


def test_hp_fp_persistent_damage_and_deaths_door_carry() -> None:
    carried = CARRY.carry_over(_after_the_fight(), ScentfinderCarryOptions())
    assert carried.characters["alice"] == ScentfinderCondition(
        hp=-2, fp=1, persistent=(3, 1), deaths_door=True
    )


def test_focus_can_start_full_by_option() -> None:
    carried = CARRY.carry_over(_after_the_fight(), ScentfinderCarryOptions(focus="full"))
    assert carried.characters["alice"].fp == 3


def test_seeding_adds_the_sheet_at_0_hp_then_rules_the_rest() -> None:
    state = play(RULESET, RULESET.initial_state(RULESET.options_type()), AREAS)
    condition = ScentfinderCondition(hp=-2, fp=1, persistent=(3, 1), deaths_door=True)
    commands = CARRY.seed(state, alice(max_fp=3), condition)
    assert commands == (
        alice(hp=0, max_hp=14, fp=1, max_fp=3),
        Adjudicate(
            reason=CARRIED_REASON, combatant="alice", hp=-2, persistent=(3, 1), deaths_door=True
        ),
    )
    seeded = play(RULESET, state, commands).combatants["alice"]
    assert (seeded.hp, seeded.max_hp, seeded.fp, seeded.max_fp) == (-2, 14, 1, 3)
    assert (seeded.persistent, seeded.deaths_door) == ((3, 1), True)


def test_a_fresh_character_is_just_its_sheet_with_its_maxima_as_the_encounter_reads_them() -> None:
    state = play(RULESET, RULESET.initial_state(RULESET.options_type()), AREAS)
    assert CARRY.seed(state, alice(), ScentfinderCondition(hp=14, fp=3)) == (
        alice(max_hp=14, max_fp=0),
    ), "without focus_maximum a sheet's FP have no maximum (SCF-A20)"


def test_the_fight_is_over_once_ended() -> None:
    table = fight()
    assert not CARRY.ended(table.state)
    table.do(EndCombat())
    assert CARRY.ended(table.state)
