"""Sieges: AEC-25..29, AEC-A5, AEC-A10, AEC-A11, AEC-A17."""

from __future__ import annotations

from service.rulesets.aeonis_combat import AeonisOptions, Event
from service.rulesets.aeonis_combat.commands import (
    Adjudicate,
    Attack,
    Defend,
    EndAttack,
    Fight,
    LiftSiege,
    MoveUnits,
    Press,
    RemoveUnit,
    Retreat,
    SetSideValue,
    Stand,
)
from service.rulesets.aeonis_combat.events import (
    AttackActionEnded,
    AttackRenewed,
    BattleEnded,
    BattleWon,
    DefenceDeclared,
    Pressed,
    UnitsMoved,
)
from tests.unit.aeonis_combat.fixtures import (
    RULESET,
    TARGET,
    A,
    B,
    attack_on_target,
    faces,
    play,
    state_after,
    world,
)
from tests.unit.deciders import given, line_for

FORTRESS = {"0_0": {"kind": "fortress"}}
CITY = {"0_0": {"kind": "city"}}


def _siege_round(options: AeonisOptions | None = None) -> list[Event]:
    """Red besieges the Fortress 0,0 with b-cav and a-arch; one round of ties, then the
    attacker's choice (4 strikes: a-arch, b-cav, t-inf-1, t-inf-2)."""
    history = world(options, **FORTRESS)
    return history + play(
        [
            Attack(side="red", hex=TARGET, commit=("b-cav", "a-arch")),
            Defend(side="blue", hex=TARGET),
            (Fight(side="red", hex=TARGET), faces(*[1] * 8)),
            Stand(side="red", hex=TARGET),
        ],
        history=history,
        options=options,
    )


def _paused_siege() -> list[Event]:
    history = _siege_round()
    return history + play([EndAttack(side="red", hex=TARGET)], history=history)


def test_a_fortress_is_always_a_siege() -> None:
    """AEC-25: the defender is assumed to Hold the Walls."""
    state = state_after(_siege_round())
    assert state.battles[TARGET].siege and state.battles[TARGET].step == "choice"


def test_a_city_is_a_siege_when_the_defender_holds_the_walls() -> None:
    """AEC-25 / AEC-A11."""
    city = world(**CITY)
    history = city + play([Attack(side="red", hex=TARGET, commit=("b-cav",))], history=city)
    assert not state_after(history).battles[TARGET].siege
    assert given(RULESET, *history).when(
        Defend(side="blue", hex=TARGET, hold_the_walls=True)
    ).events == [DefenceDeclared(hex=TARGET, side="blue", line=("t-inf-1", "t-inf-2"), siege=True)]


def test_a_city_defender_may_decline_the_walls() -> None:
    """AEC-25 (6.1: 'the defender may declare Hold the Walls'): false declines, and the
    battle is an ordinary one on a City (AEC-A11)."""
    city = world(**CITY)
    history = city + play([Attack(side="red", hex=TARGET, commit=("b-cav",))], history=city)
    events = (
        given(RULESET, *history)
        .when(Defend(side="blue", hex=TARGET, hold_the_walls=False))
        .then(DefenceDeclared(hex=TARGET, side="blue", line=("t-inf-1", "t-inf-2"), siege=False))
    )
    assert not state_after(history + events).battles[TARGET].siege


def test_a_fortress_defender_cannot_decline_the_walls() -> None:
    """AEC-25 (6.1: 'If the target hex contains a Fortress, the battle is automatically a
    Siege (the defender is assumed to Hold the Walls)'): declining is refused with that
    reason, not silently accepted; saying nothing or true holds them."""
    fortress = world(**FORTRESS)
    history = fortress + play([Attack(side="red", hex=TARGET, commit=("b-cav",))], history=fortress)
    given(RULESET, *history).when(Defend(side="blue", hex=TARGET, hold_the_walls=False)).rejected(
        r"0,0 is a Fortress: the battle is automatically a Siege and the defender is assumed "
        r"to Hold the Walls \(section 6.1\); it cannot decline"
    )
    for holds in (None, True):
        assert given(RULESET, *history).when(
            Defend(side="blue", hex=TARGET, hold_the_walls=holds)
        ).events == [
            DefenceDeclared(hex=TARGET, side="blue", line=("t-inf-1", "t-inf-2"), siege=True)
        ]


def test_walls_held_on_a_city_stay_held_in_later_siege_rounds() -> None:
    """AEC-26: the Siege marker 'remains ... until the siege is lifted or the defender is
    defeated'; a later siege round's defence cannot decline it."""
    city = world(**CITY)
    history = city + play(
        [
            Attack(side="red", hex=TARGET, commit=("b-cav",)),
            Defend(side="blue", hex=TARGET, hold_the_walls=True),
            (Fight(side="red", hex=TARGET), faces(1, 1, 1, 1, 1, 1)),
            Stand(side="red", hex=TARGET),
            EndAttack(side="red", hex=TARGET),
            Attack(side="red", hex=TARGET),
        ],
        history=city,
    )
    given(RULESET, *history).when(Defend(side="blue", hex=TARGET, hold_the_walls=False)).rejected(
        r"Blue held the walls of 0,0 when the attack was declared: the Siege marker remains "
        r"until the siege is lifted or the defender is defeated \(sections 6.1, 6.2\)"
    )


def test_the_siege_marker_goes_with_the_capture() -> None:
    """AEC-29 (6.5): when the defender's line and Reserves are eliminated the attacker
    captures the hex: the Siege marker goes at once, before the occupation command."""
    fortress = world(**FORTRESS)
    history = fortress + play(
        [
            Adjudicate(ruling=RemoveUnit(unit="t-inf-2"), reason="the plague"),
            Attack(side="red", hex=TARGET, commit=("b-cav",)),
            Defend(side="blue", hex=TARGET),
        ],
        history=fortress,
    )
    assert state_after(history).battles[TARGET].siege
    events = given(RULESET, *history).when(Fight(side="red", hex=TARGET), faces(8, 1)).events
    assert events[-1] == BattleWon(hex=TARGET, side="red", siege_removed=True)
    state = state_after(history + events)
    battle = state.battles[TARGET]
    assert not battle.siege and battle.step == "occupation"  # no marker; occupation next
    assert state.hexes[TARGET].controller == "red"
    line = line_for(RULESET, state_after(history + events[:-1]), events[-1])
    assert line == "Red wins 0,0 and takes control; the Siege marker is removed"


def test_a_won_battle_that_was_no_siege_removes_no_marker() -> None:
    """AEC-23: an ordinary battle has no marker to remove."""
    history = world() + play(
        [
            Adjudicate(ruling=RemoveUnit(unit="t-inf-2"), reason="the plague"),
            Attack(side="red", hex=TARGET, commit=("b-cav",)),
            Defend(side="blue", hex=TARGET),
        ],
        history=world(),
    )
    events = given(RULESET, *history).when(Fight(side="red", hex=TARGET), faces(8, 1)).events
    assert events[-1] == BattleWon(hex=TARGET, side="red", siege_removed=False)


def test_hold_the_walls_is_for_cities() -> None:
    history = world() + play([Attack(side="red", hex=TARGET, commit=("b-cav",))], history=world())
    given(RULESET, *history).when(Defend(side="blue", hex=TARGET, hold_the_walls=True)).rejected(
        r"Hold the Walls is declared on a City; 0,0 is not one \(6.1\)"
    )


def test_a_city_without_the_walls_held_is_an_ordinary_battle() -> None:
    """AEC-A11: cap 5, no retreat for the defender, no persistence."""
    history = attack_on_target(**CITY)
    history += play(
        [(Fight(side="red", hex=TARGET), faces(*[1] * 18)), Stand(side="red", hex=TARGET)],
        history=history,
    )
    assert given(RULESET, *history).when(EndAttack(side="red", hex=TARGET)).events == [
        BattleEnded(hex=TARGET, outcome="dissolved")
    ]


def test_the_siege_marker_stays_after_the_attack_action() -> None:
    """AEC-26: exactly one round per Attack action; the siege pauses."""
    history = _siege_round()
    assert given(RULESET, *history).when(EndAttack(side="red", hex=TARGET)).events == [
        AttackActionEnded(hex=TARGET)
    ]
    state = state_after(_paused_siege())
    assert state.battles[TARGET].step == "paused" and state.battles[TARGET].rounds_fought == 1


def test_a_paused_siege_resumes_with_another_attack_action() -> None:
    """AEC-26 / AEC-28: a new siege round; up to 3 units join the Reserves."""
    history = _paused_siege()
    history += play([MoveUnits(side="red", units=("red-lord",), to=A)], history=history)
    given(RULESET, *history).when(
        Attack(side="red", hex=TARGET, commit=("a-inf-1", "a-inf-2", "b-inf", "red-lord"))
    ).rejected(r"each side may add up to 3 units per siege round \(section 6.4\); 4 given")
    renewed = (
        given(RULESET, *history)
        .when(Attack(side="red", hex=TARGET, commit=("a-inf-1", "red-lord", "b-inf")))
        .events
    )
    assert renewed == [
        AttackRenewed(
            hex=TARGET,
            side="red",
            reinforcements=("a-inf-1", "red-lord", "b-inf"),
            ap_spent=2,
            ap_after=2,
            step="defence",
        )
    ]
    history += renewed
    given(RULESET, *history).when(
        Defend(side="blue", hex=TARGET, commit=("c-arch", "c-inf"), line=("c-arch",))
    ).rejected("Battle Lines change only in Reinforce")
    history += play([Defend(side="blue", hex=TARGET, commit=("c-arch", "c-inf"))], history=history)
    battle = state_after(history).battles[TARGET]
    assert battle.attacker_reserves == ("a-inf-1", "red-lord", "b-inf")
    assert battle.defender_reserves == ("c-arch", "c-inf")
    assert battle.step == "ready"


def test_the_siege_can_be_lifted_at_the_end_of_a_siege_round() -> None:
    """AEC-27: the marker goes; all surviving units remain where they are."""
    events = given(RULESET, *_siege_round()).when(LiftSiege(side="red", hex=TARGET)).events
    assert events == [BattleEnded(hex=TARGET, outcome="siege_lifted")]
    state = state_after(_siege_round() + events)
    assert state.battles == {} and state.units["b-cav"].hex == B
    given(RULESET, *_paused_siege()).when(LiftSiege(side="red", hex=TARGET)).rejected(
        "at the end of a battle round"
    )
    standard = attack_on_target()
    standard += play(
        [(Fight(side="red", hex=TARGET), faces(*[1] * 12)), Stand(side="red", hex=TARGET)],
        history=standard,
    )
    given(RULESET, *standard).when(LiftSiege(side="red", hex=TARGET)).rejected("no siege at 0,0")


def test_the_siege_ends_when_no_committed_attacker_is_adjacent() -> None:
    """AEC-27 / AEC-A17: checked whenever committed attacking units move away."""
    history = _paused_siege()
    one = play([MoveUnits(side="red", units=("a-arch",), to="-2,0")], history=history)
    assert one == [UnitsMoved(side="red", units=("a-arch",), to="-2,0", left_battle=("a-arch",))]
    history += one
    assert state_after(history).battles[TARGET].attacker_line == ("b-cav",)
    events = (
        given(RULESET, *history).when(MoveUnits(side="red", units=("b-cav",), to="-2,0")).events
    )
    assert isinstance(events[-1], BattleEnded) and events[-1].outcome == "siege_ended"


def test_units_keep_to_their_places_during_a_siege() -> None:
    """Defenders leave only by retreating; nobody walks into the fight (1.1, 4.4)."""
    history = _paused_siege()
    given(RULESET, *history).when(MoveUnits(side="red", units=("b-cav",), to=TARGET)).rejected(
        "holds Blue's units"
    )
    given(RULESET, *history).when(MoveUnits(side="blue", units=("t-inf-1",), to="1,0")).rejected(
        "leaves it only by retreating"
    )
    given(RULESET, *_siege_round()).when(
        MoveUnits(side="red", units=("b-cav",), to="-2,0")
    ).rejected("is in the Attack action at 0,0")


def test_press_the_attack_in_a_siege() -> None:
    """AEC-A5 default: allowed; it is a siege round, so the defender may reinforce too."""
    history = _siege_round()
    assert given(RULESET, *history).when(
        Press(side="red", hex=TARGET, commit=("b-inf",))
    ).events == [
        Pressed(
            hex=TARGET,
            side="red",
            ap_spent=1,
            ap_after=3,
            reinforcements=("b-inf",),
            step="defence",
        )
    ]


def test_press_the_attack_in_a_siege_can_be_disallowed() -> None:
    """AEC-A5 option press_allowed_in_siege = false."""
    options = AeonisOptions(press_allowed_in_siege=False)
    given(RULESET, *_siege_round(options), options=options).when(
        Press(side="red", hex=TARGET)
    ).rejected("does not allow Press the Attack in a siege")


def test_a_battle_not_besieged_takes_no_reinforcements() -> None:
    """AEC-28 is for sieges only."""
    history = attack_on_target()
    history += play(
        [(Fight(side="red", hex=TARGET), faces(*[1] * 12)), Stand(side="red", hex=TARGET)],
        history=history,
    )
    history += play([Stand(side="blue", hex=TARGET)], history=history)
    history += play([MoveUnits(side="red", units=("red-lord",), to=A)], history=history)
    given(RULESET, *history).when(Press(side="red", hex=TARGET, commit=("red-lord",))).rejected(
        "only a siege takes reinforcements"
    )


def test_press_needs_the_ap_and_a_battle_going_on() -> None:
    """AEC-A14: refused without 1 AP, before the Retreat Check, or once the battle is over."""
    history = _siege_round()
    broke = history + play(
        [Adjudicate(ruling=SetSideValue(side="red", field="ap", value=0), reason="spent")],
        history=history,
    )
    given(RULESET, *broke).when(Press(side="red", hex=TARGET)).rejected(
        r"Red has 0 AP and Press the Attack costs 1 AP \(section 4.0\)"
    )
    standard = attack_on_target()
    standard += play([(Fight(side="red", hex=TARGET), faces(*[1] * 12))], history=standard)
    given(RULESET, *standard).when(Press(side="red", hex=TARGET)).rejected(
        "after the Retreat Check"
    )
    retreated = standard + play([Retreat(side="red", hex=TARGET)], history=standard)
    decided = (
        given(RULESET, *retreated)
        .when(Press(side="red", hex=TARGET))
        .rejected(
            r"^the battle at 0,0 is decided \(the defender held\): Press the Attack resolves one "
            r"more round of a battle still being fought \(section 4.0\)$"
        )
    )
    assert decided.rule == "AEC-16"
