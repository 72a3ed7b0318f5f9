"""The battle round loop: AEC-14..19, AEC-22, AEC-A2, AEC-A3, AEC-A9, AEC-A13."""

from __future__ import annotations

from service.rulesets.aeonis_combat import AeonisOptions, Event
from service.rulesets.aeonis_combat.commands import (
    Adjudicate,
    Attack,
    Defend,
    Fight,
    RemoveUnit,
    SetTargets,
    Stand,
)
from service.rulesets.aeonis_combat.events import BattleEnded, BattleRoundFought
from tests.unit.aeonis_combat.fixtures import (
    RULESET,
    TARGET,
    attack_on_target,
    faces,
    play,
    state_after,
    strikes,
    world,
)
from tests.unit.deciders import given


def _archers_duel(options: AeonisOptions | None = None) -> list[Event]:
    """Red's Archer and Infantry against Blue's lone Archer (0,0's Infantry removed)."""
    history = world(options)
    return history + play(
        [
            *(
                Adjudicate(ruling=RemoveUnit(unit=u), reason="plague")
                for u in ("t-inf-1", "t-inf-2")
            ),
            Attack(side="red", hex=TARGET, commit=("a-arch", "a-inf-1")),
            Defend(side="blue", hex=TARGET, commit=("c-arch",), line=("c-arch",)),
        ],
        history=history,
        options=options,
    )


def test_strictly_greater_deals_one_damage_and_ties_deal_none() -> None:
    """AEC-19 (4.3)."""
    events = (
        given(RULESET, *attack_on_target())
        .when(Fight(side="red", hex=TARGET), faces(4, 3, 1, 1, 5, 5, 2, 2, 6, 6))
        .events
    )
    assert [(s[1], s[2], s[3], s[4], s[5]) for s in strikes(events)] == [
        ("a-arch", "t-inf-1", 4, 3, 1),  # 4 > 3: 1 damage
        ("c-arch", "b-cav", 1, 1, 0),  # tie: none
        ("b-cav", "t-inf-2", 5, 5, 0),  # t-inf-1 fell: the first survivor
        ("b-inf", "t-inf-2", 2, 2, 0),
        ("t-inf-2", "b-cav", 6, 6, 0),
    ]


def test_archers_strike_only_in_the_pre_strike_by_default() -> None:
    """AEC-A2 default: the Archer's Pre-Strike is its strike."""
    events = (
        given(RULESET, *_archers_duel())
        .when(Fight(side="red", hex=TARGET), faces(1, 1, 1, 1, 1, 1))
        .events
    )
    assert [(s[0], s[1]) for s in strikes(events)] == [
        ("pre_strike", "a-arch"),
        ("pre_strike", "c-arch"),
        ("strike", "a-inf-1"),
    ]


def test_archers_also_strike_in_the_main_step_when_chosen() -> None:
    """AEC-A2 option archers_also_strike_in_main_step."""
    options = AeonisOptions(archers_also_strike_in_main_step=True)
    events = (
        given(RULESET, *_archers_duel(options), options=options)
        .when(Fight(side="red", hex=TARGET), faces(*[1] * 10))
        .events
    )
    assert [(s[0], s[1]) for s in strikes(events)] == [
        ("pre_strike", "a-arch"),
        ("pre_strike", "c-arch"),
        ("strike", "a-arch"),
        ("strike", "a-inf-1"),
        ("counterstrike", "c-arch"),
    ]


def test_a_defending_archer_destroyed_in_the_pre_strike_does_not_roll() -> None:
    """AEC-A3 default: damage applies at once, the attacking Archers roll first."""
    events = (
        given(RULESET, *_archers_duel()).when(Fight(side="red", hex=TARGET), faces(6, 1)).events
    )
    assert strikes(events) == [("pre_strike", "a-arch", "c-arch", 6, 1, 1, 0)]
    assert isinstance(events[0], BattleRoundFought) and events[0].destroyed == ("c-arch",)


def test_simultaneous_pre_strike_lets_the_fallen_archer_roll() -> None:
    """AEC-A3 / AEC-18 option archer_prestrike_simultaneous."""
    options = AeonisOptions(archer_prestrike_simultaneous=True)
    events = (
        given(RULESET, *_archers_duel(options), options=options)
        .when(Fight(side="red", hex=TARGET), faces(6, 1, 5, 2))
        .events
    )
    assert strikes(events) == [
        ("pre_strike", "a-arch", "c-arch", 6, 1, 1, 0),
        ("pre_strike", "c-arch", "a-arch", 5, 2, 1, 0),
    ]  # then a-inf-1 has nobody to strike, and Blue has no unit left


def test_both_sides_eliminated_leaves_the_defender_in_control() -> None:
    """AEC-A13: only with a simultaneous Pre-Strike; the defender keeps the hex."""
    options = AeonisOptions(archer_prestrike_simultaneous=True)
    history = world(options)
    history += play(
        [
            Attack(side="red", hex=TARGET, commit=("a-arch",)),
            Defend(side="blue", hex=TARGET, commit=("c-arch",), line=("c-arch",)),
        ],
        history=history,
        options=options,
    )
    # Blue's Infantry in 0,0 are committed (AEC-A7) and sit in the Reserves; kill them by ruling.
    history += play(
        [Adjudicate(ruling=RemoveUnit(unit=u), reason="plague") for u in ("t-inf-1", "t-inf-2")],
        history=history,
        options=options,
    )
    events = (
        given(RULESET, *history, options=options)
        .when(Fight(side="red", hex=TARGET), faces(6, 1, 5, 2))
        .events
    )
    assert events[-1] == BattleEnded(hex=TARGET, outcome="defender_held")
    assert state_after(history + events, options).hexes[TARGET].controller == "blue"


def test_reserve_targets_are_refused() -> None:
    """AEC-A9: only enemy Battle Line units are targets."""
    given(RULESET, *attack_on_target()).when(
        SetTargets(side="red", hex=TARGET, targets={"b-cav": "c-inf"})
    ).rejected(
        r"c-inf is in the Reserves and not promoted in this round.s Reinforce \(4.1\); only enemy "
        r"Battle Line units can be targeted"
    )
    given(RULESET, *attack_on_target()).when(
        Fight(side="red", hex=TARGET, targets={"c-inf": "b-cav"})
    ).rejected("not committed to this battle on Red's side")


def test_the_attacker_resolves_the_round_once_per_attack_action() -> None:
    """AEC-14: exactly one battle round; the defender cannot roll it."""
    history = attack_on_target()
    given(RULESET, *history).when(Fight(side="blue", hex=TARGET)).rejected(
        r"only the attacker \(Red\) may resolve the battle round"
    )
    fought = history + play(
        [(Fight(side="red", hex=TARGET), faces(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1))],
        history=history,
    )
    given(RULESET, *fought).when(Fight(side="red", hex=TARGET)).rejected("Retreat Check comes next")
    stood = fought + play(
        [Stand(side="red", hex=TARGET), Stand(side="blue", hex=TARGET)], history=fought
    )
    given(RULESET, *stood).when(Fight(side="red", hex=TARGET)).rejected(
        "exactly one battle round per Attack action"
    )


def test_the_round_cannot_start_before_the_defence() -> None:
    history = world() + play([Attack(side="red", hex=TARGET, commit=("b-cav",))], history=world())
    given(RULESET, *history).when(Fight(side="red", hex=TARGET)).rejected(
        "Blue has not answered the attack"
    )


def test_the_defender_wins_when_the_attacker_is_eliminated() -> None:
    """AEC-22 / AEC-24: the Victory Check decides; control stays."""
    history = world() + play(
        [
            Attack(side="red", hex=TARGET, commit=("b-inf",)),
            Defend(side="blue", hex=TARGET, line=("t-inf-1",)),
        ],
        history=world(),
    )
    events = given(RULESET, *history).when(Fight(side="red", hex=TARGET), faces(1, 6, 6, 1)).events
    assert events[-1] == BattleEnded(hex=TARGET, outcome="defender_held")
    state = state_after(history + events)
    assert state.battles == {} and "b-inf" not in state.units
