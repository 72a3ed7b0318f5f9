"""What the log says of a resolved Press against shields and of a full soak (TAC-14,
TAC-17), who is offered a React (TAC-06, TAC-16), a GM check during the React choice
(TAC-06, TAC-A14), and the shields a ruling may set (TAC-17)."""

from __future__ import annotations

from collections.abc import Sequence

from service.rulesets.tactics import RULESET
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.options import TacticsOptions
from tests.unit.deciders import log_lines
from tests.unit.tactics.fixtures import OPTS, at, end, of, resolve, shot, table


def lines(
    before: Sequence[ev.Event], new: Sequence[ev.Event], options: TacticsOptions = OPTS
) -> list[str]:
    return log_lines(RULESET, before, new, options)


def ruling(r: cmd.Ruling) -> cmd.Adjudicate:
    return cmd.Adjudicate(ruling=r, reason="the GM says so")


def test_tac_17_a_press_wholly_absorbed_by_shields_says_so() -> None:
    before = table(shot(), end("rex"), vex={"shields": 2})
    new = at(before).when(resolve("vex"), manual=[[7], [10]]).events
    assert of(new, ev.HitResolved) == [
        ev.HitResolved(press="p1", target="vex", wounds=5, absorbed=5)
    ]
    assert lines(before, new)[-1] == (
        "Vex: Press p1 is resolved (5 wounds: the shields absorb all, none taken)"
    )


def test_tac_a1_per_point_shields_say_what_they_absorbed_and_what_was_taken() -> None:
    options = TacticsOptions(press_penalty_step=2, shield_mode="per_point")
    before = table(shot(), end("rex"), vex={"shields": 2}, options=options)
    new = at(before, options).when(resolve("vex"), manual=[[7], [10]]).events
    assert of(new, ev.HitResolved)[0].absorbed == 2
    assert lines(before, new, options)[-1] == (
        "Vex: Press p1 is resolved (5 wounds: the shields absorb 2, 3 taken)"
    )


def test_tac_14_a_full_soak_reads_as_such_without_a_negative_difference() -> None:
    before = table(shot(), end("rex"))
    new = at(before).when(resolve("vex"), manual=[[7], [20]]).events
    soak, resolved = lines(before, new)[1:]
    assert soak.endswith("= 23: all absorbed (manual), no wounds")
    assert "-" not in soak.split("=")[-1]
    assert resolved == "Vex: Press p1 is resolved (no wounds)"


def test_tac_14_wounds_through_soak_show_the_difference() -> None:
    before = table(shot(), end("rex"))
    new = at(before).when(resolve("vex"), manual=[[7], [10]]).events
    said = lines(before, new)
    assert said[1].endswith("(18 - 13), 5 wounds")
    assert said[-1] == "Vex: Press p1 is resolved (5 wounds)"


def test_tac_16_a_creature_that_cannot_act_is_not_offered_a_react() -> None:
    before = table(shot(), ruling(cmd.SetStatus(combatant="vex", status="incapacitated")))
    new = at(before).when(end("rex")).events
    started = of(new, ev.TurnStarted)[0]
    assert (started.actions, started.pending) == (0, ("p1",))
    assert lines(before, new)[-1] == (
        "Vex's turn (0 actions). Pending against them: p1 (Rex's pistol, Damage 14, "
        "Precision 13); they cannot act, so no React"
    )
    after = [*before, *new]
    at(after).when(cmd.React(combatant="vex", maneuver="dodge roll")).rejected(
        match="^Vex is incapacitated and cannot act, so has no React to take$"
    )
    # Its Presses go straight to resolution: the soak is rolled, no Agility (TAC-16).
    assert of(at(after).when(resolve("vex"), manual=[[7], [10]]).events, ev.Wounded)


def test_tac_06_an_active_defender_is_still_asked_react_or_not() -> None:
    before = table(shot())
    line = lines(before, at(before).when(end("rex")).events)[-1]
    assert line.endswith("React or not?")


def test_tac_06_a_check_during_the_react_choice_is_not_the_defenders_answer() -> None:
    before = table(shot(), end("rex"))
    check = cmd.Check(combatant="vex", attribute="acumen", target=12, label="Acumen vs fear")
    new = at(before).when(check, manual=[[15]]).events
    assert of(new, ev.CheckRolled)[0].react_open
    assert lines(before, new)[0].endswith(
        "This check is not Vex's answer to the pending Presses: the React choice is still open"
    )
    # The window is still open: Vex may React after it.
    after = [*before, *new]
    at(after).when(cmd.React(combatant="vex", maneuver="dodge roll")).events


def test_tac_a14_a_check_outside_the_react_choice_says_nothing_of_it() -> None:
    before = table()
    check = cmd.Check(combatant="vex", attribute="acumen", target=12, label="Acumen vs fear")
    new = at(before).when(check, manual=[[15]]).events
    assert not of(new, ev.CheckRolled)[0].react_open
    assert "answer" not in lines(before, new)[0]


def test_tac_17_set_value_above_the_maximum_shields_is_refused_as_at_most() -> None:
    before = table(vex={"shields": 3})
    set_to = ruling(cmd.SetValue(combatant="vex", field="shields", value=4))
    violation = (
        at(before)
        .when(set_to)
        .rejected(match="^Vex's shields are at most 3, their maximum shields score$")
    )
    assert violation.rule == "TAC-17"
    at(before).when(ruling(cmd.SetValue(combatant="vex", field="shields", value=-1))).rejected(
        match="^Vex's shields are at least 0$"
    )
    at(before).when(ruling(cmd.SetValue(combatant="vex", field="max_shields", value=2))).rejected(
        match="lower shields to at most 2 first"
    )
