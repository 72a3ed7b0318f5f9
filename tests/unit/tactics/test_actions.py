"""Actions: the pool of 3 (2 for Minions and slow heavies), Maneuver, Press, React, the
cumulative Press penalty (TAC-02..TAC-06, TAC-A5, TAC-A6, TAC-A7)."""

from __future__ import annotations

from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from tests.unit.tactics.fixtures import (
    OPTS,
    ZONES,
    at,
    end,
    fighter,
    of,
    play,
    resolve,
    shot,
    state_of,
    table,
)


def maneuver(who: str, name: str, **more: str) -> cmd.TakeManeuver:
    return cmd.TakeManeuver(combatant=who, maneuver=name, **more)


def react(who: str, name: str, press: str | None = None) -> cmd.React:
    return cmd.React(combatant=who, maneuver=name, press=press)


def test_tac_02_three_actions_then_refused() -> None:
    events = table(shot(), maneuver("rex", "aim"), shot())
    assert state_of(events).combatants["rex"].actions_left == 0
    at(events).when(shot()).rejected(match=r"^Rex has no actions left this turn \(3 per turn\)$")


def test_tac_02_minions_and_slow_heavies_get_two() -> None:
    events = play(
        [
            *ZONES,
            fighter("drone", category="minion"),
            fighter("ogre", category="slow_heavy"),
            cmd.SetTurnOrder(order=("drone", "ogre")),
            cmd.StartCombat(),
            shot("drone", "ogre"),
            shot("drone", "ogre"),
        ]
    )
    assert of(events, ev.TurnStarted)[0].actions == 2
    at(events).when(shot("drone", "ogre")).rejected(
        match=r"Drone has no actions left this turn \(2 per turn\)"
    )
    after = play([end("drone")], start=events)
    assert of(after, ev.TurnStarted)[-1].actions == 2


def test_tac_03_any_mix_of_actions() -> None:
    events = table(maneuver("rex", "aim"), maneuver("rex", "take cover"), shot())
    assert [type(e).__name__ for e in events[-3:]] == [
        "ManeuverTaken",
        "ManeuverTaken",
        "PressDeclared",
    ]


def test_tac_04_a_maneuver_carries_its_sheet_bonus() -> None:
    """TAC-04/TAC-A6: aim adds +1 Precision to Presses this turn; cover +2 soak."""
    events = table(maneuver("rex", "aim"), shot())
    assert of(events, ev.ManeuverTaken)[0].bonus is not None
    assert of(events, ev.PressDeclared)[0].precision == 14
    covered = table(end("rex"), maneuver("vex", "take cover"), end("vex"), shot(), end("rex"))
    # Rex's Press resolves at Vex's next turn, where the cover (until her next turn) counts
    soak = of(at(covered).when(resolve("vex"), manual=[[1], [10]]).events, ev.SoakRolled)[0]
    labels = [(m.label, m.value) for m in soak.rolls[0].modifiers]
    assert labels == [("Endurance", 1), ("armour", 2), ("take cover", 2)]
    assert soak.soak == 15


def test_tac_04_unknown_maneuver_is_refused() -> None:
    at(table()).when(maneuver("rex", "backflip")).rejected(
        match="Rex has no Maneuver 'backflip' on their sheet"
    )


def test_tac_04_repositioning_moves_one_zone_only() -> None:
    events = table(maneuver("rex", "aim", move_to="hall"))
    assert of(events, ev.Placed)[-1] == ev.Placed(combatant="rex", zone="hall", by_maneuver=True)
    at(table()).when(maneuver("rex", "aim", move_to="bay")).rejected(
        match="bay does not border deck: one Maneuver repositions one zone"
    )


def test_tac_05_the_press_penalty_is_cumulative_within_a_turn() -> None:
    """TAC-05/TAC-A5: the k-th Press of a turn has -(k-1) x step Precision."""
    events = table(shot(), shot(), shot())
    declared = of(events, ev.PressDeclared)
    assert [(p.penalty, p.precision) for p in declared] == [(0, 13), (2, 11), (4, 9)]
    assert [p.press for p in declared] == ["p1", "p2", "p3"]


def test_tac_a5_the_press_penalty_resets_at_the_attackers_next_turn() -> None:
    events = table(shot(), shot(), end("rex"))
    events = play(
        [(resolve("vex"), [20]), (resolve("vex"), [20]), end("vex"), shot()], start=events
    )
    assert of(events, ev.PressDeclared)[-1].penalty == 0
    assert of(events, ev.PressDeclared)[-1].precision == 13


def test_tac_a5_the_step_is_the_tables_choice() -> None:
    options = OPTS.__class__(press_penalty_step=5)
    events = table(shot(), shot(), options=options)
    assert of(events, ev.PressDeclared)[-1].precision == 8


def test_tac_05_a_press_needs_a_weapon_on_the_sheet_and_a_target() -> None:
    at(table()).when(shot(weapon="railgun")).rejected(match="Rex has no 'railgun' on their sheet")
    at(table()).when(cmd.Press(combatant="rex", weapon="pistol")).rejected(
        match="a Press with the pistol needs a target"
    )
    at(table()).when(shot(target="rex")).rejected(match="Rex cannot Press themselves")


def test_tac_06_one_react_per_turn_paid_from_this_turns_pool() -> None:
    """TAC-06/TAC-A7: a React costs 1 of the 3 actions of the turn it starts."""
    events = table(shot(), shot(), end("rex"), react("vex", "dodge roll"))
    vex = state_of(events).combatants["vex"]
    assert vex.actions_left == 2 and vex.reacted
    assert of(events, ev.ManeuverTaken)[-1].as_react
    at(events).when(react("vex", "take cover")).rejected(match=r"^Vex already reacted this turn$")


def test_tac_06_a_react_must_come_before_any_roll() -> None:
    events = table(shot(), shot(), end("rex"), (resolve("vex"), [20]))
    at(events).when(react("vex", "dodge roll")).rejected(
        match=r"^a React must be chosen before any roll is made$"
    )


def test_tac_06_the_react_bonus_applies_to_every_pending_press() -> None:
    events = table(shot(), shot(), end("rex"), react("vex", "dodge roll"))
    first = at(events).when(resolve("vex"), manual=[[5], [10]]).events
    roll = of(first, ev.AgilityChecked)[0].rolls[0]
    assert [(m.label, m.value) for m in roll.modifiers] == [("Agility", 2), ("dodge roll", 3)]


def test_tac_a6_a_react_covering_one_press_must_name_it() -> None:
    events = table(shot(), shot(), end("rex"))
    at(events).when(react("vex", "block")).rejected(
        match="the block React covers one Press: name one pending against Vex"
    )
    blocked = play([react("vex", "block", press="p2")], start=events)
    vs_p1 = of(at(blocked).when(resolve("vex"), manual=[[5], [10]]).events, ev.AgilityChecked)[0]
    assert vs_p1.total == 7  # no block bonus against p1
    after = play([(resolve("vex"), [5, 10])], start=blocked)
    vs_p2 = of(at(after).when(resolve("vex"), manual=[[5]]).events, ev.AgilityChecked)[0]
    assert vs_p2.total == 12 and vs_p2.result == "dodged"  # 5 + 2 + 5 vs 11


def test_tac_06_a_react_answers_a_press() -> None:
    events = table(end("rex"))
    at(events).when(react("vex", "dodge roll")).rejected(
        match="a React answers a Press, and no Press is pending against Vex"
    )


def test_tac_06_a_react_is_taken_on_ones_own_turn() -> None:
    events = table(shot())
    at(events).when(react("vex", "dodge roll")).rejected(match="it is Rex's turn, not Vex's")


def test_tac_07_nothing_is_done_before_pending_presses_resolve() -> None:
    events = table(shot(), end("rex"))
    at(events).when(shot("vex", "rex")).rejected(
        match="Vex must first resolve the Presses pending against them"
    )
    at(events).when(end("vex")).rejected(
        match=r"Vex must first resolve the Presses pending against them \(p1\)"
    )


def test_tac_07_no_action_on_someone_elses_turn() -> None:
    at(table()).when(shot("vex", "rex")).rejected(
        match="it is Rex's turn, not Vex's: a Press happens on one's own turn"
    )
