"""GM adjudication (recorded with its reason), attributes (TAC-08, TAC-09, TAC-11,
TAC-A3, TAC-A14), the table's setup refusals and who may issue what."""

from __future__ import annotations

from service.rulesets.tactics import RULESET
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from tests.unit.deciders import line_for
from tests.unit.tactics.fixtures import ZONES, at, end, fighter, of, play, shot, state_of, table


def ruling(r: cmd.Ruling, reason: str = "the GM says so") -> cmd.Adjudicate:
    return cmd.Adjudicate(ruling=r, reason=reason)


def test_tac_08_tac_09_four_attributes_stored_acumen_without_rules() -> None:
    events = play([*ZONES, fighter("rex", precision=1, endurance=2, agility=3, acumen=4)])
    rex = state_of(events).combatants["rex"]
    assert (rex.precision, rex.endurance, rex.agility, rex.acumen) == (1, 2, 3, 4)


def test_tac_08_tac_10_precision_attribute_adds_to_the_press() -> None:
    events = table(shot(), rex={"precision": 2})
    assert of(events, ev.PressDeclared)[0].precision == 15


def test_tac_08_attributes_can_be_modified_up_or_down_by_the_gm() -> None:
    events = table(ruling(cmd.SetValue(combatant="rex", field="endurance", value=3), "stim pack"))
    assert of(events, ev.ValueSet)[0] == ev.ValueSet(
        combatant="rex", field="endurance", value=3, previous=1, reason="stim pack"
    )
    assert state_of(events).combatants["rex"].endurance == 3
    at(events).when(ruling(cmd.SetValue(combatant="rex", field="endurance", value=3))).rejected(
        match="Rex's endurance is already 3"
    )


def test_tac_a14_acumen_rolls_are_gm_checks() -> None:
    check = cmd.Check(
        combatant="vex", attribute="acumen", target=12, label="Acumen against the bluff"
    )
    out = at(table(vex={"acumen": 3})).when(check, manual=[[9]]).events
    rolled = of(out, ev.CheckRolled)[0]
    assert (rolled.rolls[0].total, rolled.rolls[0].outcome) == (12, "success")
    assert RULESET.acts_for(state_of(table()), check) is None


def test_gm_rulings_are_recorded_with_their_reason() -> None:
    events = table(
        ruling(
            cmd.GrantBonus(combatant="rex", stat="soak", amount=1, label="bulkhead"), "he braces"
        ),
        ruling(cmd.SetStatus(combatant="vex", status="incapacitated"), "knocked out by the blast"),
        ruling(cmd.NewScene(), "the ship jumps"),
    )
    assert of(events, ev.BonusGranted)[0].reason == "he braces"
    assert of(events, ev.StatusSet)[0].previous == "active"
    assert state_of(events).scene == 2
    state = state_of(events)
    assert (
        line_for(RULESET, state, of(events, ev.SceneStarted)[0])
        == "GM ruling: scene 2 begins (the ship jumps)"
    )


def test_gm_voids_a_pending_press() -> None:
    events = table(shot(), ruling(cmd.VoidPress(press="p1"), "the pistol jams"))
    assert of(events, ev.HitVoided) == [
        ev.HitVoided(press="p1", target="vex", why="the pistol jams")
    ]
    assert state_of(events).pending == ()
    at(events).when(ruling(cmd.VoidPress(press="p1"))).rejected(match="no Press 'p1' is pending")


def test_a_ruling_needs_a_reason() -> None:
    at(table()).when(ruling(cmd.NewScene(), "  ")).rejected(match="a ruling needs a reason")


def test_setup_refusals() -> None:
    events = play(list(ZONES))
    at(events).when(fighter("rex", zone="moon")).rejected(match="there is no zone 'moon'")
    events = play([fighter("rex")], start=events)
    at(events).when(fighter("rex")).rejected(
        match="a creature with id 'rex' is already in the encounter"
    )
    at(events).when(cmd.SetTurnOrder(order=("rex", "rex"))).rejected(
        match="Rex appears twice in the turn order"
    )
    at(events).when(cmd.AddZone(id="deck")).rejected(match="zone 'deck' already exists")
    at(events).when(cmd.AddZone(id="x", links=("nowhere",))).rejected(match="no such zone yet")
    at(events).when(shot()).rejected(match="combat has not started")
    at(events).when(cmd.PlaceCombatant(combatant="rex", zone="deck")).rejected(
        match="Rex is already in deck"
    )


def test_removing_a_creature_drops_its_pending_hits() -> None:
    events = table(fighter("ann"), shot(target="ann"), cmd.RemoveCombatant(id="ann"))
    assert of(events, ev.CombatantRemoved)[0].voided == ("p1",)
    assert state_of(events).pending == ()
    at(events).when(cmd.RemoveCombatant(id="rex")).rejected(
        match="it is Rex's turn: end it before removing them"
    )


def test_the_encounter_ends_and_only_rulings_follow() -> None:
    events = table(cmd.EndEncounter())
    at(events).when(end("rex")).rejected(
        match="the encounter has ended; only GM rulings can change it now"
    )
    assert of(play([ruling(cmd.NewScene(), "epilogue")], start=events), ev.SceneStarted)


def test_players_act_from_their_sheet_everything_else_is_the_gms() -> None:
    state = state_of(table())
    for command in (
        shot(),
        cmd.TakeManeuver(combatant="rex", maneuver="aim"),
        cmd.React(combatant="rex", maneuver="dodge roll"),
        cmd.Resolve(combatant="rex"),
        end("rex"),
    ):
        assert RULESET.acts_for(state, command) == frozenset({"rex"})
    for gm in (
        fighter("ann"),
        cmd.CooldownCheck(combatant="rex", passed=True),
        cmd.StartCombat(),
        ruling(cmd.NewScene()),
        cmd.PlaceCombatant(combatant="rex", zone="hall"),
    ):
        assert RULESET.acts_for(state, gm) is None


def test_gm_heals_wounds_latest_first() -> None:
    events = table(
        ruling(cmd.InflictWounds(combatant="vex", wounds=4, source="fall")),
        ruling(cmd.InflictWounds(combatant="vex", wounds=3, source="fire")),
        ruling(cmd.HealWounds(combatant="vex", wounds=5), "medi-gel"),
    )
    vex = state_of(events).combatants["vex"]
    assert [(w.source, w.amount) for w in vex.wounds] == [("fall", 2)]
    assert of(events, ev.WoundsHealed)[0].total_after == 2
    at(table()).when(ruling(cmd.HealWounds(combatant="rex", wounds=1))).rejected(
        match="Rex has no wounds"
    )
