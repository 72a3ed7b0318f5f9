"""Aeonis carry-over, checked by hand on the 8.1 map: each side's units carry with their
damage and hexes, a hurt Lord carries hurt, the destroyed stay gone, and the map with
its control is the table's."""

from __future__ import annotations

from msgspec.structs import replace

from service.carry_over import CARRIED_REASON
from service.rulesets.aeonis_combat.carry_over import (
    CARRY,
    AeonisCarryOptions,
    AeonisCondition,
    CarriedHex,
    CarriedUnit,
)
from service.rulesets.aeonis_combat.commands import (
    AddHexes,
    AddUnits,
    Adjudicate,
    RemoveUnit,
    Ruling,
    SetHex,
    SetSideValue,
    SetUnitHp,
    UnitSpec,
)
from service.rulesets.aeonis_combat.state import State
from tests.unit.aeonis_combat.fixtures import RULESET, play, state_after, world
from tests.unit.deciders import play as play_commands


def _rule(ruling: Ruling) -> Adjudicate:
    return Adjudicate(ruling=ruling, reason="the battle at the ford")


def _after_the_battle() -> State:
    """Red's Cavalry at 1 of 2 HP, an Infantry of Red destroyed, Red's Lord at 1 of 3,
    Red's renown 2; Blue takes the empty hex 0,1."""
    history = world()
    rulings = [
        _rule(SetUnitHp(unit="b-cav", hp=1)),
        _rule(RemoveUnit(unit="a-inf-2")),
        _rule(SetUnitHp(unit="red-lord", hp=1)),
        _rule(SetSideValue(side="red", field="renown", value=2)),
        _rule(SetHex(hex="0,1", controller="blue")),
    ]
    return state_after([*history, *play(rulings, history=history)])


RED = AeonisCondition(
    ap=6,
    renown=2,
    lord_hex="-2,0",
    lord_hp=1,
    units=(
        CarriedUnit(id="a-arch", kind="archers", hex="-1,0", hp=1),
        CarriedUnit(id="a-inf-1", kind="infantry", hex="-1,0", hp=1),
        CarriedUnit(id="b-cav", kind="cavalry", hex="-1,1", hp=1),
        CarriedUnit(id="b-inf", kind="infantry", hex="-1,1", hp=1),
    ),
)


def test_the_army_carries_with_its_damage_and_the_map_with_its_control() -> None:
    assert not CARRY.ended(_after_the_battle()), "the GM carries an Aeonis game over"
    carried = CARRY.carry_over(_after_the_battle(), AeonisCarryOptions())
    assert carried.characters["red"] == RED
    assert carried.table.hexes["0,1"] == CarriedHex(controller="blue")
    assert carried.table.hexes["-2,0"] == CarriedHex(kind="city", controller="red")


def test_ap_can_be_left_behind_by_option() -> None:
    carried = CARRY.carry_over(_after_the_battle(), AeonisCarryOptions(carry_ap=False))
    assert carried.characters["red"].ap == 0


def test_seeding_lays_the_map_then_the_side_its_units_and_their_damage() -> None:
    final = _after_the_battle()
    carried = CARRY.carry_over(final, AeonisCarryOptions())
    state = RULESET.initial_state(RULESET.options_type())
    prepare = CARRY.prepare_table(state, carried.table)
    assert len(prepare) == 1 and isinstance(prepare[0], AddHexes)
    state = play_commands(RULESET, state, prepare)
    sheet = CARRY.sheet_of(final, "red")
    commands = CARRY.seed(state, sheet, RED)
    assert commands[1:] == (
        AddUnits(
            side="red",
            hex="-1,0",
            units=(UnitSpec(id="a-arch", kind="archers"), UnitSpec(id="a-inf-1", kind="infantry")),
        ),
        AddUnits(
            side="red",
            hex="-1,1",
            units=(UnitSpec(id="b-cav", kind="cavalry"), UnitSpec(id="b-inf", kind="infantry")),
        ),
        Adjudicate(ruling=SetUnitHp(unit="red-lord", hp=1), reason=CARRIED_REASON),
        Adjudicate(ruling=SetUnitHp(unit="b-cav", hp=1), reason=CARRIED_REASON),
    )
    state = play_commands(RULESET, state, commands)
    assert (state.units["b-cav"].hp, state.units["red-lord"].hp) == (1, 1)
    assert "a-inf-2" not in state.units
    assert state.sides["red"].renown == 2
    assert CARRY.settle_table(state, carried.table) == ()


def test_a_captured_lord_comes_back_released_to_its_home_city() -> None:
    final = _after_the_battle()
    red = replace(final.sides["red"], lord_captured_by="blue")
    captured = replace(final, sides={**final.sides, "red": red})
    carried = CARRY.carry_over(captured, AeonisCarryOptions())
    assert (carried.characters["red"].lord_hex, carried.characters["red"].lord_hp) == ("-2,0", None)
