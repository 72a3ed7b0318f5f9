"""The optional Assault variant (section 7): AEC-30, AEC-A12."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonis_combat import AeonisOptions, Event
from service.rulesets.aeonis_combat.commands import Attack, Defend, Fight, Retreat, Stand
from service.rulesets.aeonis_combat.events import BattleRoundFought, Stood
from tests.unit.aeonis_combat.fixtures import (
    RULESET,
    TARGET,
    C,
    faces,
    play,
    state_after,
    strikes,
    world,
)
from tests.unit.deciders import given

ASSAULTS = AeonisOptions(assault_variant=True)
FORTRESS = {"0_0": {"kind": "fortress"}}


def _assault(options: AeonisOptions = ASSAULTS) -> list[Event]:
    history = world(options, **FORTRESS)
    return history + play(
        [
            Attack(side="red", hex=TARGET, commit=("b-cav", "a-arch"), assault=True),
            Defend(side="blue", hex=TARGET),
        ],
        history=history,
        options=options,
    )


def test_the_variant_is_off_unless_chosen() -> None:
    fortress = world(**FORTRESS)
    given(RULESET, *fortress).when(
        Attack(side="red", hex=TARGET, commit=("b-cav",), assault=True)
    ).rejected(r"does not use the optional Assault variant \(section 7")


def test_an_assault_is_against_a_city_or_fortress() -> None:
    given(RULESET, *world(ASSAULTS), options=ASSAULTS).when(
        Attack(side="red", hex=TARGET, commit=("b-cav",), assault=True)
    ).rejected("against a City or Fortress")


def test_an_assault_is_no_siege() -> None:
    """AEC-30: 'instead of siege'; even a Fortress; the walls cannot be held."""
    history = world(ASSAULTS, **FORTRESS)
    history += play(
        [Attack(side="red", hex=TARGET, commit=("b-cav",), assault=True)],
        history=history,
        options=ASSAULTS,
    )
    battle = state_after(history, ASSAULTS).battles[TARGET]
    assert battle.assault and not battle.siege and battle.cap == 5
    city = world(ASSAULTS, **{"0_0": {"kind": "city"}})
    city += play(
        [Attack(side="red", hex=TARGET, commit=("b-cav",), assault=True)],
        history=city,
        options=ASSAULTS,
    )
    given(RULESET, *city, options=ASSAULTS).when(
        Defend(side="blue", hex=TARGET, hold_the_walls=True)
    ).rejected(r"declared an Assault instead of a siege: the walls cannot be held")


def test_defenders_on_the_line_gain_1_defense() -> None:
    """AEC-A12: +1 on each Defense die result of a defending Battle Line unit."""
    events = (
        given(RULESET, *_assault(), options=ASSAULTS)
        .when(Fight(side="red", hex=TARGET), faces(4, 3, 5, 3, 1, 1))
        .events
    )
    assert strikes(events) == [
        ("pre_strike", "a-arch", "t-inf-1", 4, 4, 0, 1),  # 4 vs 3+1: a tie
        ("strike", "b-cav", "t-inf-1", 5, 4, 1, 0),
        ("counterstrike", "t-inf-2", "b-cav", 1, 1, 0, 2),  # attackers get no bonus
    ]
    fought = events[0]
    assert isinstance(fought, BattleRoundFought)
    assert fought.rolls[1].modifiers == (Modifier("Assault: defending Battle Line", 1),)
    assert fought.rolls[5].modifiers == ()


def test_the_bonus_can_be_turned_off() -> None:
    options = AeonisOptions(assault_variant=True, assault_defense_bonus=0)
    events = (
        given(RULESET, *_assault(options), options=options)
        .when(Fight(side="red", hex=TARGET), faces(4, 3, 1, 1, 1, 1))
        .events
    )
    assert strikes(events)[0] == ("pre_strike", "a-arch", "t-inf-1", 4, 3, 1, 0)


def test_an_assault_loops_without_further_ap_and_defenders_cannot_retreat() -> None:
    """AEC-30 / AEC-A12: resolve until victory or retreat for the one Attack action."""
    history = _assault()
    history += play(
        [(Fight(side="red", hex=TARGET), faces(*[1] * 8))], history=history, options=ASSAULTS
    )
    given(RULESET, *history, options=ASSAULTS).when(
        Retreat(side="blue", hex=TARGET, to=C)
    ).rejected(r"defenders cannot retreat during an Assault \(section 7\)")
    stood = given(RULESET, *history, options=ASSAULTS).when(Stand(side="red", hex=TARGET)).events
    assert stood == [Stood(hex=TARGET, side="red", step="ready")]
    history += stood
    history += play(
        [(Fight(side="red", hex=TARGET), faces(*[1] * 8))], history=history, options=ASSAULTS
    )
    state = state_after(history, ASSAULTS)
    assert state.battles[TARGET].rounds_fought == 2 and state.sides["red"].ap == 4
