"""Movement actions and terrain (SCF-12..SCF-19, SCF-A5, SCF-A6, SCF-A8, SCF-A13,
SCF-A14)."""

from __future__ import annotations

from service.rulesets.scentfinder import ScentfinderOptions
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import Adjudicate, ConditionSpec, EndTurn, Resolve, Save
from service.rulesets.scentfinder.rules import staggered_by_terrain
from tests.unit.deciders import line_for
from tests.unit.scentfinder.fixtures import act, alice, bob, fight, goblin, ogre


def test_scf_12_a5_evade_lasts_until_the_evaders_next_turn() -> None:
    table = fight()
    table.do(act("bob", "evade"))
    table.do(EndTurn(combatant="bob"))
    assert table.who("bob").has("evaded")  # still there when enemies act
    table.to_turn("bob")
    assert not table.who("bob").has("evaded")


def test_scf_a5_evade_counted_in_turns_when_the_option_is_off() -> None:
    table = fight(ScentfinderOptions(evade_until_next_turn=False))
    table.do(act("bob", "evade"))
    table.do(EndTurn(combatant="bob"))
    assert not table.who("bob").has("evaded")


def test_scf_12_a6_evade_taxes_enemies_melee_actions_and_melee_weapon_strikes() -> None:
    table = fight()
    table.to_turn("goblin")
    table.do(act("goblin", "evade"))
    table.to_turn("bob")
    events = table.do(act("bob", "knockdown", target="goblin"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].cost == 3
    assert events[0].surcharges == ("Goblin is Evading",)
    table.do(Resolve(degree="failure"))
    table.refuse(act("bob", "evade"), "Bob has 0 actions left; Evade costs \\[1\\]")
    table.to_turn("alice")
    events = table.do(act("alice", "strike", target="goblin", weapon="sword"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].cost == 2


def test_scf_12_evade_does_not_tax_allies() -> None:
    table = fight()
    table.do(act("bob", "evade"))
    table.do(EndTurn(combatant="bob"))
    table.do(Adjudicate(reason="acid", combatant="bob", persistent=(2,)))
    events = table.do(act("alice", "administer_first_help", target="bob"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].cost == 2


def test_scf_54_reach_ignores_evade() -> None:
    table = fight()
    table.to_turn("goblin")
    table.do(act("goblin", "evade"))
    table.to_turn("bob")
    events = table.do(act("bob", "strike", target="goblin", weapon="spear"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].cost == 1


def test_scf_a6_strikes_are_not_taxed_when_the_option_is_off() -> None:
    table = fight(ScentfinderOptions(evade_taxes_melee_weapon_strikes=False))
    table.to_turn("goblin")
    table.do(act("goblin", "evade"))
    table.to_turn("alice")
    events = table.do(act("alice", "strike", target="goblin", weapon="sword"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].cost == 1


def test_scf_13_flank_needs_an_ally_and_favours_attacks_on_the_target() -> None:
    table = fight()
    events = table.do(act("bob", "flank", target="goblin", degree="triumph"))
    added = events[-1]
    assert isinstance(added, ev.ConditionAdded)
    c = added.condition
    assert (c.kind, c.against, c.remaining, c.circumstance, c.note) == (
        "favoured",
        "goblin",
        1,
        True,
        "ignores 1 Impairment",
    )
    events = table.do(act("bob", "flank", target="goblin", degree="success"))
    assert isinstance(events[-1], ev.ConditionAdded) and events[-1].condition.note is None
    events = table.do(act("bob", "flank", target="goblin", degree="failure"))
    assert not any(isinstance(e, ev.ConditionAdded) for e in events)  # SCF-A2: silent line


def test_scf_13_flank_refused_without_an_ally_in_the_area() -> None:
    table = fight()
    table.do(act("bob", "shift", area="rear"))
    table.do(EndTurn(combatant="bob"))
    table.refuse(
        act("alice", "flank", target="goblin"),
        "Flank requires sharing an area with at least one ally",
    )


def test_scf_14_shift_to_an_adjacent_area_only() -> None:
    table = fight()
    events = table.do(act("bob", "shift", area="rear"))
    assert ev.Moved(combatant="bob", from_area="melee", to_area="rear", reason="Shift") in events
    table.refuse(act("bob", "shift", area="front"), "the Front is not adjacent to the Rear")
    table.refuse(act("bob", "shift"), "name it")


def test_scf_15_sneak_requires_hiding_and_its_four_lines() -> None:
    table = fight()
    table.refuse(act("bob", "sneak", area="rear"), "Sneak requires Hiding, and Bob is not Hiding")
    table.refuse(
        act("bob", "hide", degree="success"), "Hide requires some potential cover or obscurement"
    )


def test_scf_15_sneak_lines() -> None:
    table = fight(None, alice(area="rear"), bob(area="rear"), goblin(), ogre())
    table.do(act("bob", "hide", degree="success"))
    events = table.do(act("bob", "sneak", area="melee", degree="triumph"))
    assert table.who("bob").area == "melee" and table.who("bob").has("hiding")
    assert any(isinstance(e, ev.ConditionAdded) and e.condition.kind == "favoured" for e in events)
    table.do(act("bob", "sneak", area="rear", degree="success"))
    assert table.who("bob").area == "rear" and table.who("bob").has("hiding")
    table.do(EndTurn(combatant="bob"))
    table.to_turn("bob")
    table.refuse(
        act("bob", "sneak", area="melee", degree="failure"), "lose the movement or stop Hiding"
    )
    table.do(act("bob", "sneak", area="melee", degree="failure", choice="lose_movement"))
    assert table.who("bob").area == "rear" and table.who("bob").has("hiding")


def test_scf_15_sneak_failure_stop_hiding_and_bungle() -> None:
    table = fight(None, alice(area="rear"), bob(area="rear"), goblin(), ogre())
    table.do(act("bob", "hide", degree="success"))
    table.do(act("bob", "sneak", area="melee", degree="failure", choice="stop_hiding"))
    assert table.who("bob").area == "melee" and not table.who("bob").has("hiding")
    table.do(EndTurn(combatant="bob"))
    table.do(act("alice", "hide", degree="success"))
    table.do(act("alice", "sneak", area="melee", degree="bungle"))
    assert table.who("alice").area == "melee" and not table.who("alice").has("hiding")


def test_scf_16_a13_difficult_terrain_costs_one_more_action_once() -> None:
    table = fight()
    events = table.do(act("bob", "shift", area="mud"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].cost == 2
    assert events[0].surcharges == ("difficult terrain",)
    table.refuse(
        act("bob", "shift", area="melee"),
        "Bob has 1 action left; Shift costs \\[2\\] \\(difficult terrain\\)",
    )
    table.refuse(act("bob", "evade"), "Evade costs \\[2\\]")


def test_scf_17_a8_a14_hazardous_terrain_save_halves_or_ignores_the_die() -> None:
    table = fight()
    events = table.do(act("bob", "shift", area="lava"))
    assert events[-1] == ev.HazardTriggered(combatant="bob", area="lava", save="REF", die="1d6")
    table.refuse(
        act("bob", "evade"), "Bob must first Save against the hazardous terrain of the Lava"
    )
    table.refuse(EndTurn(combatant="bob"), "must first Save")
    table.refuse(Save(combatant="bob", degree="success", save="WIL"), "calls for a REF Save")
    (saved,) = table.do(Save(combatant="bob", degree="success"), [5])
    assert isinstance(saved, ev.SaveMade) and (saved.damage, saved.hp_after) == (2, 10)
    table.do(act("bob", "evade"))  # a move inside: another Save
    (saved,) = table.do(Save(combatant="bob", degree="triumph"))
    assert isinstance(saved, ev.SaveMade) and saved.damage == 0 and saved.rolls == ()
    table.do(act("bob", "shift", area="melee"))  # leaving: one more
    (saved,) = table.do(Save(combatant="bob", degree="failure"), [4])
    assert isinstance(saved, ev.SaveMade) and (saved.damage, saved.hp_after) == (4, 6)


def test_scf_a8_hazard_bungle_maximises_the_die() -> None:
    table = fight()
    table.do(act("bob", "shift", area="lava"))
    (saved,) = table.do(Save(combatant="bob", degree="bungle"))
    assert isinstance(saved, ev.SaveMade) and saved.damage == 6


def test_scf_18_obstacle_only_shift_inside_and_shifting_through_needs_the_skill() -> None:
    table = fight()
    table.do(act("bob", "shift", area="beams"))
    table.do(Resolve(degree="failure"))
    assert table.who("bob").area == "melee"  # SCF-A13: the Shift does not happen
    assert table.who("bob").actions == 2
    events = table.do(act("bob", "shift", area="beams"))
    assert (
        isinstance(events[0], ev.ActionTaken) and events[0].skill == "Agility" and events[0].pending
    )
    table.do(Resolve(degree="success"))
    assert table.who("bob").area == "beams"
    table.refuse(act("bob", "evade"), "Shift is the only move action inside an obstacle area")
    table.do(act("bob", "shift", area="front", degree="triumph"))
    assert table.who("bob").area == "front"


def test_scf_19_uneven_terrain_staggers_whoever_stands_there() -> None:
    table = fight(None, alice(), bob(area="rear"), goblin(), ogre())
    table.do(act("bob", "shift", area="rubble"))
    assert staggered_by_terrain(table.state, table.who("bob"))
    table.do(act("bob", "shift", area="rear"))
    assert not staggered_by_terrain(table.state, table.who("bob"))


def test_scf_44_a_taunted_creature_cannot_move_away() -> None:
    table = fight()
    table.do(
        Adjudicate(
            reason="taunt",
            combatant="bob",
            add_condition=ConditionSpec(kind="taunted", turns=1, against="goblin"),
        )
    )
    table.refuse(
        act("bob", "shift", area="rear"), "Bob is Taunted by Goblin and cannot move away from them"
    )


def test_scf_18_a_modified_obstacle_is_announced() -> None:
    from service.rulesets.scentfinder import RULESET
    from service.rulesets.scentfinder.commands import DefineArea
    from service.rulesets.scentfinder.state import Obstacle

    table = fight()
    table.do(
        DefineArea(
            id="torrent",
            name="the Torrent",
            adjacent=("melee",),
            obstacle=Obstacle(skill="Might", modifier="impaired"),
        )
    )
    before = table.state
    (taken,) = table.do(act("bob", "shift", area="torrent"))
    assert line_for(RULESET, before, taken) == (
        "Bob uses Shift into the Torrent (Might, Impaired), spending 1 action."
    )
