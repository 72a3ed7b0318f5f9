"""Retreat Check, Victory and occupation: AEC-20, AEC-21, AEC-23, AEC-24, AEC-A4, AEC-A16."""

from __future__ import annotations

from service.rulesets.aeonis_combat import AeonisOptions, Event
from service.rulesets.aeonis_combat.commands import (
    Adjudicate,
    AllowRetreat,
    Attack,
    Defend,
    Fight,
    Occupy,
    RemoveUnit,
    Retreat,
    SetHex,
    Stand,
)
from service.rulesets.aeonis_combat.events import (
    BattleEnded,
    BattleWon,
    HexOccupied,
    RetreatAllowed,
    Retreated,
    Stood,
)
from tests.unit.aeonis_combat.fixtures import (
    RULESET,
    TARGET,
    C,
    attack_on_target,
    faces,
    play,
    state_after,
    world,
)
from tests.unit.deciders import given

TIES = faces(*[1] * 12)
"""The six strikes of 8.1's lines, all ties."""


def _after_round(options: AeonisOptions | None = None, **hexes: dict[str, object]) -> list[Event]:
    """8.1's lines after a round of ties; on a City Reinforce fills both lines (cap 5),
    so nine strikes are rolled."""
    history = attack_on_target(options=options, **hexes)
    dice = faces(*[1] * 18) if hexes.get("0_0", {}).get("kind") == "city" else TIES
    return history + play([(Fight(side="red", hex=TARGET), dice)], history=history, options=options)


def test_the_attacker_retreats_first_and_the_defender_holds() -> None:
    """AEC-20 / AEC-24 / AEC-A16: the attack ends; units stay in their origin hexes."""
    history = _after_round()
    events = (
        given(RULESET, *history)
        .when(Retreat(side="red", hex=TARGET))
        .then(
            Retreated(hex=TARGET, side="red"),
            BattleEnded(hex=TARGET, outcome="defender_held"),
        )
    )
    state = state_after(history + events)
    assert state.hexes[TARGET].controller == "blue" and state.battles == {}
    assert state.units["b-cav"].hex == "-1,1"


def test_the_defender_waits_for_the_attacker() -> None:
    """AEC-A16: in initiative order, attacker first."""
    given(RULESET, *_after_round()).when(Retreat(side="blue", hex=TARGET, to=C)).rejected(
        r"the attacker decides first \(section 4.4\)"
    )


def test_a_defender_retreat_gives_up_the_hex() -> None:
    """AEC-20 / AEC-A4 default: the line and the Reserves inside the hex go to the chosen
    adjacent hex Blue controls; the Reserve in C stays; Red gains control (5.1)."""
    history = _after_round()
    history += play([Stand(side="red", hex=TARGET)], history=history)
    events = (
        given(RULESET, *history)
        .when(Retreat(side="blue", hex=TARGET, to=C))
        .then(
            Retreated(hex=TARGET, side="blue", to=C, moved=("t-inf-1", "t-inf-2", "c-arch")),
            BattleWon(hex=TARGET, side="red"),
        )
    )
    state = state_after(history + events)
    assert state.hexes[TARGET].controller == "red"
    assert {state.units[u].hex for u in ("t-inf-1", "t-inf-2", "c-arch", "c-inf")} == {C}
    assert state.battles[TARGET].step == "occupation"


def test_occupation_takes_up_to_the_cap_of_surviving_committed_units() -> None:
    """AEC-23: up to the Battle Line Cap; the others stay in their origin hexes."""
    history = _after_round()
    history += play(
        [Stand(side="red", hex=TARGET), Retreat(side="blue", hex=TARGET, to=C)], history=history
    )
    given(RULESET, *history).when(
        Occupy(side="red", hex=TARGET, units=("b-cav", "b-inf", "a-arch", "a-inf-1"))
    ).rejected(r"up to the Battle Line Cap of 3 units occupy 0,0 \(section 5.1\); 4 given")
    given(RULESET, *history).when(Occupy(side="red", hex=TARGET, units=("red-lord",))).rejected(
        "not a surviving committed unit"
    )
    events = (
        given(RULESET, *history)
        .when(Occupy(side="red", hex=TARGET, units=("a-inf-1", "a-inf-2", "b-cav")))
        .then(HexOccupied(hex=TARGET, side="red", units=("a-inf-1", "a-inf-2", "b-cav")))
    )
    state = state_after(history + events)
    assert [state.units[u].hex for u in ("a-inf-1", "b-cav", "b-inf", "a-arch")] == [
        TARGET,
        TARGET,
        "-1,1",
        "-1,0",
    ]


def test_a_defender_retreats_only_into_an_adjacent_hex_it_controls() -> None:
    history = _after_round()
    history += play([Stand(side="red", hex=TARGET)], history=history)
    for to in ("0,1", "-1,0", "2,0"):
        given(RULESET, *history).when(Retreat(side="blue", hex=TARGET, to=to)).rejected(
            "retreats only into an adjacent hex it controls"
        )


def test_a_defender_with_nowhere_to_go_is_not_asked() -> None:
    """4.4: 'if none, defender cannot retreat'."""
    history = _after_round(**{"1_0": {"controller": None}})
    # 1,-1 (Blue's City) is adjacent too: hand it to nobody by ruling.
    history += play(
        [Adjudicate(ruling=SetHex(hex="1,-1"), reason="the city rebelled")], history=history
    )
    events = given(RULESET, *history).when(Stand(side="red", hex=TARGET)).events
    assert events == [Stood(hex=TARGET, side="red", step="choice")]


def test_a_defender_with_nowhere_to_go_is_told_why_it_cannot_retreat() -> None:
    """AEC-20 (4.4: 'move the defender's Battle Line units to an adjacent hex they
    control (if none, defender cannot retreat)'): the refusal gives that reason, before
    and after the attacker has stood, not 'there is no Retreat Check now'."""
    history = _after_round(**{"1_0": {"controller": None}, "1_-1": {"controller": None}})
    why = (
        r"Blue controls no hex adjacent to 0,0, so it cannot retreat \(section 4.4: the "
        r"defender's Battle Line units move to an adjacent hex they control; if none, "
        r"defender cannot retreat\)"
    )
    given(RULESET, *history).when(Retreat(side="blue", hex=TARGET, to=C)).rejected(why)
    history += play([Stand(side="red", hex=TARGET)], history=history)
    assert state_after(history).battles[TARGET].step == "choice"  # Blue is not asked
    given(RULESET, *history).when(Retreat(side="blue", hex=TARGET, to=C)).rejected(why)
    given(RULESET, *history).when(Retreat(side="blue", hex=TARGET)).rejected(why)


def test_a_defender_cannot_retreat_from_a_city() -> None:
    """AEC-21 / AEC-A11: a City without Hold the Walls is still no place to retreat from."""
    history = _after_round(**{"0_0": {"kind": "city"}})
    assert given(RULESET, *history).when(Stand(side="red", hex=TARGET)).events == [
        Stood(hex=TARGET, side="red", step="choice")
    ]
    given(RULESET, *history).when(Retreat(side="blue", hex=TARGET, to=C)).rejected(
        r"defenders cannot retreat from a City \(section 4.4\)"
    )


def test_a_ruling_can_let_the_defenders_retreat_from_a_city() -> None:
    """AEC-21: 'unless a card, spell, or motion explicitly allows it'."""
    history = _after_round(**{"0_0": {"kind": "city"}})
    ruling = Adjudicate(ruling=AllowRetreat(hex=TARGET), reason="Blue played Secret Tunnels")
    history += play([ruling], history=history)
    assert history[-1] == RetreatAllowed(hex=TARGET, reason="Blue played Secret Tunnels")
    history += play([Stand(side="red", hex=TARGET)], history=history)
    events = given(RULESET, *history).when(Retreat(side="blue", hex=TARGET, to=C)).events
    assert events[-1] == BattleWon(hex=TARGET, side="red")


def test_defender_retreat_left_to_the_gm() -> None:
    """AEC-A4 option defender_retreat_result = gm: no change of control."""
    options = AeonisOptions(defender_retreat_result="gm")
    history = _after_round(options)
    history += play([Stand(side="red", hex=TARGET)], history=history, options=options)
    events = (
        given(RULESET, *history, options=options)
        .when(Retreat(side="blue", hex=TARGET, to=C))
        .events
    )
    assert isinstance(events[-1], BattleEnded) and events[-1].outcome == "defender_retreated"
    assert state_after(history + events, options).hexes[TARGET].controller == "blue"


def test_victory_by_elimination() -> None:
    """AEC-22 / AEC-23: the last defender falls; control passes at once."""
    history = world() + play(
        [
            Adjudicate(ruling=RemoveUnit(unit="t-inf-2"), reason="fled"),
            Attack(side="red", hex=TARGET, commit=("b-cav",)),
            Defend(side="blue", hex=TARGET),
        ],
        history=world(),
    )
    events = given(RULESET, *history).when(Fight(side="red", hex=TARGET), faces(8, 1)).events
    assert events[-1] == BattleWon(hex=TARGET, side="red")
    assert state_after(history + events).hexes[TARGET].controller == "red"
