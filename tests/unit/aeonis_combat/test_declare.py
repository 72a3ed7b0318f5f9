"""Declaring an attack and answering it: AEC-01..07, AEC-09, AEC-A6, AEC-A7."""

from __future__ import annotations

from service.rulesets.aeonis_combat.commands import (
    Adjudicate,
    Attack,
    Cleanup,
    Defend,
    EndAttack,
    Fight,
    MoveUnits,
    SetSideValue,
    Stand,
)
from service.rulesets.aeonis_combat.events import AttackDeclared, DefenceDeclared
from tests.unit.aeonis_combat.fixtures import (
    RULESET,
    TARGET,
    A,
    B,
    attack_on_target,
    play,
    state_after,
    world,
    world_commands,
)
from tests.unit.deciders import given

ALL_RED = ("b-cav", "b-inf", "a-arch", "a-inf-1", "a-inf-2")


def test_an_attack_costs_2_ap_and_is_declared_against_a_hex() -> None:
    """AEC-01, AEC-02: declared, paid, nobody moves in."""
    events = (
        given(RULESET, *world())
        .when(Attack(side="red", hex=TARGET, commit=("b-cav", "a-arch")))
        .events
    )
    assert events == [
        AttackDeclared(
            hex=TARGET,
            side="red",
            defender="blue",
            cap=3,
            siege=False,
            line=("b-cav", "a-arch"),
            ap_spent=2,
            ap_after=4,
        )
    ]
    state = state_after(world() + events)
    assert state.units["b-cav"].hex == B and state.battles[TARGET].step == "defence"


def test_an_attack_with_too_few_ap_is_refused() -> None:
    ruling = Adjudicate(
        ruling=SetSideValue(side="red", field="ap", value=1), reason="spent on a Move"
    )
    events = world() + play([ruling], history=world())
    given(RULESET, *events).when(Attack(side="red", hex=TARGET, commit=("b-cav",))).rejected(
        r"Red has 1 AP and an Attack action costs 2 AP \(section 8.1\)"
    )


def test_attacks_happen_in_the_action_phase() -> None:
    """AEC-01: not before round 1, not after Cleanup & Checks."""
    setup_only = play(world_commands()[:-1])
    given(RULESET, *setup_only).when(Attack(side="red", hex=TARGET, commit=("b-cav",))).rejected(
        "Action Phase"
    )
    cleaned = world() + play([Cleanup()], history=world())
    given(RULESET, *cleaned).when(Attack(side="red", hex=TARGET, commit=("b-cav",))).rejected(
        "after Cleanup of round 1"
    )


def test_attacking_a_non_adjacent_hex_is_refused() -> None:
    """AEC-03: at least one unit in a hex adjacent to the target (3.1)."""
    given(RULESET, *world()).when(Attack(side="red", hex="1,-1", commit=("b-cav",))).rejected(
        r"Red has no unit in a hex adjacent to 1,-1, so it cannot attack it \(section 3.1\)"
    )


def test_the_target_must_be_enemy_controlled_contested_or_attackable() -> None:
    """AEC-03 / AEC-A18: control flags come from the map."""
    given(RULESET, *world()).when(Attack(side="red", hex="0,1", commit=("b-cav",))).rejected(
        "not enemy-controlled, contested or attackable by scenario rules"
    )
    given(RULESET, *world()).when(Attack(side="blue", hex=TARGET, commit=("c-inf",))).rejected(
        "not enemy-controlled"
    )
    contested = world(**{"0_0": {"controller": None, "contested": True}})
    declared = given(RULESET, *contested).when(Attack(side="red", hex=TARGET, commit=("b-cav",)))
    assert declared.events[0].defender == "blue"  # type: ignore[union-attr]  # the units' side
    scenario = world(**{"0_0": {"controller": "red", "attackable": True}})
    # Red controls 0,0 but Blue's units are in it; the scenario makes it attackable.
    declared = given(RULESET, *scenario).when(Attack(side="blue", hex=TARGET, commit=("c-inf",)))
    assert declared.events[0].defender == "red"  # type: ignore[union-attr]


def test_committed_units_come_from_adjacent_hexes() -> None:
    """AEC-04: the attacker commits any number of units from adjacent hexes."""
    moved = world() + play([MoveUnits(side="red", units=("a-inf-1",), to="-2,0")], history=world())
    given(RULESET, *moved).when(
        Attack(side="red", hex=TARGET, commit=("b-cav", "a-inf-1"))
    ).rejected(r"a-inf-1 is in -2,0, not adjacent to 0,0; units commit from adjacent hexes")
    given(RULESET, *world()).when(Attack(side="red", hex=TARGET, commit=("c-inf",))).rejected(
        "not Red's to commit"
    )
    given(RULESET, *world()).when(Attack(side="red", hex=TARGET, commit=())).rejected(
        "at least one unit"
    )
    given(RULESET, *world()).when(
        Attack(side="red", hex=TARGET, commit=("b-cav", "b-cav"))
    ).rejected("named twice")


def test_exceeding_the_line_cap_is_refused() -> None:
    """AEC-06 / AEC-07: cap 3 on a standard hex."""
    given(RULESET, *world()).when(
        Attack(side="red", hex=TARGET, commit=ALL_RED, line=ALL_RED[:4])
    ).rejected(
        r"Red's Battle Line holds at most 3 units on a standard hex \(section 1.2\); 4 given"
    )


def test_a_city_line_holds_five() -> None:
    """AEC-06: cap 5 on a City (and a Fortress)."""
    city = world(**{"0_0": {"kind": "city"}})
    events = given(RULESET, *city).when(Attack(side="red", hex=TARGET, commit=ALL_RED)).events
    assert events[0].line == ALL_RED and events[0].cap == 5  # type: ignore[union-attr]
    fortress = world(**{"0_0": {"kind": "fortress"}})
    events = given(RULESET, *fortress).when(Attack(side="red", hex=TARGET, commit=ALL_RED)).events
    assert events[0].cap == 5  # type: ignore[union-attr]


def test_the_line_defaults_to_the_first_committed_units() -> None:
    """AEC-07: the rest are Reserves."""
    events = given(RULESET, *world()).when(Attack(side="red", hex=TARGET, commit=ALL_RED)).events
    assert events[0].line == ALL_RED[:3]  # type: ignore[union-attr]
    assert events[0].reserves == ALL_RED[3:]  # type: ignore[union-attr]


def test_a_lord_counts_toward_the_cap() -> None:
    """AEC-09: the Lord is a unit and takes a place on the line."""
    history = world() + play([MoveUnits(side="red", units=("red-lord",), to=A)], history=world())
    given(RULESET, *history).when(
        Attack(
            side="red",
            hex=TARGET,
            commit=("red-lord", *ALL_RED),
            line=("red-lord", "b-cav", "b-inf", "a-arch"),
        )
    ).rejected("at most 3 units")
    events = (
        given(RULESET, *history)
        .when(Attack(side="red", hex=TARGET, commit=("red-lord", *ALL_RED)))
        .events
    )
    assert events[0].line == ("red-lord", "b-cav", "b-inf")  # type: ignore[union-attr]


def test_units_in_the_target_hex_are_committed_automatically() -> None:
    """AEC-A7, AEC-A6: the attacker's line is formed first, then the defender's."""
    history = world() + play([Attack(side="red", hex=TARGET, commit=("b-cav",))], history=world())
    assert given(RULESET, *history).when(Defend(side="blue", hex=TARGET)).events == [
        DefenceDeclared(hex=TARGET, side="blue", line=("t-inf-1", "t-inf-2"), siege=False)
    ]
    given(RULESET, *history).when(Defend(side="blue", hex=TARGET, commit=("t-inf-1",))).rejected(
        "is in 0,0 and so committed already"
    )
    given(RULESET, *history).when(
        Defend(
            side="blue",
            hex=TARGET,
            commit=("c-arch", "c-inf"),
            line=("t-inf-1", "t-inf-2", "c-arch", "c-inf"),
        )
    ).rejected("at most 3 units")


def test_only_the_defender_answers_and_only_once() -> None:
    history = world() + play([Attack(side="red", hex=TARGET, commit=("b-cav",))], history=world())
    given(RULESET, *history).when(Defend(side="red", hex=TARGET)).rejected(
        r"only the defender \(Blue\) answers"
    )
    answered = history + play([Defend(side="blue", hex=TARGET)], history=history)
    given(RULESET, *answered).when(Defend(side="blue", hex=TARGET)).rejected("not called for now")


def test_one_attack_action_at_a_time_and_one_battle_per_unit() -> None:
    history = attack_on_target()
    given(RULESET, *history).when(Attack(side="blue", hex=A, commit=("t-inf-1",))).rejected(
        "the Attack action at 0,0 is not finished yet"
    )


def test_a_unit_fights_in_one_battle_at_a_time() -> None:
    """A siege keeps its units committed; they cannot join a second battle."""
    city = world(**{"0_0": {"kind": "fortress"}, "0_1": {"controller": "blue"}})
    history = city + play(
        [
            Attack(side="red", hex=TARGET, commit=("b-cav", "a-arch")),
            Defend(side="blue", hex=TARGET),
        ],
        history=city,
    )
    history += play(
        [
            (Fight(side="red", hex=TARGET), [[1]] * 8),
            Stand(side="red", hex=TARGET),
            EndAttack(side="red", hex=TARGET),
        ],
        history=history,
    )
    given(RULESET, *history).when(Attack(side="red", hex="0,1", commit=("b-cav",))).rejected(
        "already committed to the battle at 0,0"
    )
