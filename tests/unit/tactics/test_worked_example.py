"""The text's worked example, every number (TAC-12, TAC-13, TAC-14), and the options
rule that the Press penalty has no default (TAC-A5)."""

from __future__ import annotations

import msgspec
import pytest

from service.rulesets.tactics import RULESET
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.options import OPTION_NOTES, TacticsOptions
from tests.unit.deciders import line_for
from tests.unit.tactics.fixtures import at, end, of, resolve, shot, state_of, table


def test_tac_12_13_14_pistol_damage_14_precision_13_leaves_5_wounds() -> None:
    """'I'm firing my pistol Damage 14, Precision 13' (TAC-12); Agility +2 rolls 7 = 9,
    fails by 4, 14 + 4 = 18 (TAC-13); soak d20 10 + Endurance 1 + armour 2 = 13,
    18 - 13 = 5 (TAC-14); 5 wounds at 1 wound per point (TAC-A9)."""
    before = table(shot(), end("rex"))
    declared = of(before, ev.PressDeclared)[0]
    assert (declared.damage, declared.precision, declared.penalty) == (14, 13, 0)
    events = at(before).when(resolve("vex"), manual=[[7], [10]]).events
    agility = of(events, ev.AgilityChecked)[0]
    roll = agility.rolls[0]
    assert [d.face for d in roll.dice] == [7]
    assert [(m.label, m.value) for m in roll.modifiers] == [("Agility", 2)]
    assert (agility.total, agility.precision, agility.result) == (9, 13, "failed")
    assert (agility.fail_by, agility.damage) == (4, 18)
    soak = of(events, ev.SoakRolled)[0]
    assert [d.face for d in soak.rolls[0].dice] == [10]
    assert [(m.label, m.value) for m in soak.rolls[0].modifiers] == [
        ("Endurance", 1),
        ("armour", 2),
    ]
    assert (soak.damage, soak.soak, soak.through, soak.wounds) == (18, 13, 5, 5)
    wounded = of(events, ev.Wounded)[0]
    assert (wounded.wounds, wounded.total_after, wounded.status_after) == (5, 5, "active")
    assert of(events, ev.HitResolved) == [ev.HitResolved(press="p1", target="vex", wounds=5)]


def test_tac_12_14_the_worked_example_reads_aloud() -> None:
    before = table(shot(), end("rex"))
    state = state_of(before)
    lines = []
    for event in at(before).when(resolve("vex"), manual=[[7], [10]]).events:
        lines.append(line_for(RULESET, state, event))
        state = RULESET.evolve(state, event)
    assert lines == [
        "Vex rolls 1d20 for Agility against Rex's pistol (Precision 13): d20 [7] +2 Agility = "
        "9 vs 13: fails by 4 (manual), so 14 + 4 = 18 damage",
        "Vex rolls 1d20 for soak against 18 damage: d20 [10] +1 Endurance +2 armour = 13: "
        "5 through (manual) (18 - 13), 5 wounds",
        "Vex takes 5 wounds: 5/20",
        "Vex: Press p1 is resolved (5 wounds)",
    ]


def test_tac_01_the_attacker_never_rolls() -> None:
    """TAC-01: declaring a Press rolls nothing; the defender's two rolls are the only dice."""
    events = table(shot())
    assert all(not getattr(e, "rolls", ()) for e in events)
    resolved = at(table(shot(), end("rex"))).when(resolve("vex"), manual=[[7], [10]]).events
    rolls = [r for e in resolved for r in getattr(e, "rolls", ())]
    assert {r.roller for r in rolls} == {"vex"}
    assert all(r.notation == "1d20" for r in rolls)


def test_tac_14_a_high_soak_negates_the_attack() -> None:
    before = table(shot(), end("rex"))
    events = at(before).when(resolve("vex"), manual=[[8], [20]]).events
    soak = of(events, ev.SoakRolled)[0]
    assert (soak.damage, soak.soak, soak.through, soak.wounds) == (17, 23, 0, 0)
    assert not of(events, ev.Wounded)


def test_tac_a5_an_encounter_without_a_press_penalty_is_refused() -> None:
    with pytest.raises(msgspec.ValidationError, match="TAC-A5: the rules give no size"):
        msgspec.convert({}, TacticsOptions)
    with pytest.raises(msgspec.ValidationError, match="press_penalty_step"):
        msgspec.convert({"shield_mode": "gate"}, TacticsOptions)
    assert msgspec.convert({"press_penalty_step": 2}, TacticsOptions).press_penalty_step == 2


def test_option_notes_document_every_option_with_its_default() -> None:
    fields = set(TacticsOptions.__struct_fields__)
    assert {n.key for n in OPTION_NOTES} == fields
    defaults = TacticsOptions(press_penalty_step=1)
    for note in OPTION_NOTES:
        if note.key != "press_penalty_step":
            assert getattr(defaults, note.key) == note.default, note.key
    assert next(n for n in OPTION_NOTES if n.key == "press_penalty_step").default is None
