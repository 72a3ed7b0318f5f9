"""The text's two walkthroughs (section 8) with concrete dice: AEC-31 and AEC-32."""

from __future__ import annotations

from service.rulesets.aeonis_combat import Event
from service.rulesets.aeonis_combat.commands import (
    Attack,
    Cleanup,
    Defend,
    EndAttack,
    Fight,
    Occupy,
    Press,
    SetTargets,
    Stand,
    StartRound,
)
from service.rulesets.aeonis_combat.events import (
    AttackActionEnded,
    AttackRenewed,
    BattleEnded,
    BattleRoundFought,
    BattleWon,
    HexOccupied,
    Pressed,
    Stood,
)
from tests.unit.aeonis_combat.fixtures import (
    RULESET,
    TARGET,
    attack_on_target,
    faces,
    play,
    state_after,
    strikes,
)
from tests.unit.deciders import given

RED_TARGETS = {"a-arch": "t-inf-1", "b-cav": "t-inf-2", "b-inf": "t-inf-1"}
BLUE_TARGETS = {"c-arch": "b-inf", "t-inf-1": "b-cav", "t-inf-2": "b-cav"}


def _standard_battle_round() -> list[Event]:
    """8.1 through the first battle round, with the dice below."""
    history = attack_on_target()
    return history + play(
        [
            SetTargets(side="blue", hex=TARGET, targets=BLUE_TARGETS),
            (
                Fight(side="red", hex=TARGET, targets=RED_TARGETS),
                faces(5, 2, 3, 3, 6, 6, 4, 5, 6, 2),
            ),
        ],
        history=history,
    )


def test_8_1_lines_are_formed_as_in_the_text() -> None:
    """AEC-31 setup: all 5 and all 4 committed; cap 3; the rest are Reserves; 2 AP."""
    state = state_after(attack_on_target())
    battle = state.battles[TARGET]
    assert battle.cap == 3 and not battle.siege and battle.step == "ready"
    assert battle.attacker_line == ("b-cav", "b-inf", "a-arch")
    assert battle.attacker_reserves == ("a-inf-1", "a-inf-2")
    assert battle.defender_line == ("t-inf-1", "t-inf-2", "c-arch")
    assert battle.defender_reserves == ("c-inf",)
    assert state.sides["red"].ap == 4
    # AEC-05: committed units stay in their origin hexes.
    assert [state.units[u].hex for u in ("b-cav", "a-arch", "c-arch")] == ["-1,1", "-1,0", "1,0"]


def test_8_1_one_battle_round_in_the_texts_order() -> None:
    """AEC-31 / AEC-14: Reinforce (nothing to do), attacking Archer on defending Infantry,
    defending Archer on attacking Infantry, Strike, Counterstrike; the battle then waits
    for the Retreat Check."""
    events = _standard_battle_round()
    fought = [e for e in events if isinstance(e, BattleRoundFought)]
    assert len(fought) == 1 and fought[0].promoted == {}
    assert strikes(events) == [
        ("pre_strike", "a-arch", "t-inf-1", 5, 2, 1, 0),  # d6 5 > d6 2: destroyed
        ("pre_strike", "c-arch", "b-inf", 3, 3, 0, 1),  # tie: nothing (4.3)
        ("strike", "b-cav", "t-inf-2", 6, 6, 0, 1),  # tie again
        ("strike", "b-inf", "t-inf-2", 4, 5, 0, 1),  # its target fell: first survivor
        ("counterstrike", "t-inf-2", "b-cav", 6, 2, 1, 1),  # Cavalry has 2 HP
    ]  # the Archers do not strike a second time (AEC-A2); t-inf-1 fell before it could
    assert fought[0].destroyed == ("t-inf-1",)
    state = state_after(events)
    assert "t-inf-1" not in state.units and state.units["b-cav"].hp == 1
    assert state.battles[TARGET].step == "attacker_retreat"
    assert state.battles[TARGET].defender_line == ("t-inf-2", "c-arch")


def test_8_1_the_rolls_are_recorded_in_pairs() -> None:
    """Each strike is the striker's Attack Die, then the target's Defense Die (4.3)."""
    events = _standard_battle_round()
    fought = next(e for e in events if isinstance(e, BattleRoundFought))
    first, second = fought.rolls[:2]
    assert (first.notation, first.roller, first.outcome) == ("1d6", "a-arch", "hit")
    assert (second.notation, second.roller, second.outcome) == ("1d6", "t-inf-1", "pierced")
    assert first.opposed_by == second.roll_id and second.opposed_by == first.roll_id
    assert fought.rolls[3].notation == "1d6" and fought.rolls[4].notation == "1d8"  # Cavalry
    assert fought.rolls[1].notation == "1d6"  # Infantry defence
    assert fought.rolls[3].outcome == "held"


def test_8_1_the_battle_pauses_after_the_attack_action() -> None:
    """AEC-15 / AEC-A1 default: both stand, the attacker ends the Attack action and the
    commitments dissolve; nothing changes hands."""
    events = _standard_battle_round()
    after = play(
        [
            Stand(side="red", hex=TARGET),
            Stand(side="blue", hex=TARGET),
            EndAttack(side="red", hex=TARGET),
        ],
        history=events,
    )
    assert after == [
        Stood(hex=TARGET, side="red", step="defender_retreat"),
        Stood(hex=TARGET, side="blue", step="choice"),
        BattleEnded(hex=TARGET, outcome="dissolved"),
    ]
    state = state_after(events + after)
    assert state.battles == {} and state.hexes[TARGET].controller == "blue"
    assert state.units["b-cav"].hp == 1  # damage stays (unit_damage_persists)


def test_8_1_press_the_attack_resolves_one_more_round_for_1_ap() -> None:
    """AEC-16 / AEC-31: +1 AP, a second round right away, and not a third."""
    events = _standard_battle_round()
    events += play([Stand(side="red", hex=TARGET), Stand(side="blue", hex=TARGET)], history=events)
    pressed = play([Press(side="red", hex=TARGET)], history=events)
    assert pressed == [Pressed(hex=TARGET, side="red", ap_spent=1, ap_after=3, step="ready")]
    events += pressed
    second = play([(Fight(side="red", hex=TARGET), faces(1, 1, 6, 1, 8, 3, 5, 4))], history=events)
    fought = second[0]
    assert isinstance(fought, BattleRoundFought) and fought.number == 2
    assert fought.promoted == {"blue": ("c-inf",)}  # Reinforce: the line was under its cap
    assert strikes(second) == [
        ("pre_strike", "a-arch", "t-inf-2", 1, 1, 0, 1),
        ("pre_strike", "c-arch", "b-inf", 6, 1, 1, 0),
        ("strike", "b-cav", "t-inf-2", 8, 3, 1, 0),
        ("counterstrike", "c-inf", "b-cav", 5, 4, 1, 0),
    ]
    events += second
    state = state_after(events)
    assert state.battles[TARGET].attacker_line == ("a-arch",)
    assert state.battles[TARGET].attacker_reserves == ("a-inf-1", "a-inf-2")
    events += play([Stand(side="red", hex=TARGET), Stand(side="blue", hex=TARGET)], history=events)
    given(RULESET, *events).when(Press(side="red", hex=TARGET)).rejected(
        "at most once per Attack action"
    )


def test_8_2_siege_over_two_attack_actions() -> None:
    """AEC-32: a City, cap 5, Hold the Walls places the Siege marker; Attack #1 (2 AP)
    resolves one round and the marker stays; a later Attack #2 (2 AP) resolves one more,
    which here defeats the defender, and the attacker occupies (AEC-29)."""
    line = ("b-cav", "b-inf", "a-arch", "a-inf-1", "a-inf-2")
    history = attack_on_target(
        line=line,
        defender_line=("t-inf-1", "t-inf-2", "c-arch", "c-inf"),
        **{"0_0": {"kind": "city"}},
    )
    # attack_on_target's Defend did not hold the walls; replay it holding them.
    history = history[:-1] + play(
        [
            Defend(
                side="blue",
                hex=TARGET,
                commit=("c-arch", "c-inf"),
                line=("t-inf-1", "t-inf-2", "c-arch", "c-inf"),
                hold_the_walls=True,
            )
        ],
        history=history[:-1],
    )
    state = state_after(history)
    assert state.battles[TARGET].siege and state.battles[TARGET].cap == 5
    assert state.sides["red"].ap == 4

    first = play(
        [
            (Fight(side="red", hex=TARGET), faces(2, 3, 4, 1, 7, 2, 3, 3, 6, 5, 2, 4, 5, 2)),
            Stand(side="red", hex=TARGET),  # Blue is not asked: no retreat from a City
            EndAttack(side="red", hex=TARGET),
        ],
        history=history,
    )
    assert strikes(first) == [
        ("pre_strike", "a-arch", "t-inf-1", 2, 3, 0, 1),
        ("pre_strike", "c-arch", "b-cav", 4, 1, 1, 1),
        ("strike", "b-cav", "t-inf-1", 7, 2, 1, 0),
        ("strike", "b-inf", "t-inf-2", 3, 3, 0, 1),
        ("strike", "a-inf-1", "t-inf-2", 6, 5, 1, 0),
        ("strike", "a-inf-2", "c-arch", 2, 4, 0, 1),
        ("counterstrike", "c-inf", "b-cav", 5, 2, 1, 0),
    ]
    assert first[1:] == [
        Stood(hex=TARGET, side="red", step="choice"),
        AttackActionEnded(hex=TARGET),
    ]
    history += first
    state = state_after(history)
    siege = state.battles[TARGET]
    assert siege.siege and siege.step == "paused"  # the Siege marker remains
    assert siege.attacker_line == ("b-inf", "a-arch", "a-inf-1", "a-inf-2")
    assert siege.defender_line == ("c-arch", "c-inf")

    history += play([Cleanup(), StartRound()], history=history)
    assert state_after(history).battles[TARGET] == siege  # between rounds, too

    second = play(
        [
            Attack(side="red", hex=TARGET),
            Defend(side="blue", hex=TARGET),
            (Fight(side="red", hex=TARGET), faces(5, 1, 4, 2)),
            Occupy(side="red", hex=TARGET, units=("b-inf", "a-arch", "a-inf-1", "a-inf-2")),
        ],
        history=history,
    )
    assert second[0] == AttackRenewed(
        hex=TARGET, side="red", ap_spent=2, ap_after=4, step="defence"
    )
    assert strikes(second) == [
        ("pre_strike", "a-arch", "c-arch", 5, 1, 1, 0),
        ("strike", "b-inf", "c-inf", 4, 2, 1, 0),
    ]  # a-inf-1 and a-inf-2 have nobody left to strike (AEC-A3)
    assert BattleWon(hex=TARGET, side="red", siege_removed=True) in second  # 6.5
    assert second[-1] == HexOccupied(
        hex=TARGET, side="red", units=("b-inf", "a-arch", "a-inf-1", "a-inf-2")
    )
    state = state_after(history + second)
    assert state.hexes[TARGET].controller == "red" and state.battles == {}
    assert {state.units[u].hex for u in ("b-inf", "a-arch", "a-inf-1", "a-inf-2")} == {TARGET}
