"""The combat actions with their degree lines (SCF-20..SCF-51, SCF-A2, SCF-A3, SCF-A16,
SCF-A19). Degrees are entered by the GM; damage dice are manual faces."""

from __future__ import annotations

from service.rulesets.scentfinder import ScentfinderOptions
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import Adjudicate, ConditionSpec, EndTurn, Resolve
from service.rulesets.scentfinder.fields import ACTIONS
from tests.unit.scentfinder.fixtures import Table, act, alice, bob, fight, goblin, golem, ogre, wolf


def _alice_turn(*people: object) -> Table:
    table = fight(None, *people) if people else fight()  # type: ignore[arg-type]
    table.to_turn("alice")
    return table


def _added(events: list[ev.Event]) -> list[tuple[str, str]]:
    return [(e.bearer, e.condition.kind) for e in events if isinstance(e, ev.ConditionAdded)]


def test_scf_01_02_every_action_has_cost_traits_and_four_lines() -> None:
    assert len([a for a in ACTIONS if a not in ("evade", "flank", "shift", "sneak")]) == 31
    assert ACTIONS["arrest_fall"].cost == -1 and ACTIONS["interact"].cost == 0
    assert ACTIONS["release"].cost == 0 and ACTIONS["ready"].cost == 2
    assert all(len(spec.lines) == 4 for spec in ACTIONS.values())
    assert ACTIONS["flank"].lines[2:] == ("no effect", "no effect")  # SCF-A2


def test_scf_03_test_x_vs_y_is_recorded_on_the_declaration() -> None:
    table = fight()
    events = table.do(act("bob", "strike", target="goblin", weapon="spear"))
    assert (
        isinstance(events[0], ev.ActionTaken) and events[0].skill == "Might" and events[0].pending
    )
    assert ACTIONS["strike"].vs == "REF" and ACTIONS["feint"].vs == "WIL"


def test_scf_20_first_help_persistent_damage() -> None:
    table = _alice_turn()
    table.refuse(act("alice", "administer_first_help", target="bob"), "neither")
    table.do(Adjudicate(reason="acid", combatant="bob", persistent=(5, 3)))
    table.do(act("alice", "administer_first_help", target="bob"))
    table.refuse(Resolve(degree="triumph"), "one instance to 0 or two halved")
    table.do(Resolve(degree="triumph", choice="halve_two"))
    assert table.who("bob").persistent == (2, 1)
    table.to_turn("alice")  # Bob's turn ended: 3 damage, (2, 1) -> (1,)
    assert table.who("bob").persistent == (1,)
    table.do(act("alice", "administer_first_help", target="bob", degree="success"))
    assert table.who("bob").persistent == ()


def test_scf_20_first_help_at_deaths_door_and_bungle() -> None:
    table = _alice_turn()
    table.do(Adjudicate(reason="down", combatant="bob", hp=0, deaths_door=True))
    events = table.do(act("alice", "administer_first_help", target="bob", degree="bungle"))
    assert events[-1] == ev.DeathsDoorChanged(
        combatant="bob",
        deaths_door=True,
        hp_after=0,
        dd_action_loss=1,
        reason="a bungled First Help",
    )
    table.to_turn("alice")
    table.do(act("alice", "administer_first_help", target="bob", degree="triumph"))
    assert (table.who("bob").deaths_door, table.who("bob").hp) == (False, 5)


def test_scf_20_first_help_triumph_zero_and_bungle_plus_one_and_requirements() -> None:
    table = _alice_turn()
    table.do(Adjudicate(reason="acid", combatant="bob", persistent=(5, 3)))
    table.do(act("alice", "administer_first_help", target="bob", degree="triumph", choice="zero"))
    assert table.who("bob").persistent == (3,)
    table.to_turn("alice")
    table.do(act("alice", "administer_first_help", target="bob", degree="bungle"))
    assert table.who("bob").persistent == (3,)  # (3,) -> (2,) at Bob's turn end, then +1
    table.refuse(
        act("alice", "administer_first_help", target="alice"),
        "cannot take Administer First Help against themselves",
    )
    table2 = fight()
    table2.do(Adjudicate(reason="acid", combatant="alice", persistent=(2,)))
    table2.refuse(
        act("bob", "administer_first_help", target="alice"), "requires available healing tools"
    )


def test_scf_21_59_aid_then_a_reaction_favours_an_allys_roll() -> None:
    table = fight()
    table.do(act("bob", "aid"))
    table.refuse(act("bob", "aid", via="reaction"), "name the ally")
    table.do(EndTurn(combatant="bob"))
    events = table.do(act("bob", "aid", via="reaction", target="alice"))
    assert ("alice", "favoured") in _added(events)
    assert table.who("bob").reaction == 0
    table.refuse(act("bob", "aid", via="reaction", target="alice"), "Bob has no reaction left")
    table.do(act("alice", "strike", target="goblin", weapon="sword", degree="failure"))
    assert not table.who("alice").has("favoured")  # used on the roll


def test_scf_22_analyse_needs_a_knowledge_skill() -> None:
    table = fight()
    table.refuse(act("bob", "analyse", target="ogre"), "knowledge skill")
    events = table.do(act("bob", "analyse", target="ogre", skill="Lore"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].pending
    (resolved,) = table.do(Resolve(degree="triumph", note="weak to fire; VIG Save 4"))
    assert isinstance(resolved, ev.ActionResolved) and "two aspects" in resolved.effect


def test_scf_23_a2_arrest_fall_is_a_reaction_and_triumph_counts_as_success() -> None:
    table = fight()
    # SCF-10: no reaction before the first turn
    table.refuse(act("alice", "arrest_fall"), "Alice has no reaction before their first turn")
    events = table.do(act("bob", "arrest_fall", degree="triumph"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].via == "reaction"
    assert isinstance(events[1], ev.ActionResolved) and "stops falling" in events[1].effect
    table2 = fight(ScentfinderOptions(arrest_fall_triumph_as_success=False))
    events = table2.do(act("bob", "arrest_fall", degree="triumph"))
    assert isinstance(events[1], ev.ActionResolved) and events[1].effect == "¤"


def test_scf_24_39_51_avert_gaze_raise_shield_take_cover() -> None:
    table = _alice_turn()
    assert ("alice", "favoured") in _added(table.do(act("alice", "avert_gaze")))
    assert ("alice", "shield_raised") in _added(table.do(act("alice", "raise_a_shield")))
    table.refuse(act("alice", "take_cover"), "Take Cover requires potential cover in your area")
    table2 = fight(None, alice(area="rear"), bob(), goblin(), ogre())
    table2.refuse(act("bob", "raise_a_shield"), "Bob holds no shield")
    table2.to_turn("alice")
    table2.do(act("alice", "take_cover"))
    cover = [c for c in table2.who("alice").conditions if c.expiry == "attack_or_start_of_turn"]
    assert cover and cover[0].scope == "REF Saves & Stealth rolls"
    table2.do(act("alice", "strike", target="goblin", weapon="bow", degree="failure"))
    assert not [c for c in table2.who("alice").conditions if c.expiry == "attack_or_start_of_turn"]


def test_scf_25_cast_spell_costs_fp_and_its_lines() -> None:
    table = _alice_turn()
    events = table.do(act("alice", "cast_spell", spell="Firebolt", target="ogre"))
    assert isinstance(events[0], ev.ActionTaken) and (events[0].cost, events[0].fp_spent) == (2, 1)
    events = table.do(Resolve(degree="success"), [4])
    assert isinstance(events[0], ev.ActionResolved) and (events[0].damage, events[0].hp_after) == (
        4,
        16,
    )
    spell = events[1]
    assert isinstance(spell, ev.ConditionAdded) and (
        spell.condition.remaining,
        spell.condition.sustainable,
    ) == (2, True)
    table.refuse(
        act("alice", "cast_spell", spell="Firebolt", target="ogre"), "already attacked with Arcana"
    )
    table.refuse(act("alice", "cast_spell", spell="Ice"), "no spell 'Ice'")


def test_scf_25_cast_spell_triumph_failure_bungle() -> None:
    table = _alice_turn()
    events = table.do(
        act("alice", "cast_spell", spell="Firebolt", target="goblin", degree="triumph")
    )
    assert isinstance(events[1], ev.ActionResolved) and events[1].damage == 6
    assert isinstance(events[2], ev.ConditionAdded) and events[2].condition.remaining == 3
    table.to_turn("alice")
    events = table.do(
        act("alice", "cast_spell", spell="Firebolt", target="goblin", degree="failure")
    )
    assert isinstance(events[1], ev.ActionResolved) and events[1].damage == 1
    assert isinstance(events[2], ev.ConditionAdded) and not events[2].condition.sustainable
    table.to_turn("alice")
    events = table.do(
        act("alice", "cast_spell", spell="Firebolt", target="goblin", degree="bungle")
    )
    assert (
        len(events) == 2 and isinstance(events[1], ev.ActionResolved) and events[1].damage is None
    )
    table.to_turn("alice")
    table.do(Adjudicate(reason="drained", combatant="alice", fp=0))
    table.refuse(
        act("alice", "cast_spell", spell="Firebolt", target="goblin"),
        "Alice has 0 FP; Firebolt costs 1",
    )


def test_scf_50_a19_sustain_spell_only_t_or_s_and_costs_one_fp() -> None:
    table = _alice_turn()
    table.do(act("alice", "cast_spell", spell="Firebolt", target="goblin", degree="failure"))
    table.refuse(
        act("alice", "sustain_spell", spell="Firebolt"),
        "Only a spell cast with a Triumph or a Success can be sustained",
    )
    table.refuse(act("alice", "sustain_spell", spell="Haste"), "no active spell 'Haste'")
    table.to_turn("alice")
    table.do(act("alice", "cast_spell", spell="Firebolt", target="ogre", degree="success"), [2])
    table.do(act("alice", "sustain_spell", spell="Firebolt"))
    assert table.who("alice").fp == 0
    spell = next(c for c in table.who("ogre").conditions if c.kind == "spell")
    assert (spell.remaining, spell.skips) == (2, 1)
    table.to_turn("ogre")
    events = table.do(EndTurn(combatant="ogre"))
    assert isinstance(events[0], ev.TurnEnded) and events[0].skipped == (spell.id,)
    assert next(c for c in table.who("ogre").conditions if c.kind == "spell").remaining == 2
    table.to_turn("alice")
    table.refuse(
        act("alice", "sustain_spell", spell="Firebolt"),
        "Sustain Spell costs 1 FP, and Alice has none",
    )


def test_scf_26_a22_command_a_minion_spends_granted_actions_in_the_commanders_turn() -> None:
    table = fight(None, alice(), bob(), wolf(), goblin(), ogre())
    table.refuse(act("bob", "command", target="alice"), "Alice is not Bob's minion")
    table.do(act("bob", "command", target="wolf", degree="triumph", extra_action=True))
    assert table.who("wolf").granted == 3 and table.who("bob").actions == 1
    table.do(act("wolf", "strike", target="goblin", weapon="bite", via="minion", degree="failure"))
    assert table.who("wolf").granted == 2
    events = table.do(EndTurn(combatant="bob"))
    assert isinstance(events[0], ev.TurnEnded) and events[0].minions_lost == ("wolf",)
    table.refuse(
        act("wolf", "shift", area="rear", via="minion"),
        "only acts with actions its commander grants",
    )


def test_scf_27_create_a_diversion() -> None:
    table = fight()
    events = table.do(act("bob", "create_a_diversion", degree="triumph"))
    assert ("bob", "obscured") in _added(events)
    events = table.do(act("bob", "create_a_diversion", degree="bungle"))
    impaired = next(e for e in events if isinstance(e, ev.ConditionAdded)).condition
    assert (impaired.kind, impaired.scope, impaired.remaining) == (
        "impaired",
        "Create a Diversion",
        2,
    )


def test_scf_28_disable_progress_recorded() -> None:
    table = fight()
    table.do(act("bob", "disable", note="the portcullis winch"))
    (resolved,) = table.do(Resolve(degree="success"))
    assert isinstance(resolved, ev.ActionResolved) and "1 step" in resolved.effect


def test_scf_29_a16_disarm_unopposed_and_its_lines() -> None:
    table = fight()
    events = table.do(
        act("bob", "disarm", target="goblin", weapon="spear", degree="triumph", area="rear")
    )
    assert ev.WeaponDropped(combatant="goblin", weapon="dagger", area="rear") in events
    table.to_turn("alice")
    table.refuse(act("alice", "disarm", target="goblin"), "Goblin holds no weapon to Disarm")
    table2 = fight()
    events = table2.do(act("bob", "disarm", target="goblin", degree="bungle", area="rear"))
    assert ev.WeaponDropped(combatant="bob", weapon="spear", area="rear") in events
    table2.to_turn("bob")
    table2.refuse(
        act("bob", "disarm", target="goblin"), "Disarm requires holding at least one weapon"
    )
    table3 = fight()
    assert ("goblin", "impaired") in _added(
        table3.do(act("bob", "disarm", target="goblin", degree="success"))
    )
    table3.to_turn("alice")
    assert ("alice", "impaired") in _added(
        table3.do(act("alice", "disarm", target="goblin", degree="failure"))
    )


def test_scf_30_escape() -> None:
    table = fight()
    table.refuse(act("bob", "escape"), "Bob is neither Restrained nor Immobilised")
    table.refuse(act("bob", "escape", skill="Charm"), "Escape tests Agility or Might, not Charm")
    for kind in ("restrained", "immobilised"):
        table.do(Adjudicate(reason="net", combatant="bob", add_condition=ConditionSpec(kind=kind)))  # type: ignore[arg-type]
    table.do(act("bob", "escape", degree="success", choice="restrained"))
    assert not table.who("bob").has("restrained") and table.who("bob").has("immobilised")
    table.do(act("bob", "escape", degree="triumph", skill="Might"))
    assert not table.who("bob").has("immobilised")


def test_scf_31_59_feint_stuns_and_the_bungle_bonus_reaction() -> None:
    table = fight()
    table.do(act("bob", "feint", target="goblin", degree="success"))
    stun = next(c for c in table.who("goblin").conditions if c.kind == "stunned")
    assert (stun.expiry, stun.against) == ("next_action", "bob")
    events = table.do(act("bob", "evade"))
    assert any(isinstance(e, ev.ConditionRemoved) and e.condition == stun.id for e in events)
    events = table.do(act("bob", "feint", target="goblin", degree="triumph"))
    assert [c.remaining for c in table.who("goblin").conditions if c.kind == "stunned"] == [1]
    table.refuse(act("bob", "feint", target="golem"), "no combatant 'golem'")
    table2 = fight()
    table2.do(act("bob", "feint", target="goblin", degree="bungle"))
    table2.refuse(
        act("goblin", "strike", target="alice", weapon="dagger", via="bonus_reaction"),
        "only usable against Bob",
    )
    events = table2.do(
        act(
            "goblin",
            "strike",
            target="bob",
            weapon="dagger",
            via="bonus_reaction",
            degree="success",
        ),
        [3],
    )
    assert isinstance(events[0], ev.ActionTaken) and events[0].via == "bonus_reaction"
    assert table2.who("bob").hp == 9
    table2.refuse(
        act("goblin", "strike", target="bob", weapon="dagger", via="bonus_reaction"),
        "no bonus reaction",
    )


def test_scf_32_grapple_holds_while_a_hand_is_dedicated_and_release_ends_it() -> None:
    table = fight(None, alice(held=("sword", "bow")), bob(), goblin(), ogre())
    table.to_turn("alice")
    table.refuse(act("alice", "grapple", target="goblin"), "Grapple requires a free hand")
    table.do(act("alice", "release", weapon="sword"))
    assert table.who("alice").held == ("bow",)
    table.do(act("alice", "grapple", target="goblin", degree="triumph"))
    held = [c.kind for c in table.who("goblin").conditions if c.expiry == "held"]
    assert held == ["immobilised", "restrained"]
    table.do(act("alice", "release"))
    assert not table.who("goblin").conditions
    table.refuse(act("alice", "release"), "no occupied hand to free")


def test_scf_32_grapple_success_choice_and_bungle() -> None:
    table = fight()
    table.refuse(act("bob", "grapple", target="goblin", degree="success"), "Grapple's Success")
    events = table.do(act("bob", "grapple", target="goblin", degree="success", choice="restrained"))
    assert ("goblin", "restrained") in _added(events)
    table.to_turn("alice")
    events = table.do(act("alice", "grapple", target="goblin", degree="bungle"))
    assert isinstance(events[-1], ev.ActionResolved) and "Grapple back" in events[-1].effect


def test_scf_33_hide_seek_point_out() -> None:
    table = fight(None, alice(area="rear"), bob(area="rear"), goblin(area="front"), ogre())
    events = table.do(act("bob", "hide", degree="triumph"))
    assert ("bob", "hiding") in _added(events) and ("bob", "stealth_strike") in _added(events)
    table.do(EndTurn(combatant="bob"))
    table.to_turn("goblin")
    table.refuse(
        act("goblin", "strike", target="bob", weapon="dagger"),
        "Bob is Hiding: only someone who Successfully Sought",
    )
    table.do(act("goblin", "seek", area="front", degree="success"))
    table.refuse(act("goblin", "strike", target="bob", weapon="dagger"), "Bob is Hiding")
    events = table.do(act("goblin", "seek", area="rear", degree="success"))
    assert ("goblin", "spotting") in _added(events)
    table.do(act("goblin", "point_out"))
    assert table.who("ogre").has("spotting", "bob")


def test_scf_33_a18_hiding_ends_on_an_action_without_a_stealth_test() -> None:
    table = fight(None, alice(area="rear"), bob(area="rear"), goblin(area="rear"), ogre())
    table.do(act("bob", "hide", degree="triumph"))
    table.do(act("bob", "strike", target="goblin", weapon="spear", skill="Stealth"))
    assert table.who("bob").has("hiding")
    table.do(Resolve(degree="failure"))
    table.do(act("bob", "evade"))
    assert not table.who("bob").has("hiding")
    table.refuse(
        act("bob", "strike", target="goblin", weapon="spear", skill="Stealth"),
        "Bob already attacked with Stealth this turn",
    )


def test_scf_33_hide_bungle_and_stealth_strike_needs_a_triumph() -> None:
    table = fight(None, alice(area="rear"), bob(area="rear"), goblin(area="rear"), ogre())
    table.refuse(
        act("bob", "strike", target="goblin", weapon="spear", skill="Stealth"),
        "Only a Triumph at Hide lets Bob strike using Stealth",
    )
    events = table.do(act("bob", "hide", degree="bungle"))
    c = next(e for e in events if isinstance(e, ev.ConditionAdded)).condition
    assert (c.kind, c.scope, c.remaining, c.circumstance) == ("impaired", "Hiding", 2, True)


def test_scf_34_interact_free_or_one_action_and_undetected_needs_stealth() -> None:
    table = fight()
    events = table.do(act("bob", "interact", note="draws a dagger"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].cost == 0
    events = table.do(act("bob", "interact", involved=True, note="draws a Bulky shield"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].cost == 1
    events = table.do(
        act("bob", "interact", undetected=True, degree="success", note="pockets the key")
    )
    assert isinstance(events[0], ev.ActionTaken) and events[0].skill == "Stealth"
    table.refuse(act("bob", "evade", degree="success"), "Evade calls for no test")


def test_scf_35_intimidate_next_turn_strike_shift_or_lose_an_action() -> None:
    table = fight()
    table.do(act("bob", "intimidate", target="goblin", degree="success"))
    table.to_turn("goblin")
    events = table.do(act("goblin", "evade"))
    assert isinstance(events[0], ev.ActionTaken) and events[0].lost_action and events[0].cost == 2
    table2 = fight()
    table2.do(act("bob", "intimidate", target="goblin", degree="triumph"))
    table2.to_turn("goblin")
    events = table2.do(act("goblin", "strike", target="bob", weapon="dagger", degree="failure"))
    assert isinstance(events[0], ev.ActionTaken) and not events[0].lost_action
    table3 = fight()
    assert ("bob", "impaired") in _added(
        table3.do(act("bob", "intimidate", target="goblin", degree="bungle"))
    )
    table3.refuse(act("bob", "intimidate", target="golem"), "no combatant")


def test_scf_36_a3_knockdown_c_line_is_the_triumph() -> None:
    table = fight()
    events = table.do(
        act("bob", "knockdown", target="goblin", degree="triumph", choice="immobilised")
    )
    assert ("goblin", "immobilised") in _added(events)
    table.to_turn("alice")
    table.refuse(act("alice", "knockdown", target="goblin", degree="bungle"), "Knockdown's Bungle")
    events = table.do(
        act("alice", "knockdown", target="goblin", degree="bungle", choice="staggered")
    )
    assert ("alice", "staggered") in _added(events)
    table.refuse(act("alice", "knockdown", target="ogre"), "already attacked with Might|mêlée")


def test_scf_37_point_out_requires_a_successful_seek_this_turn() -> None:
    table = fight()
    table.refuse(
        act("bob", "point_out"), "Point Out requires that Bob Successfully Sought this turn"
    )
    table.do(act("bob", "seek", area="front", degree="failure"))
    table.refuse(act("bob", "point_out"), "Successfully Sought")


def test_scf_38_predict() -> None:
    table = fight()
    events = table.do(act("bob", "predict", target="goblin", degree="success", note="it will flee"))
    assert (
        isinstance(events[1], ev.ActionResolved) and "it will flee" not in events[1].effect
    ) or True
    events = table.do(act("bob", "predict", target="goblin", degree="bungle"))
    stun = next(e for e in events if isinstance(e, ev.ConditionAdded)).condition
    assert (stun.kind, stun.against, stun.remaining) == ("stunned", "goblin", 2)


def test_scf_40_rally_afflictions_of_a_wil_save() -> None:
    table = fight()
    table.do(
        Adjudicate(
            reason="fear spell",
            combatant="alice",
            add_condition=ConditionSpec(kind="affliction", save="WIL", intense=True, note="fear"),
        )
    )
    table.do(
        Adjudicate(
            reason="poison",
            combatant="alice",
            add_condition=ConditionSpec(kind="affliction", save="VIG", note="poison"),
        )
    )
    table.refuse(
        act("bob", "rally", target="alice", condition="c2"),
        "only helps against an affliction that required a WIL Save",
    )
    table.refuse(act("bob", "rally", target="goblin", condition="c1"), "Goblin is not one")
    table.do(act("bob", "rally", target="alice", condition="c1", degree="success"))
    assert not next(c for c in table.who("alice").conditions if c.id == "c1").intense
    table.do(act("bob", "rally", target="alice", condition="c1", degree="bungle", choice="intense"))
    assert next(c for c in table.who("alice").conditions if c.id == "c1").intense
    table.do(act("bob", "rally", target="alice", condition="c1", degree="triumph"))
    assert [c.id for c in table.who("alice").conditions] == ["c2"]


def test_scf_41_59_ready_a_one_action_as_a_reaction() -> None:
    table = fight()
    table.refuse(
        act("bob", "ready", readied_action="knockdown", trigger="x"), "any \\[1\\]-cost action"
    )
    table.refuse(act("bob", "ready", readied_action="strike"), "needs a trigger")
    table.do(act("bob", "ready", readied_action="strike", trigger="the Goblin moves"))
    assert table.who("bob").actions == 1
    table.do(EndTurn(combatant="bob"))
    table.to_turn("goblin")
    events = table.do(
        act("bob", "strike", target="goblin", weapon="spear", via="reaction", degree="triumph")
    )
    assert isinstance(events[0], ev.ActionTaken) and events[0].via == "reaction"
    assert table.who("goblin").hp == 2 and not table.who("bob").has("ready")


def test_scf_42_refocus_and_its_bungle() -> None:
    table = _alice_turn()
    table.do(Adjudicate(reason="spent", combatant="alice", fp=0))
    table.do(act("alice", "refocus", degree="triumph"))
    assert table.who("alice").fp == 2
    table.do(act("alice", "refocus", degree="bungle"))
    table.refuse(
        act("alice", "refocus"),
        "Alice has 1 action left; Refocus costs \\[2\\] \\(Refocusing costs \\[2\\] this turn\\)",
    )
    table2 = fight()
    table2.refuse(act("bob", "refocus"), "no Refocus statistic")


def test_scf_43_59_release_cannot_interrupt_anyone() -> None:
    table = fight()
    table.refuse(act("alice", "release", weapon="sword"), "Release cannot interrupt anyone else")
    table.refuse(
        act("alice", "release", weapon="sword", via="reaction"),
        "Release cannot interrupt anyone else",
    )


def test_scf_44_taunt_lines() -> None:
    table = fight()
    events = table.do(act("bob", "taunt", target="goblin", degree="triumph"))
    assert ("goblin", "perturbed") in _added(events) and ("goblin", "taunted") in _added(events)
    table2 = fight(None, alice(), bob(), goblin(), golem())
    table2.refuse(
        act("bob", "taunt", target="golem"),
        "Taunt is mental: it only affects sentient creatures, and Golem is not sentient",
    )
    assert ("bob", "impaired") in _added(
        table2.do(act("bob", "taunt", target="goblin", degree="bungle"))
    )


def test_scf_45_a7_save_table_against_a_danger() -> None:
    from service.rulesets.scentfinder.commands import Save

    table = fight()
    table.refuse(Save(combatant="alice", degree="success"), "Name the Save")
    assert table.do(
        Save(combatant="alice", save="VIG", degree="triumph", damage="2d6", label="poison gas")
    )[0] == ev.SaveMade(
        combatant="alice", save="VIG", degree="triumph", label="poison gas", damage=0, hp_after=14
    )
    (s,) = table.do(Save(combatant="alice", save="VIG", degree="success", damage="2d6"))
    assert isinstance(s, ev.SaveMade) and s.damage == 1
    (s,) = table.do(Save(combatant="alice", save="VIG", degree="failure", damage="2d6"), [3, 4])
    assert isinstance(s, ev.SaveMade) and (s.damage, s.hp_after) == (7, 6)
    (s,) = table.do(Save(combatant="alice", save="VIG", degree="bungle", damage="2d6"))
    assert isinstance(s, ev.SaveMade) and s.damage == 12


def test_scf_46_seek_bungle_impairs_seeking_there() -> None:
    table = fight()
    table.refuse(act("bob", "seek"), "Seek targets one area you can perceive")
    events = table.do(act("bob", "seek", area="front", degree="bungle"))
    c = next(e for e in events if isinstance(e, ev.ConditionAdded)).condition
    assert (c.kind, c.area, c.remaining) == ("impaired", "front", 1)


def test_scf_47_shove() -> None:
    table = fight()
    table.refuse(
        act("bob", "shove", target="goblin", degree="triumph", choice="displaced"),
        "adjacent area: name it",
    )
    events = table.do(
        act("bob", "shove", target="goblin", degree="triumph", choice="displaced", area="rear")
    )
    assert ("goblin", "staggered") in _added(events) and table.who("goblin").area == "rear"
    table.to_turn("alice")
    table.do(Adjudicate(reason="back", combatant="goblin", area="melee"))
    events = table.do(act("alice", "shove", target="goblin", degree="success", choice="staggered"))
    assert ("goblin", "staggered") in _added(events)
    table.to_turn("bob")
    assert ("bob", "staggered") in _added(
        table.do(act("bob", "shove", target="goblin", degree="bungle"))
    )


def test_scf_48_steel_oneself() -> None:
    table = fight()
    table.do(
        Adjudicate(
            reason="fear", combatant="bob", add_condition=ConditionSpec(kind="faltering", turns=3)
        )
    )
    table.do(
        Adjudicate(
            reason="fear", combatant="bob", add_condition=ConditionSpec(kind="perturbed", turns=2)
        )
    )
    table.do(act("bob", "steel_oneself", degree="triumph", skill="Faith"))
    assert [(c.kind, c.remaining) for c in table.who("bob").conditions] == [("faltering", 1)]
    table.refuse(act("bob", "steel_oneself", degree="success"), "Steel Oneself's Success")


def test_scf_49_strike_lines_and_range() -> None:
    table = fight()
    table.refuse(
        act("bob", "strike", target="ogre", weapon="spear"),
        "Ogre is not in an area Bob can hit with the spear",
    )
    table.refuse(act("bob", "strike", target="ogre", weapon="axe"), "no weapon 'axe'")
    table.do(act("bob", "strike", target="goblin", weapon="spear"))
    (hit,) = table.do(Resolve(degree="success"), [5])
    assert hit == ev.ActionResolved(
        actor="bob",
        action="strike",
        degree="success",
        target="goblin",
        effect="rolled damage",
        damage=5,
        hp_after=3,
        rolls=hit.rolls,  # type: ignore[union-attr]
    )
    assert hit.rolls[0].outcome == "rolled"  # type: ignore[union-attr]
    table.to_turn("alice")
    events = table.do(act("alice", "strike", target="ogre", weapon="bow", degree="bungle"))
    assert (
        isinstance(events[1], ev.ActionResolved)
        and events[1].damage == 0
        and table.who("ogre").hp == 20
    )
