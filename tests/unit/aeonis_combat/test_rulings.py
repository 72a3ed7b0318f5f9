"""GM adjudication: every ruling is an event with its reason (design section 3)."""

from __future__ import annotations

from service.rulesets.aeonis_combat.commands import (
    Adjudicate,
    AllowRetreat,
    DecideBattle,
    RemoveUnit,
    SetHex,
    SetSideValue,
    SetUnitHp,
)
from service.rulesets.aeonis_combat.events import (
    BattleEnded,
    BattleWon,
    HexSet,
    SideValueSet,
    UnitHpSet,
    UnitRemoved,
)
from tests.unit.aeonis_combat.fixtures import RULESET, TARGET, attack_on_target, state_after, world
from tests.unit.deciders import given

WHY = "the table agreed"


def _rule(ruling: object) -> Adjudicate:
    return Adjudicate(ruling=ruling, reason=WHY)  # type: ignore[arg-type]


def test_side_values() -> None:
    events = (
        given(RULESET, *world())
        .when(_rule(SetSideValue(side="red", field="renown", value=5)))
        .then(SideValueSet(side="red", field="renown", value=5, previous=0, reason=WHY))
    )
    assert state_after(world() + events).sides["red"].renown == 5
    given(RULESET, *world()).when(_rule(SetSideValue(side="red", field="ap", value=6))).rejected(
        "already 6"
    )
    given(RULESET, *world()).when(_rule(SetSideValue(side="grey", field="ap", value=1))).rejected(
        "no side 'grey'"
    )


def test_unit_hit_points() -> None:
    given(RULESET, *world()).when(_rule(SetUnitHp(unit="b-cav", hp=1))).then(
        UnitHpSet(unit="b-cav", hp=1, previous=2, reason=WHY)
    )
    given(RULESET, *world()).when(_rule(SetUnitHp(unit="b-cav", hp=3))).rejected(
        "at most 2 hit points"
    )


def test_removing_units_but_never_a_lord() -> None:
    events = (
        given(RULESET, *world())
        .when(_rule(RemoveUnit(unit="c-inf")))
        .then(UnitRemoved(unit="c-inf", reason=WHY))
    )
    assert "c-inf" not in state_after(world() + events).units
    given(RULESET, *world()).when(_rule(RemoveUnit(unit="red-lord"))).rejected(
        "never destroyed, only captured"
    )


def test_hex_control() -> None:
    """AEC-A18: control comes from the host game; the GM records it."""
    events = (
        given(RULESET, *world())
        .when(_rule(SetHex(hex="0,1", controller="blue", contested=True)))
        .then(HexSet(hex="0,1", controller="blue", contested=True, attackable=False, reason=WHY))
    )
    assert state_after(world() + events).hexes["0,1"].controller == "blue"
    given(RULESET, *world()).when(_rule(SetHex(hex="9,9"))).rejected("not on the map")


def test_overriding_a_battle_outcome() -> None:
    history = attack_on_target()
    won = given(RULESET, *history).when(_rule(DecideBattle(hex=TARGET, winner="attacker"))).events
    assert won == [BattleWon(hex=TARGET, side="red", reason=WHY)]
    assert state_after(history + won).battles[TARGET].step == "occupation"
    held = given(RULESET, *history).when(_rule(DecideBattle(hex=TARGET, winner="defender"))).events
    assert held == [BattleEnded(hex=TARGET, outcome="ruling", reason=WHY)]


def test_retreat_permission_is_for_cities_and_fortresses() -> None:
    given(RULESET, *attack_on_target()).when(_rule(AllowRetreat(hex=TARGET))).rejected(
        "from a standard hex anyway"
    )
