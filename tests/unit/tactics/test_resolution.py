"""Declared now, resolved later (TAC-07, TAC-A8), the Agility check's outcomes
(TAC-10, TAC-A4), wounds (TAC-15, TAC-16, TAC-A9, TAC-A10), shields (TAC-17, TAC-A1,
TAC-A2) and pending Presses of fallen creatures (TAC-A11)."""

from __future__ import annotations

from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.options import TacticsOptions
from tests.unit.tactics.fixtures import (
    OPTS,
    ZONES,
    at,
    end,
    fighter,
    of,
    play,
    resolve,
    ruling,
    shot,
    state_of,
    table,
)


def test_tac_07_a_press_stays_pending_and_visible_until_the_defenders_turn() -> None:
    events = table(shot(), shot())
    pending = state_of(events).pending
    assert [(p.id, p.attacker, p.damage, p.precision) for p in pending] == [
        ("p1", "rex", 14, 13),
        ("p2", "rex", 14, 11),
    ]
    assert not of(events, ev.Wounded)
    started = of(table(shot(), shot(), end("rex")), ev.TurnStarted)[-1]
    assert started.pending == ("p1", "p2")


def test_tac_07_tac_a8_pending_presses_resolve_in_declaration_order() -> None:
    events = table(shot(weapon="knife"), shot(), end("rex"))
    first = of(at(events).when(resolve("vex"), manual=[[20]]).events, ev.AgilityChecked)[0]
    assert first.press == "p1"
    events = play([(resolve("vex"), [20])], start=events)
    second = of(at(events).when(resolve("vex"), manual=[[20]]).events, ev.AgilityChecked)[0]
    assert second.press == "p2"
    events = play([(resolve("vex"), [20])], start=events)
    at(events).when(resolve("vex")).rejected(match="no Press is pending against Vex")


def test_tac_a8_turns_follow_the_gms_list_and_wrap_into_a_new_round() -> None:
    events = table(end("rex"), end("vex"))
    assert [e.round for e in of(events, ev.RoundStarted)] == [1, 2]
    assert [e.combatant for e in of(events, ev.TurnStarted)] == ["rex", "vex", "rex"]
    at(play(list(ZONES))).when(cmd.StartCombat()).rejected(
        match="the GM sets the turn order before combat starts"
    )


def test_tac_a8_the_dead_take_no_turn() -> None:
    events = play(
        [
            *ZONES,
            fighter("rex"),
            fighter("vex"),
            fighter("ann"),
            cmd.SetTurnOrder(order=("rex", "vex", "ann")),
            cmd.StartCombat(),
            ruling(cmd.SetStatus(combatant="vex", status="dead")),
            end("rex"),
        ]
    )
    assert of(events, ev.TurnStarted)[-1].combatant == "ann"


def test_tac_10_a_high_enough_roll_avoids_the_attack() -> None:
    events = at(table(shot(), end("rex"))).when(resolve("vex"), manual=[[11]]).events
    agility = of(events, ev.AgilityChecked)[0]
    assert (agility.total, agility.result, agility.damage) == (13, "dodged", 0)
    assert of(events, ev.HitResolved)[0].wounds == 0


def test_tac_a4_a_tie_goes_to_the_attacker_when_chosen() -> None:
    options = TacticsOptions(press_penalty_step=2, dodge_tie="attacker")
    events = (
        at(table(shot(), end("rex"), options=options), options)
        .when(resolve("vex"), manual=[[11], [1]])
        .events
    )
    agility = of(events, ev.AgilityChecked)[0]
    assert (agility.result, agility.fail_by, agility.damage) == ("failed", 0, 14)


def test_tac_a4_the_graze_band_takes_base_damage() -> None:
    options = TacticsOptions(press_penalty_step=2, graze_band_width=2)
    before = table(shot(), end("rex"), options=options)
    agility = of(
        at(before, options).when(resolve("vex"), manual=[[9], [1]]).events, ev.AgilityChecked
    )[0]
    assert (agility.result, agility.fail_by, agility.damage) == ("grazed", 2, 14)
    poor = of(
        at(before, options).when(resolve("vex"), manual=[[8], [1]]).events, ev.AgilityChecked
    )[0]
    assert (poor.result, poor.damage) == ("failed", 17)


def test_tac_a9_tougher_creatures_take_fewer_wounds() -> None:
    events = (
        at(table(shot(), end("rex"), vex={"toughness": 2}))
        .when(resolve("vex"), manual=[[7], [10]])
        .events
    )
    soak = of(events, ev.SoakRolled)[0]
    assert (soak.through, soak.wounds) == (5, 2)


def test_tac_16_tac_a10_twenty_wounds_from_one_source_kill() -> None:
    events = table(
        ruling(cmd.InflictWounds(combatant="vex", wounds=18, source="rex")), shot(), end("rex")
    )
    out = at(events).when(resolve("vex"), manual=[[7], [10]]).events
    wounded = of(out, ev.Wounded)[0]
    assert (wounded.total_after, wounded.status_after) == (20, "dead")


def test_tac_a10_twenty_wounds_all_in_this_scene_kill_too() -> None:
    events = table(
        ruling(cmd.InflictWounds(combatant="vex", wounds=18, source="a fall")), shot(), end("rex")
    )
    wounded = of(at(events).when(resolve("vex"), manual=[[7], [10]]).events, ev.Wounded)[0]
    assert wounded.status_after == "dead"


def test_tac_16_tac_a10_mixed_sources_over_two_scenes_incapacitate() -> None:
    events = table(
        ruling(cmd.InflictWounds(combatant="vex", wounds=18, source="a fall")),
        ruling(cmd.NewScene()),
        shot(),
        end("rex"),
    )
    wounded = of(at(events).when(resolve("vex"), manual=[[7], [10]]).events, ev.Wounded)[0]
    assert (wounded.total_after, wounded.status_after) == (20, "incapacitated")


def test_tac_a10_same_source_only_ignores_the_scene() -> None:
    options = TacticsOptions(press_penalty_step=2, death_rule="same_source_only")
    events = table(
        ruling(cmd.InflictWounds(combatant="vex", wounds=18, source="a fall")),
        shot(),
        end("rex"),
        options=options,
    )
    wounded = of(at(events, options).when(resolve("vex"), manual=[[7], [10]]).events, ev.Wounded)[0]
    assert wounded.status_after == "incapacitated"


def test_tac_16_any_wound_while_incapacitated_kills() -> None:
    events = table(
        ruling(cmd.SetStatus(combatant="vex", status="incapacitated")), shot(), end("rex")
    )
    assert of(events, ev.TurnStarted)[-1].actions == 0  # incapacitated: no actions
    wounded = of(at(events).when(resolve("vex"), manual=[[7], [10]]).events, ev.Wounded)[0]
    assert wounded.status_after == "dead"


def test_tac_15_wounds_are_capped_at_the_limit() -> None:
    events = table(ruling(cmd.InflictWounds(combatant="vex", wounds=30, source="a fall")))
    assert state_of(events).combatants["vex"].wound_total == 20


def test_tac_16_the_incapacitated_cannot_act() -> None:
    events = table(ruling(cmd.SetStatus(combatant="rex", status="incapacitated")))
    at(events).when(shot()).rejected(match="Rex is incapacitated and cannot act")


def test_tac_17_tac_a1_gate_mode_a_shielded_hit_is_wholly_negated() -> None:
    events = (
        at(table(shot(), end("rex"), vex={"shields": 2}))
        .when(resolve("vex"), manual=[[7], [10]])
        .events
    )
    spent = of(events, ev.ShieldsSpent)[0]
    assert (spent.spent, spent.negated, spent.shields_after) == (2, 5, 0)
    assert not of(events, ev.Wounded)


def test_tac_a1_per_point_mode_lets_the_rest_through() -> None:
    options = TacticsOptions(press_penalty_step=2, shield_mode="per_point")
    before = table(shot(), end("rex"), vex={"shields": 2}, options=options)
    events = at(before, options).when(resolve("vex"), manual=[[7], [10]]).events
    spent = of(events, ev.ShieldsSpent)[0]
    assert (spent.spent, spent.negated, spent.shields_after) == (2, 2, 0)
    assert of(events, ev.Wounded)[0].wounds == 3


def test_tac_a2_shields_regenerate_one_a_turn_while_shielded() -> None:
    events = table(
        ruling(cmd.SetValue(combatant="vex", field="shields", value=1)),
        end("rex"),
        vex={"shields": 3},
    )
    started = of(events, ev.TurnStarted)[-1]
    assert (started.shields_before, started.shields_after, started.cooldown_needed) == (1, 2, False)


def test_tac_a2_from_empty_a_cool_down_check_restarts_regeneration() -> None:
    events = table(
        ruling(cmd.SetValue(combatant="vex", field="shields", value=0)),
        end("rex"),
        vex={"shields": 3},
    )
    started = of(events, ev.TurnStarted)[-1]
    assert (started.shields_after, started.cooldown_needed) == (0, True)
    failed = play([cmd.CooldownCheck(combatant="vex", passed=False)], start=events)
    assert state_of(failed).combatants["vex"].shields == 0
    at(failed).when(cmd.CooldownCheck(combatant="vex", passed=True)).rejected(
        match="Vex already tried a cool-down check this turn"
    )
    passed = play([cmd.CooldownCheck(combatant="vex", passed=True)], start=events)
    assert state_of(passed).combatants["vex"].shields == 1
    later = play([end("vex")], start=passed)
    assert of(later, ev.TurnStarted)[-1].combatant == "rex"
    later = play([end("rex")], start=later)
    assert of(later, ev.TurnStarted)[-1].shields_after == 2


def test_tac_a2_cool_down_is_for_the_unshielded_on_their_turn() -> None:
    events = table(end("rex"), vex={"shields": 3})
    at(events).when(cmd.CooldownCheck(combatant="vex", passed=True)).rejected(
        match="Vex is still shielded: shields regenerate on their own"
    )
    at(events).when(cmd.CooldownCheck(combatant="rex", passed=True)).rejected(
        match="it is Vex's turn, not Rex's"
    )
    at(table()).when(cmd.CooldownCheck(combatant="rex", passed=True)).rejected(
        match="Rex has no shields"
    )


def test_tac_a11_a_fallen_attackers_presses_still_resolve() -> None:
    # Rex dies from outside a Press before Vex's resolution (a GM ruling)
    events = table(
        shot(),
        ruling(cmd.InflictWounds(combatant="rex", wounds=20, source="reactor leak")),
        end("rex"),
    )
    out = at(events).when(resolve("vex"), manual=[[7], [10]]).events
    assert of(out, ev.Wounded)[0].wounds == 5


def test_tac_a11_attacker_out_void_option() -> None:
    options = TacticsOptions(press_penalty_step=2, attacker_out="void")
    events = table(
        shot(),
        ruling(cmd.InflictWounds(combatant="rex", wounds=20, source="leak")),
        end("rex"),
        options=options,
    )
    voided = of(events, ev.HitVoided)
    assert voided and voided[0].press == "p1"
    assert not state_of(events, options).pending


def test_tac_a11_presses_against_the_dead_are_void() -> None:
    events = table(
        shot(), shot(), ruling(cmd.InflictWounds(combatant="vex", wounds=20, source="leak"))
    )
    assert [(v.press, v.why) for v in of(events, ev.HitVoided)] == [
        ("p1", "Vex is dead"),
        ("p2", "Vex is dead"),
    ]
    at(events).when(shot()).rejected(match="Vex is dead")


def test_tac_a11_a_kill_voids_the_victims_later_presses() -> None:
    events = table(
        ruling(cmd.InflictWounds(combatant="vex", wounds=18, source="rex")),
        shot(),
        shot(),
        end("rex"),
    )
    out = at(events).when(resolve("vex"), manual=[[7], [10]]).events
    assert of(out, ev.Wounded)[0].status_after == "dead"
    assert [v.press for v in of(out, ev.HitVoided)] == ["p2"]


def test_options_are_required_for_every_table() -> None:
    assert OPTS.press_penalty_step == 2


def test_tac_a2_the_cool_down_check_comes_at_the_start_of_the_turn() -> None:
    events = table(
        ruling(cmd.SetValue(combatant="vex", field="shields", value=0)),
        end("rex"),
        cmd.TakeManeuver(combatant="vex", maneuver="aim"),
        vex={"shields": 3},
    )
    at(events).when(cmd.CooldownCheck(combatant="vex", passed=True)).rejected(
        match="the cool-down check comes at the start of Vex's turn, before any roll or action"
    )
